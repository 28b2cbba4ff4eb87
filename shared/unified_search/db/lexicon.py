"""Words the builtin DSL generator knows: stop words, column synonyms, model nouns.

Everything here is data. Matching is done on lower-cased, NFKC-normalised
text, so full-width digits and symbols already look like ASCII.
"""

from __future__ import annotations

import re

_STOP_TEXT = """a an the and or of for to in on at by with without from into about as is are was were be
    been being do does did have has had i me my we our you your it its this that these those there
    their them they what which who whom whose where when how why show me list find get give search
    display all any some every each please can could would should will shall want need looking
    look see tell items item things thing ones one than then also just only very really much many
    more most less least over under above below between within up down out off per via
    rows records entries results result anything something stuff buy bought sell sold available
    cost costs costing priced price prices rated rating ratings star stars dollar dollars usd bucks
    named called whose having has sorted order ordered sort by first top last past next new
    recent recently latest newest oldest earliest cheapest cheap cheaper expensive priciest
    highest lowest largest biggest smallest best worst popular exactly equal around about
    since before after during until till today yesterday week weeks month months year years
    day days ago this status"""
STOPWORDS = frozenset(_STOP_TEXT.split())

#: Chinese particles and question words removed before keywords are taken.
CHINESE_STOP = (
    "请",
    "帮我",
    "给我",
    "查找",
    "查询",
    "搜索",
    "找出",
    "找",
    "显示",
    "列出",
    "看看",
    "所有",
    "全部",
    "哪些",
    "哪个",
    "什么",
    "有没有",
    "有哪些",
    "是",
    "的",
    "了",
    "吗",
    "呢",
    "和",
    "与",
    "或",
    "并且",
    "以及",
    "在",
    "中",
    "里",
    "个",
    "款",
    "件",
    "条",
    "位",
    "名",
    "一些",
    "价格",
    "评分",
    "库存",
    "元",
    "块",
    "最",
    "按",
    "排序",
    "从",
    "到",
    "之间",
    "以上",
    "以下",
    "以内",
)

#: Extra words for a column, keyed by a word of its name.
COLUMN_SYNONYMS: dict[str, tuple[str, ...]] = {
    "price": (
        "price",
        "prices",
        "priced",
        "cost",
        "costs",
        "cheap",
        "cheaper",
        "expensive",
        "$",
        "dollars",
        "usd",
        "价格",
        "价钱",
        "售价",
        "元",
        "块",
    ),
    "cost": ("cost", "costs", "price", "$", "dollars", "成本"),
    "rating": ("rating", "ratings", "rated", "stars", "star", "score", "评分", "星"),
    "stock": ("stock", "inventory", "units", "库存"),
    "quantity": ("quantity", "qty", "units", "pieces", "items", "数量"),
    "total": ("total", "amount", "spent", "worth", "$", "dollars", "金额", "总额", "总价"),
    "amount": ("amount", "total", "$", "dollars", "金额"),
    "ordered": ("ordered", "placed", "下单"),
    "created": (
        "created",
        "added",
        "joined",
        "registered",
        "signed",
        "since",
        "创建",
        "注册",
        "上架",
    ),
    "age": ("age", "old", "岁"),
    "sold": ("sold", "sales", "selling", "销量"),
    "city": ("city", "城市"),
    "country": ("country", "国家"),
    "name": ("name", "named", "called", "名字", "名称"),
}

#: Chinese nouns for common model names.
MODEL_SYNONYMS: dict[str, tuple[str, ...]] = {
    "product": ("产品", "商品", "货品"),
    "order": ("订单",),
    "customer": ("客户", "顾客", "用户"),
    "user": ("用户",),
    "employee": ("员工",),
    "article": ("文章",),
    "book": ("书", "图书", "书籍"),
}

#: Column-name words that mark money (currency amounts in a question go to these).
MONEY_WORDS = frozenset({"price", "cost", "amount", "total", "revenue", "fee", "salary", "spent"})
#: Column-name words that mark a rating.
RATING_WORDS = frozenset({"rating", "score", "stars", "rank"})
#: Column-name words that mark a count of things on hand.
STOCK_WORDS = frozenset({"stock", "inventory", "quantity_on_hand", "available"})
#: Column-name words that mark popularity.
POPULARITY_WORDS = frozenset({"sold", "sales", "popularity", "views", "orders_count"})

CURRENCY = re.compile(r"[$€£¥]|\b(?:usd|eur|dollars?|bucks|euros?)\b|元|块")

NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "twenty": 20,
    "fifty": 50,
    "hundred": 100,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
}


def name_words(name: str) -> list[str]:
    """Split a column or model name into words: ``created_at`` → ``["created", "at"]``."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", name)
    return [w for w in re.split(r"[\s_\-]+", spaced.lower()) if w]


def singular(word: str) -> str:
    """Return a cheap English singular: ``batteries`` → ``battery``, ``boxes`` → ``box``."""
    if len(word) <= 3 or not word.isascii():
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def forms(word: str) -> set[str]:
    """Return the singular and plural spellings of a word."""
    base = singular(word)
    plural = base[:-1] + "ies" if base.endswith("y") else base + "s"
    return {word, base, plural} if base.isascii() else {word}
