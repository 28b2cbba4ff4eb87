CREATE TABLE "team" (
"Team_id" int,
"Name" text,
"City" text,
"Founded" int,
"Stadium_capacity" int,
PRIMARY KEY ("Team_id")
);
CREATE TABLE "player" (
"Player_id" int,
"Name" text,
"Team_id" int,
"Position" text,
"Age" int,
"Goals" int,
"Nationality" text,
PRIMARY KEY ("Player_id"),
FOREIGN KEY ("Team_id") REFERENCES "team"("Team_id")
);
CREATE TABLE "coach" (
"Coach_id" int,
"Coach_name" text,
"Team_id" int,
"Start_year" int,
PRIMARY KEY ("Coach_id"),
FOREIGN KEY ("Team_id") REFERENCES "team"("Team_id")
);
INSERT INTO team VALUES (1,'Rovers','Bristol',1883,27000),(2,'United','Leeds',1919,37890),(3,'Athletic','Oldham',1895,13500),(4,'City','Norwich',1902,27244),(5,'Wanderers','Bolton',1874,28723);
INSERT INTO player VALUES (1,'Sam Hart',1,'Forward',24,12,'England'),(2,'Leo Park',1,'Midfielder',29,4,'Wales'),(3,'Ian Cole',2,'Defender',31,1,'Scotland'),(4,'Tom Reid',2,'Forward',22,15,'England'),(5,'Max Ford',2,'Goalkeeper',35,0,'Ireland'),(6,'Ben Lowe',3,'Forward',27,9,'England'),(7,'Jay Moss',4,'Midfielder',26,6,'Wales'),(8,'Kai Dunn',4,'Defender',33,2,'England'),(9,'Raj Nair',4,'Forward',21,11,'England'),(10,'Olly Shaw',1,'Defender',28,3,'Scotland');
INSERT INTO coach VALUES (1,'Alan Webb',1,2019),(2,'Mark Pace',2,2021),(3,'Neil Hunt',3,2015),(4,'Gary Rowe',4,2022);
