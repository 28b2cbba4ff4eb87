PRAGMA foreign_keys = ON;
CREATE TABLE Teacher (
  TeacherID INTEGER PRIMARY KEY,
  Name TEXT,
  Instrument TEXT,
  YearsExperience INTEGER,
  HourlyRate REAL
);
CREATE TABLE student (
  student_id INTEGER PRIMARY KEY,
  first_name TEXT,
  last_name TEXT,
  age INTEGER,
  city TEXT,
  enrol_date TEXT,
  grade_level INTEGER
);
CREATE TABLE Lesson (
  LessonID INTEGER PRIMARY KEY,
  TeacherID INTEGER,
  StudentID INTEGER,
  LessonDate TEXT,
  DurationMin INTEGER,
  Room TEXT,
  FOREIGN KEY (TeacherID) REFERENCES Teacher(TeacherID),
  FOREIGN KEY (StudentID) REFERENCES student(student_id)
);
CREATE TABLE recital_performance (
  performance_id INTEGER PRIMARY KEY,
  student_id INTEGER,
  piece_title TEXT,
  composer TEXT,
  perf_date TEXT,
  score REAL,
  FOREIGN KEY (student_id) REFERENCES student(student_id)
);
INSERT INTO Teacher VALUES (1, 'Kai Evans', 'Piano', 22, 60.0);
INSERT INTO Teacher VALUES (2, 'Olivia Price', 'Piano', 17, 45.0);
INSERT INTO Teacher VALUES (3, 'Ruby Patel', 'Piano', 5, 48.0);
INSERT INTO Teacher VALUES (4, 'Ivan Knight', 'Violin', 29, 28.0);
INSERT INTO Teacher VALUES (5, 'Hannah Evans', 'Violin', 3, 50.0);
INSERT INTO Teacher VALUES (6, 'Nina Khan', 'Guitar', 12, 61.0);
INSERT INTO Teacher VALUES (7, 'Umar Hill', 'Guitar', 11, 47.0);
INSERT INTO Teacher VALUES (8, 'Hannah Patel', 'Cello', 8, 53.0);
INSERT INTO Teacher VALUES (9, 'Caleb Wright', 'Flute', 4, 52.0);
INSERT INTO Teacher VALUES (10, 'Ella Wright', 'Drums', 25, 39.0);
INSERT INTO Teacher VALUES (11, 'Aaron Wright', 'Saxophone', 13, 35.0);
INSERT INTO Teacher VALUES (12, 'Daniel Ward', 'Voice', 32, 56.0);
INSERT INTO Teacher VALUES (13, 'Marco Bennett', 'Piano', 34, 29.0);
INSERT INTO Teacher VALUES (14, 'Bella Price', 'Trumpet', 31, 69.0);
INSERT INTO Teacher VALUES (15, 'Ruby Knight', 'Clarinet', 9, 55.0);
INSERT INTO student VALUES (1, 'Jade', 'Bennett', 39, 'Oxford', '2020-11-11', 1);
INSERT INTO student VALUES (2, 'Harry', 'Taylor', 33, 'Abingdon', '2021-12-11', 8);
INSERT INTO student VALUES (3, 'Jack', 'Taylor', 23, 'Witney', '2021-03-08', 5);
INSERT INTO student VALUES (4, 'Harry', 'Carter', 37, 'Oxford', '2023-12-09', 2);
INSERT INTO student VALUES (5, 'Umar', 'Smith', 41, 'Didcot', '2023-11-18', 2);
INSERT INTO student VALUES (6, 'Daniel', 'Wood', 31, 'Oxford', '2021-10-12', 4);
INSERT INTO student VALUES (7, 'Ruby', 'Green', 8, 'Witney', '2021-10-13', 2);
INSERT INTO student VALUES (8, 'Mia', 'Bennett', 44, 'Oxford', '2021-01-11', 1);
INSERT INTO student VALUES (9, 'Mia', 'Hill', 19, 'Abingdon', '2023-11-19', 7);
INSERT INTO student VALUES (10, 'Yusuf', 'Clarke', 17, 'Witney', '2023-08-18', 6);
INSERT INTO student VALUES (11, 'Marco', 'Patel', 32, 'Oxford', '2020-09-14', 3);
INSERT INTO student VALUES (12, 'Will', 'Young', 35, 'Didcot', '2022-12-26', 1);
INSERT INTO student VALUES (13, 'Ivan', 'Clarke', 12, 'Oxford', '2021-03-02', 3);
INSERT INTO student VALUES (14, 'Tara', 'Patel', 10, 'Witney', '2023-03-25', 1);
INSERT INTO student VALUES (15, 'Ella', 'Smith', 34, 'Oxford', '2020-10-13', 4);
INSERT INTO student VALUES (16, 'Ethan', 'Hall', 29, 'Abingdon', '2023-10-15', 4);
INSERT INTO student VALUES (17, 'Yusuf', 'Turner', 43, 'Witney', '2024-06-16', 2);
INSERT INTO student VALUES (18, 'Xena', 'Brown', 26, 'Oxford', '2022-07-18', 6);
INSERT INTO student VALUES (19, 'Priya', 'Smith', 16, 'Didcot', '2021-03-01', 8);
INSERT INTO student VALUES (20, 'Ivan', 'Baker', 30, 'Oxford', '2022-05-27', 1);
INSERT INTO student VALUES (21, 'Caleb', 'Ward', 18, 'Witney', '2024-06-07', 1);
INSERT INTO student VALUES (22, 'Umar', 'Bennett', 20, 'Oxford', '2020-09-14', 8);
INSERT INTO student VALUES (23, 'Katie', 'Knight', 42, 'Abingdon', '2022-04-18', 6);
INSERT INTO student VALUES (24, 'Freya', 'Ward', 21, 'Witney', '2022-07-02', 3);
INSERT INTO student VALUES (25, 'Nina', 'Patel', 36, 'Oxford', '2024-09-12', 6);
INSERT INTO student VALUES (26, 'Chloe', 'Moore', 25, 'Didcot', '2021-03-20', 6);
INSERT INTO student VALUES (27, 'Finn', 'Fisher', 28, 'Oxford', '2022-11-02', 8);
INSERT INTO student VALUES (28, 'Marco', 'Knight', 22, 'Witney', '2023-03-11', 5);
INSERT INTO student VALUES (29, 'Sam', 'Clarke', 27, 'Oxford', '2021-10-20', 2);
INSERT INTO student VALUES (30, 'Ruby', 'Wood', 15, 'Abingdon', '2023-08-18', 4);
INSERT INTO Lesson VALUES (1, 11, 17, '2024-06-15', 45, 'Hall');
INSERT INTO Lesson VALUES (2, 6, 18, '2024-08-16', 60, 'Hall');
INSERT INTO Lesson VALUES (3, 4, 15, '2024-05-07', 60, 'B1');
INSERT INTO Lesson VALUES (4, 9, 1, '2024-06-11', 45, 'B2');
INSERT INTO Lesson VALUES (5, 2, 10, '2024-01-15', 60, 'B1');
INSERT INTO Lesson VALUES (6, 11, 24, '2024-04-16', 60, 'B2');
INSERT INTO Lesson VALUES (7, 1, 2, '2024-05-12', 60, 'Hall');
INSERT INTO Lesson VALUES (8, 6, 14, '2024-09-20', 60, 'B1');
INSERT INTO Lesson VALUES (9, 9, 23, '2024-03-09', 60, 'A1');
INSERT INTO Lesson VALUES (10, 4, 14, '2024-06-18', 45, 'Hall');
INSERT INTO Lesson VALUES (11, 4, 24, '2024-05-30', 60, 'B1');
INSERT INTO Lesson VALUES (12, 1, 12, '2024-01-22', 60, 'A1');
INSERT INTO Lesson VALUES (13, 6, 6, '2024-09-27', 45, 'A1');
INSERT INTO Lesson VALUES (14, 6, 23, '2024-06-03', 30, 'B2');
INSERT INTO Lesson VALUES (15, 2, 17, '2024-06-18', 60, 'A1');
INSERT INTO Lesson VALUES (16, 11, 14, '2024-09-25', 60, 'B1');
INSERT INTO Lesson VALUES (17, 3, 12, '2024-05-11', 30, 'Hall');
INSERT INTO Lesson VALUES (18, 9, 1, '2024-10-06', 60, 'A1');
INSERT INTO Lesson VALUES (19, 8, 9, '2024-08-24', 60, 'A1');
INSERT INTO Lesson VALUES (20, 7, 11, '2024-08-16', 60, 'A2');
INSERT INTO Lesson VALUES (21, 7, 13, '2024-03-22', 60, 'A2');
INSERT INTO Lesson VALUES (22, 1, 23, '2024-04-07', 60, 'B1');
INSERT INTO Lesson VALUES (23, 1, 12, '2024-06-10', 60, 'B1');
INSERT INTO Lesson VALUES (24, 5, 11, '2024-11-04', 30, 'B1');
INSERT INTO Lesson VALUES (25, 2, 6, '2024-11-06', 30, 'B2');
INSERT INTO Lesson VALUES (26, 5, 18, '2024-11-01', 60, 'A2');
INSERT INTO Lesson VALUES (27, 11, 5, '2024-09-16', 45, 'B2');
INSERT INTO Lesson VALUES (28, 10, 8, '2024-04-01', 60, 'Hall');
INSERT INTO Lesson VALUES (29, 8, 6, '2024-08-15', 45, 'B2');
INSERT INTO Lesson VALUES (30, 1, 25, '2024-03-11', 30, 'Hall');
INSERT INTO Lesson VALUES (31, 1, 21, '2024-11-15', 45, 'A2');
INSERT INTO Lesson VALUES (32, 1, 11, '2024-10-15', 60, 'Hall');
INSERT INTO Lesson VALUES (33, 4, 11, '2024-09-07', 60, 'A2');
INSERT INTO Lesson VALUES (34, 10, 9, '2024-04-05', 30, 'A1');
INSERT INTO Lesson VALUES (35, 4, 18, '2024-02-12', 30, 'A2');
INSERT INTO Lesson VALUES (36, 8, 25, '2024-03-20', 60, 'Hall');
INSERT INTO Lesson VALUES (37, 12, 21, '2024-03-11', 60, 'Hall');
INSERT INTO Lesson VALUES (38, 1, 7, '2024-01-17', 60, 'B2');
INSERT INTO Lesson VALUES (39, 2, 1, '2024-10-13', 60, 'A1');
INSERT INTO Lesson VALUES (40, 3, 15, '2024-02-22', 45, 'A2');
INSERT INTO Lesson VALUES (41, 7, 23, '2024-03-26', 60, 'B1');
INSERT INTO Lesson VALUES (42, 3, 21, '2024-06-20', 60, 'A2');
INSERT INTO Lesson VALUES (43, 9, 17, '2024-03-23', 45, 'Hall');
INSERT INTO Lesson VALUES (44, 3, 5, '2024-04-21', 30, 'B1');
INSERT INTO Lesson VALUES (45, 5, 18, '2024-05-13', 45, 'A1');
INSERT INTO Lesson VALUES (46, 11, 4, '2024-04-24', 45, 'Hall');
INSERT INTO Lesson VALUES (47, 10, 13, '2024-08-29', 60, 'A1');
INSERT INTO Lesson VALUES (48, 5, 23, '2024-11-04', 60, 'B1');
INSERT INTO Lesson VALUES (49, 7, 13, '2024-06-28', 30, 'A1');
INSERT INTO Lesson VALUES (50, 12, 7, '2024-07-05', 45, 'B1');
INSERT INTO Lesson VALUES (51, 9, 7, '2024-05-11', 30, 'A1');
INSERT INTO Lesson VALUES (52, 8, 21, '2024-07-13', 60, 'A2');
INSERT INTO Lesson VALUES (53, 8, 18, '2024-02-08', 30, 'A1');
INSERT INTO Lesson VALUES (54, 2, 14, '2024-10-14', 60, 'B1');
INSERT INTO Lesson VALUES (55, 7, 9, '2024-07-12', 60, 'B1');
INSERT INTO Lesson VALUES (56, 12, 8, '2024-09-22', 30, 'Hall');
INSERT INTO Lesson VALUES (57, 3, 11, '2024-07-20', 45, 'A1');
INSERT INTO Lesson VALUES (58, 5, 1, '2024-06-13', 60, 'A1');
INSERT INTO Lesson VALUES (59, 4, 24, '2024-10-05', 45, 'Hall');
INSERT INTO Lesson VALUES (60, 6, 16, '2024-08-14', 60, 'B2');
INSERT INTO recital_performance VALUES (1, 12, 'Fur Elise', 'Beethoven', '2024-06-22', 77.5);
INSERT INTO recital_performance VALUES (2, 7, 'Clair de Lune', 'Debussy', '2023-12-09', 91.5);
INSERT INTO recital_performance VALUES (3, 26, 'Gymnopedie No. 1', 'Satie', '2024-06-22', 65.0);
INSERT INTO recital_performance VALUES (4, 19, 'The Swan', 'Saint-Saens', '2023-12-09', 72.5);
INSERT INTO recital_performance VALUES (5, 13, 'Spring', 'Vivaldi', '2024-12-07', 85.5);
INSERT INTO recital_performance VALUES (6, 8, 'Minuet in G', 'Bach', '2023-12-09', 93.5);
INSERT INTO recital_performance VALUES (7, 17, 'Asturias', 'Albeniz', '2024-12-07', 87.5);
INSERT INTO recital_performance VALUES (8, 17, 'Romanza', 'Anonymous', '2023-12-09', 84.0);
INSERT INTO recital_performance VALUES (9, 8, 'Syrinx', 'Debussy', '2024-12-07', 69.5);
INSERT INTO recital_performance VALUES (10, 6, 'Ave Maria', 'Schubert', '2024-12-07', 83.5);
INSERT INTO recital_performance VALUES (11, 17, 'Prelude in C', 'Bach', '2024-12-07', 63.0);
INSERT INTO recital_performance VALUES (12, 17, 'Meditation', 'Massenet', '2024-06-22', 71.0);
INSERT INTO recital_performance VALUES (13, 27, 'Libertango', 'Piazzolla', '2024-06-22', 81.5);
INSERT INTO recital_performance VALUES (14, 19, 'Nocturne Op. 9 No. 2', 'Chopin', '2023-12-09', 97.0);
INSERT INTO recital_performance VALUES (15, 6, 'Canon in D', 'Pachelbel', '2023-12-09', 96.0);
INSERT INTO recital_performance VALUES (16, 26, 'Air on the G String', 'Bach', '2024-06-22', 80.5);
INSERT INTO recital_performance VALUES (17, 19, 'Hallelujah', 'Cohen', '2024-06-22', 79.0);
INSERT INTO recital_performance VALUES (18, 13, 'Summertime', 'Gershwin', '2024-12-07', 63.5);
INSERT INTO recital_performance VALUES (19, 6, 'Entertainer', 'Joplin', '2024-12-07', 95.5);
INSERT INTO recital_performance VALUES (20, 14, 'Arabesque No. 1', 'Debussy', '2024-06-22', 90.5);
