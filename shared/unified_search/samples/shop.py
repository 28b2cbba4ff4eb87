"""A small shop database (products, customers, orders) for demos and benchmarks.

The content is fixed: the same call always writes the same rows, so questions
about it have known answers. Dates are relative to ``SAMPLE_TODAY``.
"""

from __future__ import annotations

import datetime as dt
import random
import sqlite3
from pathlib import Path

#: The day the sample data treats as "today" (for "last week", "this year" ...).
SAMPLE_TODAY = dt.date(2025, 6, 15)

_SCHEMA = """
CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    name VARCHAR(120) NOT NULL,
    category VARCHAR(40) NOT NULL,
    brand VARCHAR(40) NOT NULL,
    price NUMERIC(10, 2) NOT NULL,
    rating FLOAT,
    stock INTEGER NOT NULL,
    created_at DATE NOT NULL,
    description TEXT
);
CREATE TABLE customers (
    id INTEGER PRIMARY KEY,
    name VARCHAR(80) NOT NULL,
    email VARCHAR(120) NOT NULL,
    city VARCHAR(60) NOT NULL,
    country VARCHAR(60) NOT NULL,
    status VARCHAR(20) NOT NULL,
    created_at DATE NOT NULL
);
CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers(id),
    product_id INTEGER NOT NULL REFERENCES products(id),
    quantity INTEGER NOT NULL,
    total NUMERIC(10, 2) NOT NULL,
    status VARCHAR(20) NOT NULL,
    ordered_at DATE NOT NULL
);
"""

