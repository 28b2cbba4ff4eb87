PRAGMA foreign_keys = ON;
BEGIN TRANSACTION;
CREATE TABLE customers (
  customer_id INTEGER PRIMARY KEY,
  first_name TEXT,
  last_name TEXT,
  city TEXT,
  phone TEXT,
  signup_date TEXT
);
CREATE TABLE Mechanic (
  Mechanic_ID INTEGER PRIMARY KEY,
  Name TEXT,
  Years_Experience INTEGER,
  Hourly_Rate REAL,
  Specialty TEXT
);
CREATE TABLE repair_orders (
  order_id INTEGER PRIMARY KEY,
  customer_id INTEGER,
  Mechanic_ID INTEGER,
  bike_brand TEXT,
  bike_type TEXT,
  drop_off_date TEXT,
  cost REAL,
  status TEXT,
  FOREIGN KEY (customer_id) REFERENCES customers(customer_id),
  FOREIGN KEY (Mechanic_ID) REFERENCES Mechanic(Mechanic_ID)
);
INSERT INTO customers VALUES (1, 'Anna', 'Fisher', 'Utrecht', '06-28289526', '2022-02-09');
INSERT INTO customers VALUES (2, 'Paul', 'Novak', 'Haarlem', '06-41332677', '2022-12-09');
INSERT INTO customers VALUES (3, 'Lucy', 'Barnes', 'Delft', '06-66419922', '2023-07-18');
INSERT INTO customers VALUES (4, 'Mark', 'Keller', 'Utrecht', '06-90251286', '2019-02-08');
INSERT INTO customers VALUES (5, 'Irene', 'Hughes', 'Delft', '06-14048955', '2021-07-01');
INSERT INTO customers VALUES (6, 'Dev', 'Patel', 'Haarlem', '06-66439787', '2021-01-19');
INSERT INTO customers VALUES (7, 'Chloe', 'Moreau', 'Delft', '06-58980872', '2023-10-25');
INSERT INTO customers VALUES (8, 'Sam', 'Reid', 'Haarlem', '06-37069751', '2023-12-27');
INSERT INTO customers VALUES (9, 'Nora', 'Larsen', 'Haarlem', '06-23448044', '2018-07-31');
INSERT INTO customers VALUES (10, 'Victor', 'Alvarez', 'Haarlem', '06-99614390', '2018-01-17');
INSERT INTO customers VALUES (11, 'Emma', 'Stone', 'Utrecht', '06-90885534', '2018-06-07');
INSERT INTO customers VALUES (12, 'Hugo', 'Ferreira', 'Haarlem', '06-39316838', '2021-11-28');
INSERT INTO customers VALUES (13, 'Zoe', 'Quinn', 'Leiden', '06-33006491', '2022-09-30');
INSERT INTO customers VALUES (14, 'Alan', 'Baker', 'Utrecht', '06-43380123', '2018-05-27');
INSERT INTO customers VALUES (15, 'Mia', 'Rossi', 'Leiden', '06-56613551', '2022-08-10');
INSERT INTO customers VALUES (16, 'Oscar', 'Nilsson', 'Delft', '06-80729142', '2021-07-18');
INSERT INTO customers VALUES (17, 'Leah', 'Cohen', 'Utrecht', '06-47524520', '2023-05-25');
INSERT INTO customers VALUES (18, 'Pete', 'Walsh', 'Leiden', '06-77412140', '2022-09-03');
INSERT INTO customers VALUES (19, 'Tara', 'Singh', 'Utrecht', '06-23657463', '2019-08-31');
INSERT INTO customers VALUES (20, 'Yusuf', 'Demir', 'Delft', '06-56551341', '2021-01-11');
INSERT INTO customers VALUES (21, 'Grace', 'Hall', 'Delft', '06-95126214', '2019-04-27');
INSERT INTO customers VALUES (22, 'Igor', 'Popov', 'Utrecht', '06-58295387', '2020-01-14');
INSERT INTO Mechanic VALUES (1, 'Rik de Vries', 14, 38.5, 'Road');
INSERT INTO Mechanic VALUES (2, 'Sanne Bakker', 6, 29.0, 'Electric');
INSERT INTO Mechanic VALUES (3, 'Joost Smit', 22, 45.0, 'Suspension');
INSERT INTO Mechanic VALUES (4, 'Lotte Mulder', 3, 24.5, 'City');
INSERT INTO Mechanic VALUES (5, 'Bram Visser', 9, 33.0, 'Electric');
INSERT INTO Mechanic VALUES (6, 'Eva Jansen', 11, 35.5, 'Road');
INSERT INTO Mechanic VALUES (7, 'Daan Hoek', 1, 21.0, 'City');
INSERT INTO Mechanic VALUES (8, 'Femke Dekker', 7, 31.0, 'Suspension');
INSERT INTO Mechanic VALUES (9, 'Hamza El Idrissi', 4, 26.5, 'Electric');
INSERT INTO Mechanic VALUES (10, 'Kees Brouwer', 17, 41.0, 'Road');
INSERT INTO Mechanic VALUES (11, 'Noor Vermeulen', 5, 27.5, 'City');
INSERT INTO Mechanic VALUES (12, 'Ruben Kok', 12, 36.0, 'Cargo');
INSERT INTO Mechanic VALUES (13, 'Wout Peters', 8, 32.5, 'Cargo');
INSERT INTO Mechanic VALUES (14, 'Yara Bos', 2, 22.5, 'Electric');
INSERT INTO Mechanic VALUES (15, 'Thijs van Dam', 10, 34.0, 'Road');
INSERT INTO repair_orders VALUES (1, 13, NULL, 'Gazelle', 'City', '2024-04-04', 228.45, 'Waiting for Parts');
INSERT INTO repair_orders VALUES (2, 11, 5, 'Gazelle', 'Electric', '2024-08-24', 160.0, 'Completed');
INSERT INTO repair_orders VALUES (3, 10, 1, 'Trek', 'Mountain', '2024-02-06', 398.45, 'Completed');
INSERT INTO repair_orders VALUES (4, 15, 8, 'Cortina', 'Cargo', '2024-11-24', 184.5, 'Completed');
INSERT INTO repair_orders VALUES (5, 4, 2, 'Gazelle', 'City', '2023-02-16', 81.0, 'Completed');
INSERT INTO repair_orders VALUES (6, 4, 5, 'Specialized', 'Road', '2023-04-30', 152.75, 'In Progress');
INSERT INTO repair_orders VALUES (7, 15, 3, 'Batavus', 'City', '2024-03-24', 325.4, 'In Progress');
INSERT INTO repair_orders VALUES (8, 11, 9, 'Gazelle', 'Cargo', '2024-12-18', 24.2, 'Completed');
INSERT INTO repair_orders VALUES (9, 12, 1, 'Specialized', 'Electric', '2023-08-18', 56.1, 'Completed');
INSERT INTO repair_orders VALUES (10, 18, NULL, 'Specialized', 'Electric', '2024-11-07', 395.6, 'In Progress');
INSERT INTO repair_orders VALUES (11, 17, 6, 'Cortina', 'Road', '2023-05-18', 328.15, 'Completed');
INSERT INTO repair_orders VALUES (12, 10, 10, 'Gazelle', 'City', '2023-05-28', 184.1, 'Completed');
INSERT INTO repair_orders VALUES (13, 9, 3, 'Giant', 'Mountain', '2024-11-02', 414.85, 'Completed');
INSERT INTO repair_orders VALUES (14, 2, 3, 'Giant', 'City', '2023-05-21', 112.65, 'Completed');
INSERT INTO repair_orders VALUES (15, 16, 5, 'VanMoof', 'City', '2024-01-15', 317.3, 'Completed');
INSERT INTO repair_orders VALUES (16, 11, 11, 'VanMoof', 'City', '2023-10-05', 343.2, 'In Progress');
INSERT INTO repair_orders VALUES (17, 10, 1, 'Giant', 'City', '2024-01-13', 100.0, 'Completed');
INSERT INTO repair_orders VALUES (18, 16, 1, 'Gazelle', 'City', '2023-06-17', 295.15, 'Waiting for Parts');
INSERT INTO repair_orders VALUES (19, 17, NULL, 'Gazelle', 'Electric', '2024-08-06', 390.3, 'Completed');
INSERT INTO repair_orders VALUES (20, 2, 12, 'Gazelle', 'Road', '2023-03-12', 202.4, 'Completed');
INSERT INTO repair_orders VALUES (21, 16, 6, 'Gazelle', 'Road', '2023-12-11', 119.6, 'Completed');
INSERT INTO repair_orders VALUES (22, 11, 6, 'Giant', 'Mountain', '2024-09-02', 49.05, 'Completed');
INSERT INTO repair_orders VALUES (23, 10, 1, 'Gazelle', 'Electric', '2023-10-28', 207.5, 'Completed');
INSERT INTO repair_orders VALUES (24, 18, 13, 'Trek', 'City', '2024-05-24', 303.2, 'In Progress');
INSERT INTO repair_orders VALUES (25, 11, 4, 'VanMoof', 'Road', '2023-12-15', 319.05, 'Waiting for Parts');
INSERT INTO repair_orders VALUES (26, 10, 3, 'Cortina', 'City', '2023-10-06', 39.2, 'Waiting for Parts');
INSERT INTO repair_orders VALUES (27, 12, 3, 'Giant', 'Cargo', '2024-03-10', 385.2, 'In Progress');
INSERT INTO repair_orders VALUES (28, 12, NULL, 'VanMoof', 'Cargo', '2023-10-07', 78.2, 'Completed');
INSERT INTO repair_orders VALUES (29, 1, 2, 'Cortina', 'Road', '2024-10-09', 354.95, 'Waiting for Parts');
INSERT INTO repair_orders VALUES (30, 3, 1, 'Gazelle', 'City', '2024-06-08', 268.35, 'Completed');
INSERT INTO repair_orders VALUES (31, 16, 1, 'Specialized', 'Road', '2023-01-26', 394.0, 'Completed');
INSERT INTO repair_orders VALUES (32, 18, 8, 'Batavus', 'Electric', '2023-11-11', 45.15, 'In Progress');
INSERT INTO repair_orders VALUES (33, 1, 1, 'Batavus', 'City', '2024-02-21', 328.1, 'Completed');
INSERT INTO repair_orders VALUES (34, 14, 3, 'Trek', 'Electric', '2024-06-08', 279.3, 'Completed');
INSERT INTO repair_orders VALUES (35, 16, 4, 'Gazelle', 'Road', '2024-08-25', 216.45, 'Completed');
INSERT INTO repair_orders VALUES (36, 2, 9, 'Giant', 'Road', '2024-09-30', 85.6, 'Completed');
INSERT INTO repair_orders VALUES (37, 16, NULL, 'Gazelle', 'Mountain', '2024-08-01', 294.25, 'Completed');
INSERT INTO repair_orders VALUES (38, 18, 1, 'Batavus', 'Road', '2023-11-30', 332.2, 'Completed');
INSERT INTO repair_orders VALUES (39, 3, 4, 'Specialized', 'Cargo', '2023-04-02', 352.0, 'Completed');
INSERT INTO repair_orders VALUES (40, 10, 10, 'Cortina', 'Cargo', '2023-09-07', 32.45, 'Completed');
INSERT INTO repair_orders VALUES (41, 1, 2, 'Batavus', 'Cargo', '2023-07-04', 353.05, 'Completed');
INSERT INTO repair_orders VALUES (42, 16, 2, 'Trek', 'City', '2023-04-29', 250.3, 'Completed');
INSERT INTO repair_orders VALUES (43, 1, 1, 'Batavus', 'Mountain', '2023-11-19', 183.75, 'Completed');
INSERT INTO repair_orders VALUES (44, 3, 11, 'Cortina', 'Cargo', '2023-11-16', 36.65, 'Waiting for Parts');
INSERT INTO repair_orders VALUES (45, 1, 2, 'Batavus', 'Mountain', '2024-06-13', 241.95, 'Completed');
INSERT INTO repair_orders VALUES (46, 1, NULL, 'Cortina', 'Mountain', '2023-06-23', 355.35, 'Waiting for Parts');
INSERT INTO repair_orders VALUES (47, 13, 5, 'Trek', 'Cargo', '2023-05-13', 257.75, 'Completed');
INSERT INTO repair_orders VALUES (48, 9, 12, 'Trek', 'Electric', '2023-10-18', 377.3, 'Completed');
COMMIT;
