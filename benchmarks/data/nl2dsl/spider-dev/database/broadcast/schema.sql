CREATE TABLE "channel" (
"id" text,
"channel_name" text,
"Country" text,
"Language" text,
"Content" text,
"Pay_per_view" text,
PRIMARY KEY ("id")
);
CREATE TABLE "program" (
"id" real,
"Title" text,
"Air_Date" text,
"Rating" text,
"Share" real,
"Viewers_m" text,
"Weekly_Rank" real,
"Channel" text,
PRIMARY KEY ("id"),
FOREIGN KEY ("Channel") REFERENCES "channel"("id")
);
CREATE TABLE "show" (
"id" real,
"Title" text,
"Directed_by" text,
"Written_by" text,
"Original_air_date" text,
"Channel" text,
PRIMARY KEY ("id"),
FOREIGN KEY ("Channel") REFERENCES "channel"("id")
);
INSERT INTO channel VALUES ('700','Sky Radio','Italy','Italian','music','no'),('701','Sky Music','Italy','Italian','music','no'),('703','Sky Kids','Italy','Italian','kids','no'),('704','MTV Dance','United Kingdom','English','music','yes'),('705','Cartoon World','United Kingdom','English','kids','yes'),('706','Radio Uno','Italy','Italian','news','no');
INSERT INTO program VALUES (1,'A Love of a Lifetime','September 24, 2007','5.8',9,'9.16',43,'700'),(2,'Friendly Skies','October 1, 2007','5.3',9,'8.23',50,'701'),(3,'Game Three','October 8, 2007','4.4',7,'6.94',61,'703'),(4,'The Year of the Rabbit','October 15, 2007','4.3',7,'6.75',67,'704'),(5,'The Legend of Dylan McCleen','October 22, 2007','3.8',6,'6.06',72,'704'),(6,'Keepers','October 29, 2007','3.7',6,'5.75',71,'705');
INSERT INTO show VALUES (1,'The Rise of the Blue Beetle!','Ben Jones','Michael Jelenic','November 14, 2008','700'),(2,'Terror on Dinosaur Island!','Brandon Vietti','Steven Melching','November 21, 2008','701'),(3,'Evil Under the Sea!','Brandon Vietti','Joseph Kuhr','December 5, 2008','703'),(4,'Day of the Dark Knight!','Brandon Vietti','J. M. DeMatteis','January 2, 2009','704'),(5,'Enter the Outsiders!','Ben Jones','Michael Jelenic','January 9, 2009','705'),(6,'Dawn of the Dead Man!','Ben Jones','Todd Casey','January 16, 2009','705');
