CREATE TABLE runner (
    runner_id INTEGER PRIMARY KEY,
    name TEXT,
    country TEXT,
    age INTEGER,
    gender TEXT,
    club TEXT
);
CREATE TABLE race (
    race_id INTEGER PRIMARY KEY,
    race_name TEXT,
    city TEXT,
    year INTEGER,
    distance_km REAL,
    prize_money INTEGER
);
CREATE TABLE result (
    race_id INTEGER,
    runner_id INTEGER,
    finish_minutes REAL,
    position INTEGER,
    PRIMARY KEY (race_id, runner_id),
    FOREIGN KEY (race_id) REFERENCES race(race_id),
    FOREIGN KEY (runner_id) REFERENCES runner(runner_id)
);
INSERT INTO runner VALUES
 (1, 'Eliud Kamau', 'Kenya', 34, 'M', 'Nairobi Striders'),
 (2, 'Tirunesh Bekele', 'Ethiopia', 29, 'F', 'Addis Runners'),
 (3, 'Sara Hall', 'USA', 38, 'F', 'Boston Harriers'),
 (4, 'Galen Rupp', 'USA', 31, 'M', 'Boston Harriers'),
 (5, 'Brigid Kosgei', 'Kenya', 27, 'F', 'Nairobi Striders'),
 (6, 'Kenenisa Tola', 'Ethiopia', 41, 'M', 'Addis Runners'),
 (7, 'Paula Reed', 'United Kingdom', 45, 'F', 'London Pacers'),
 (8, 'Mo Farah', 'United Kingdom', 36, 'M', 'London Pacers'),
 (9, 'Yuki Kawa', 'Japan', 23, 'M', 'Tokyo Track'),
 (10, 'Hellen Obiri', 'Kenya', 32, 'F', 'Nairobi Striders'),
 (11, 'Lena Berg', 'Germany', 26, 'F', 'Berlin Runners'),
 (12, 'Tom Dale', 'USA', 52, 'M', 'Boston Harriers'),
 (13, 'Ines Costa', 'Portugal', 30, 'F', 'Lisbon Runners');
INSERT INTO race VALUES
 (1, 'Boston Marathon', 'Boston', 2022, 42.2, 150000),
 (2, 'London Marathon', 'London', 2022, 42.2, 120000),
 (3, 'Berlin Half', 'Berlin', 2023, 21.1, 40000),
 (4, 'Tokyo 10K', 'Tokyo', 2023, 10.0, 15000),
 (5, 'Boston 5K', 'Boston', 2023, 5.0, 5000),
 (6, 'Chicago Marathon', 'Chicago', 2024, 42.2, 100000),
 (7, 'London Half', 'London', 2024, 21.1, 30000);
INSERT INTO result VALUES
 (1, 1, 128.5, 1), (1, 4, 131.2, 2), (1, 3, 145.0, 3), (1, 2, 142.3, 4),
 (2, 8, 129.9, 1), (2, 7, 160.4, 3), (2, 5, 138.1, 2),
 (3, 2, 66.0, 1), (3, 11, 70.2, 2),
 (4, 9, 28.4, 1), (4, 10, 30.1, 2),
 (5, 3, 16.2, 1),
 (6, 1, 127.9, 1), (6, 5, 136.6, 2), (6, 6, 133.3, 3);
