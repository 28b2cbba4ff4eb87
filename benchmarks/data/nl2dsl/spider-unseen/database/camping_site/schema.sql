PRAGMA foreign_keys = ON;
CREATE TABLE campsite (
  site_id INTEGER PRIMARY KEY,
  site_code TEXT,
  site_type TEXT,
  nightly_rate REAL,
  max_guests INTEGER,
  has_electricity INTEGER,
  zone TEXT
);
CREATE TABLE Guest (
  GuestID INTEGER PRIMARY KEY,
  FullName TEXT,
  Country TEXT,
  Age INTEGER,
  IsMember INTEGER
);
CREATE TABLE booking (
  booking_id INTEGER PRIMARY KEY,
  site_id INTEGER,
  guest_id INTEGER,
  check_in TEXT,
  nights INTEGER,
  party_size INTEGER,
  total_cost REAL,
  FOREIGN KEY (site_id) REFERENCES campsite(site_id),
  FOREIGN KEY (guest_id) REFERENCES Guest(GuestID)
);
INSERT INTO campsite VALUES (1, 'L01', 'tent', 14.0, 4, 1, 'Lakeside');
INSERT INTO campsite VALUES (2, 'W02', 'tent', 15.5, 5, 0, 'Woodland');
INSERT INTO campsite VALUES (3, 'M03', 'tent', 17.0, 4, 0, 'Meadow');
INSERT INTO campsite VALUES (4, 'L04', 'tent', 18.5, 5, 1, 'Lakeside');
INSERT INTO campsite VALUES (5, 'W05', 'tent', 20.0, 4, 0, 'Woodland');
INSERT INTO campsite VALUES (6, 'M06', 'tent', 14.0, 5, 0, 'Meadow');
INSERT INTO campsite VALUES (7, 'L07', 'tent', 15.5, 4, 1, 'Lakeside');
INSERT INTO campsite VALUES (8, 'W08', 'tent', 17.0, 5, 0, 'Woodland');
INSERT INTO campsite VALUES (9, 'M09', 'tent', 18.5, 4, 0, 'Meadow');
INSERT INTO campsite VALUES (10, 'L10', 'caravan', 32.0, 7, 1, 'Lakeside');
INSERT INTO campsite VALUES (11, 'W11', 'caravan', 26.0, 6, 1, 'Woodland');
INSERT INTO campsite VALUES (12, 'M12', 'caravan', 27.5, 7, 1, 'Meadow');
INSERT INTO campsite VALUES (13, 'L13', 'caravan', 29.0, 6, 1, 'Lakeside');
INSERT INTO campsite VALUES (14, 'W14', 'caravan', 30.5, 7, 1, 'Woodland');
INSERT INTO campsite VALUES (15, 'M15', 'caravan', 32.0, 6, 1, 'Meadow');
INSERT INTO campsite VALUES (16, 'L16', 'cabin', 62.0, 7, 1, 'Lakeside');
INSERT INTO campsite VALUES (17, 'W17', 'cabin', 63.5, 6, 1, 'Woodland');
INSERT INTO campsite VALUES (18, 'M18', 'cabin', 89.0, 7, 1, 'Meadow');
INSERT INTO campsite VALUES (19, 'L19', 'cabin', 66.5, 6, 1, 'Lakeside');
INSERT INTO campsite VALUES (20, 'W20', 'glamping pod', 54.0, 2, 1, 'Woodland');
INSERT INTO campsite VALUES (21, 'M21', 'glamping pod', 48.0, 2, 1, 'Meadow');
INSERT INTO campsite VALUES (22, 'L22', 'glamping pod', 49.5, 2, 1, 'Lakeside');
INSERT INTO Guest VALUES (1, 'Aaron Khan', 'UK', 27, 1);
INSERT INTO Guest VALUES (2, 'Ivan Moore', 'UK', 35, 0);
INSERT INTO Guest VALUES (3, 'Harry Evans', 'Germany', 66, 0);
INSERT INTO Guest VALUES (4, 'Yusuf Roberts', 'Netherlands', 34, 0);
INSERT INTO Guest VALUES (5, 'Sam Smith', 'France', 68, 1);
INSERT INTO Guest VALUES (6, 'Olivia Brown', 'UK', 22, 0);
INSERT INTO Guest VALUES (7, 'Kai Smith', 'Ireland', 21, 0);
INSERT INTO Guest VALUES (8, 'Grace Evans', 'Germany', 62, 0);
INSERT INTO Guest VALUES (9, 'George Moore', 'UK', 71, 1);
INSERT INTO Guest VALUES (10, 'Tara Moore', 'Belgium', 46, 0);
INSERT INTO Guest VALUES (11, 'Yusuf Young', 'UK', 64, 0);
INSERT INTO Guest VALUES (12, 'Zoe Turner', 'UK', 69, 0);
INSERT INTO Guest VALUES (13, 'Umar Green', 'Germany', 63, 1);
INSERT INTO Guest VALUES (14, 'Ella Hughes', 'Netherlands', 60, 0);
INSERT INTO Guest VALUES (15, 'Sam King', 'France', 40, 0);
INSERT INTO Guest VALUES (16, 'Katie Brown', 'UK', 42, 0);
INSERT INTO Guest VALUES (17, 'George Taylor', 'Ireland', 49, 1);
INSERT INTO Guest VALUES (18, 'Lena Brown', 'Germany', 48, 0);
INSERT INTO Guest VALUES (19, 'Ruby Hughes', 'UK', 56, 0);
INSERT INTO Guest VALUES (20, 'Grace Baker', 'Belgium', 53, 0);
INSERT INTO Guest VALUES (21, 'Sam Jones', 'UK', 28, 1);
INSERT INTO Guest VALUES (22, 'Will Hall', 'UK', 33, 0);
INSERT INTO Guest VALUES (23, 'Grace Patel', 'Germany', 59, 0);
INSERT INTO Guest VALUES (24, 'Ethan Knight', 'Netherlands', 58, 0);
INSERT INTO Guest VALUES (25, 'Mia Thomas', 'France', 41, 1);
INSERT INTO booking VALUES (1, 18, 14, '2024-07-25', 8, 4, 712.0);
INSERT INTO booking VALUES (2, 10, 12, '2024-08-31', 2, 2, 64.0);
INSERT INTO booking VALUES (3, 14, 2, '2024-06-21', 4, 1, 122.0);
INSERT INTO booking VALUES (4, 13, 7, '2024-04-02', 3, 2, 87.0);
INSERT INTO booking VALUES (5, 3, 2, '2024-07-07', 3, 4, 51.0);
INSERT INTO booking VALUES (6, 19, 7, '2024-05-27', 3, 2, 199.5);
INSERT INTO booking VALUES (7, 7, 7, '2024-10-06', 7, 2, 108.5);
INSERT INTO booking VALUES (8, 1, 2, '2024-04-04', 2, 3, 28.0);
INSERT INTO booking VALUES (9, 21, 6, '2024-09-03', 7, 1, 336.0);
INSERT INTO booking VALUES (10, 6, 6, '2024-08-18', 2, 2, 28.0);
INSERT INTO booking VALUES (11, 1, 16, '2024-04-25', 1, 1, 14.0);
INSERT INTO booking VALUES (12, 15, 8, '2024-04-14', 4, 5, 128.0);
INSERT INTO booking VALUES (13, 11, 10, '2024-06-11', 3, 2, 78.0);
INSERT INTO booking VALUES (14, 7, 11, '2024-06-22', 7, 1, 108.5);
INSERT INTO booking VALUES (15, 21, 12, '2024-09-15', 4, 2, 192.0);
INSERT INTO booking VALUES (16, 11, 18, '2024-05-23', 1, 1, 26.0);
INSERT INTO booking VALUES (17, 4, 1, '2024-05-13', 2, 1, 37.0);
INSERT INTO booking VALUES (18, 3, 20, '2024-05-11', 2, 1, 34.0);
INSERT INTO booking VALUES (19, 16, 9, '2024-07-06', 7, 3, 434.0);
INSERT INTO booking VALUES (20, 14, 20, '2024-06-10', 2, 5, 61.0);
INSERT INTO booking VALUES (21, 6, 4, '2024-10-15', 2, 3, 28.0);
INSERT INTO booking VALUES (22, 15, 19, '2024-05-15', 2, 6, 64.0);
INSERT INTO booking VALUES (23, 18, 14, '2024-07-25', 2, 3, 178.0);
INSERT INTO booking VALUES (24, 18, 13, '2024-06-16', 3, 3, 267.0);
INSERT INTO booking VALUES (25, 17, 3, '2024-08-02', 3, 4, 190.5);
INSERT INTO booking VALUES (26, 17, 11, '2024-06-11', 1, 6, 63.5);
INSERT INTO booking VALUES (27, 8, 11, '2024-08-01', 2, 2, 34.0);
INSERT INTO booking VALUES (28, 7, 7, '2024-07-03', 2, 1, 31.0);
INSERT INTO booking VALUES (29, 9, 1, '2024-06-18', 3, 4, 55.5);
INSERT INTO booking VALUES (30, 2, 8, '2024-09-27', 2, 5, 31.0);
INSERT INTO booking VALUES (31, 16, 19, '2024-05-29', 1, 1, 62.0);
INSERT INTO booking VALUES (32, 21, 3, '2024-05-15', 2, 1, 96.0);
INSERT INTO booking VALUES (33, 8, 5, '2024-09-16', 7, 3, 119.0);
INSERT INTO booking VALUES (34, 13, 4, '2024-04-02', 3, 4, 87.0);
INSERT INTO booking VALUES (35, 2, 18, '2024-09-15', 2, 2, 31.0);
INSERT INTO booking VALUES (36, 9, 9, '2024-09-18', 4, 3, 74.0);
INSERT INTO booking VALUES (37, 1, 20, '2024-04-16', 2, 2, 28.0);
INSERT INTO booking VALUES (38, 18, 17, '2024-04-19', 1, 6, 89.0);
INSERT INTO booking VALUES (39, 11, 16, '2024-05-12', 3, 1, 78.0);
INSERT INTO booking VALUES (40, 17, 6, '2024-05-30', 2, 1, 127.0);
INSERT INTO booking VALUES (41, 19, 10, '2024-04-20', 1, 3, 66.5);
INSERT INTO booking VALUES (42, 2, 9, '2024-08-20', 1, 1, 15.5);
INSERT INTO booking VALUES (43, 21, 4, '2024-04-29', 2, 2, 96.0);
INSERT INTO booking VALUES (44, 21, 7, '2024-05-29', 2, 2, 96.0);
INSERT INTO booking VALUES (45, 21, 1, '2024-04-12', 3, 1, 144.0);
