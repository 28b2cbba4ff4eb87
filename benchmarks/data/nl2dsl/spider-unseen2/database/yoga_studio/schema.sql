PRAGMA foreign_keys = ON;
BEGIN TRANSACTION;
CREATE TABLE Instructor (
  Instructor_ID INTEGER PRIMARY KEY,
  Name TEXT,
  Age INTEGER,
  Certification_Level TEXT,
  Hire_Date TEXT,
  Hourly_Pay REAL
);
CREATE TABLE yoga_class (
  class_id INTEGER PRIMARY KEY,
  class_name TEXT,
  style TEXT,
  instructor_id INTEGER,
  day_of_week TEXT,
  start_time TEXT,
  capacity INTEGER,
  price REAL,
  FOREIGN KEY (instructor_id) REFERENCES Instructor(Instructor_ID)
);
CREATE TABLE member (
  member_id INTEGER PRIMARY KEY,
  full_name TEXT,
  age INTEGER,
  membership_type TEXT,
  join_date TEXT
);
CREATE TABLE enrollment (
  member_id INTEGER,
  class_id INTEGER,
  enroll_date TEXT,
  PRIMARY KEY (member_id, class_id),
  FOREIGN KEY (member_id) REFERENCES member(member_id),
  FOREIGN KEY (class_id) REFERENCES yoga_class(class_id)
);
INSERT INTO Instructor VALUES (1, 'Leela Kapoor', 41, 'RYT-500', '2016-03-01', 42.0);
INSERT INTO Instructor VALUES (2, 'Marcus Bell', 29, 'RYT-200', '2021-09-15', 28.0);
INSERT INTO Instructor VALUES (3, 'Sienna Park', 35, 'RYT-500', '2018-01-10', 38.5);
INSERT INTO Instructor VALUES (4, 'Jonah Ellis', 52, 'E-RYT-500', '2012-06-20', 55.0);
INSERT INTO Instructor VALUES (5, 'Camille Roux', 26, 'RYT-200', '2023-02-01', 25.0);
INSERT INTO Instructor VALUES (6, 'Tariq Hassan', 38, 'E-RYT-200', '2017-11-05', 40.0);
INSERT INTO Instructor VALUES (7, 'Ingrid Solberg', 45, 'RYT-200', '2019-04-12', 31.5);
INSERT INTO Instructor VALUES (8, 'Beatriz Lima', 31, 'RYT-500', '2022-08-30', 33.0);
INSERT INTO Instructor VALUES (9, 'Kenji Mori', 48, 'E-RYT-500', '2014-09-01', 47.5);
INSERT INTO Instructor VALUES (10, 'Olivia Brandt', 33, 'RYT-200', '2020-05-18', 27.0);
INSERT INTO Instructor VALUES (11, 'Ravi Shankar', 39, 'RYT-500', '2018-07-23', 36.0);
INSERT INTO Instructor VALUES (12, 'Elsa Norberg', 27, 'RYT-200', '2024-01-08', 26.0);
INSERT INTO Instructor VALUES (13, 'Dario Fontana', 44, 'E-RYT-200', '2015-03-30', 44.0);
INSERT INTO Instructor VALUES (14, 'Hannah Weiss', 30, 'RYT-200', '2022-02-14', 29.5);
INSERT INTO Instructor VALUES (15, 'Nia Adeyemi', 36, 'RYT-500', '2019-10-01', 37.0);
INSERT INTO yoga_class VALUES (1, 'Sunrise Flow', 'Vinyasa', 1, 'Monday', '06:30', 20, 14.0);
INSERT INTO yoga_class VALUES (2, 'Deep Stretch', 'Yin', 3, 'Monday', '19:00', 16, 15.0);
INSERT INTO yoga_class VALUES (3, 'Power Hour', 'Ashtanga', 4, 'Tuesday', '18:00', 18, 18.0);
INSERT INTO yoga_class VALUES (4, 'Gentle Start', 'Hatha', 7, 'Tuesday', '10:00', 14, 12.0);
INSERT INTO yoga_class VALUES (5, 'Core Fire', 'Power', 2, 'Wednesday', '12:15', 22, 16.0);
INSERT INTO yoga_class VALUES (6, 'Moonlight Yin', 'Yin', 3, 'Wednesday', '20:30', 12, 15.5);
INSERT INTO yoga_class VALUES (7, 'Mysore Practice', 'Ashtanga', 4, 'Thursday', '07:00', 10, 21.0);
INSERT INTO yoga_class VALUES (8, 'Lunch Flow', 'Vinyasa', 2, 'Thursday', '12:30', 20, 13.0);
INSERT INTO yoga_class VALUES (9, 'Hot Vinyasa', 'Vinyasa', 6, 'Friday', '18:30', 24, 19.5);
INSERT INTO yoga_class VALUES (10, 'Restore and Breathe', 'Restorative', 7, 'Friday', '17:00', 12, 14.5);
INSERT INTO yoga_class VALUES (11, 'Weekend Hatha', 'Hatha', 1, 'Saturday', '09:00', 25, 13.5);
INSERT INTO yoga_class VALUES (12, 'Prenatal Calm', 'Prenatal', 5, 'Saturday', '11:00', 10, 17.0);
INSERT INTO yoga_class VALUES (13, 'Sunday Slow Flow', 'Vinyasa', 6, 'Sunday', '10:30', 20, 14.0);
INSERT INTO yoga_class VALUES (14, 'Aerial Basics', 'Aerial', 5, 'Sunday', '14:00', 8, 24.0);
INSERT INTO yoga_class VALUES (15, 'Chair Yoga', 'Hatha', 7, 'Monday', '11:00', 15, 10.0);
INSERT INTO yoga_class VALUES (16, 'Pilates Fusion', 'Power', 9, 'Tuesday', '07:15', 18, 16.5);
INSERT INTO yoga_class VALUES (17, 'Kundalini Awakening', 'Kundalini', 10, 'Wednesday', '18:45', 14, 17.5);
INSERT INTO yoga_class VALUES (18, 'Yoga Nidra', 'Restorative', 11, 'Thursday', '21:00', 16, 12.5);
INSERT INTO yoga_class VALUES (19, 'Teen Flow', 'Vinyasa', 12, 'Saturday', '15:30', 20, 9.0);
INSERT INTO yoga_class VALUES (20, 'Iyengar Alignment', 'Iyengar', 14, 'Friday', '09:30', 12, 18.5);
INSERT INTO member VALUES (1, 'Harriet Blom', 74, 'Drop-in', '2022-04-12');
INSERT INTO member VALUES (2, 'Sunil Varma', 52, 'Annual', '2023-03-23');
INSERT INTO member VALUES (3, 'Olga Ivanova', 44, 'Annual', '2023-07-24');
INSERT INTO member VALUES (4, 'Declan Moss', 57, 'Student', '2021-02-09');
INSERT INTO member VALUES (5, 'Yuki Tanaka', 29, 'Drop-in', '2022-09-21');
INSERT INTO member VALUES (6, 'Brianna Cole', 41, 'Student', '2021-01-19');
INSERT INTO member VALUES (7, 'Farid Nasser', 33, 'Annual', '2020-02-25');
INSERT INTO member VALUES (8, 'Gemma Price', 73, 'Drop-in', '2020-11-14');
INSERT INTO member VALUES (9, 'Lars Eriksen', 64, 'Student', '2022-12-03');
INSERT INTO member VALUES (10, 'Pia Conti', 36, 'Drop-in', '2024-05-03');
INSERT INTO member VALUES (11, 'Quentin Roy', 45, 'Drop-in', '2023-07-11');
INSERT INTO member VALUES (12, 'Rachel Adler', 26, 'Student', '2020-01-06');
INSERT INTO member VALUES (13, 'Stefan Horvat', 37, 'Monthly', '2022-08-07');
INSERT INTO member VALUES (14, 'Tessa Young', 25, 'Student', '2021-06-27');
INSERT INTO member VALUES (15, 'Umar Farooq', 18, 'Student', '2023-01-28');
INSERT INTO member VALUES (16, 'Vera Lindgren', 47, 'Student', '2024-03-23');
INSERT INTO member VALUES (17, 'Wendy Ng', 65, 'Student', '2023-01-20');
INSERT INTO member VALUES (18, 'Xavier Duval', 20, 'Student', '2024-05-01');
INSERT INTO member VALUES (19, 'Yasmin Aziz', 35, 'Monthly', '2021-02-16');
INSERT INTO member VALUES (20, 'Zach Morrow', 39, 'Annual', '2021-06-26');
INSERT INTO member VALUES (21, 'Alba Serra', 38, 'Annual', '2024-02-19');
INSERT INTO member VALUES (22, 'Bruno Costa', 21, 'Student', '2022-10-21');
INSERT INTO member VALUES (23, 'Celia Frost', 34, 'Student', '2021-09-09');
INSERT INTO member VALUES (24, 'Dmitri Orlov', 46, 'Drop-in', '2023-07-25');
INSERT INTO member VALUES (25, 'Edith Hale', 49, 'Drop-in', '2020-05-24');
INSERT INTO member VALUES (26, 'Fabio Ricci', 61, 'Annual', '2022-11-17');
INSERT INTO enrollment VALUES (5, 2, '2023-08-16');
INSERT INTO enrollment VALUES (16, 2, '2024-03-15');
INSERT INTO enrollment VALUES (1, 15, '2024-07-21');
INSERT INTO enrollment VALUES (9, 9, '2023-11-20');
INSERT INTO enrollment VALUES (18, 4, '2024-06-12');
INSERT INTO enrollment VALUES (20, 15, '2023-05-16');
INSERT INTO enrollment VALUES (11, 4, '2023-11-21');
INSERT INTO enrollment VALUES (11, 9, '2024-01-10');
INSERT INTO enrollment VALUES (14, 1, '2023-12-09');
INSERT INTO enrollment VALUES (4, 2, '2024-07-11');
INSERT INTO enrollment VALUES (9, 8, '2024-10-01');
INSERT INTO enrollment VALUES (15, 5, '2024-07-26');
INSERT INTO enrollment VALUES (8, 8, '2024-12-04');
INSERT INTO enrollment VALUES (18, 5, '2024-01-05');
INSERT INTO enrollment VALUES (10, 8, '2023-09-27');
INSERT INTO enrollment VALUES (14, 8, '2023-12-09');
INSERT INTO enrollment VALUES (3, 8, '2024-10-28');
INSERT INTO enrollment VALUES (15, 3, '2024-07-16');
INSERT INTO enrollment VALUES (6, 15, '2024-12-14');
INSERT INTO enrollment VALUES (1, 2, '2023-07-30');
INSERT INTO enrollment VALUES (8, 3, '2024-04-09');
INSERT INTO enrollment VALUES (5, 10, '2023-11-12');
INSERT INTO enrollment VALUES (4, 1, '2024-05-28');
INSERT INTO enrollment VALUES (8, 12, '2024-10-17');
INSERT INTO enrollment VALUES (22, 15, '2023-06-22');
INSERT INTO enrollment VALUES (4, 12, '2023-08-17');
INSERT INTO enrollment VALUES (10, 1, '2024-02-28');
INSERT INTO enrollment VALUES (3, 9, '2024-10-23');
INSERT INTO enrollment VALUES (7, 5, '2023-01-11');
INSERT INTO enrollment VALUES (8, 10, '2023-05-15');
INSERT INTO enrollment VALUES (14, 10, '2024-08-18');
INSERT INTO enrollment VALUES (10, 13, '2023-06-09');
INSERT INTO enrollment VALUES (6, 1, '2024-01-21');
INSERT INTO enrollment VALUES (22, 7, '2024-05-30');
INSERT INTO enrollment VALUES (20, 7, '2023-02-12');
INSERT INTO enrollment VALUES (14, 9, '2023-12-30');
INSERT INTO enrollment VALUES (1, 3, '2023-03-04');
INSERT INTO enrollment VALUES (11, 8, '2023-04-12');
INSERT INTO enrollment VALUES (4, 6, '2023-11-18');
INSERT INTO enrollment VALUES (16, 8, '2023-09-12');
INSERT INTO enrollment VALUES (2, 15, '2023-02-07');
INSERT INTO enrollment VALUES (8, 1, '2024-09-08');
INSERT INTO enrollment VALUES (10, 4, '2023-03-01');
INSERT INTO enrollment VALUES (15, 1, '2023-05-04');
INSERT INTO enrollment VALUES (19, 8, '2024-05-27');
INSERT INTO enrollment VALUES (9, 1, '2023-02-04');
INSERT INTO enrollment VALUES (4, 11, '2024-09-14');
INSERT INTO enrollment VALUES (5, 1, '2023-12-02');
INSERT INTO enrollment VALUES (19, 7, '2024-02-17');
INSERT INTO enrollment VALUES (3, 10, '2024-05-01');
INSERT INTO enrollment VALUES (18, 1, '2024-07-28');
INSERT INTO enrollment VALUES (12, 8, '2023-03-18');
INSERT INTO enrollment VALUES (1, 11, '2023-09-06');
INSERT INTO enrollment VALUES (4, 9, '2024-03-02');
INSERT INTO enrollment VALUES (23, 16, '2024-05-06');
INSERT INTO enrollment VALUES (3, 16, '2024-06-11');
INSERT INTO enrollment VALUES (24, 17, '2024-04-02');
INSERT INTO enrollment VALUES (12, 19, '2024-02-20');
INSERT INTO enrollment VALUES (7, 20, '2024-07-01');
INSERT INTO enrollment VALUES (2, 8, '2024-01-15');
COMMIT;
