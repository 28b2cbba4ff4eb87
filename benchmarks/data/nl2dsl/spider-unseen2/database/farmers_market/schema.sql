PRAGMA foreign_keys = ON;
BEGIN TRANSACTION;
CREATE TABLE vendor (
  vendor_id INTEGER PRIMARY KEY,
  vendor_name TEXT,
  owner_name TEXT,
  product_category TEXT,
  home_county TEXT,
  founded_year INTEGER
);
CREATE TABLE Market_Day (
  Market_Day_ID INTEGER PRIMARY KEY,
  Market_Date TEXT,
  Location TEXT,
  Weather TEXT,
  Visitor_Count INTEGER
);
CREATE TABLE Stall_Booking (
  booking_id INTEGER PRIMARY KEY,
  vendor_id INTEGER,
  Market_Day_ID INTEGER,
  stall_number INTEGER,
  stall_fee REAL,
  sales_amount REAL,
  FOREIGN KEY (vendor_id) REFERENCES vendor(vendor_id),
  FOREIGN KEY (Market_Day_ID) REFERENCES Market_Day(Market_Day_ID)
);
INSERT INTO vendor VALUES (1, 'Hillside Honey', 'Martha Green', 'Honey', 'Dorset', 2004);
INSERT INTO vendor VALUES (2, 'Orchard Lane Apples', 'Peter Cobb', 'Fruit', 'Somerset', 2001);
INSERT INTO vendor VALUES (3, 'Wild Acre Greens', 'Sunita Rao', 'Vegetables', 'Devon', 2009);
INSERT INTO vendor VALUES (4, 'Old Mill Bakery', 'Gregor Klein', 'Bread', 'Somerset', 2016);
INSERT INTO vendor VALUES (5, 'Brookside Dairy', 'Fiona Blake', 'Cheese', 'Somerset', 1986);
INSERT INTO vendor VALUES (6, 'Red Barn Eggs', 'Tomasz Wojcik', 'Eggs', 'Dorset', 1998);
INSERT INTO vendor VALUES (7, 'Sunny Slope Berries', 'Alice Turner', 'Fruit', 'Dorset', 1985);
INSERT INTO vendor VALUES (8, 'Stonewall Sourdough', 'Harriet Pike', 'Bread', 'Devon', 2012);
INSERT INTO vendor VALUES (9, 'Meadow Herb Co', 'Jamal Reed', 'Herbs', 'Wiltshire', 1986);
INSERT INTO vendor VALUES (10, 'Copper Kettle Jams', 'Beatrice Lowe', 'Preserves', 'Somerset', 2004);
INSERT INTO vendor VALUES (11, 'Greenfold Farm', 'Dylan Price', 'Vegetables', 'Devon', 2000);
INSERT INTO vendor VALUES (12, 'Little Goat Creamery', 'Nina Ivers', 'Cheese', 'Devon', 2016);
INSERT INTO vendor VALUES (13, 'Hollow Tree Mushrooms', 'Oskar Lund', 'Vegetables', 'Wiltshire', 2004);
INSERT INTO vendor VALUES (14, 'Riverbend Flowers', 'Esme Hart', 'Flowers', 'Wiltshire', 2001);
INSERT INTO vendor VALUES (15, 'Thistle Cider', 'Angus Muir', 'Drinks', 'Wiltshire', 2017);
INSERT INTO vendor VALUES (16, 'Bramble Preserves', 'Colette Dumas', 'Preserves', 'Devon', 2005);
INSERT INTO vendor VALUES (17, 'Pepperpot Farm', 'Ricardo Lopes', 'Vegetables', 'Dorset', 2016);
INSERT INTO vendor VALUES (18, 'Hearth Pies', 'Imogen Vale', 'Bread', 'Dorset', 1985);
INSERT INTO Market_Day VALUES (1, '2024-04-06', 'Station Car Park', 'Rainy', 2033);
INSERT INTO Market_Day VALUES (2, '2024-04-13', 'Riverside Park', 'Sunny', 1009);
INSERT INTO Market_Day VALUES (3, '2024-04-20', 'Station Car Park', 'Cloudy', 958);
INSERT INTO Market_Day VALUES (4, '2024-04-27', 'Station Car Park', 'Cloudy', 1221);
INSERT INTO Market_Day VALUES (5, '2024-05-04', 'Station Car Park', 'Sunny', 405);
INSERT INTO Market_Day VALUES (6, '2024-05-11', 'Riverside Park', 'Rainy', 630);
INSERT INTO Market_Day VALUES (7, '2024-05-18', 'Riverside Park', 'Windy', 2447);
INSERT INTO Market_Day VALUES (8, '2024-05-25', 'Riverside Park', 'Sunny', 1864);
INSERT INTO Market_Day VALUES (9, '2024-06-01', 'Station Car Park', 'Cloudy', 1778);
INSERT INTO Market_Day VALUES (10, '2024-06-08', 'Riverside Park', 'Rainy', 1454);
INSERT INTO Market_Day VALUES (11, '2024-06-15', 'Station Car Park', 'Windy', 2018);
INSERT INTO Market_Day VALUES (12, '2024-06-22', 'Station Car Park', 'Windy', 1304);
INSERT INTO Market_Day VALUES (13, '2024-06-29', 'Riverside Park', 'Cloudy', 1994);
INSERT INTO Market_Day VALUES (14, '2024-07-06', 'Riverside Park', 'Cloudy', 1562);
INSERT INTO Market_Day VALUES (15, '2024-07-13', 'Station Car Park', 'Windy', 720);
INSERT INTO Market_Day VALUES (16, '2024-07-20', 'Station Car Park', 'Windy', 1000);
INSERT INTO Market_Day VALUES (17, '2024-07-27', 'Riverside Park', 'Sunny', 2370);
INSERT INTO Market_Day VALUES (18, '2024-08-03', 'Town Square', 'Rainy', 976);
INSERT INTO Market_Day VALUES (19, '2024-08-10', 'Riverside Park', 'Sunny', 1330);
INSERT INTO Market_Day VALUES (20, '2024-08-17', 'Riverside Park', 'Windy', 2381);
INSERT INTO Stall_Booking VALUES (1, 15, 1, 22, 40.0, 50.64);
INSERT INTO Stall_Booking VALUES (2, 15, 1, 10, 15.0, 868.59);
INSERT INTO Stall_Booking VALUES (3, 8, 2, 11, 40.0, 825.26);
INSERT INTO Stall_Booking VALUES (4, 13, 10, 30, 25.0, 393.29);
INSERT INTO Stall_Booking VALUES (5, 7, 6, 5, 30.0, 705.91);
INSERT INTO Stall_Booking VALUES (6, 3, 5, 14, 20.0, 675.6);
INSERT INTO Stall_Booking VALUES (7, 8, 12, 8, 25.0, 204.92);
INSERT INTO Stall_Booking VALUES (8, 8, 6, 14, 15.0, 825.05);
INSERT INTO Stall_Booking VALUES (9, 4, 12, 21, 30.0, 305.16);
INSERT INTO Stall_Booking VALUES (10, 7, 18, 18, 20.0, 541.34);
INSERT INTO Stall_Booking VALUES (11, 8, 7, 15, 40.0, 945.52);
INSERT INTO Stall_Booking VALUES (12, 4, 6, 12, 30.0, 421.78);
INSERT INTO Stall_Booking VALUES (13, 13, 13, 1, 20.0, 492.06);
INSERT INTO Stall_Booking VALUES (14, 6, 16, 24, 15.0, 893.09);
INSERT INTO Stall_Booking VALUES (15, 3, 10, 30, 25.0, 737.06);
INSERT INTO Stall_Booking VALUES (16, 4, 18, 15, 30.0, 659.78);
INSERT INTO Stall_Booking VALUES (17, 4, 17, 17, 25.0, 456.5);
INSERT INTO Stall_Booking VALUES (18, 3, 4, 29, 20.0, 52.18);
INSERT INTO Stall_Booking VALUES (19, 4, 9, 12, 15.0, 454.47);
INSERT INTO Stall_Booking VALUES (20, 6, 15, 11, 20.0, 889.24);
INSERT INTO Stall_Booking VALUES (21, 1, 16, 6, 40.0, 916.47);
INSERT INTO Stall_Booking VALUES (22, 13, 13, 15, 25.0, 354.72);
INSERT INTO Stall_Booking VALUES (23, 13, 11, 6, 20.0, 712.28);
INSERT INTO Stall_Booking VALUES (24, 4, 5, 12, 15.0, 547.92);
INSERT INTO Stall_Booking VALUES (25, 1, 2, 5, 25.0, 445.93);
INSERT INTO Stall_Booking VALUES (26, 3, 2, 22, 20.0, 632.34);
INSERT INTO Stall_Booking VALUES (27, 12, 14, 25, 25.0, 63.52);
INSERT INTO Stall_Booking VALUES (28, 7, 11, 16, 25.0, 91.87);
INSERT INTO Stall_Booking VALUES (29, 12, 13, 29, 25.0, 293.89);
INSERT INTO Stall_Booking VALUES (30, 4, 15, 29, 40.0, 474.21);
INSERT INTO Stall_Booking VALUES (31, 10, 9, 21, 40.0, 390.91);
INSERT INTO Stall_Booking VALUES (32, 1, 16, 4, 20.0, 135.27);
INSERT INTO Stall_Booking VALUES (33, 1, 11, 28, 20.0, 101.39);
INSERT INTO Stall_Booking VALUES (34, 6, 17, 23, 30.0, 133.38);
INSERT INTO Stall_Booking VALUES (35, 3, 6, 19, 20.0, 399.24);
INSERT INTO Stall_Booking VALUES (36, 11, 13, 12, 40.0, 468.61);
INSERT INTO Stall_Booking VALUES (37, 6, 5, 8, 25.0, 105.87);
INSERT INTO Stall_Booking VALUES (38, 13, 9, 5, 40.0, 355.98);
INSERT INTO Stall_Booking VALUES (39, 11, 8, 4, 30.0, 643.61);
INSERT INTO Stall_Booking VALUES (40, 15, 9, 9, 40.0, 288.92);
INSERT INTO Stall_Booking VALUES (41, 9, 12, 14, 30.0, 101.95);
INSERT INTO Stall_Booking VALUES (42, 10, 17, 6, 15.0, 691.14);
INSERT INTO Stall_Booking VALUES (43, 5, 4, 3, 40.0, 579.98);
INSERT INTO Stall_Booking VALUES (44, 3, 13, 30, 40.0, 662.79);
INSERT INTO Stall_Booking VALUES (45, 15, 5, 6, 20.0, 43.71);
INSERT INTO Stall_Booking VALUES (46, 6, 10, 22, 25.0, 979.96);
INSERT INTO Stall_Booking VALUES (47, 2, 1, 21, 20.0, 534.27);
INSERT INTO Stall_Booking VALUES (48, 5, 8, 27, 30.0, 480.23);
INSERT INTO Stall_Booking VALUES (49, 13, 13, 16, 30.0, 617.99);
INSERT INTO Stall_Booking VALUES (50, 3, 2, 3, 20.0, 602.66);
INSERT INTO Stall_Booking VALUES (51, 8, 13, 2, 25.0, 364.59);
INSERT INTO Stall_Booking VALUES (52, 1, 10, 17, 25.0, 139.12);
INSERT INTO Stall_Booking VALUES (53, 11, 3, 1, 20.0, 464.27);
INSERT INTO Stall_Booking VALUES (54, 3, 8, 25, 20.0, 771.78);
INSERT INTO Stall_Booking VALUES (55, 12, 11, 14, 40.0, 140.94);
INSERT INTO Stall_Booking VALUES (56, 4, 1, 13, 25.0, 758.34);
INSERT INTO Stall_Booking VALUES (57, 11, 9, 21, 15.0, 732.93);
INSERT INTO Stall_Booking VALUES (58, 13, 18, 27, 15.0, 473.72);
INSERT INTO Stall_Booking VALUES (59, 5, 16, 17, 15.0, 246.78);
INSERT INTO Stall_Booking VALUES (60, 3, 17, 11, 20.0, 514.35);
COMMIT;