# fmt: off
# name, category, brand, price, rating, stock, added (YYYY-MM-DD), description
_PRODUCTS: list[tuple[str, str, str, float, float | None, int, str, str]] = [
    ("Aurora Wireless Headphones", "Electronics", "Sonora", 89.99, 4.5, 34, "2024-11-02", "Over-ear bluetooth headphones with active noise cancelling and 30-hour battery."),
    ("Pulse Wireless Earbuds", "Electronics", "Sonora", 59.0, 4.1, 120, "2025-02-14", "Compact bluetooth earbuds with a charging case."),
    ("Studio Pro Headphones", "Electronics", "Harmonix", 249.0, 4.8, 8, "2023-09-20", "Wired studio monitor headphones for mixing and mastering."),
    ("Vista 27 Monitor", "Electronics", "Lumen", 329.0, 4.4, 15, "2024-05-11", "27-inch 4K IPS monitor with USB-C power delivery."),
    ("Vista 24 Monitor", "Electronics", "Lumen", 179.0, 4.0, 0, "2023-03-30", "24-inch full HD monitor, slim bezel."),
    ("Nimbus Laptop 14", "Electronics", "Cirrus", 999.0, 4.6, 12, "2025-05-20", "Lightweight 14-inch laptop with 16 GB memory and a 1 TB SSD."),
    ("Nimbus Laptop 16", "Electronics", "Cirrus", 1499.0, 4.7, 5, "2025-06-10", "16-inch performance laptop for creators."),
    ("Orbit Smartwatch", "Electronics", "Tempo", 199.0, 3.9, 40, "2024-08-01", "Fitness smartwatch with heart-rate and GPS tracking."),
    ("Spark Mechanical Keyboard", "Electronics", "Keyforge", 119.0, 4.6, 60, "2024-12-05", "Hot-swappable mechanical keyboard with brown switches."),
    ("Glide Wireless Mouse", "Electronics", "Keyforge", 29.99, 4.2, 200, "2023-07-18", "Ergonomic wireless mouse with silent clicks."),
    ("Beacon Bluetooth Speaker", "Electronics", "Sonora", 79.0, 4.3, 0, "2024-03-09", "Waterproof portable speaker with deep bass."),
    ("Python Crash Course", "Books", "Inkwell Press", 35.5, 4.7, 80, "2023-01-15", "A hands-on introduction to programming in Python."),
    ("Deep Learning Basics", "Books", "Inkwell Press", 52.0, 4.2, 25, "2024-10-10", "Neural networks explained with practical examples."),
    ("The Quiet Garden", "Books", "Maple House", 18.99, 4.4, 42, "2025-03-03", "A novel about a family and their garden across three summers."),
    ("Cooking with Spices", "Books", "Maple House", 24.0, 4.0, 0, "2022-11-25", "Recipes and stories from spice markets around the world."),
    ("Data Science Handbook", "Books", "Inkwell Press", 44.95, 4.5, 18, "2025-06-01", "Tools and techniques for working with data in Python."),
    ("Mountain Trails Atlas", "Books", "Northwind", 29.0, 3.8, 9, "2024-04-22", "Maps and route guides for hiking in the Alps."),
    ("Chef's Knife 8 inch", "Home", "Edgecraft", 64.0, 4.8, 30, "2024-02-28", "Forged stainless steel chef's knife."),
    ("Cast Iron Skillet", "Home", "Ironstone", 39.9, 4.6, 55, "2023-06-06", "Pre-seasoned 12-inch cast iron pan."),
    ("Pour-Over Coffee Set", "Home", "Brewline", 45.0, 4.3, 22, "2025-01-09", "Glass dripper, filters and a gooseneck kettle."),
    ("Espresso Machine Mini", "Home", "Brewline", 289.0, 4.1, 7, "2024-09-17", "Compact espresso machine with a milk frother."),
    ("Linen Bed Sheets", "Home", "Softnest", 120.0, 4.5, 16, "2024-06-30", "Stonewashed linen sheet set, queen size."),
    ("Memory Foam Pillow", "Home", "Softnest", 49.0, 3.6, 70, "2023-10-12", "Contoured pillow for neck support."),
    ("Trail Running Shoes", "Sports", "Stride", 129.0, 4.4, 26, "2025-04-18", "Lightweight trail shoes with a grippy sole."),
    ("Yoga Mat Pro", "Sports", "Lotus", 68.0, 4.7, 48, "2024-01-20", "Non-slip 6 mm yoga mat."),
    ("Adjustable Dumbbells", "Sports", "Ironstone", 349.0, 4.6, 6, "2024-11-29", "Pair of dumbbells adjustable from 2 to 24 kg."),
    ("Camping Tent 2P", "Sports", "Northwind", 199.0, 4.2, 11, "2025-05-02", "Two-person tent, waterproof, 2.1 kg."),
    ("Insulated Water Bottle", "Sports", "Northwind", 25.0, 4.5, 150, "2023-05-05", "Keeps drinks cold for 24 hours."),
    ("Cycling Helmet", "Sports", "Stride", 89.0, None, 19, "2025-06-12", "Lightweight road cycling helmet with MIPS."),
    ("Merino Wool Sweater", "Clothing", "Fjordwear", 110.0, 4.6, 21, "2024-10-01", "Soft merino crew-neck sweater."),
    ("Rain Jacket", "Clothing", "Fjordwear", 159.0, 4.3, 13, "2025-03-21", "Breathable waterproof jacket with taped seams."),
    ("Classic Denim Jeans", "Clothing", "Bluecut", 69.5, 4.0, 64, "2023-08-08", "Straight-fit jeans in dark wash denim."),
    ("Cotton T-Shirt Pack", "Clothing", "Bluecut", 29.0, 4.1, 210, "2024-07-07", "Pack of three organic cotton t-shirts."),
    ("Leather Belt", "Clothing", "Bluecut", 39.0, 3.7, 0, "2022-12-12", "Full-grain leather belt with a brass buckle."),
    ("Hydrating Face Cream", "Beauty", "Glowlab", 32.0, 4.4, 75, "2025-02-02", "Daily moisturiser with hyaluronic acid."),
    ("Vitamin C Serum", "Beauty", "Glowlab", 27.5, 4.2, 90, "2024-09-09", "Brightening serum for all skin types."),
    ("Mineral Sunscreen SPF 50", "Beauty", "Sunward", 19.0, 4.6, 130, "2025-05-28", "Reef-safe mineral sunscreen."),
    ("Bamboo Hair Brush", "Beauty", "Sunward", 15.0, 3.9, 40, "2023-04-14", "Wooden paddle brush with bamboo bristles."),
    ("Smart LED Bulb", "Home", "Lumen", 14.99, 4.0, 300, "2024-12-20", "Colour smart bulb, works with voice assistants."),
    ("Robot Vacuum S2", "Home", "Cirrus", 399.0, 4.4, 9, "2025-06-05", "Robot vacuum with lidar mapping and auto-empty dock."),
]

