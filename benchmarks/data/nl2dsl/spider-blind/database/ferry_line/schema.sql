PRAGMA foreign_keys = ON;

CREATE TABLE Port (
  Port_ID INTEGER PRIMARY KEY,
  Port_Name TEXT NOT NULL,
  Region TEXT,
  Country TEXT,
  Berths INTEGER,
  Opened_Year INTEGER
);
CREATE TABLE Vessel (
  Vessel_ID INTEGER PRIMARY KEY,
  Vessel_Name TEXT NOT NULL,
  Vessel_Type TEXT,
  Built_Year INTEGER,
  Passenger_Capacity INTEGER,
  Car_Capacity INTEGER,
  Home_Port_ID INTEGER,
  FOREIGN KEY (Home_Port_ID) REFERENCES Port(Port_ID)
);
CREATE TABLE Sailing (
  Sailing_ID INTEGER PRIMARY KEY,
  Vessel_ID INTEGER,
  Departure_Port_ID INTEGER,
  Arrival_Port_ID INTEGER,
  Departure_Date DATE,
  Duration_Minutes INTEGER,
  Passengers INTEGER,
  Fare REAL,
  FOREIGN KEY (Vessel_ID) REFERENCES Vessel(Vessel_ID),
  FOREIGN KEY (Departure_Port_ID) REFERENCES Port(Port_ID),
  FOREIGN KEY (Arrival_Port_ID) REFERENCES Port(Port_ID)
);

INSERT INTO Port (Port_ID, Port_Name, Region, Country, Berths, Opened_Year) VALUES (1, 'Piraeus', 'Attica', 'Greece', 24, 1835);
INSERT INTO Port (Port_ID, Port_Name, Region, Country, Berths, Opened_Year) VALUES (2, 'Heraklion', 'Crete', 'Greece', 12, 1922);
INSERT INTO Port (Port_ID, Port_Name, Region, Country, Berths, Opened_Year) VALUES (3, 'Rhodes', 'Dodecanese', 'Greece', 9, 1950);
INSERT INTO Port (Port_ID, Port_Name, Region, Country, Berths, Opened_Year) VALUES (4, 'Mykonos', 'Cyclades', 'Greece', 6, 1972);
INSERT INTO Port (Port_ID, Port_Name, Region, Country, Berths, Opened_Year) VALUES (5, 'Santorini', 'Cyclades', 'Greece', 4, 1968);
INSERT INTO Port (Port_ID, Port_Name, Region, Country, Berths, Opened_Year) VALUES (6, 'Naxos', 'Cyclades', 'Greece', 5, 1979);
INSERT INTO Port (Port_ID, Port_Name, Region, Country, Berths, Opened_Year) VALUES (7, 'Paros', 'Cyclades', 'Greece', 5, 1981);
INSERT INTO Port (Port_ID, Port_Name, Region, Country, Berths, Opened_Year) VALUES (8, 'Patras', 'Western Greece', 'Greece', 14, 1899);
INSERT INTO Port (Port_ID, Port_Name, Region, Country, Berths, Opened_Year) VALUES (9, 'Igoumenitsa', 'Epirus', 'Greece', 8, 1960);
INSERT INTO Port (Port_ID, Port_Name, Region, Country, Berths, Opened_Year) VALUES (10, 'Bari', 'Apulia', 'Italy', 16, 1911);
INSERT INTO Port (Port_ID, Port_Name, Region, Country, Berths, Opened_Year) VALUES (11, 'Brindisi', 'Apulia', 'Italy', 10, 1904);
INSERT INTO Port (Port_ID, Port_Name, Region, Country, Berths, Opened_Year) VALUES (12, 'Ancona', 'Marche', 'Italy', 13, 1880);
INSERT INTO Port (Port_ID, Port_Name, Region, Country, Berths, Opened_Year) VALUES (13, 'Split', 'Dalmatia', 'Croatia', 11, 1926);
INSERT INTO Port (Port_ID, Port_Name, Region, Country, Berths, Opened_Year) VALUES (14, 'Dubrovnik', 'Dalmatia', 'Croatia', 7, 1958);

