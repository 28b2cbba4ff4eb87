PRAGMA foreign_keys = ON;
BEGIN TRANSACTION;
CREATE TABLE Hiker (
  Hiker_ID INTEGER PRIMARY KEY,
  Name TEXT,
  Age INTEGER,
  Gender TEXT,
  Home_Town TEXT,
  Join_Year INTEGER
);
CREATE TABLE trail (
  trail_id INTEGER PRIMARY KEY,
  trail_name TEXT,
  region TEXT,
  length_km REAL,
  elevation_gain INTEGER,
  difficulty TEXT
);
CREATE TABLE Hike_Log (
  log_id INTEGER PRIMARY KEY,
  Hiker_ID INTEGER,
  trail_id INTEGER,
  hike_date TEXT,
  duration_hours REAL,
  rating INTEGER,
  FOREIGN KEY (Hiker_ID) REFERENCES Hiker(Hiker_ID),
  FOREIGN KEY (trail_id) REFERENCES trail(trail_id)
);
INSERT INTO Hiker VALUES (1, 'Maya Lindqvist', 45, 'F', 'Windermere', 2014);
INSERT INTO Hiker VALUES (2, 'Tom Harker', 27, 'M', 'Ambleside', 2017);
INSERT INTO Hiker VALUES (3, 'Priya Raman', 20, 'F', 'Keswick', 2014);
INSERT INTO Hiker VALUES (4, 'Jonas Weber', 58, 'M', 'Ambleside', 2023);
INSERT INTO Hiker VALUES (5, 'Elena Costa', 43, 'F', 'Windermere', 2022);
INSERT INTO Hiker VALUES (6, 'Owen Pritchard', 67, 'M', 'Ambleside', 2019);
INSERT INTO Hiker VALUES (7, 'Sofia Marsh', 39, 'F', 'Keswick', 2016);
INSERT INTO Hiker VALUES (8, 'Liam O''Connor', 36, 'M', 'Kendal', 2012);
INSERT INTO Hiker VALUES (9, 'Hana Sato', 30, 'F', 'Kendal', 2014);
INSERT INTO Hiker VALUES (10, 'Ben Whitlock', 51, 'M', 'Windermere', 2017);
INSERT INTO Hiker VALUES (11, 'Clara Jensen', 50, 'F', 'Kendal', 2021);
INSERT INTO Hiker VALUES (12, 'Ravi Mehta', 69, 'M', 'Penrith', 2018);
INSERT INTO Hiker VALUES (13, 'Isla Grant', 49, 'F', 'Kendal', 2023);
INSERT INTO Hiker VALUES (14, 'Marco Bellini', 29, 'M', 'Kendal', 2014);
INSERT INTO Hiker VALUES (15, 'Nadia Petrova', 28, 'F', 'Kendal', 2021);
INSERT INTO Hiker VALUES (16, 'Felix Brandt', 55, 'M', 'Windermere', 2019);
INSERT INTO Hiker VALUES (17, 'Ada Okafor', 59, 'F', 'Kendal', 2019);
INSERT INTO Hiker VALUES (18, 'George Lamb', 26, 'M', 'Keswick', 2023);
INSERT INTO Hiker VALUES (19, 'Rosa Diaz', 60, 'F', 'Penrith', 2016);
INSERT INTO Hiker VALUES (20, 'Kai Nakamura', 70, 'M', 'Ambleside', 2021);
INSERT INTO trail VALUES (1, 'Helvellyn Ridge', 'Lake District', 7.2, 1350, 'Hard');
INSERT INTO trail VALUES (2, 'Catbells Loop', 'Lake District', 10.2, 995, 'Easy');
INSERT INTO trail VALUES (3, 'Scafell Pike Path', 'Lake District', 15.3, 929, 'Hard');
INSERT INTO trail VALUES (4, 'Buttermere Shore', 'Lake District', 10.1, 1194, 'Easy');
INSERT INTO trail VALUES (5, 'Pen y Fan Horseshoe', 'Brecon Beacons', 5.1, 942, 'Medium');
INSERT INTO trail VALUES (6, 'Sugar Loaf Climb', 'Brecon Beacons', 25.6, 533, 'Medium');
INSERT INTO trail VALUES (7, 'Waterfall Country', 'Brecon Beacons', 5.5, 588, 'Easy');
INSERT INTO trail VALUES (8, 'Kinder Scout Plateau', 'Peak District', 21.6, 827, 'Medium');
INSERT INTO trail VALUES (9, 'Mam Tor Ridge', 'Peak District', 12.6, 522, 'Easy');
INSERT INTO trail VALUES (10, 'Stanage Edge', 'Peak District', 24.1, 1162, 'Medium');
INSERT INTO trail VALUES (11, 'Snowdon Ranger', 'Snowdonia', 14.0, 863, 'Hard');
INSERT INTO trail VALUES (12, 'Tryfan North Ridge', 'Snowdonia', 20.0, 252, 'Hard');
INSERT INTO trail VALUES (13, 'Llyn Idwal Circuit', 'Snowdonia', 14.9, 713, 'Easy');
INSERT INTO trail VALUES (14, 'Ben Nevis Mountain Track', 'Highlands', 15.0, 203, 'Hard');
INSERT INTO trail VALUES (15, 'Glen Coe Lost Valley', 'Highlands', 8.8, 1174, 'Medium');
INSERT INTO trail VALUES (16, 'Loch an Eilein', 'Highlands', 15.6, 287, 'Easy');
INSERT INTO trail VALUES (17, 'Cairn Gorm Summit', 'Highlands', 8.7, 947, 'Hard');
INSERT INTO trail VALUES (18, 'Quiraing Walk', 'Highlands', 5.6, 97, 'Medium');
INSERT INTO Hike_Log VALUES (1, 12, 15, '2024-05-07', 6.8, 2);
INSERT INTO Hike_Log VALUES (2, 13, 10, '2024-12-10', 8.0, 4);
INSERT INTO Hike_Log VALUES (3, 17, 15, '2022-12-22', 3.5, 4);
INSERT INTO Hike_Log VALUES (4, 13, 1, '2023-11-01', 9.0, 1);
INSERT INTO Hike_Log VALUES (5, 15, 9, '2023-08-13', 4.5, 3);
INSERT INTO Hike_Log VALUES (6, 3, 5, '2021-02-20', 1.7, 2);
INSERT INTO Hike_Log VALUES (7, 2, 17, '2021-09-22', 3.2, 3);
INSERT INTO Hike_Log VALUES (8, 4, 5, '2022-10-07', 2.3, 4);
INSERT INTO Hike_Log VALUES (9, 6, 1, '2022-08-11', 9.4, 2);
INSERT INTO Hike_Log VALUES (10, 11, 13, '2021-07-16', 8.2, 2);
INSERT INTO Hike_Log VALUES (11, 10, 5, '2021-10-10', 7.0, 2);
INSERT INTO Hike_Log VALUES (12, 2, 13, '2021-07-27', 1.7, 4);
INSERT INTO Hike_Log VALUES (13, 14, 10, '2023-04-17', 3.1, 5);
INSERT INTO Hike_Log VALUES (14, 14, 8, '2024-01-09', 6.0, 4);
INSERT INTO Hike_Log VALUES (15, 4, 18, '2021-07-26', 8.5, 2);
INSERT INTO Hike_Log VALUES (16, 15, 10, '2023-10-22', 4.7, 1);
INSERT INTO Hike_Log VALUES (17, 13, 14, '2024-06-05', 9.0, 4);
INSERT INTO Hike_Log VALUES (18, 4, 10, '2021-09-23', 1.6, 4);
INSERT INTO Hike_Log VALUES (19, 1, 17, '2024-02-18', 4.7, 2);
INSERT INTO Hike_Log VALUES (20, 16, 12, '2023-05-31', 9.4, 2);
INSERT INTO Hike_Log VALUES (21, 10, 13, '2023-10-09', 2.3, 5);
INSERT INTO Hike_Log VALUES (22, 17, 9, '2022-03-22', 7.4, 3);
INSERT INTO Hike_Log VALUES (23, 2, 6, '2023-07-02', 8.2, 4);
INSERT INTO Hike_Log VALUES (24, 5, 5, '2022-10-16', 2.1, 1);
INSERT INTO Hike_Log VALUES (25, 17, 4, '2022-05-17', 3.3, 5);
INSERT INTO Hike_Log VALUES (26, 15, 12, '2024-02-28', 7.6, 4);
INSERT INTO Hike_Log VALUES (27, 1, 14, '2021-10-25', 6.8, 5);
INSERT INTO Hike_Log VALUES (28, 15, 10, '2023-12-20', 2.0, 4);
INSERT INTO Hike_Log VALUES (29, 10, 17, '2021-06-30', 1.8, 2);
INSERT INTO Hike_Log VALUES (30, 6, 11, '2022-06-17', 3.6, 4);
INSERT INTO Hike_Log VALUES (31, 5, 1, '2022-05-05', 3.7, 1);
INSERT INTO Hike_Log VALUES (32, 8, 17, '2021-02-16', 4.2, 3);
INSERT INTO Hike_Log VALUES (33, 4, 13, '2023-06-18', 5.1, 3);
INSERT INTO Hike_Log VALUES (34, 6, 18, '2022-11-30', 8.4, 2);
INSERT INTO Hike_Log VALUES (35, 15, 3, '2024-07-20', 6.9, 5);
INSERT INTO Hike_Log VALUES (36, 14, 17, '2021-02-18', 8.3, 1);
INSERT INTO Hike_Log VALUES (37, 4, 3, '2023-02-13', 2.4, 3);
INSERT INTO Hike_Log VALUES (38, 16, 5, '2024-03-11', 7.0, 1);
INSERT INTO Hike_Log VALUES (39, 15, 6, '2022-07-11', 5.7, 1);
INSERT INTO Hike_Log VALUES (40, 11, 3, '2023-12-15', 8.7, 4);
INSERT INTO Hike_Log VALUES (41, 3, 2, '2022-04-28', 3.3, 2);
INSERT INTO Hike_Log VALUES (42, 15, 17, '2022-07-30', 4.7, 1);
INSERT INTO Hike_Log VALUES (43, 7, 4, '2022-05-19', 5.2, 2);
INSERT INTO Hike_Log VALUES (44, 4, 13, '2022-03-17', 4.4, 1);
INSERT INTO Hike_Log VALUES (45, 8, 8, '2022-01-12', 5.0, 2);
INSERT INTO Hike_Log VALUES (46, 4, 12, '2021-07-16', 8.4, 5);
INSERT INTO Hike_Log VALUES (47, 1, 3, '2023-07-13', 2.5, 1);
INSERT INTO Hike_Log VALUES (48, 9, 15, '2022-12-19', 5.9, 1);
INSERT INTO Hike_Log VALUES (49, 6, 12, '2022-12-14', 8.1, 3);
INSERT INTO Hike_Log VALUES (50, 17, 15, '2022-04-25', 5.1, 1);
INSERT INTO Hike_Log VALUES (51, 9, 5, '2022-09-09', 5.2, 4);
INSERT INTO Hike_Log VALUES (52, 15, 12, '2024-08-25', 9.3, 4);
INSERT INTO Hike_Log VALUES (53, 2, 11, '2024-11-09', 8.7, 1);
INSERT INTO Hike_Log VALUES (54, 17, 6, '2024-10-18', 9.1, 4);
INSERT INTO Hike_Log VALUES (55, 4, 10, '2024-04-18', 8.0, 3);
INSERT INTO Hike_Log VALUES (56, 4, 10, '2024-09-14', 6.5, 4);
COMMIT;
