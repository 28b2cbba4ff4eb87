CREATE TABLE "airlines" (
"uid" INTEGER PRIMARY KEY,
"Airline" TEXT,
"Abbreviation" TEXT,
"Country" TEXT
);
CREATE TABLE "airports" (
"AirportCode" TEXT PRIMARY KEY,
"AirportName" TEXT,
"City" TEXT,
"Country" TEXT
);
CREATE TABLE "flights" (
"Airline" INTEGER,
"FlightNo" INTEGER,
"SourceAirport" TEXT,
"DestAirport" TEXT,
"Distance" INTEGER,
"Price" REAL,
PRIMARY KEY ("Airline", "FlightNo"),
FOREIGN KEY ("Airline") REFERENCES "airlines"("uid"),
FOREIGN KEY ("SourceAirport") REFERENCES "airports"("AirportCode"),
FOREIGN KEY ("DestAirport") REFERENCES "airports"("AirportCode")
);
INSERT INTO airlines VALUES (1,'United Airlines','UAL','USA'),(2,'Lufthansa','DLH','Germany'),(3,'Air France','AFR','France'),(4,'Delta Airlines','DAL','USA'),(5,'Iberia','IBE','Spain');
INSERT INTO airports VALUES ('JFK','John F Kennedy','New York','USA'),('LAX','Los Angeles Intl','Los Angeles','USA'),('FRA','Frankfurt','Frankfurt','Germany'),('CDG','Charles de Gaulle','Paris','France'),('MAD','Barajas','Madrid','Spain'),('ORD','O Hare','Chicago','USA');
INSERT INTO flights VALUES (1,100,'JFK','LAX',2475,320.0),(1,101,'LAX','JFK',2475,310.0),(1,102,'ORD','FRA',4340,890.0),(2,400,'FRA','JFK',3850,760.0),(2,401,'FRA','CDG',280,150.0),(3,700,'CDG','JFK',3630,720.0),(3,701,'CDG','MAD',650,180.0),(4,900,'JFK','ORD',740,210.0),(4,901,'ORD','LAX',1745,280.0),(4,902,'LAX','ORD',1745,275.0);
