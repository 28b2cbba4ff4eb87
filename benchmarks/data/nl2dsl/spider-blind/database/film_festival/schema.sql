PRAGMA foreign_keys = ON;

CREATE TABLE director (
  director_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  nationality TEXT,
  birth_year INTEGER,
  gender TEXT
);
CREATE TABLE film (
  film_id INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  director_id INTEGER,
  release_year INTEGER,
  runtime_minutes INTEGER,
  genre TEXT,
  language TEXT,
  budget_million REAL,
  FOREIGN KEY (director_id) REFERENCES director(director_id)
);
CREATE TABLE screening (
  screening_id INTEGER PRIMARY KEY,
  film_id INTEGER,
  venue TEXT,
  screening_date DATE,
  tickets_sold INTEGER,
  ticket_price REAL,
  FOREIGN KEY (film_id) REFERENCES film(film_id)
);
CREATE TABLE award (
  award_id INTEGER PRIMARY KEY,
  film_id INTEGER,
  category TEXT,
  edition_year INTEGER,
  result TEXT,
  FOREIGN KEY (film_id) REFERENCES film(film_id)
);

INSERT INTO director (director_id, name, nationality, birth_year, gender) VALUES (1, 'Marta Kowalczyk', 'Poland', 1978, 'Female');
INSERT INTO director (director_id, name, nationality, birth_year, gender) VALUES (2, 'Jonas Lindqvist', 'Sweden', 1969, 'Male');
INSERT INTO director (director_id, name, nationality, birth_year, gender) VALUES (3, 'Aiko Tanaka', 'Japan', 1985, 'Female');
INSERT INTO director (director_id, name, nationality, birth_year, gender) VALUES (4, 'Rafael Ortega', 'Mexico', 1972, 'Male');
INSERT INTO director (director_id, name, nationality, birth_year, gender) VALUES (5, 'Claire Dubois', 'France', 1981, 'Female');
INSERT INTO director (director_id, name, nationality, birth_year, gender) VALUES (6, 'Samuel Okafor', 'Nigeria', 1976, 'Male');
INSERT INTO director (director_id, name, nationality, birth_year, gender) VALUES (7, 'Elena Rossi', 'Italy', 1964, 'Female');
INSERT INTO director (director_id, name, nationality, birth_year, gender) VALUES (8, 'Tomas Novak', 'Czech Republic', 1983, 'Male');
INSERT INTO director (director_id, name, nationality, birth_year, gender) VALUES (9, 'Priya Raman', 'India', 1988, 'Female');
INSERT INTO director (director_id, name, nationality, birth_year, gender) VALUES (10, 'Daniel Weber', 'Germany', 1959, 'Male');
INSERT INTO director (director_id, name, nationality, birth_year, gender) VALUES (11, 'Lucia Fernandez', 'Argentina', 1975, 'Female');
INSERT INTO director (director_id, name, nationality, birth_year, gender) VALUES (12, 'Hamid Karimi', 'Iran', 1967, 'Male');
INSERT INTO director (director_id, name, nationality, birth_year, gender) VALUES (13, 'Sophie Martin', 'France', 1990, 'Female');
INSERT INTO director (director_id, name, nationality, birth_year, gender) VALUES (14, 'Kenji Mori', 'Japan', 1971, 'Male');
INSERT INTO director (director_id, name, nationality, birth_year, gender) VALUES (15, 'Anna Berg', 'Sweden', 1993, 'Female');
INSERT INTO director (director_id, name, nationality, birth_year, gender) VALUES (16, 'Victor Hale', 'United Kingdom', 1962, 'Male');

INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (1, 'The Quiet Harbour', 1, 2022, 112, 'Drama', 'Polish', 2.4);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (2, 'Winter Light Fades', 2, 2021, 128, 'Drama', 'Swedish', 3.1);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (3, 'Paper Lanterns', 3, 2023, 96, 'Animation', 'Japanese', 5.8);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (4, 'Dust and Gold', 4, 2020, 134, 'Western', 'Spanish', 7.5);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (5, 'Les Nuits Blanches', 5, 2022, 104, 'Romance', 'French', 4.2);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (6, 'Lagos After Rain', 6, 2023, 118, 'Drama', 'English', 1.9);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (7, 'The Last Vineyard', 7, 2019, 121, 'Drama', 'Italian', 6.3);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (8, 'Glass Orchard', 8, 2023, 99, 'Thriller', 'Czech', 2.2);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (9, 'Monsoon Letters', 9, 2022, 141, 'Romance', 'Hindi', 3.6);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (10, 'Iron Curtain Blues', 10, 2020, 137, 'Historical', 'German', 9.8);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (11, 'Pampas Wind', 11, 2021, 109, 'Documentary', 'Spanish', 0.8);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (12, 'A Door in Tehran', 12, 2023, 115, 'Drama', 'Persian', 1.4);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (13, 'Petite Fugue', 13, 2024, 88, 'Comedy', 'French', 2.9);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (14, 'Tokyo Night Shift', 14, 2022, 124, 'Thriller', 'Japanese', 4.8);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (15, 'Northern Lights Hotel', 15, 2024, 93, 'Comedy', 'Swedish', 1.7);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (16, 'The Clockmaker', 16, 2021, 130, 'Mystery', 'English', 11.5);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (17, 'Salt of the Earth', 1, 2024, 106, 'Documentary', 'Polish', 0.6);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (18, 'Midsummer Ghosts', 2, 2023, 101, 'Horror', 'Swedish', 3.4);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (19, 'Bamboo Skies', 3, 2021, 90, 'Animation', 'Japanese', 6.1);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (20, 'Border Town', 4, 2023, 119, 'Thriller', 'Spanish', 5.5);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (21, 'The Silent Choir', 7, 2024, 126, 'Drama', 'Italian', 5.0);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (22, 'Kettle Island', 16, 2023, 97, 'Comedy', 'English', 3.8);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (23, 'River of Names', 6, 2021, 84, 'Documentary', 'English', 0.5);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (24, 'Heatwave', 9, 2024, 117, 'Thriller', 'Hindi', 4.4);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (25, 'Ballad of the Miner', 10, 2022, 145, 'Historical', 'German', 12.2);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (26, 'Saltwater Girls', 11, 2024, 102, 'Drama', 'Spanish', 1.6);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (27, 'Echo Chamber', 8, 2024, 94, 'Horror', 'Czech', 1.1);
INSERT INTO film (film_id, title, director_id, release_year, runtime_minutes, genre, language, budget_million) VALUES (28, 'The Tin Violin', 5, 2020, 111, 'Drama', 'French', 3.9);

INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (1, 9, 'Open Air Stage', '2024-06-14', 690, 9.5);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (2, 3, 'Palace Theatre', '2024-06-14', 843, 13.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (3, 20, 'Riverside Cinema', '2024-06-14', 235, 11.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (4, 17, 'Studio Three', '2024-06-14', 63, 9.5);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (5, 24, 'Studio Three', '2024-06-14', 77, 9.5);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (6, 6, 'Harbour Hall', '2024-06-15', 440, 12.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (7, 14, 'Open Air Stage', '2024-06-15', 1125, 7.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (8, 14, 'Open Air Stage', '2024-06-15', 618, 7.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (9, 5, 'Palace Theatre', '2024-06-15', 746, 15.5);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (10, 21, 'Palace Theatre', '2024-06-15', 784, 14.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (11, 18, 'Riverside Cinema', '2024-06-15', 254, 11.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (12, 17, 'Riverside Cinema', '2024-06-15', 305, 10.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (13, 12, 'Riverside Cinema', '2024-06-15', 273, 11.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (14, 25, 'Harbour Hall', '2024-06-16', 423, 12.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (15, 2, 'Open Air Stage', '2024-06-16', 1397, 8.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (16, 16, 'Palace Theatre', '2024-06-16', 543, 14.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (17, 10, 'Riverside Cinema', '2024-06-16', 142, 12.5);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (18, 10, 'Riverside Cinema', '2024-06-16', 273, 12.5);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (19, 12, 'Harbour Hall', '2024-06-17', 556, 12.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (20, 24, 'Harbour Hall', '2024-06-17', 248, 12.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (21, 22, 'Open Air Stage', '2024-06-17', 979, 8.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (22, 10, 'Open Air Stage', '2024-06-17', 1490, 7.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (23, 1, 'Palace Theatre', '2024-06-17', 831, 14.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (24, 11, 'Palace Theatre', '2024-06-17', 747, 15.5);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (25, 15, 'Palace Theatre', '2024-06-17', 527, 14.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (26, 13, 'Open Air Stage', '2024-06-18', 1302, 8.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (27, 9, 'Open Air Stage', '2024-06-18', 984, 9.5);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (28, 15, 'Riverside Cinema', '2024-06-18', 314, 11.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (29, 8, 'Studio Three', '2024-06-18', 113, 8.5);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (30, 19, 'Palace Theatre', '2024-06-19', 335, 15.5);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (31, 25, 'Studio Three', '2024-06-19', 82, 8.5);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (32, 27, 'Studio Three', '2024-06-19', 38, 11.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (33, 13, 'Harbour Hall', '2024-06-20', 300, 12.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (34, 15, 'Harbour Hall', '2024-06-20', 486, 12.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (35, 21, 'Palace Theatre', '2024-06-20', 487, 14.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (36, 27, 'Harbour Hall', '2024-06-21', 430, 11.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (37, 4, 'Open Air Stage', '2024-06-21', 583, 7.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (38, 26, 'Palace Theatre', '2024-06-21', 499, 14.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (39, 12, 'Palace Theatre', '2024-06-21', 796, 13.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (40, 16, 'Palace Theatre', '2024-06-21', 439, 15.5);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (41, 4, 'Studio Three', '2024-06-21', 102, 9.5);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (42, 5, 'Studio Three', '2024-06-21', 74, 9.5);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (43, 9, 'Studio Three', '2024-06-21', 64, 9.5);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (44, 3, 'Harbour Hall', '2024-06-22', 554, 12.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (45, 12, 'Harbour Hall', '2024-06-22', 508, 12.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (46, 5, 'Open Air Stage', '2024-06-22', 1021, 8.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (47, 21, 'Open Air Stage', '2024-06-22', 1200, 8.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (48, 25, 'Open Air Stage', '2024-06-22', 1457, 8.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (49, 15, 'Palace Theatre', '2024-06-22', 724, 13.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (50, 24, 'Riverside Cinema', '2024-06-22', 149, 11.0);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (51, 10, 'Studio Three', '2024-06-22', 113, 9.5);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (52, 12, 'Studio Three', '2024-06-22', 97, 9.5);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (53, 10, 'Open Air Stage', '2024-06-23', 1091, 9.5);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (54, 2, 'Palace Theatre', '2024-06-23', 818, 15.5);
INSERT INTO screening (screening_id, film_id, venue, screening_date, tickets_sold, ticket_price) VALUES (55, 10, 'Palace Theatre', '2024-06-23', 738, 15.5);

INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (1, 1, 'Best Film', 2022, 'Nominee');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (2, 5, 'Best Film', 2022, 'Winner');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (3, 9, 'Best Screenplay', 2022, 'Winner');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (4, 14, 'Best Director', 2022, 'Winner');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (5, 14, 'Best Cinematography', 2022, 'Nominee');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (6, 1, 'Best Director', 2022, 'Nominee');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (7, 3, 'Audience Award', 2023, 'Winner');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (8, 6, 'Best Film', 2023, 'Winner');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (9, 8, 'Best Screenplay', 2023, 'Nominee');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (10, 12, 'Best Director', 2023, 'Winner');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (11, 12, 'Best Screenplay', 2023, 'Winner');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (12, 18, 'Best Cinematography', 2023, 'Winner');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (13, 20, 'Best Film', 2023, 'Nominee');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (14, 22, 'Audience Award', 2023, 'Nominee');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (15, 13, 'Audience Award', 2024, 'Winner');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (16, 15, 'Best Film', 2024, 'Nominee');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (17, 17, 'Best Film', 2024, 'Nominee');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (18, 21, 'Best Film', 2024, 'Winner');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (19, 21, 'Best Director', 2024, 'Nominee');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (20, 24, 'Best Cinematography', 2024, 'Winner');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (21, 26, 'Best Director', 2024, 'Winner');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (22, 27, 'Best Screenplay', 2024, 'Nominee');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (23, 6, 'Best Director', 2023, 'Nominee');
INSERT INTO award (award_id, film_id, category, edition_year, result) VALUES (24, 3, 'Best Cinematography', 2023, 'Nominee');
