PRAGMA foreign_keys = ON;

CREATE TABLE Member (
  MemberID INTEGER PRIMARY KEY,
  FirstName TEXT NOT NULL,
  LastName TEXT NOT NULL,
  Age INTEGER,
  City TEXT,
  MembershipLevel TEXT,
  JoinDate DATE
);
CREATE TABLE Route (
  RouteID INTEGER PRIMARY KEY,
  RouteName TEXT NOT NULL,
  Wall TEXT,
  RouteType TEXT,
  Difficulty INTEGER,
  Setter TEXT,
  SetDate DATE,
  HeightM REAL
);
CREATE TABLE Ascent (
  AscentID INTEGER PRIMARY KEY,
  MemberID INTEGER,
  RouteID INTEGER,
  AscentDate DATE,
  Attempts INTEGER,
  Style TEXT,
  FOREIGN KEY (MemberID) REFERENCES Member(MemberID),
  FOREIGN KEY (RouteID) REFERENCES Route(RouteID)
);

INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (1, 'Lucas', 'White', 34, 'Boulder', 'Standard', '2021-04-27');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (2, 'Ruby', 'Roberts', 56, 'Boulder', 'Standard', '2022-07-24');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (3, 'Jacob', 'Baker', 30, 'Boulder', 'Basic', '2019-08-21');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (4, 'James', 'Lopez', 42, 'Golden', 'Premium', '2023-12-03');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (5, 'Elijah', 'Garcia', 39, 'Boulder', 'Basic', '2021-07-10');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (6, 'Benjamin', 'King', 26, 'Denver', 'Standard', '2024-07-16');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (7, 'Samuel', 'Scott', 38, 'Boulder', 'Basic', '2021-07-25');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (8, 'Grace', 'Smith', 48, 'Lakewood', 'Premium', '2021-10-24');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (9, 'Abigail', 'Miller', 36, 'Denver', 'Premium', '2023-09-12');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (10, 'Mason', 'Perez', 43, 'Longmont', 'Standard', '2022-05-27');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (11, 'Lily', 'Lee', 50, 'Denver', 'Standard', '2023-09-23');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (12, 'Caleb', 'Wright', 15, 'Golden', 'Basic', '2021-03-03');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (13, 'Liam', 'Harris', 21, 'Golden', 'Basic', '2023-06-23');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (14, 'Logan', 'Lopez', 17, 'Lakewood', 'Standard', '2023-10-29');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (15, 'Evelyn', 'Garcia', 45, 'Boulder', 'Premium', '2023-08-15');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (16, 'Ethan', 'Adams', 15, 'Lakewood', 'Standard', '2024-02-06');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (17, 'Chloe', 'Miller', 50, 'Denver', 'Premium', '2020-02-11');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (18, 'Isabella', 'Wright', 49, 'Lakewood', 'Basic', '2020-10-12');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (19, 'Noah', 'Moore', 49, 'Denver', 'Basic', '2018-07-04');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (20, 'David', 'Smith', 25, 'Golden', 'Premium', '2022-06-07');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (21, 'Oliver', 'Clark', 37, 'Denver', 'Premium', '2019-02-28');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (22, 'Mia', 'Young', 30, 'Golden', 'Standard', '2021-09-26');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (23, 'Amelia', 'Lee', 43, 'Longmont', 'Basic', '2021-08-18');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (24, 'Emily', 'Mitchell', 31, 'Boulder', 'Standard', '2018-10-20');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (25, 'Emma', 'Thomas', 39, 'Denver', 'Standard', '2019-08-26');
INSERT INTO Member (MemberID, FirstName, LastName, Age, City, MembershipLevel, JoinDate) VALUES (26, 'Leo', 'Mitchell', 49, 'Golden', 'Basic', '2020-11-04');

INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (1, 'Crimp Lord', 'Cave', 'Boulder', 5, 'Jess Kim', '2024-09-03', 4.2);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (2, 'Slab Happy', 'Slab', 'Top-rope', 5, 'Ruth Ellis', '2024-02-22', 11.5);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (3, 'Green Arete', 'Arete', 'Lead', 4, 'Dev Shah', '2024-08-17', 15.1);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (4, 'Red Roof', 'Overhang', 'Lead', 4, 'Ruth Ellis', '2024-07-07', 14.5);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (5, 'Jug Haul', 'Main Wall', 'Top-rope', 5, 'Ruth Ellis', '2024-02-10', 15.7);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (6, 'Moonwalk', 'Bouldering Pit', 'Boulder', 1, 'Jess Kim', '2024-04-27', 4.3);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (7, 'Cave Man', 'Cave', 'Boulder', 3, 'Dev Shah', '2024-03-23', 3.6);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (8, 'Sloper Heaven', 'Slab', 'Top-rope', 9, 'Ruth Ellis', '2024-07-04', 11.0);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (9, 'The Prow', 'Arete', 'Lead', 4, 'Dev Shah', '2024-04-16', 10.0);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (10, 'Overhang Odyssey', 'Overhang', 'Lead', 8, 'Marco Silva', '2024-07-14', 13.6);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (11, 'Vertical Limit', 'Main Wall', 'Top-rope', 7, 'Dev Shah', '2024-03-03', 15.4);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (12, 'Flake Out', 'Bouldering Pit', 'Boulder', 1, 'Jess Kim', '2024-05-18', 4.1);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (13, 'Blue Steel', 'Cave', 'Boulder', 7, 'Dev Shah', '2024-04-06', 4.0);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (14, 'Heel Hook Hero', 'Slab', 'Top-rope', 4, 'Dev Shah', '2024-03-10', 12.1);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (15, 'Sidewinder', 'Arete', 'Lead', 5, 'Dev Shah', '2024-06-13', 12.4);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (16, 'Tufa King', 'Overhang', 'Lead', 9, 'Jess Kim', '2024-08-28', 10.7);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (17, 'Pocket Rocket', 'Main Wall', 'Top-rope', 3, 'Ruth Ellis', '2024-04-25', 10.8);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (18, 'Gaston Street', 'Bouldering Pit', 'Boulder', 3, 'Ruth Ellis', '2024-03-03', 3.6);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (19, 'Tiny Dancer', 'Cave', 'Boulder', 0, 'Dev Shah', '2024-09-02', 3.8);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (20, 'Yellow Brick Road', 'Slab', 'Top-rope', 4, 'Marco Silva', '2024-07-10', 11.7);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (21, 'Knife Edge', 'Arete', 'Lead', 2, 'Ruth Ellis', '2024-07-14', 11.5);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (22, 'Orange Crush', 'Overhang', 'Lead', 8, 'Nina Howard', '2024-03-13', 14.4);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (23, 'Last Rung', 'Main Wall', 'Top-rope', 4, 'Jess Kim', '2024-02-24', 14.9);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (24, 'Chalk Storm', 'Bouldering Pit', 'Boulder', 8, 'Nina Howard', '2024-09-02', 3.9);
INSERT INTO Route (RouteID, RouteName, Wall, RouteType, Difficulty, Setter, SetDate, HeightM) VALUES (25, 'The Dyno', 'Cave', 'Boulder', 7, 'Nina Howard', '2024-03-01', 4.4);

INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (1, 18, 11, '2024-03-03', 15, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (2, 11, 5, '2024-03-08', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (3, 8, 14, '2024-03-10', 3, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (4, 15, 22, '2024-03-13', 7, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (5, 2, 7, '2024-03-23', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (6, 13, 14, '2024-04-02', 7, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (7, 12, 13, '2024-04-06', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (8, 17, 7, '2024-04-13', 6, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (9, 21, 17, '2024-04-25', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (10, 13, 17, '2024-04-25', 2, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (11, 26, 6, '2024-04-27', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (12, 13, 22, '2024-05-01', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (13, 6, 23, '2024-05-02', 3, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (14, 16, 11, '2024-05-15', 6, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (15, 17, 12, '2024-05-18', 2, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (16, 4, 17, '2024-05-19', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (17, 16, 23, '2024-05-28', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (18, 6, 25, '2024-06-07', 5, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (19, 20, 15, '2024-06-13', 2, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (20, 16, 6, '2024-06-17', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (21, 22, 5, '2024-06-22', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (22, 8, 22, '2024-07-02', 5, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (23, 15, 8, '2024-07-04', 6, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (24, 25, 4, '2024-07-07', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (25, 18, 7, '2024-07-08', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (26, 12, 20, '2024-07-10', 4, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (27, 3, 2, '2024-07-10', 10, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (28, 24, 21, '2024-07-14', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (29, 5, 21, '2024-07-14', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (30, 16, 21, '2024-07-14', 2, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (31, 1, 12, '2024-07-19', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (32, 14, 20, '2024-07-19', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (33, 21, 11, '2024-07-23', 7, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (34, 8, 7, '2024-07-24', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (35, 5, 2, '2024-07-28', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (36, 24, 13, '2024-08-09', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (37, 5, 6, '2024-08-16', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (38, 15, 3, '2024-08-17', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (39, 23, 16, '2024-08-28', 15, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (40, 1, 16, '2024-08-28', 4, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (41, 14, 23, '2024-08-30', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (42, 15, 19, '2024-09-02', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (43, 18, 19, '2024-09-02', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (44, 12, 19, '2024-09-02', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (45, 12, 1, '2024-09-03', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (46, 18, 1, '2024-09-03', 2, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (47, 23, 1, '2024-09-03', 5, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (48, 4, 1, '2024-09-03', 5, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (49, 6, 1, '2024-09-03', 2, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (50, 25, 25, '2024-09-05', 5, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (51, 10, 17, '2024-09-08', 4, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (52, 25, 22, '2024-09-14', 7, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (53, 8, 19, '2024-09-21', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (54, 18, 21, '2024-09-23', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (55, 18, 8, '2024-10-04', 7, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (56, 2, 20, '2024-10-07', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (57, 2, 2, '2024-10-09', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (58, 22, 14, '2024-10-12', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (59, 4, 25, '2024-10-19', 5, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (60, 21, 13, '2024-10-27', 7, 'Redpoint');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (61, 23, 3, '2024-10-28', 1, 'Flash');
INSERT INTO Ascent (AscentID, MemberID, RouteID, AscentDate, Attempts, Style) VALUES (62, 11, 7, '2024-10-30', 1, 'Flash');
