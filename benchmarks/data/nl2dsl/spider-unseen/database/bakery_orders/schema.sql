PRAGMA foreign_keys = ON;
CREATE TABLE Customer (
  CustomerID INTEGER PRIMARY KEY,
  Name TEXT,
  City TEXT,
  JoinDate TEXT,
  LoyaltyPoints INTEGER
);
CREATE TABLE product (
  product_id INTEGER PRIMARY KEY,
  product_name TEXT,
  category TEXT,
  price REAL,
  calories INTEGER,
  is_vegan INTEGER
);
CREATE TABLE orders (
  order_id INTEGER PRIMARY KEY,
  customer_id INTEGER,
  order_date TEXT,
  status TEXT,
  paid_by TEXT,
  FOREIGN KEY (customer_id) REFERENCES Customer(CustomerID)
);
CREATE TABLE order_item (
  order_id INTEGER,
  product_id INTEGER,
  quantity INTEGER,
  PRIMARY KEY (order_id, product_id),
  FOREIGN KEY (order_id) REFERENCES orders(order_id),
  FOREIGN KEY (product_id) REFERENCES product(product_id)
);
INSERT INTO Customer VALUES (1, 'Caleb Bennett', 'Leeds', '2020-07-23', 267);
INSERT INTO Customer VALUES (2, 'Jade Bennett', 'Bristol', '2021-04-13', 634);
INSERT INTO Customer VALUES (3, 'Daisy Clarke', 'York', '2022-02-02', 50);
INSERT INTO Customer VALUES (4, 'George Bennett', 'Bath', '2023-09-17', 816);
INSERT INTO Customer VALUES (5, 'Lena Thomas', 'Norwich', '2019-06-20', 495);
INSERT INTO Customer VALUES (6, 'Liam Carter', 'Exeter', '2022-12-20', 354);
INSERT INTO Customer VALUES (7, 'George Patel', 'Leeds', '2020-06-04', 471);
INSERT INTO Customer VALUES (8, 'Nina Carter', 'Bristol', '2020-10-07', 625);
INSERT INTO Customer VALUES (9, 'Liam Brown', 'York', '2023-04-02', 882);
INSERT INTO Customer VALUES (10, 'Caleb Wright', 'Bath', '2020-04-15', 220);
INSERT INTO Customer VALUES (11, 'Jack Taylor', 'Norwich', '2021-11-16', 551);
INSERT INTO Customer VALUES (12, 'Ivan Carter', 'Exeter', '2020-08-14', 259);
INSERT INTO Customer VALUES (13, 'Chloe King', 'Leeds', '2019-05-24', 675);
INSERT INTO Customer VALUES (14, 'Zoe Clarke', 'Leeds', '2021-03-31', 321);
INSERT INTO Customer VALUES (15, 'Nina Baker', 'Leeds', '2023-09-30', 531);
INSERT INTO Customer VALUES (16, 'Katie King', 'York', '2021-03-02', 24);
INSERT INTO Customer VALUES (17, 'Alice Price', 'Leeds', '2019-02-04', 698);
INSERT INTO Customer VALUES (18, 'Hannah Taylor', 'Leeds', '2020-03-13', 107);
INSERT INTO Customer VALUES (19, 'Daniel Jones', 'Bristol', '2019-04-18', 488);
INSERT INTO Customer VALUES (20, 'Mia Fisher', 'Bath', '2021-02-07', 690);
INSERT INTO product VALUES (1, 'Sourdough Loaf', 'Bread', 4.5, 1650, 1);
INSERT INTO product VALUES (2, 'Rye Bread', 'Bread', 3.8, 1500, 1);
INSERT INTO product VALUES (3, 'Seeded Batch', 'Bread', 3.2, 1550, 1);
INSERT INTO product VALUES (4, 'Brioche', 'Bread', 4.2, 1900, 0);
INSERT INTO product VALUES (5, 'Focaccia', 'Bread', 5.1, 1720, 1);
INSERT INTO product VALUES (6, 'Baguette', 'Bread', 2.1, 880, 1);
INSERT INTO product VALUES (7, 'Butter Croissant', 'Pastry', 1.95, 270, 0);
INSERT INTO product VALUES (8, 'Almond Croissant', 'Pastry', 2.85, 410, 0);
INSERT INTO product VALUES (9, 'Pain au Chocolat', 'Pastry', 2.25, 300, 0);
INSERT INTO product VALUES (10, 'Cinnamon Bun', 'Pastry', 2.6, 380, 0);
INSERT INTO product VALUES (11, 'Danish Pastry', 'Pastry', 2.4, 340, 0);
INSERT INTO product VALUES (12, 'Vegan Croissant', 'Pastry', 2.3, 250, 1);
INSERT INTO product VALUES (13, 'Eclair', 'Pastry', 2.7, 260, 0);
INSERT INTO product VALUES (14, 'Carrot Cake', 'Cake', 3.6, 420, 0);
INSERT INTO product VALUES (15, 'Lemon Drizzle', 'Cake', 3.1, 360, 0);
INSERT INTO product VALUES (16, 'Chocolate Fudge Cake', 'Cake', 3.9, 480, 0);
INSERT INTO product VALUES (17, 'Victoria Sponge', 'Cake', 3.4, 390, 0);
INSERT INTO product VALUES (18, 'Celebration Cake', 'Cake', 24.0, 3600, 0);
INSERT INTO product VALUES (19, 'Oat Cookie', 'Cookie', 1.2, 190, 1);
INSERT INTO product VALUES (20, 'Double Choc Cookie', 'Cookie', 1.5, 230, 0);
INSERT INTO product VALUES (21, 'Shortbread', 'Cookie', 1.1, 160, 0);
INSERT INTO product VALUES (22, 'Ginger Snap', 'Cookie', 0.9, 120, 1);
INSERT INTO product VALUES (23, 'Sausage Roll', 'Savoury', 2.95, 330, 0);
INSERT INTO product VALUES (24, 'Cheese Scone', 'Savoury', 1.8, 280, 0);
INSERT INTO product VALUES (25, 'Spinach Pasty', 'Savoury', 3.3, 450, 1);
INSERT INTO orders VALUES (1, 1, '2023-06-20', 'collected', 'cash');
INSERT INTO orders VALUES (2, 14, '2023-06-25', 'collected', 'card');
INSERT INTO orders VALUES (3, 11, '2023-07-06', 'collected', 'card');
INSERT INTO orders VALUES (4, 6, '2023-07-11', 'cancelled', 'card');
INSERT INTO orders VALUES (5, 13, '2023-07-24', 'collected', 'card');
INSERT INTO orders VALUES (6, 5, '2023-07-26', 'collected', 'card');
INSERT INTO orders VALUES (7, 1, '2023-08-04', 'collected', 'card');
INSERT INTO orders VALUES (8, 7, '2023-08-21', 'collected', 'card');
INSERT INTO orders VALUES (9, 14, '2023-08-29', 'collected', 'card');
INSERT INTO orders VALUES (10, 11, '2023-09-06', 'cancelled', 'card');
INSERT INTO orders VALUES (11, 3, '2023-09-09', 'collected', 'cash');
INSERT INTO orders VALUES (12, 15, '2023-09-25', 'collected', 'card');
INSERT INTO orders VALUES (13, 14, '2023-10-01', 'collected', 'card');
INSERT INTO orders VALUES (14, 5, '2023-10-06', 'collected', 'card');
INSERT INTO orders VALUES (15, 1, '2023-10-09', 'cancelled', 'card');
INSERT INTO orders VALUES (16, 4, '2023-10-10', 'collected', 'cash');
INSERT INTO orders VALUES (17, 2, '2023-10-29', 'collected', 'card');
INSERT INTO orders VALUES (18, 16, '2023-12-16', 'cancelled', 'card');
INSERT INTO orders VALUES (19, 17, '2023-12-18', 'collected', 'card');
INSERT INTO orders VALUES (20, 10, '2024-01-02', 'collected', 'cash');
INSERT INTO orders VALUES (21, 7, '2024-01-02', 'collected', 'card');
INSERT INTO orders VALUES (22, 9, '2024-02-01', 'pending', 'cash');
INSERT INTO orders VALUES (23, 2, '2024-02-03', 'cancelled', 'card');
INSERT INTO orders VALUES (24, 9, '2024-02-07', 'cancelled', 'card');
INSERT INTO orders VALUES (25, 13, '2024-02-18', 'collected', 'cash');
INSERT INTO orders VALUES (26, 4, '2024-02-22', 'collected', 'card');
INSERT INTO orders VALUES (27, 5, '2024-03-10', 'cancelled', 'card');
INSERT INTO orders VALUES (28, 2, '2024-04-01', 'pending', 'card');
INSERT INTO orders VALUES (29, 13, '2024-04-05', 'cancelled', 'cash');
INSERT INTO orders VALUES (30, 15, '2024-04-08', 'collected', 'cash');
INSERT INTO orders VALUES (31, 5, '2024-04-18', 'collected', 'cash');
INSERT INTO orders VALUES (32, 5, '2024-05-17', 'collected', 'card');
INSERT INTO orders VALUES (33, 2, '2024-05-26', 'collected', 'cash');
INSERT INTO orders VALUES (34, 8, '2024-06-03', 'collected', 'card');
INSERT INTO orders VALUES (35, 9, '2024-06-06', 'cancelled', 'cash');
INSERT INTO orders VALUES (36, 9, '2024-06-13', 'collected', 'cash');
INSERT INTO orders VALUES (37, 5, '2024-06-13', 'collected', 'card');
INSERT INTO orders VALUES (38, 3, '2024-07-23', 'collected', 'cash');
INSERT INTO orders VALUES (39, 4, '2024-07-26', 'collected', 'cash');
INSERT INTO orders VALUES (40, 7, '2024-09-14', 'collected', 'cash');
INSERT INTO order_item VALUES (1, 3, 1);
INSERT INTO order_item VALUES (1, 18, 2);
INSERT INTO order_item VALUES (2, 5, 5);
INSERT INTO order_item VALUES (2, 18, 6);
INSERT INTO order_item VALUES (3, 18, 3);
INSERT INTO order_item VALUES (4, 1, 3);
INSERT INTO order_item VALUES (4, 14, 2);
INSERT INTO order_item VALUES (5, 23, 5);
INSERT INTO order_item VALUES (5, 8, 2);
INSERT INTO order_item VALUES (6, 12, 6);
INSERT INTO order_item VALUES (7, 17, 2);
INSERT INTO order_item VALUES (7, 18, 3);
INSERT INTO order_item VALUES (8, 15, 2);
INSERT INTO order_item VALUES (8, 10, 6);
INSERT INTO order_item VALUES (9, 16, 2);
INSERT INTO order_item VALUES (10, 8, 2);
INSERT INTO order_item VALUES (10, 15, 5);
INSERT INTO order_item VALUES (11, 12, 2);
INSERT INTO order_item VALUES (11, 8, 2);
INSERT INTO order_item VALUES (12, 18, 3);
INSERT INTO order_item VALUES (13, 2, 3);
INSERT INTO order_item VALUES (13, 3, 2);
INSERT INTO order_item VALUES (14, 5, 4);
INSERT INTO order_item VALUES (14, 17, 3);
INSERT INTO order_item VALUES (15, 8, 4);
INSERT INTO order_item VALUES (16, 15, 4);
INSERT INTO order_item VALUES (16, 19, 6);
INSERT INTO order_item VALUES (17, 12, 4);
INSERT INTO order_item VALUES (17, 23, 3);
INSERT INTO order_item VALUES (18, 3, 1);
INSERT INTO order_item VALUES (19, 10, 1);
INSERT INTO order_item VALUES (19, 23, 6);
INSERT INTO order_item VALUES (20, 10, 3);
INSERT INTO order_item VALUES (20, 22, 3);
INSERT INTO order_item VALUES (21, 24, 5);
INSERT INTO order_item VALUES (22, 1, 4);
INSERT INTO order_item VALUES (22, 6, 4);
INSERT INTO order_item VALUES (23, 8, 3);
INSERT INTO order_item VALUES (23, 1, 2);
INSERT INTO order_item VALUES (24, 6, 1);
INSERT INTO order_item VALUES (25, 24, 4);
INSERT INTO order_item VALUES (25, 5, 1);
INSERT INTO order_item VALUES (26, 24, 6);
INSERT INTO order_item VALUES (26, 20, 6);
INSERT INTO order_item VALUES (27, 14, 1);
INSERT INTO order_item VALUES (28, 8, 4);
INSERT INTO order_item VALUES (28, 24, 3);
INSERT INTO order_item VALUES (29, 7, 4);
INSERT INTO order_item VALUES (29, 1, 5);
INSERT INTO order_item VALUES (30, 2, 2);
INSERT INTO order_item VALUES (31, 9, 3);
INSERT INTO order_item VALUES (31, 10, 5);
INSERT INTO order_item VALUES (32, 19, 5);
INSERT INTO order_item VALUES (32, 24, 2);
INSERT INTO order_item VALUES (33, 15, 6);
INSERT INTO order_item VALUES (34, 9, 4);
INSERT INTO order_item VALUES (34, 3, 6);
INSERT INTO order_item VALUES (35, 15, 4);
INSERT INTO order_item VALUES (35, 6, 4);
INSERT INTO order_item VALUES (36, 8, 6);
