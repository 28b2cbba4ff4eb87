PRAGMA foreign_keys = ON;
CREATE TABLE Kennel (
  KennelID INTEGER PRIMARY KEY,
  Building TEXT,
  Capacity INTEGER,
  IsHeated INTEGER
);
CREATE TABLE dog (
  dog_id INTEGER PRIMARY KEY,
  name TEXT,
  breed TEXT,
  age INTEGER,
  weight_kg REAL,
  sex TEXT,
  arrival_date TEXT,
  kennel_id INTEGER,
  FOREIGN KEY (kennel_id) REFERENCES Kennel(KennelID)
);
CREATE TABLE adopter (
  adopter_id INTEGER PRIMARY KEY,
  first_name TEXT,
  last_name TEXT,
  city TEXT,
  age INTEGER,
  has_garden INTEGER
);
CREATE TABLE Adoption (
  AdoptionID INTEGER PRIMARY KEY,
  DogID INTEGER,
  AdopterID INTEGER,
  AdoptionDate TEXT,
  Fee REAL,
  FOREIGN KEY (DogID) REFERENCES dog(dog_id),
  FOREIGN KEY (AdopterID) REFERENCES adopter(adopter_id)
);
INSERT INTO Kennel VALUES (1, 'North', 2, 1);
INSERT INTO Kennel VALUES (2, 'South', 2, 0);
INSERT INTO Kennel VALUES (3, 'East', 1, 0);
INSERT INTO Kennel VALUES (4, 'North', 4, 1);
INSERT INTO Kennel VALUES (5, 'South', 3, 1);
INSERT INTO Kennel VALUES (6, 'East', 2, 0);
INSERT INTO Kennel VALUES (7, 'North', 1, 1);
INSERT INTO Kennel VALUES (8, 'South', 2, 1);
INSERT INTO Kennel VALUES (9, 'East', 1, 0);
INSERT INTO Kennel VALUES (10, 'North', 2, 1);
INSERT INTO Kennel VALUES (11, 'South', 2, 1);
INSERT INTO Kennel VALUES (12, 'East', 1, 0);
INSERT INTO Kennel VALUES (13, 'West', 2, 1);
INSERT INTO Kennel VALUES (14, 'West', 4, 1);
INSERT INTO Kennel VALUES (15, 'West', 2, 1);
INSERT INTO dog VALUES (1, 'Bella', 'Labrador', 9, 33.3, 'M', '2024-07-13', 3);
INSERT INTO dog VALUES (2, 'Max', 'Staffordshire Bull Terrier', 5, 16.6, 'F', '2024-01-01', 3);
INSERT INTO dog VALUES (3, 'Luna', 'Border Collie', 9, 19.4, 'M', '2023-03-06', 9);
INSERT INTO dog VALUES (4, 'Charlie', 'Beagle', 7, 11.7, 'M', '2023-04-14', 13);
INSERT INTO dog VALUES (5, 'Daisy', 'Staffordshire Bull Terrier', 7, 14.4, 'F', '2023-05-05', NULL);
INSERT INTO dog VALUES (6, 'Buster', 'Labrador', 11, 32.8, 'F', '2023-02-14', 12);
INSERT INTO dog VALUES (7, 'Rosie', 'Jack Russell', 3, 9.9, 'M', '2024-08-21', 9);
INSERT INTO dog VALUES (8, 'Milo', 'Beagle', 5, 10.0, 'F', '2024-05-02', 13);
INSERT INTO dog VALUES (9, 'Poppy', 'Beagle', 10, 13.1, 'F', '2023-04-24', 13);
INSERT INTO dog VALUES (10, 'Teddy', 'Labrador', 6, 32.7, 'F', '2023-05-03', 12);
INSERT INTO dog VALUES (11, 'Bailey', 'Labrador', 7, 27.1, 'F', '2024-10-11', 10);
INSERT INTO dog VALUES (12, 'Molly', 'Greyhound', 10, 26.4, 'M', '2024-10-06', 2);
INSERT INTO dog VALUES (13, 'Archie', 'Border Collie', 1, 19.8, 'F', '2023-07-01', 8);
INSERT INTO dog VALUES (14, 'Coco', 'German Shepherd', 5, 31.3, 'M', '2023-12-27', NULL);
INSERT INTO dog VALUES (15, 'Bruno', 'Beagle', 10, 12.8, 'F', '2024-05-13', 4);
INSERT INTO dog VALUES (16, 'Ruby', 'Staffordshire Bull Terrier', 10, 20.1, 'M', '2023-10-10', 3);
INSERT INTO dog VALUES (17, 'Alfie', 'German Shepherd', 9, 36.3, 'F', '2024-09-25', 12);
INSERT INTO dog VALUES (18, 'Lola', 'Jack Russell', 0, 5.5, 'M', '2024-06-21', 6);
INSERT INTO dog VALUES (19, 'Ziggy', 'Staffordshire Bull Terrier', 9, 19.8, 'M', '2024-01-22', 1);
INSERT INTO dog VALUES (20, 'Biscuit', 'Border Collie', 7, 20.9, 'M', '2023-07-30', 12);
INSERT INTO dog VALUES (21, 'Pepper', 'German Shepherd', 13, 32.4, 'F', '2023-02-20', 9);
INSERT INTO dog VALUES (22, 'Murphy', 'Staffordshire Bull Terrier', 11, 19.3, 'F', '2024-04-20', 15);
INSERT INTO dog VALUES (23, 'Nala', 'Dachshund', 9, 6.8, 'M', '2023-04-26', NULL);
INSERT INTO dog VALUES (24, 'Rocky', 'Jack Russell', 7, 5.9, 'M', '2023-07-02', 2);
INSERT INTO dog VALUES (25, 'Hazel', 'Greyhound', 2, 32.2, 'F', '2023-02-28', 13);
INSERT INTO dog VALUES (26, 'Otis', 'Greyhound', 2, 26.2, 'F', '2023-02-13', 3);
INSERT INTO dog VALUES (27, 'Willow', 'Cocker Spaniel', 8, 15.9, 'M', '2023-10-11', 15);
INSERT INTO dog VALUES (28, 'Bear', 'Border Collie', 6, 20.4, 'M', '2024-10-09', 1);
INSERT INTO dog VALUES (29, 'Maple', 'Dachshund', 2, 10.7, 'M', '2024-03-29', 9);
INSERT INTO dog VALUES (30, 'Scout', 'Dachshund', 7, 8.7, 'F', '2023-12-17', 3);
INSERT INTO dog VALUES (31, 'Honey', 'Labrador', 13, 28.8, 'M', '2024-01-24', 15);
INSERT INTO dog VALUES (32, 'Duke', 'Staffordshire Bull Terrier', 7, 18.3, 'M', '2023-06-29', NULL);
INSERT INTO dog VALUES (33, 'Skye', 'Greyhound', 1, 31.9, 'F', '2023-10-13', 12);
INSERT INTO dog VALUES (34, 'Jasper', 'Border Collie', 4, 20.9, 'F', '2023-07-12', 10);
INSERT INTO dog VALUES (35, 'Penny', 'Beagle', 9, 9.8, 'M', '2023-12-23', 10);
INSERT INTO dog VALUES (36, 'Rex', 'Labrador', 4, 32.9, 'F', '2024-05-26', 10);
INSERT INTO dog VALUES (37, 'Toffee', 'Cocker Spaniel', 7, 15.7, 'M', '2024-05-26', 10);
INSERT INTO dog VALUES (38, 'Bramble', 'Labrador', 1, 29.8, 'F', '2024-06-23', 2);
INSERT INTO dog VALUES (39, 'Olive', 'Jack Russell', 2, 5.4, 'M', '2023-02-21', 3);
INSERT INTO dog VALUES (40, 'Winston', 'Cocker Spaniel', 8, 16.4, 'M', '2023-02-25', 6);
INSERT INTO adopter VALUES (1, 'Hannah', 'Khan', 'Cardiff', 42, 0);
INSERT INTO adopter VALUES (2, 'Jack', 'Thomas', 'Swansea', 65, 1);
INSERT INTO adopter VALUES (3, 'Jade', 'Green', 'Newport', 40, 1);
INSERT INTO adopter VALUES (4, 'Marco', 'Smith', 'Bristol', 22, 0);
INSERT INTO adopter VALUES (5, 'Hannah', 'Hughes', 'Cardiff', 37, 1);
INSERT INTO adopter VALUES (6, 'Ben', 'Brown', 'Swansea', 37, 1);
INSERT INTO adopter VALUES (7, 'George', 'Hill', 'Cardiff', 25, 0);
INSERT INTO adopter VALUES (8, 'Daniel', 'Carter', 'Swansea', 29, 1);
INSERT INTO adopter VALUES (9, 'Ella', 'Brown', 'Newport', 42, 1);
INSERT INTO adopter VALUES (10, 'Kai', 'Taylor', 'Bristol', 41, 0);
INSERT INTO adopter VALUES (11, 'Liam', 'Walker', 'Cardiff', 23, 1);
INSERT INTO adopter VALUES (12, 'George', 'Wright', 'Swansea', 42, 1);
INSERT INTO adopter VALUES (13, 'Umar', 'Knight', 'Cardiff', 29, 0);
INSERT INTO adopter VALUES (14, 'Aaron', 'Young', 'Swansea', 28, 1);
INSERT INTO adopter VALUES (15, 'Nina', 'Khan', 'Newport', 50, 1);
INSERT INTO adopter VALUES (16, 'Jade', 'Hughes', 'Bath', 74, 0);
INSERT INTO adopter VALUES (17, 'Umar', 'Hill', 'Bath', 43, 1);
INSERT INTO adopter VALUES (18, 'Daniel', 'Fisher', 'Bath', 33, 1);
INSERT INTO adopter VALUES (19, 'Olivia', 'Carter', 'Bath', 32, 0);
INSERT INTO adopter VALUES (20, 'George', 'Baker', 'Bath', 52, 1);
INSERT INTO Adoption VALUES (1, 19, 7, '2024-07-29', 175.0);
INSERT INTO Adoption VALUES (2, 27, 11, '2023-05-10', 250.0);
INSERT INTO Adoption VALUES (3, 26, 10, '2024-02-11', 120.0);
INSERT INTO Adoption VALUES (4, 23, 5, '2024-03-24', 120.0);
INSERT INTO Adoption VALUES (5, 9, 4, '2024-10-17', 175.0);
INSERT INTO Adoption VALUES (6, 38, 3, '2024-05-18', 250.0);
INSERT INTO Adoption VALUES (7, 20, 10, '2024-09-02', 95.0);
INSERT INTO Adoption VALUES (8, 16, 6, '2024-04-08', 250.0);
INSERT INTO Adoption VALUES (9, 15, 9, '2024-06-12', 250.0);
INSERT INTO Adoption VALUES (10, 29, 3, '2024-05-24', 150.0);
INSERT INTO Adoption VALUES (11, 34, 12, '2023-09-30', 150.0);
INSERT INTO Adoption VALUES (12, 12, 14, '2023-03-11', 95.0);
INSERT INTO Adoption VALUES (13, 2, 2, '2023-06-27', 120.0);
INSERT INTO Adoption VALUES (14, 32, 13, '2024-06-07', 95.0);
INSERT INTO Adoption VALUES (15, 36, 8, '2023-10-09', 200.0);
INSERT INTO Adoption VALUES (16, 17, 1, '2024-06-26', 250.0);
INSERT INTO Adoption VALUES (17, 18, 6, '2023-11-29', 250.0);
INSERT INTO Adoption VALUES (18, 7, 3, '2023-07-07', 95.0);
