PRAGMA foreign_keys = ON;

CREATE TABLE student (
  student_id INTEGER PRIMARY KEY,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  grade INTEGER,
  homeroom TEXT,
  allergy TEXT,
  lunch_plan TEXT,
  enrolled_date DATE
);
CREATE TABLE menu_item (
  item_id INTEGER PRIMARY KEY,
  item_name TEXT NOT NULL,
  category TEXT,
  price REAL,
  calories INTEGER,
  is_vegetarian INTEGER
);
CREATE TABLE purchase (
  purchase_id INTEGER PRIMARY KEY,
  student_id INTEGER,
  item_id INTEGER,
  purchase_date DATE,
  quantity INTEGER,
  FOREIGN KEY (student_id) REFERENCES student(student_id),
  FOREIGN KEY (item_id) REFERENCES menu_item(item_id)
);

INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (1, 'Amelia', 'Roberts', 9, '9B', 'None', 'Paid', '2022-08-29');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (2, 'Owen', 'Martin', 9, '9B', 'None', 'Paid', '2022-09-06');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (3, 'Daniel', 'Jackson', 10, '10B', 'None', 'Free', '2021-08-22');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (4, 'Samuel', 'Baker', 9, '9A', 'None', 'Free', '2022-09-10');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (5, 'Elijah', 'Scott', 10, '10A', 'None', 'Paid', '2021-08-20');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (6, 'David', 'Martin', 11, '11A', 'None', 'Paid', '2020-08-20');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (7, 'Evelyn', 'Anderson', 7, '7B', 'None', 'Paid', '2024-09-10');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (8, 'Mia', 'Carter', 11, '11B', 'Lactose', 'Paid', '2020-08-20');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (9, 'Ethan', 'Miller', 7, '7C', 'None', 'Free', '2023-09-18');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (10, 'Mason', 'Baker', 12, '12A', 'Peanut', 'Free', '2019-09-06');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (11, 'Zoe', 'Wilson', 7, '7A', 'Lactose', 'Paid', '2024-09-06');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (12, 'Leo', 'Allen', 10, '10A', 'None', 'Reduced', '2021-08-28');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (13, 'Lucas', 'White', 10, '10A', 'None', 'Paid', '2020-10-19');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (14, 'Benjamin', 'Martinez', 9, '9C', 'Shellfish', 'Paid', '2022-09-01');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (15, 'Jacob', 'Thompson', 9, '9B', 'Peanut', 'Paid', '2022-08-30');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (16, 'Liam', 'Wilson', 9, '9B', 'Peanut', 'Free', '2022-08-21');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (17, 'Harper', 'Perez', 7, '7A', 'None', 'Paid', '2024-08-31');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (18, 'Nora', 'Martin', 8, '8B', 'None', 'Paid', '2023-08-28');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (19, 'James', 'Baker', 9, '9A', 'None', 'Reduced', '2022-09-03');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (20, 'Olivia', 'Baker', 11, '11A', 'None', 'Free', '2020-09-08');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (21, 'Noah', 'Brown', 12, '12B', 'None', 'Paid', '2019-09-08');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (22, 'Caleb', 'Miller', 8, '8B', 'Peanut', 'Paid', '2023-08-27');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (23, 'Ella', 'Martin', 12, '12C', 'None', 'Paid', '2019-08-25');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (24, 'Logan', 'Jackson', 10, '10A', 'None', 'Paid', '2021-09-10');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (25, 'Sophia', 'Perez', 7, '7B', 'Lactose', 'Paid', '2024-09-10');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (26, 'Lily', 'Wilson', 7, '7A', 'Shellfish', 'Paid', '2024-09-08');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (27, 'Henry', 'Wilson', 12, '12A', 'None', 'Reduced', '2019-08-23');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (28, 'Oliver', 'Clark', 8, '8A', 'Peanut', 'Paid', '2023-08-24');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (29, 'Chloe', 'Thompson', 10, '10A', 'None', 'Paid', '2021-09-03');
INSERT INTO student (student_id, first_name, last_name, grade, homeroom, allergy, lunch_plan, enrolled_date) VALUES (30, 'Emma', 'Wright', 8, '8B', 'Shellfish', 'Free', '2020-01-21');

INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (1, 'Chicken Wrap', 'Main', 4.5, 520, 0);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (2, 'Veggie Lasagna', 'Main', 4.75, 610, 1);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (3, 'Beef Burger', 'Main', 5.25, 780, 0);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (4, 'Fish Tacos', 'Main', 5.0, 560, 0);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (5, 'Margherita Pizza', 'Main', 3.95, 690, 1);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (6, 'Bean Chili', 'Main', 3.5, 450, 1);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (7, 'Mac and Cheese', 'Main', 3.25, 640, 1);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (8, 'Turkey Sandwich', 'Main', 4.0, 480, 0);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (9, 'Tomato Soup', 'Side', 2.25, 210, 1);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (10, 'Caesar Salad', 'Side', 3.1, 330, 0);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (11, 'Garden Salad', 'Side', 2.8, 150, 1);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (12, 'French Fries', 'Side', 1.95, 410, 1);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (13, 'Garlic Bread', 'Side', 1.5, 290, 1);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (14, 'Sweet Potato Wedges', 'Side', 2.1, 300, 1);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (15, 'Chocolate Brownie', 'Dessert', 1.75, 380, 1);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (16, 'Apple Crumble', 'Dessert', 2.0, 340, 1);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (17, 'Fruit Cup', 'Dessert', 1.6, 95, 1);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (18, 'Yogurt Parfait', 'Dessert', 2.3, 230, 1);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (19, 'Orange Juice', 'Drink', 1.4, 110, 1);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (20, 'Chocolate Milk', 'Drink', 1.2, 190, 1);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (21, 'Bottled Water', 'Drink', 0.9, 0, 1);
INSERT INTO menu_item (item_id, item_name, category, price, calories, is_vegetarian) VALUES (22, 'Lemonade', 'Drink', 1.3, 140, 1);

INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (1, 7, 12, '2024-09-02', 3);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (2, 15, 20, '2024-09-03', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (3, 12, 20, '2024-09-09', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (4, 2, 3, '2024-09-11', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (5, 28, 1, '2024-09-14', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (6, 8, 18, '2024-09-17', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (7, 18, 4, '2024-09-19', 2);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (8, 26, 1, '2024-09-19', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (9, 30, 3, '2024-09-20', 2);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (10, 21, 1, '2024-09-20', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (11, 26, 9, '2024-09-21', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (12, 7, 4, '2024-09-22', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (13, 15, 3, '2024-09-23', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (14, 16, 14, '2024-09-24', 2);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (15, 23, 1, '2024-09-25', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (16, 18, 20, '2024-09-28', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (17, 3, 12, '2024-09-28', 2);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (18, 26, 5, '2024-09-30', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (19, 17, 5, '2024-09-30', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (20, 19, 15, '2024-09-30', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (21, 18, 5, '2024-10-01', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (22, 2, 3, '2024-10-01', 3);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (23, 29, 20, '2024-10-04', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (24, 24, 5, '2024-10-08', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (25, 6, 8, '2024-10-08', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (26, 25, 5, '2024-10-08', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (27, 18, 7, '2024-10-11', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (28, 20, 19, '2024-10-11', 2);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (29, 24, 12, '2024-10-11', 2);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (30, 3, 21, '2024-10-11', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (31, 8, 3, '2024-10-14', 2);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (32, 25, 7, '2024-10-16', 2);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (33, 20, 5, '2024-10-16', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (34, 2, 17, '2024-10-18', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (35, 2, 1, '2024-10-19', 3);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (36, 7, 20, '2024-10-21', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (37, 24, 3, '2024-10-24', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (38, 12, 14, '2024-10-25', 2);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (39, 7, 3, '2024-10-26', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (40, 16, 12, '2024-10-28', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (41, 26, 1, '2024-11-03', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (42, 14, 3, '2024-11-04', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (43, 11, 20, '2024-11-07', 3);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (44, 19, 1, '2024-11-08', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (45, 20, 13, '2024-11-08', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (46, 1, 5, '2024-11-08', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (47, 29, 19, '2024-11-09', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (48, 8, 3, '2024-11-09', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (49, 18, 1, '2024-11-10', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (50, 25, 21, '2024-11-11', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (51, 7, 14, '2024-11-12', 2);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (52, 2, 5, '2024-11-15', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (53, 8, 5, '2024-11-15', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (54, 28, 3, '2024-11-17', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (55, 23, 2, '2024-11-17', 2);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (56, 2, 20, '2024-11-19', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (57, 26, 20, '2024-11-22', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (58, 26, 8, '2024-11-23', 2);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (59, 12, 1, '2024-11-26', 1);
INSERT INTO purchase (purchase_id, student_id, item_id, purchase_date, quantity) VALUES (60, 3, 6, '2024-11-28', 2);
