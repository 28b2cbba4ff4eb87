CREATE TABLE "employee" (
"Employee_ID" int,
"Name" text,
"Age" int,
"City" text,
PRIMARY KEY ("Employee_ID")
);
CREATE TABLE "store" (
"Store_ID" int,
"Name" text,
"Location" text,
"District" text,
"Number_products" int,
"Manager_name" text,
PRIMARY KEY ("Store_ID")
);
CREATE TABLE "assignment" (
"Store_ID" int,
"Employee_ID" int,
"Start_from" text,
"Is_full_time" bool,
PRIMARY KEY ("Employee_ID"),
FOREIGN KEY ("Store_ID") REFERENCES "store"("Store_ID"),
FOREIGN KEY ("Employee_ID") REFERENCES "employee"("Employee_ID")
);
CREATE TABLE "award" (
"Employee_ID" text,
"Year_awarded" text,
"Bonus" real,
PRIMARY KEY ("Employee_ID","Year_awarded"),
FOREIGN KEY ("Employee_ID") REFERENCES "employee"("Employee_ID")
);
INSERT INTO employee VALUES (1,'George Chuter',23,'Bristol'),(2,'Lee Mears',29,'Bath'),(3,'Mark Regan',43,'Bristol'),(4,'Jason Hobson',30,'Bristol'),(5,'Tim Payne',29,'Wasps'),(6,'Andrew Sheridan',28,'Sale'),(7,'Matt Stevens',29,'Bath'),(8,'Phil Vickery',40,'Wasps'),(9,'Steve Borthwick',32,'Bath'),(10,'Louis Deacon',36,'Leicester');
INSERT INTO store VALUES (1,'FC Haka','Valkeakoski','Tehtaan kenttä',3516,'Olli Huttunen'),(2,'HJK','Helsinki','Finnair Stadium',10770,'Antti Muurinen'),(3,'FC Honka','Espoo','Tapiolan Urheilupuisto',6000,'Mika Lehkosuo'),(4,'FC Inter','Turku','Veritas Stadion',10000,'Job Dragtsma'),(5,'FF Jaro','Jakobstad','Jakobstads Centralplan',5000,'Mika Laurikainen'),(6,'FC KooTeePee','Kotka','Arto Tolsa Areena',4780,'Tommi Kautonen');
INSERT INTO assignment VALUES (1,1,'2009','T'),(1,2,'2003','T'),(8,3,'2011','F'),(4,4,'2012','T'),(5,5,'2013','T'),(2,6,'2010','F'),(6,7,'2008','T');
INSERT INTO award VALUES ('1','2011',3000.0),('4','2016',3200.0),('1','2016',3000.0),('2','2017',3200.0),('10','2017',4000.0),('7','2018',3200.0);
