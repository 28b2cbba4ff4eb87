PRAGMA foreign_keys = ON;
BEGIN TRANSACTION;
CREATE TABLE Play (
  Play_ID INTEGER PRIMARY KEY,
  Title TEXT,
  Playwright TEXT,
  Genre TEXT,
  Premiere_Year INTEGER,
  Running_Time INTEGER
);
CREATE TABLE actor (
  actor_id INTEGER PRIMARY KEY,
  name TEXT,
  age INTEGER,
  nationality TEXT,
  agency TEXT
);
CREATE TABLE Performance (
  Performance_ID INTEGER PRIMARY KEY,
  Play_ID INTEGER,
  Venue TEXT,
  Perf_Date TEXT,
  Attendance INTEGER,
  Ticket_Price REAL,
  FOREIGN KEY (Play_ID) REFERENCES Play(Play_ID)
);
CREATE TABLE casting (
  actor_id INTEGER,
  Play_ID INTEGER,
  role_name TEXT,
  is_lead TEXT,
  PRIMARY KEY (actor_id, Play_ID),
  FOREIGN KEY (actor_id) REFERENCES actor(actor_id),
  FOREIGN KEY (Play_ID) REFERENCES Play(Play_ID)
);
INSERT INTO Play VALUES (1, 'The Lantern Keeper', 'Helen Armitage', 'Drama', 2015, 135);
INSERT INTO Play VALUES (2, 'Salt and Vinegar', 'Declan Rourke', 'Comedy', 2018, 95);
INSERT INTO Play VALUES (3, 'A Winter Orchard', 'Helen Armitage', 'Drama', 2012, 150);
INSERT INTO Play VALUES (4, 'The Borrowed Crown', 'Samuel Okoye', 'Tragedy', 2009, 170);
INSERT INTO Play VALUES (5, 'Pigeons on Parade', 'Declan Rourke', 'Comedy', 2021, 88);
INSERT INTO Play VALUES (6, 'Midnight at the Mill', 'Ruth Callow', 'Thriller', 2016, 118);
INSERT INTO Play VALUES (7, 'Glass Harbour', 'Samuel Okoye', 'Drama', 2019, 126);
INSERT INTO Play VALUES (8, 'The Tin Duchess', 'Ruth Callow', 'Musical', 2014, 142);
INSERT INTO Play VALUES (9, 'Twelve Ravens', 'Ingrid Falk', 'Musical', 2022, 155);
INSERT INTO Play VALUES (10, 'Lost Property', 'Ingrid Falk', 'Comedy', 2011, 102);
INSERT INTO Play VALUES (11, 'The Quiet Ferryman', 'Helen Armitage', 'Tragedy', 2023, 131);
INSERT INTO Play VALUES (12, 'Tea with Wolves', 'Marta Szabo', 'Thriller', 2017, 110);
INSERT INTO Play VALUES (13, 'Paper Lions', 'Marta Szabo', 'Drama', 2020, 99);
INSERT INTO Play VALUES (14, 'Northern Lights', 'Samuel Okoye', 'Musical', 2013, 160);
INSERT INTO Play VALUES (15, 'The Last Tram', 'Declan Rourke', 'Drama', 2024, 121);
INSERT INTO actor VALUES (1, 'Rose Whitfield', 49, 'Canadian', 'Greenroom Artists');
INSERT INTO actor VALUES (2, 'James Calder', 35, 'British', 'Limelight Talent');
INSERT INTO actor VALUES (3, 'Amara Nwosu', 61, 'Nigerian', 'Curtain Call Agency');
INSERT INTO actor VALUES (4, 'Henry Ashby', 43, 'Irish', 'Limelight Talent');
INSERT INTO actor VALUES (5, 'Lena Kowalski', 70, 'Irish', 'Curtain Call Agency');
INSERT INTO actor VALUES (6, 'Patrick Doyle', 73, 'British', 'Limelight Talent');
INSERT INTO actor VALUES (7, 'Yara Haddad', 39, 'British', 'Greenroom Artists');
INSERT INTO actor VALUES (8, 'Oliver Finch', 34, 'Irish', 'Stagedoor Management');
INSERT INTO actor VALUES (9, 'Mei Lin', 60, 'British', 'Stagedoor Management');
INSERT INTO actor VALUES (10, 'Thomas Grey', 63, 'Irish', 'Limelight Talent');
INSERT INTO actor VALUES (11, 'Freya Holm', 46, 'British', 'Limelight Talent');
INSERT INTO actor VALUES (12, 'Callum Reid', 45, 'Irish', 'Curtain Call Agency');
INSERT INTO actor VALUES (13, 'Isabel Navarro', 27, 'Canadian', 'Greenroom Artists');
INSERT INTO actor VALUES (14, 'Noah Brennan', 55, 'British', 'Stagedoor Management');
INSERT INTO actor VALUES (15, 'Sadie Cole', 65, 'Italian', 'Limelight Talent');
INSERT INTO actor VALUES (16, 'Viktor Hale', 50, 'Canadian', 'Limelight Talent');
INSERT INTO actor VALUES (17, 'Ruby Sinclair', 25, 'British', 'Limelight Talent');
INSERT INTO actor VALUES (18, 'Ethan Marlowe', 58, 'Nigerian', 'Stagedoor Management');
INSERT INTO actor VALUES (19, 'Aoife Byrne', 59, 'Irish', 'Stagedoor Management');
INSERT INTO actor VALUES (20, 'Luca Moretti', 53, 'Nigerian', 'Limelight Talent');
INSERT INTO Performance VALUES (1, 11, 'Royal Exchange', '2024-02-24', 298, 18.0);
INSERT INTO Performance VALUES (2, 2, 'Old Vic Annex', '2024-01-08', 869, 25.0);
INSERT INTO Performance VALUES (3, 13, 'Old Vic Annex', '2024-06-17', 523, 35.0);
INSERT INTO Performance VALUES (4, 14, 'Royal Exchange', '2024-12-24', 726, 25.0);
INSERT INTO Performance VALUES (5, 5, 'Old Vic Annex', '2022-10-03', 164, 25.0);
INSERT INTO Performance VALUES (6, 3, 'Lyric Studio', '2022-01-10', 714, 22.0);
INSERT INTO Performance VALUES (7, 5, 'Corn Hall', '2022-03-06', 374, 32.0);
INSERT INTO Performance VALUES (8, 2, 'Old Vic Annex', '2023-06-22', 485, 35.0);
INSERT INTO Performance VALUES (9, 12, 'Corn Hall', '2022-07-06', 784, 22.0);
INSERT INTO Performance VALUES (10, 13, 'Corn Hall', '2024-07-25', 464, 28.0);
INSERT INTO Performance VALUES (11, 7, 'Old Vic Annex', '2024-03-26', 851, 35.0);
INSERT INTO Performance VALUES (12, 1, 'Royal Exchange', '2022-07-30', 497, 35.0);
INSERT INTO Performance VALUES (13, 2, 'Royal Exchange', '2024-06-02', 339, 25.0);
INSERT INTO Performance VALUES (14, 13, 'Corn Hall', '2023-01-30', 812, 22.0);
INSERT INTO Performance VALUES (15, 12, 'Old Vic Annex', '2023-05-30', 461, 22.0);
INSERT INTO Performance VALUES (16, 14, 'Lyric Studio', '2023-07-16', 125, 35.0);
INSERT INTO Performance VALUES (17, 7, 'Old Vic Annex', '2023-05-28', 153, 25.0);
INSERT INTO Performance VALUES (18, 1, 'Corn Hall', '2023-06-17', 398, 18.0);
INSERT INTO Performance VALUES (19, 12, 'Royal Exchange', '2024-11-11', 408, 45.0);
INSERT INTO Performance VALUES (20, 9, 'Corn Hall', '2022-11-30', 400, 22.0);
INSERT INTO Performance VALUES (21, 1, 'Corn Hall', '2024-06-02', 602, 28.0);
INSERT INTO Performance VALUES (22, 4, 'Corn Hall', '2024-06-03', 435, 40.0);
INSERT INTO Performance VALUES (23, 13, 'Corn Hall', '2022-01-19', 723, 22.0);
INSERT INTO Performance VALUES (24, 11, 'Royal Exchange', '2022-10-06', 781, 28.0);
INSERT INTO Performance VALUES (25, 7, 'Royal Exchange', '2024-09-23', 372, 25.0);
INSERT INTO Performance VALUES (26, 5, 'Corn Hall', '2024-08-30', 792, 25.0);
INSERT INTO Performance VALUES (27, 4, 'Old Vic Annex', '2022-02-15', 655, 25.0);
INSERT INTO Performance VALUES (28, 12, 'Lyric Studio', '2024-06-02', 465, 40.0);
INSERT INTO Performance VALUES (29, 12, 'Royal Exchange', '2024-02-24', 519, 35.0);
INSERT INTO Performance VALUES (30, 13, 'Lyric Studio', '2022-09-11', 882, 18.0);
INSERT INTO Performance VALUES (31, 8, 'Lyric Studio', '2022-11-15', 894, 40.0);
INSERT INTO Performance VALUES (32, 9, 'Corn Hall', '2023-04-04', 745, 18.0);
INSERT INTO Performance VALUES (33, 13, 'Royal Exchange', '2024-04-20', 215, 35.0);
INSERT INTO Performance VALUES (34, 2, 'Royal Exchange', '2023-06-10', 350, 18.0);
INSERT INTO Performance VALUES (35, 14, 'Corn Hall', '2023-01-02', 735, 32.0);
INSERT INTO Performance VALUES (36, 13, 'Corn Hall', '2023-04-08', 887, 22.0);
INSERT INTO Performance VALUES (37, 2, 'Lyric Studio', '2023-10-02', 456, 22.0);
INSERT INTO Performance VALUES (38, 4, 'Lyric Studio', '2022-04-26', 385, 45.0);
INSERT INTO Performance VALUES (39, 4, 'Old Vic Annex', '2024-07-16', 576, 40.0);
INSERT INTO Performance VALUES (40, 14, 'Lyric Studio', '2024-02-16', 480, 45.0);
INSERT INTO Performance VALUES (41, 3, 'Corn Hall', '2023-10-02', 631, 28.0);
INSERT INTO Performance VALUES (42, 7, 'Corn Hall', '2024-03-31', 694, 22.0);
INSERT INTO Performance VALUES (43, 1, 'Old Vic Annex', '2024-06-24', 600, 35.0);
INSERT INTO Performance VALUES (44, 7, 'Old Vic Annex', '2022-01-25', 825, 32.0);
INSERT INTO Performance VALUES (45, 7, 'Corn Hall', '2022-12-25', 620, 40.0);
INSERT INTO casting VALUES (8, 14, 'Clerk', 'T');
INSERT INTO casting VALUES (16, 1, 'Ferryman', 'F');
INSERT INTO casting VALUES (4, 14, 'Captain', 'F');
INSERT INTO casting VALUES (10, 4, 'Mother', 'T');
INSERT INTO casting VALUES (4, 10, 'King', 'F');
INSERT INTO casting VALUES (15, 1, 'Ferryman', 'T');
INSERT INTO casting VALUES (6, 14, 'Ferryman', 'T');
INSERT INTO casting VALUES (17, 1, 'Inspector', 'T');
INSERT INTO casting VALUES (17, 6, 'Soldier', 'F');
INSERT INTO casting VALUES (14, 13, 'Ferryman', 'F');
INSERT INTO casting VALUES (17, 3, 'Duchess', 'T');
INSERT INTO casting VALUES (15, 14, 'Captain', 'F');
INSERT INTO casting VALUES (5, 8, 'Ferryman', 'F');
INSERT INTO casting VALUES (16, 12, 'Duchess', 'F');
INSERT INTO casting VALUES (1, 3, 'Clerk', 'T');
INSERT INTO casting VALUES (6, 3, 'King', 'T');
INSERT INTO casting VALUES (2, 6, 'Soldier', 'T');
INSERT INTO casting VALUES (3, 6, 'Inspector', 'T');
INSERT INTO casting VALUES (1, 1, 'Ferryman', 'T');
INSERT INTO casting VALUES (13, 9, 'King', 'F');
INSERT INTO casting VALUES (17, 8, 'Clerk', 'F');
INSERT INTO casting VALUES (11, 15, 'Captain', 'F');
INSERT INTO casting VALUES (2, 2, 'Soldier', 'F');
INSERT INTO casting VALUES (16, 14, 'Duchess', 'F');
INSERT INTO casting VALUES (6, 12, 'Maid', 'F');
INSERT INTO casting VALUES (4, 15, 'Stranger', 'T');
INSERT INTO casting VALUES (5, 14, 'Widow', 'F');
INSERT INTO casting VALUES (2, 1, 'Inspector', 'T');
INSERT INTO casting VALUES (3, 15, 'Stranger', 'F');
INSERT INTO casting VALUES (2, 7, 'Ferryman', 'F');
INSERT INTO casting VALUES (8, 15, 'Duchess', 'T');
INSERT INTO casting VALUES (11, 7, 'Captain', 'F');
INSERT INTO casting VALUES (7, 14, 'Doctor', 'F');
INSERT INTO casting VALUES (7, 8, 'Soldier', 'F');
INSERT INTO casting VALUES (15, 8, 'Clerk', 'T');
INSERT INTO casting VALUES (11, 6, 'Narrator', 'F');
INSERT INTO casting VALUES (11, 13, 'Queen', 'F');
INSERT INTO casting VALUES (3, 14, 'Soldier', 'F');
INSERT INTO casting VALUES (14, 15, 'Ferryman', 'F');
INSERT INTO casting VALUES (6, 2, 'Widow', 'T');
INSERT INTO casting VALUES (16, 15, 'Soldier', 'F');
INSERT INTO casting VALUES (6, 9, 'Widow', 'T');
COMMIT;