# name, city, country, status, joined
_CUSTOMERS: list[tuple[str, str, str, str, str]] = [
    ("Alice Martin", "Berlin", "Germany", "active", "2023-02-11"),
    ("Bruno Costa", "Lisbon", "Portugal", "active", "2023-05-23"),
    ("Chen Wei", "Shanghai", "China", "active", "2024-01-08"),
    ("Dana Cohen", "Tel Aviv", "Israel", "inactive", "2022-09-30"),
    ("Emma Schulz", "Munich", "Germany", "active", "2024-06-17"),
    ("Farid Haddad", "Paris", "France", "active", "2023-11-02"),
    ("Grace Kim", "Seoul", "South Korea", "active", "2025-01-19"),
    ("Hugo Lefevre", "Paris", "France", "inactive", "2022-04-04"),
    ("Isabel Garcia", "Madrid", "Spain", "active", "2024-03-12"),
    ("Jonas Berg", "Oslo", "Norway", "active", "2025-03-30"),
    ("Keiko Tanaka", "Tokyo", "Japan", "active", "2023-07-21"),
    ("Liam O'Brien", "Dublin", "Ireland", "inactive", "2023-03-03"),
    ("Maya Patel", "London", "United Kingdom", "active", "2024-09-09"),
    ("Noah Smith", "New York", "United States", "active", "2022-12-01"),
    ("Olivia Brown", "Toronto", "Canada", "active", "2025-05-05"),
    ("Pedro Alves", "Lisbon", "Portugal", "inactive", "2024-02-20"),
    ("Qin Lei", "Beijing", "China", "active", "2025-06-09"),
    ("Rosa Rossi", "Milan", "Italy", "active", "2023-08-15"),
    ("Sven Larsen", "Copenhagen", "Denmark", "active", "2024-11-11"),
    ("Tara Singh", "London", "United Kingdom", "inactive", "2022-06-18"),
    ("Umar Farouk", "Cairo", "Egypt", "active", "2024-04-27"),
    ("Vera Novak", "Prague", "Czech Republic", "active", "2025-02-14"),
    ("William Jones", "New York", "United States", "active", "2023-10-10"),
    ("Xia Ming", "Shanghai", "China", "active", "2024-12-24"),
    ("Yusuf Demir", "Istanbul", "Turkey", "inactive", "2023-01-29"),
    ("Zoe Dubois", "Lyon", "France", "active", "2025-04-04"),
]

# fmt: on

_ORDER_STATUSES = (
    "delivered",
    "delivered",
    "delivered",
    "shipped",
    "pending",
    "cancelled",
    "returned",
)
_ORDER_COUNT = 120


def build_shop_database(path: str | Path, *, overwrite: bool = True) -> Path:
    """Write the sample shop database to ``path`` (SQLite) and return the path.

    Example:
        >>> import tempfile
        >>> build_shop_database(Path(tempfile.mkdtemp()) / "shop.db").name
        'shop.db'
    """
    target = Path(path)
    if target.exists():
        if not overwrite:
            raise FileExistsError(f"{target} exists; pass overwrite=True to replace it")
        target.unlink()
    with sqlite3.connect(target) as conn:
        conn.executescript(_SCHEMA)
        conn.executemany(
            "INSERT INTO products VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(i, *row) for i, row in enumerate(_PRODUCTS, start=1)],
        )
        conn.executemany(
            "INSERT INTO customers VALUES (?, ?, ?, ?, ?, ?, ?)",
            [_customer_row(i, row) for i, row in enumerate(_CUSTOMERS, start=1)],
        )
        conn.executemany("INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?, ?)", order_rows())
    conn.close()
    return target


def _customer_row(index: int, row: tuple[str, str, str, str, str]) -> tuple[object, ...]:
    name, city, country, status, joined = row
    email = name.lower().replace("'", "").replace(" ", ".") + "@example.com"
    return (index, name, email, city, country, status, joined)


def order_rows() -> list[tuple[int, int, int, int, float, str, str]]:
    """Return the sample orders; a fixed seed makes them the same on every run."""
    rng = random.Random(20250615)
    first = dt.date(2024, 1, 1)
    span = (SAMPLE_TODAY - first).days
    rows = []
    for order_id in range(1, _ORDER_COUNT + 1):
        product_id = rng.randint(1, len(_PRODUCTS))
        quantity = rng.choice((1, 1, 1, 2, 2, 3, 4))
        total = round(_PRODUCTS[product_id - 1][3] * quantity, 2)
        ordered = first + dt.timedelta(days=rng.randint(0, span))
        status = rng.choice(_ORDER_STATUSES)
        customer_id = rng.randint(1, len(_CUSTOMERS))
        rows.append(
            (order_id, customer_id, product_id, quantity, total, status, ordered.isoformat())
        )
    return rows
