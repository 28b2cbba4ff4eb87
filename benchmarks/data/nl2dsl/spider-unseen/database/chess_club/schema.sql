PRAGMA foreign_keys = ON;
CREATE TABLE Member (
  MemberID INTEGER PRIMARY KEY,
  Name TEXT,
  Rating INTEGER,
  BirthYear INTEGER,
  JoinDate TEXT,
  Title TEXT
);
CREATE TABLE tournament (
  tournament_id INTEGER PRIMARY KEY,
  tournament_name TEXT,
  city TEXT,
  start_date TEXT,
  rounds INTEGER,
  prize_fund INTEGER
);
CREATE TABLE game (
  game_id INTEGER PRIMARY KEY,
  tournament_id INTEGER,
  white_member_id INTEGER,
  black_member_id INTEGER,
  result TEXT,
  moves INTEGER,
  opening TEXT,
  FOREIGN KEY (tournament_id) REFERENCES tournament(tournament_id),
  FOREIGN KEY (white_member_id) REFERENCES Member(MemberID),
  FOREIGN KEY (black_member_id) REFERENCES Member(MemberID)
);
INSERT INTO Member VALUES (1, 'Finn Thomas', 1990, 2002, '2017-11-05', NULL);
INSERT INTO Member VALUES (2, 'Jack Ward', 1785, 1969, '2019-01-17', NULL);
INSERT INTO Member VALUES (3, 'Tara Price', 1815, 1967, '2014-10-25', NULL);
INSERT INTO Member VALUES (4, 'Finn Ward', 1891, 1955, '2021-04-15', NULL);
INSERT INTO Member VALUES (5, 'Liam Wright', 1565, 2000, '2022-02-13', NULL);
INSERT INTO Member VALUES (6, 'Finn Green', 1642, 1981, '2022-12-02', NULL);
INSERT INTO Member VALUES (7, 'Ethan Lewis', 2108, 1954, '2022-10-19', 'CM');
INSERT INTO Member VALUES (8, 'Yusuf Hall', 1508, 1966, '2024-04-21', NULL);
INSERT INTO Member VALUES (9, 'George Hall', 1486, 1972, '2014-10-19', NULL);
INSERT INTO Member VALUES (10, 'Umar Ward', 1602, 1967, '2017-01-13', NULL);
INSERT INTO Member VALUES (11, 'Bella Lewis', 1782, 1975, '2021-06-27', NULL);
INSERT INTO Member VALUES (12, 'Chloe Baker', 2284, 1980, '2015-11-29', 'FM');
INSERT INTO Member VALUES (13, 'Quinn Jones', 1481, 1990, '2018-03-17', NULL);
INSERT INTO Member VALUES (14, 'Olivia Khan', 2051, 1953, '2017-05-05', 'CM');
INSERT INTO Member VALUES (15, 'Alice Young', 1578, 2001, '2019-12-20', NULL);
INSERT INTO Member VALUES (16, 'Daisy Price', 1767, 2003, '2021-05-22', NULL);
INSERT INTO Member VALUES (17, 'Olivia Jones', 1416, 1970, '2019-12-04', NULL);
INSERT INTO Member VALUES (18, 'Yusuf Roberts', 2000, 1985, '2012-02-01', 'CM');
INSERT INTO Member VALUES (19, 'Finn Khan', 2111, 1952, '2019-12-18', 'CM');
INSERT INTO Member VALUES (20, 'Bella Thomas', 2349, 1995, '2016-06-26', 'FM');
INSERT INTO Member VALUES (21, 'Olivia Turner', 1369, 1981, '2019-05-06', NULL);
INSERT INTO Member VALUES (22, 'Noah Wood', 1967, 1980, '2023-11-27', NULL);
INSERT INTO Member VALUES (23, 'Katie Wright', 1311, 1968, '2023-11-14', NULL);
INSERT INTO Member VALUES (24, 'Vera Price', 1670, 1975, '2018-01-02', NULL);
INSERT INTO Member VALUES (25, 'Alice Brown', 1264, 1991, '2022-12-28', NULL);
INSERT INTO tournament VALUES (1, 'Spring Rapid', 'Manchester', '2024-10-30', 7, 750);
INSERT INTO tournament VALUES (2, 'Autumn Open', 'Manchester', '2023-01-08', 9, 850);
INSERT INTO tournament VALUES (3, 'Northern Congress', 'Leeds', '2023-03-09', 9, 650);
INSERT INTO tournament VALUES (4, 'Winter Blitz', 'Manchester', '2022-09-06', 9, 1800);
INSERT INTO tournament VALUES (5, 'Club Championship', 'Manchester', '2023-02-07', 7, 1950);
INSERT INTO tournament VALUES (6, 'Junior Cup', 'Liverpool', '2023-02-26', 5, 1200);
INSERT INTO tournament VALUES (7, 'Lakes Weekender', 'Kendal', '2023-03-30', 9, 1500);
INSERT INTO tournament VALUES (8, 'County Challenge', 'Preston', '2024-09-01', 6, 1000);
INSERT INTO tournament VALUES (9, 'Summer Swiss', 'Leeds', '2024-05-21', 5, 1100);
INSERT INTO tournament VALUES (10, 'Pennine Open', 'Halifax', '2024-01-13', 9, 1900);
INSERT INTO tournament VALUES (11, 'Easter Allegro', 'Liverpool', '2023-07-14', 5, 100);
INSERT INTO tournament VALUES (12, 'New Year Blitz', 'Manchester', '2024-05-22', 7, 1700);
INSERT INTO tournament VALUES (13, 'Veterans Trophy', 'Preston', '2024-05-24', 9, 150);
INSERT INTO tournament VALUES (14, 'Charity Simul', 'Manchester', '2023-10-29', 5, 950);
INSERT INTO tournament VALUES (15, 'Coast Classic', 'Blackpool', '2022-04-26', 6, 250);
INSERT INTO game VALUES (1, 9, 3, 5, '1-0', 25, 'Caro-Kann');
INSERT INTO game VALUES (2, 11, 3, 2, '1/2-1/2', 88, 'Queen''s Gambit');
INSERT INTO game VALUES (3, 12, 3, 18, '0-1', 20, 'Italian Game');
INSERT INTO game VALUES (4, 11, 3, 2, '1-0', 19, 'English Opening');
INSERT INTO game VALUES (5, 3, 3, 8, '1-0', 91, 'Caro-Kann');
INSERT INTO game VALUES (6, 9, 3, 17, '0-1', 52, 'Queen''s Gambit');
INSERT INTO game VALUES (7, 6, 3, 16, '0-1', 33, 'Queen''s Gambit');
INSERT INTO game VALUES (8, 12, 3, 2, '0-1', 56, 'Queen''s Gambit');
INSERT INTO game VALUES (9, 2, 3, 6, '1/2-1/2', 79, 'Italian Game');
INSERT INTO game VALUES (10, 11, 9, 1, '1-0', 66, 'Queen''s Gambit');
INSERT INTO game VALUES (11, 7, 18, 5, '1/2-1/2', 22, 'King''s Indian');
INSERT INTO game VALUES (12, 2, 14, 4, '1-0', 90, 'Queen''s Gambit');
INSERT INTO game VALUES (13, 12, 16, 10, '1/2-1/2', 55, 'French Defence');
INSERT INTO game VALUES (14, 3, 20, 13, '0-1', 36, 'King''s Indian');
INSERT INTO game VALUES (15, 3, 16, 12, '0-1', 51, 'Italian Game');
INSERT INTO game VALUES (16, 11, 19, 17, '0-1', 30, 'Sicilian Defence');
INSERT INTO game VALUES (17, 11, 19, 20, '1/2-1/2', 76, 'Caro-Kann');
INSERT INTO game VALUES (18, 12, 9, 19, '1/2-1/2', 79, 'Queen''s Gambit');
INSERT INTO game VALUES (19, 10, 12, 8, '1-0', 30, 'Ruy Lopez');
INSERT INTO game VALUES (20, 9, 11, 1, '0-1', 89, 'Ruy Lopez');
INSERT INTO game VALUES (21, 5, 21, 14, '1-0', 29, 'French Defence');
INSERT INTO game VALUES (22, 1, 1, 2, '0-1', 70, 'Italian Game');
INSERT INTO game VALUES (23, 4, 2, 11, '1-0', 88, 'French Defence');
INSERT INTO game VALUES (24, 9, 12, 16, '0-1', 60, 'Queen''s Gambit');
INSERT INTO game VALUES (25, 7, 18, 1, '1-0', 83, 'French Defence');
INSERT INTO game VALUES (26, 5, 1, 10, '1-0', 18, 'English Opening');
INSERT INTO game VALUES (27, 12, 9, 3, '1/2-1/2', 92, 'Ruy Lopez');
INSERT INTO game VALUES (28, 3, 10, 12, '1-0', 27, 'Caro-Kann');
INSERT INTO game VALUES (29, 3, 1, 4, '0-1', 67, 'Caro-Kann');
INSERT INTO game VALUES (30, 4, 5, 12, '0-1', 71, 'English Opening');
INSERT INTO game VALUES (31, 11, 17, 9, '1-0', 72, 'Sicilian Defence');
INSERT INTO game VALUES (32, 9, 9, 13, '1-0', 56, 'Caro-Kann');
INSERT INTO game VALUES (33, 4, 4, 19, '1-0', 62, 'Ruy Lopez');
INSERT INTO game VALUES (34, 4, 10, 21, '0-1', 43, 'Caro-Kann');
INSERT INTO game VALUES (35, 9, 12, 17, '1-0', 27, 'French Defence');
INSERT INTO game VALUES (36, 10, 14, 5, '1-0', 52, 'King''s Indian');
INSERT INTO game VALUES (37, 8, 19, 14, '1/2-1/2', 63, 'English Opening');
INSERT INTO game VALUES (38, 10, 13, 20, '1-0', 58, 'Queen''s Gambit');
INSERT INTO game VALUES (39, 1, 17, 7, '0-1', 76, 'Caro-Kann');
INSERT INTO game VALUES (40, 1, 15, 16, '0-1', 47, 'Queen''s Gambit');
INSERT INTO game VALUES (41, 10, 12, 7, '1/2-1/2', 27, 'Ruy Lopez');
INSERT INTO game VALUES (42, 6, 9, 7, '0-1', 84, 'Ruy Lopez');
INSERT INTO game VALUES (43, 5, 19, 20, '0-1', 44, 'English Opening');
INSERT INTO game VALUES (44, 10, 12, 10, '1-0', 40, 'French Defence');
INSERT INTO game VALUES (45, 6, 11, 21, '0-1', 48, 'King''s Indian');
INSERT INTO game VALUES (46, 7, 6, 8, '1/2-1/2', 88, 'Sicilian Defence');
INSERT INTO game VALUES (47, 3, 7, 12, '0-1', 70, 'Caro-Kann');
INSERT INTO game VALUES (48, 11, 13, 11, '1-0', 68, 'Caro-Kann');
INSERT INTO game VALUES (49, 6, 6, 17, '1-0', 95, 'King''s Indian');
INSERT INTO game VALUES (50, 8, 16, 2, '1-0', 87, 'English Opening');
INSERT INTO game VALUES (51, 7, 18, 8, '1-0', 43, 'King''s Indian');
INSERT INTO game VALUES (52, 5, 21, 10, '1/2-1/2', 18, 'Ruy Lopez');
INSERT INTO game VALUES (53, 4, 20, 19, '1-0', 53, 'Ruy Lopez');
INSERT INTO game VALUES (54, 2, 4, 13, '0-1', 22, 'Italian Game');
INSERT INTO game VALUES (55, 11, 20, 8, '1/2-1/2', 23, 'Ruy Lopez');
INSERT INTO game VALUES (56, 10, 9, 7, '0-1', 65, 'Italian Game');
INSERT INTO game VALUES (57, 2, 15, 3, '0-1', 47, 'Ruy Lopez');
INSERT INTO game VALUES (58, 8, 15, 3, '1/2-1/2', 62, 'Ruy Lopez');
INSERT INTO game VALUES (59, 3, 8, 3, '1/2-1/2', 21, 'Sicilian Defence');
INSERT INTO game VALUES (60, 12, 19, 9, '0-1', 43, 'Sicilian Defence');