INSERT INTO Vessel (Vessel_ID, Vessel_Name, Vessel_Type, Built_Year, Passenger_Capacity, Car_Capacity, Home_Port_ID) VALUES (1, 'Aegean Spirit', 'Conventional', 2001, 1800, 420, 1);
INSERT INTO Vessel (Vessel_ID, Vessel_Name, Vessel_Type, Built_Year, Passenger_Capacity, Car_Capacity, Home_Port_ID) VALUES (2, 'Ionian Star', 'Conventional', 1998, 1600, 380, 8);
INSERT INTO Vessel (Vessel_ID, Vessel_Name, Vessel_Type, Built_Year, Passenger_Capacity, Car_Capacity, Home_Port_ID) VALUES (3, 'Poseidon Express', 'High-speed', 2012, 900, 160, 1);
INSERT INTO Vessel (Vessel_ID, Vessel_Name, Vessel_Type, Built_Year, Passenger_Capacity, Car_Capacity, Home_Port_ID) VALUES (4, 'Cyclades Runner', 'Catamaran', 2016, 750, 140, 4);
INSERT INTO Vessel (Vessel_ID, Vessel_Name, Vessel_Type, Built_Year, Passenger_Capacity, Car_Capacity, Home_Port_ID) VALUES (5, 'Adriatic Queen', 'Conventional', 2005, 2100, 600, 10);
INSERT INTO Vessel (Vessel_ID, Vessel_Name, Vessel_Type, Built_Year, Passenger_Capacity, Car_Capacity, Home_Port_ID) VALUES (6, 'Sea Breeze', 'Catamaran', 2019, 680, 110, 6);
INSERT INTO Vessel (Vessel_ID, Vessel_Name, Vessel_Type, Built_Year, Passenger_Capacity, Car_Capacity, Home_Port_ID) VALUES (7, 'Mediterranean Pearl', 'Conventional', 1994, 1400, 350, 12);
INSERT INTO Vessel (Vessel_ID, Vessel_Name, Vessel_Type, Built_Year, Passenger_Capacity, Car_Capacity, Home_Port_ID) VALUES (8, 'Olympic Champion', 'Conventional', 2000, 1850, 450, 8);
INSERT INTO Vessel (Vessel_ID, Vessel_Name, Vessel_Type, Built_Year, Passenger_Capacity, Car_Capacity, Home_Port_ID) VALUES (9, 'Dolphin Jet', 'High-speed', 2010, 450, 0, 7);
INSERT INTO Vessel (Vessel_ID, Vessel_Name, Vessel_Type, Built_Year, Passenger_Capacity, Car_Capacity, Home_Port_ID) VALUES (10, 'Coral Wind', 'Catamaran', 2021, 820, 170, 2);
INSERT INTO Vessel (Vessel_ID, Vessel_Name, Vessel_Type, Built_Year, Passenger_Capacity, Car_Capacity, Home_Port_ID) VALUES (11, 'Santorini Sun', 'High-speed', 2014, 560, 60, 5);
INSERT INTO Vessel (Vessel_ID, Vessel_Name, Vessel_Type, Built_Year, Passenger_Capacity, Car_Capacity, Home_Port_ID) VALUES (12, 'Dalmatian Voyager', 'Conventional', 2003, 1200, 300, 13);
INSERT INTO Vessel (Vessel_ID, Vessel_Name, Vessel_Type, Built_Year, Passenger_Capacity, Car_Capacity, Home_Port_ID) VALUES (13, 'Artemis', 'Catamaran', 2018, 700, 120, 3);
INSERT INTO Vessel (Vessel_ID, Vessel_Name, Vessel_Type, Built_Year, Passenger_Capacity, Car_Capacity, Home_Port_ID) VALUES (14, 'Island Hopper', 'High-speed', 2008, 400, 0, 1);
INSERT INTO Vessel (Vessel_ID, Vessel_Name, Vessel_Type, Built_Year, Passenger_Capacity, Car_Capacity, Home_Port_ID) VALUES (15, 'Nissos Kefalonia', 'Conventional', 1991, 1100, 250, 8);
INSERT INTO Vessel (Vessel_ID, Vessel_Name, Vessel_Type, Built_Year, Passenger_Capacity, Car_Capacity, Home_Port_ID) VALUES (16, 'Blue Horizon', 'Catamaran', 2023, 640, 100, 10);

INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (1, 8, 8, 10, '2024-05-18', 952, 1763, 94.0);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (2, 12, 13, 14, '2024-05-18', 261, 559, 35.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (3, 5, 9, 11, '2024-05-20', 477, 940, 69.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (4, 12, 13, 12, '2024-05-21', 674, 976, 80.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (5, 3, 4, 1, '2024-05-24', 168, 553, 54.2);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (6, 10, 2, 1, '2024-05-24', 536, 728, 48.0);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (7, 11, 5, 1, '2024-05-24', 303, 240, 71.75);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (8, 5, 11, 9, '2024-06-07', 465, 1951, 72.0);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (9, 2, 10, 8, '2024-06-10', 977, 946, 94.0);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (10, 5, 11, 9, '2024-06-18', 500, 976, 69.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (11, 13, 1, 3, '2024-06-22', 908, 507, 62.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (12, 14, 1, 6, '2024-07-02', 206, 217, 54.48);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (13, 9, 7, 4, '2024-07-03', 36, 243, 25.93);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (14, 2, 10, 8, '2024-07-04', 968, 1237, 91.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (15, 3, 1, 4, '2024-07-04', 195, 543, 59.2);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (16, 6, 6, 7, '2024-07-04', 52, 291, 14.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (17, 14, 1, 6, '2024-07-05', 199, 142, 54.48);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (18, 1, 1, 4, '2024-07-06', 318, 1390, 42.0);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (19, 7, 13, 12, '2024-07-10', 649, 1139, 83.0);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (20, 8, 8, 10, '2024-07-12', 960, 1494, 91.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (21, 11, 5, 1, '2024-07-13', 277, 274, 71.75);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (22, 9, 7, 4, '2024-07-16', 55, 312, 25.93);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (23, 11, 4, 5, '2024-07-16', 75, 312, 35.3);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (24, 6, 6, 7, '2024-07-20', 32, 552, 9.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (25, 1, 1, 2, '2024-07-23', 541, 1128, 45.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (26, 12, 13, 14, '2024-07-23', 278, 742, 30.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (27, 11, 4, 5, '2024-07-25', 88, 386, 37.8);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (28, 5, 9, 11, '2024-07-31', 475, 1062, 69.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (29, 7, 13, 12, '2024-08-04', 646, 523, 75.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (30, 7, 8, 12, '2024-08-06', 1263, 719, 107.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (31, 3, 1, 6, '2024-08-08', 216, 688, 54.48);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (32, 5, 11, 9, '2024-08-09', 486, 1792, 77.0);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (33, 5, 9, 11, '2024-08-09', 478, 1442, 77.0);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (34, 13, 3, 2, '2024-08-10', 620, 332, 41.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (35, 12, 12, 13, '2024-08-11', 648, 1072, 80.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (36, 13, 3, 2, '2024-08-12', 607, 422, 46.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (37, 7, 8, 12, '2024-08-16', 1250, 920, 110.0);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (38, 12, 13, 14, '2024-08-16', 259, 707, 30.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (39, 13, 1, 3, '2024-08-16', 898, 633, 65.0);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (40, 5, 11, 9, '2024-08-19', 468, 1789, 77.0);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (41, 10, 2, 1, '2024-08-23', 545, 544, 45.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (42, 13, 1, 3, '2024-08-23', 888, 511, 62.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (43, 7, 12, 13, '2024-08-24', 653, 1325, 80.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (44, 11, 1, 5, '2024-08-25', 285, 278, 76.75);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (45, 10, 2, 1, '2024-08-28', 541, 694, 50.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (46, 1, 1, 2, '2024-08-29', 560, 861, 48.0);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (47, 3, 4, 1, '2024-09-01', 194, 851, 61.7);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (48, 4, 4, 5, '2024-09-06', 128, 552, 30.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (49, 11, 1, 5, '2024-09-12', 288, 468, 76.75);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (50, 6, 6, 7, '2024-09-18', 65, 464, 9.5);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (51, 13, 3, 2, '2024-09-24', 600, 368, 44.0);
INSERT INTO Sailing (Sailing_ID, Vessel_ID, Departure_Port_ID, Arrival_Port_ID, Departure_Date, Duration_Minutes, Passengers, Fare) VALUES (52, 6, 6, 7, '2024-09-25', 42, 382, 9.5);
