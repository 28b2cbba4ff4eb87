PRAGMA foreign_keys = ON;

CREATE TABLE gardener (
  gardener_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  age INTEGER,
  membership_type TEXT,
  join_date DATE,
  volunteer_hours REAL
);
CREATE TABLE plot (
  plot_id INTEGER PRIMARY KEY,
  plot_code TEXT NOT NULL,
  section TEXT,
  size_sqm REAL,
  annual_fee REAL,
  has_water_tap INTEGER,
  gardener_id INTEGER,
  FOREIGN KEY (gardener_id) REFERENCES gardener(gardener_id)
);
CREATE TABLE harvest (
  harvest_id INTEGER PRIMARY KEY,
  plot_id INTEGER,
  crop TEXT,
  harvest_date DATE,
  weight_kg REAL,
  FOREIGN KEY (plot_id) REFERENCES plot(plot_id)
);

INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (1, 'Margaret Hughes', 27, 'Associate', '2015-03-14', 20.0);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (2, 'Tom Becker', 27, 'Full', '2016-03-25', 10.0);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (3, 'Aisha Rahman', 30, 'Full', '2016-04-13', 0.0);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (4, 'Pedro Alvarez', 78, 'Associate', '2020-07-18', 2.0);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (5, 'Helen Park', 56, 'Full', '2022-07-23', 24.0);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (6, 'George Whitfield', 17, 'Youth', '2023-07-28', 30.0);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (7, 'Yuki Sato', 33, 'Full', '2020-11-01', 36.5);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (8, 'Fatima Haddad', 30, 'Full', '2023-07-07', 8.0);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (9, 'Robert Quinn', 57, 'Full', '2018-12-21', 20.0);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (10, 'Ingrid Olsen', 59, 'Full', '2015-10-01', 8.0);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (11, 'Carlos Mendes', 28, 'Full', '2020-02-07', 12.5);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (12, 'Nadia Petrova', 19, 'Youth', '2021-11-30', 4.0);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (13, 'Frank Doyle', 57, 'Associate', '2019-07-02', 2.0);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (14, 'Leila Nasser', 54, 'Associate', '2023-01-15', 8.0);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (15, 'Oscar Lund', 23, 'Associate', '2018-10-03', 10.0);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (16, 'Ruth Ellison', 64, 'Associate', '2022-11-08', 6.0);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (17, 'Kwame Mensah', 48, 'Associate', '2017-07-15', 15.0);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (18, 'Beatrice Moreau', 16, 'Youth', '2017-11-06', 12.5);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (19, 'Dennis O''Brien', 38, 'Full', '2018-08-11', 6.0);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (20, 'Mei Chen', 55, 'Full', '2019-02-19', 2.0);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (21, 'Samir Patel', 51, 'Associate', '2020-07-28', 12.5);
INSERT INTO gardener (gardener_id, name, age, membership_type, join_date, volunteer_hours) VALUES (22, 'Alice Turner', 29, 'Full', '2019-02-04', 24.0);

INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (1, 'N1', 'North', 20.0, 50.0, 1, 20);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (2, 'N2', 'North', 20.0, 50.0, 1, 4);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (3, 'N3', 'North', 20.0, 50.0, 1, 13);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (4, 'N4', 'North', 20.0, 50.0, 1, 21);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (5, 'N5', 'North', 17.5, 45.0, 0, NULL);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (6, 'N6', 'North', 30.0, 70.0, 0, 22);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (7, 'N7', 'North', 20.0, 50.0, 0, 17);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (8, 'S1', 'South', 35.0, 80.0, 0, NULL);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (9, 'S2', 'South', 35.0, 80.0, 1, 3);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (10, 'S3', 'South', 35.0, 80.0, 0, NULL);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (11, 'S4', 'South', 30.0, 70.0, 1, 11);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (12, 'S5', 'South', 22.5, 55.0, 1, 12);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (13, 'S6', 'South', 22.5, 55.0, 0, 1);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (14, 'S7', 'South', 25.0, 60.0, 1, NULL);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (15, 'E1', 'East', 25.0, 60.0, 1, 8);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (16, 'E2', 'East', 12.5, 35.0, 0, 7);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (17, 'E3', 'East', 15.0, 40.0, 0, 19);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (18, 'E4', 'East', 15.0, 40.0, 1, 14);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (19, 'E5', 'East', 15.0, 40.0, 1, 10);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (20, 'E6', 'East', 25.0, 60.0, 1, 18);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (21, 'E7', 'East', 15.0, 40.0, 0, 9);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (22, 'G1', 'Greenhouse', 18.0, 82.0, 1, 2);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (23, 'G2', 'Greenhouse', 18.0, 82.0, 1, 20);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (24, 'G3', 'Greenhouse', 8.0, 42.0, 1, NULL);
INSERT INTO plot (plot_id, plot_code, section, size_sqm, annual_fee, has_water_tap, gardener_id) VALUES (25, 'G4', 'Greenhouse', 18.0, 82.0, 1, 4);

INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (1, 23, 'Herbs', '2024-05-18', 0.6);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (2, 16, 'Lettuce', '2024-06-01', 1.8);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (3, 17, 'Herbs', '2024-06-03', 0.4);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (4, 22, 'Herbs', '2024-06-05', 0.4);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (5, 17, 'Herbs', '2024-06-07', 0.3);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (6, 17, 'Strawberries', '2024-06-07', 2.4);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (7, 19, 'Spinach', '2024-06-14', 0.7);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (8, 21, 'Lettuce', '2024-06-19', 1.6);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (9, 16, 'Spinach', '2024-06-19', 1.0);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (10, 20, 'Herbs', '2024-06-23', 0.6);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (11, 17, 'Spinach', '2024-06-25', 0.9);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (12, 17, 'Spinach', '2024-06-27', 1.2);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (13, 4, 'Carrots', '2024-07-02', 4.3);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (14, 1, 'Cabbage', '2024-07-03', 3.4);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (15, 15, 'Carrots', '2024-07-08', 3.8);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (16, 13, 'Potatoes', '2024-07-08', 6.5);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (17, 19, 'Lettuce', '2024-07-15', 0.8);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (18, 16, 'Strawberries', '2024-07-17', 0.9);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (19, 9, 'Beans', '2024-07-18', 1.9);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (20, 15, 'Carrots', '2024-07-19', 2.0);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (21, 3, 'Onions', '2024-07-20', 3.5);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (22, 25, 'Tomatoes', '2024-07-21', 6.7);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (23, 18, 'Herbs', '2024-07-22', 0.7);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (24, 1, 'Cabbage', '2024-07-27', 5.6);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (25, 13, 'Potatoes', '2024-07-27', 7.2);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (26, 23, 'Peppers', '2024-07-28', 2.1);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (27, 9, 'Tomatoes', '2024-07-30', 7.6);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (28, 11, 'Beans', '2024-08-02', 1.7);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (29, 17, 'Lettuce', '2024-08-05', 1.2);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (30, 20, 'Herbs', '2024-08-06', 0.6);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (31, 6, 'Beans', '2024-08-09', 2.4);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (32, 12, 'Beans', '2024-08-10', 1.3);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (33, 15, 'Herbs', '2024-08-11', 0.3);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (34, 4, 'Beans', '2024-08-14', 1.8);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (35, 7, 'Beans', '2024-08-15', 1.9);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (36, 4, 'Onions', '2024-08-15', 1.3);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (37, 6, 'Beans', '2024-08-16', 2.7);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (38, 25, 'Cucumbers', '2024-08-19', 4.6);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (39, 22, 'Cucumbers', '2024-08-19', 1.8);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (40, 7, 'Onions', '2024-08-20', 2.2);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (41, 3, 'Cabbage', '2024-08-20', 2.4);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (42, 13, 'Beans', '2024-08-21', 2.2);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (43, 11, 'Beans', '2024-08-22', 2.0);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (44, 20, 'Lettuce', '2024-08-25', 1.1);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (45, 13, 'Beans', '2024-08-29', 1.3);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (46, 17, 'Carrots', '2024-08-29', 2.5);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (47, 2, 'Beans', '2024-08-31', 2.6);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (48, 25, 'Peppers', '2024-09-04', 1.4);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (49, 7, 'Potatoes', '2024-09-10', 3.3);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (50, 11, 'Zucchini', '2024-09-12', 4.8);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (51, 15, 'Carrots', '2024-09-15', 3.7);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (52, 1, 'Onions', '2024-09-15', 1.7);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (53, 22, 'Peppers', '2024-09-17', 1.4);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (54, 9, 'Zucchini', '2024-09-20', 5.2);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (55, 9, 'Pumpkins', '2024-09-21', 12.2);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (56, 6, 'Cabbage', '2024-09-25', 5.7);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (57, 4, 'Potatoes', '2024-09-27', 5.5);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (58, 19, 'Herbs', '2024-09-28', 0.2);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (59, 9, 'Pumpkins', '2024-09-30', 7.8);
INSERT INTO harvest (harvest_id, plot_id, crop, harvest_date, weight_kg) VALUES (60, 12, 'Pumpkins', '2024-10-14', 7.4);
