CREATE TABLE station (
    id INTEGER PRIMARY KEY,
    name TEXT,
    city TEXT,
    dock_count INTEGER,
    installation_date TEXT
);
CREATE TABLE member (
    member_id INTEGER PRIMARY KEY,
    first_name TEXT,
    last_name TEXT,
    membership_level TEXT,
    join_year INTEGER,
    age INTEGER
);
CREATE TABLE trip (
    trip_id INTEGER PRIMARY KEY,
    start_station_id INTEGER,
    end_station_id INTEGER,
    member_id INTEGER,
    duration_minutes INTEGER,
    start_date TEXT,
    FOREIGN KEY (start_station_id) REFERENCES station(id),
    FOREIGN KEY (end_station_id) REFERENCES station(id),
    FOREIGN KEY (member_id) REFERENCES member(member_id)
);
INSERT INTO station VALUES
 (1, 'Market St', 'San Francisco', 19, '2013-08-06'),
 (2, 'Embarcadero', 'San Francisco', 15, '2013-08-20'),
 (3, 'Civic Center', 'San Francisco', 11, '2014-04-02'),
 (4, 'Diridon', 'San Jose', 27, '2013-08-06'),
 (5, 'Santa Clara St', 'San Jose', 13, '2016-02-11'),
 (6, 'University Ave', 'Palo Alto', 9, '2015-05-30'),
 (7, 'Caltrain Station', 'Mountain View', 23, '2017-09-14'),
 (8, 'Castro St', 'Mountain View', 10, '2018-03-03');
INSERT INTO member VALUES
 (1, 'Ana', 'Silva', 'gold', 2015, 34),
 (2, 'Ben', 'Carter', 'silver', 2017, 27),
 (3, 'Chloe', 'Nguyen', 'gold', 2016, 41),
 (4, 'Diego', 'Ramos', 'bronze', 2019, 22),
 (5, 'Emma', 'Walsh', 'silver', 2015, 56),
 (6, 'Farah', 'Khan', 'bronze', 2020, 29),
 (7, 'Gus', 'Olsen', 'gold', 2018, 38),
 (8, 'Hana', 'Mori', 'silver', 2021, 24);
INSERT INTO trip VALUES
 (1, 1, 2, 1, 12, '2021-03-01'),
 (2, 2, 1, 1, 15, '2021-03-02'),
 (3, 4, 5, 2, 34, '2021-04-11'),
 (4, 1, 3, 3, 75, '2021-05-20'),
 (5, 6, 6, 4, 8, '2021-06-02'),
 (6, 7, 4, 5, 95, '2021-06-15'),
 (7, 1, 2, 1, 22, '2021-07-04'),
 (8, 3, 1, 3, 41, '2021-07-19'),
 (9, 5, 4, 2, 64, '2021-08-30'),
 (10, 2, 3, 7, 18, '2021-09-09'),
 (11, 4, 7, 5, 120, '2021-10-10'),
 (12, 1, 1, 1, 5, '2021-11-11');
