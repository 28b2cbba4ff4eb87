CREATE TABLE "Book" (
"Book_ID" int,
"Title" text,
"Author" text,
"Year_Published" int,
"Genre" text,
"Pages" int,
PRIMARY KEY ("Book_ID")
);
CREATE TABLE "Member" (
"Member_ID" int,
"Name" text,
"Age" int,
"Membership_Type" text,
"City" text,
PRIMARY KEY ("Member_ID")
);
CREATE TABLE "Loan" (
"Loan_ID" int,
"Book_ID" int,
"Member_ID" int,
"Loan_Date" text,
"Days" int,
PRIMARY KEY ("Loan_ID"),
FOREIGN KEY ("Book_ID") REFERENCES "Book"("Book_ID"),
FOREIGN KEY ("Member_ID") REFERENCES "Member"("Member_ID")
);
INSERT INTO Book VALUES (1,'Dune','Frank Herbert',1965,'Science Fiction',412),(2,'Emma','Jane Austen',1815,'Romance',474),(3,'Persuasion','Jane Austen',1817,'Romance',249),(4,'Neuromancer','William Gibson',1984,'Science Fiction',271),(5,'The Hobbit','J. R. R. Tolkien',1937,'Fantasy',310),(6,'Dracula','Bram Stoker',1897,'Horror',418),(7,'Beloved','Toni Morrison',1987,'Literary',324),(8,'Carrie','Stephen King',1974,'Horror',199),(9,'It','Stephen King',1986,'Horror',1138),(10,'Kindred','Octavia Butler',1979,'Science Fiction',264);
INSERT INTO Member VALUES (1,'Alice Park',34,'Gold','Boston'),(2,'Ben Ortiz',22,'Basic','Austin'),(3,'Cara Lund',45,'Gold','Boston'),(4,'Dev Patel',29,'Silver','Denver'),(5,'Eli Stone',61,'Basic','Austin'),(6,'Fay Wong',38,'Silver','Boston'),(7,'Gus Hale',19,'Basic','Denver');
INSERT INTO Loan VALUES (1,1,1,'2023-01-05',14),(2,4,1,'2023-02-11',21),(3,2,2,'2023-02-15',7),(4,6,3,'2023-03-01',14),(5,9,3,'2023-03-20',28),(6,8,3,'2023-04-02',10),(7,5,4,'2023-04-18',14),(8,1,5,'2023-05-09',21),(9,10,6,'2023-05-30',7),(10,5,6,'2023-06-12',14),(11,1,4,'2023-07-01',5);
