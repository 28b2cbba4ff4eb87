CREATE TABLE Physician (
  EmployeeID INTEGER NOT NULL,
  Name VARCHAR(30) NOT NULL,
  Position VARCHAR(30) NOT NULL,
  Salary INTEGER,
  CONSTRAINT pk_physician PRIMARY KEY(EmployeeID)
);
CREATE TABLE Department (
  DepartmentID INTEGER NOT NULL,
  Name VARCHAR(30) NOT NULL,
  Head INTEGER NOT NULL,
  Budget INTEGER,
  CONSTRAINT pk_Department PRIMARY KEY(DepartmentID),
  CONSTRAINT fk_Department_Physician_EmployeeID FOREIGN KEY(Head) REFERENCES Physician(EmployeeID)
);
CREATE TABLE Patient (
  SSN INTEGER PRIMARY KEY NOT NULL,
  Name VARCHAR(30) NOT NULL,
  Address VARCHAR(30) NOT NULL,
  Age INTEGER,
  PCP INTEGER NOT NULL,
  CONSTRAINT fk_Patient_Physician_EmployeeID FOREIGN KEY(PCP) REFERENCES Physician(EmployeeID)
);
CREATE TABLE Appointment (
  AppointmentID INTEGER PRIMARY KEY NOT NULL,
  Patient INTEGER NOT NULL,
  Physician INTEGER NOT NULL,
  Start_Date TEXT NOT NULL,
  Room TEXT,
  CONSTRAINT fk_Appointment_Patient_SSN FOREIGN KEY(Patient) REFERENCES Patient(SSN),
  CONSTRAINT fk_Appointment_Physician_EmployeeID FOREIGN KEY(Physician) REFERENCES Physician(EmployeeID)
);
INSERT INTO Physician VALUES (1,'John Dorian','Staff Internist',90000),(2,'Elliot Reid','Attending Physician',120000),(3,'Christopher Turk','Surgical Attending Physician',150000),(4,'Percival Cox','Senior Attending Physician',180000),(5,'Bob Kelso','Head Chief of Medicine',250000),(6,'Todd Quinlan','Surgical Attending Physician',140000),(7,'John Wen','Surgical Attending Physician',145000);
INSERT INTO Department VALUES (1,'General Medicine',4,500000),(2,'Surgery',7,900000),(3,'Psychiatry',2,300000);
INSERT INTO Patient VALUES (100000001,'John Smith','42 Foobar Lane',41,1),(100000002,'Grace Ritchie','37 Snafu Drive',29,2),(100000003,'Random J. Patient','101 Omgbbq Street',63,2),(100000004,'Dennis Doe','1100 Foobaz Avenue',55,3),(100000005,'Mary Lamb','9 Ewe Street',34,4);
INSERT INTO Appointment VALUES (13216584,100000001,1,'2008-04-24','A'),(26548913,100000002,2,'2008-04-24','B'),(36549879,100000001,1,'2008-04-25','A'),(46846589,100000004,4,'2008-04-25','B'),(59871321,100000004,4,'2008-04-26','C'),(69879231,100000003,2,'2008-04-26','C'),(76983231,100000001,3,'2008-04-26','C'),(86213939,100000004,3,'2008-04-27','A'),(93216548,100000002,2,'2008-04-27','B');
