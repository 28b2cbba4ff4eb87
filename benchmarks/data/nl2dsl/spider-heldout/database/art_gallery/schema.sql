CREATE TABLE artist (
    artist_id INTEGER PRIMARY KEY,
    name TEXT,
    nationality TEXT,
    birth_year INTEGER
);
CREATE TABLE artwork (
    artwork_id INTEGER PRIMARY KEY,
    title TEXT,
    artist_id INTEGER,
    year_made INTEGER,
    medium TEXT,
    price REAL,
    FOREIGN KEY (artist_id) REFERENCES artist(artist_id)
);
CREATE TABLE exhibition (
    exhibition_id INTEGER PRIMARY KEY,
    theme TEXT,
    year INTEGER,
    city TEXT,
    visitors INTEGER
);
CREATE TABLE exhibition_artwork (
    exhibition_id INTEGER,
    artwork_id INTEGER,
    PRIMARY KEY (exhibition_id, artwork_id),
    FOREIGN KEY (exhibition_id) REFERENCES exhibition(exhibition_id),
    FOREIGN KEY (artwork_id) REFERENCES artwork(artwork_id)
);
INSERT INTO artist VALUES
 (1, 'Claude Monet', 'French', 1840),
 (2, 'Vincent van Gogh', 'Dutch', 1853),
 (3, 'Frida Kahlo', 'Mexican', 1907),
 (4, 'Rembrandt van Rijn', 'Dutch', 1606),
 (5, 'Georgia O''Keeffe', 'American', 1887),
 (6, 'Berthe Morisot', 'French', 1841),
 (7, 'Yayoi Kusama', 'Japanese', 1929);
INSERT INTO artwork VALUES
 (1, 'Water Lilies', 1, 1906, 'Oil', 180000),
 (2, 'Impression Sunrise', 1, 1872, 'Oil', 250000),
 (3, 'Haystacks', 1, 1891, 'Oil', 120000),
 (4, 'Starry Night Study', 2, 1889, 'Oil', 300000),
 (5, 'Wheat Field Sketch', 2, 1888, 'Drawing', 45000),
 (6, 'The Two Fridas Print', 3, 1939, 'Print', 8000),
 (7, 'Self Portrait with Monkey', 3, 1940, 'Oil', 95000),
 (8, 'Night Watch Study', 4, 1642, 'Drawing', 60000),
 (9, 'Red Canna', 5, 1924, 'Watercolor', 70000),
 (10, 'Jimson Weed', 5, 1936, 'Oil', 110000),
 (11, 'Infinity Nets', 7, 1959, 'Acrylic', 85000),
 (12, 'Pumpkin', 7, 1994, 'Sculpture', 40000),
 (13, 'Dots Obsession', 7, 2004, 'Sculpture', 52000);
INSERT INTO exhibition VALUES
 (1, 'Impressionism', 2018, 'Paris', 54000),
 (2, 'Modern Women', 2019, 'New York', 41000),
 (3, 'Dutch Masters', 2019, 'Amsterdam', 67000),
 (4, 'Color and Form', 2021, 'Tokyo', 38000),
 (5, 'Light Studies', 2022, 'Paris', 29000);
INSERT INTO exhibition_artwork VALUES
 (1, 1), (1, 2), (1, 3),
 (2, 7), (2, 9), (2, 10), (2, 11),
 (3, 4), (3, 8), (3, 5),
 (4, 11), (4, 12),
 (5, 1), (5, 9);
