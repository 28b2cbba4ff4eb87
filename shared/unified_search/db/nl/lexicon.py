"""Words the builtin generator knows without looking at any schema.

Everything here is data about English (and some Chinese) in general, never
about one database: filler words that carry no query meaning, the cues of
negation, comparison, ordering and aggregation, and a small lexicon of
everyday synonyms ("released" for a ``published`` column, "staff" for an
``employees`` model). A synonym only counts when the schema has what it points
to. ``db.lexicon`` adds a user's own entries.
"""

from __future__ import annotations

import re


def _words(text: str) -> frozenset[str]:
    """Read a whitespace-separated word list."""
    return frozenset(text.split())


_FILLER_TEXT = """
    a an the and or of for to in on at by with from into onto about as is are was were be been
    being am do does did done doing have has had having i me my mine we our ours us you your
    yours it its this that these those there here their them they he she his her him what which
    who whose where when why how whom show list find get give gives tell display search see fetch
    pull bring return want wanted need needs looking look like would could should can will shall
    may might must please thanks thank hi hello hey okay ok just only also all any some every
    everything anything something stuff thing things one ones item items record records row rows
    entry entries result results data details detail info information currently current now
    right still already ever yet so too very really actually exist exists existing
    available kind kinds sort type types whole entire overall complete full details please
    ones sell sells sold selling carry carries offer offers stocked keep kept happen happened
    get got go goes going went come comes came make made take takes took put placed registered
    listed recorded called named have they're we've anyone someone anybody somebody ones each
    did does is was are were been than then whether if based located living lives live
    gear options choices selection offerings range catalog catalogue inventory collection
    brought bring brings often frequently work works working worked run runs ran people person
    well given along
    persons anyone everyone but here company firm organisation organization business
    """
#: Words naming the kind of answer wanted (an overview, examples): never a condition on rows.
_ANSWER_KINDS = """
    overview summary summaries introduction intro guide guides tutorial tutorials example examples
    use uses case cases challenges challenge problems issues comparison compare versus vs pros cons
    explanation explain explained about details overall basics
    """
#: Chinese particles and question words read as filler.
CHINESE_FILLER = _words(
    "请 帮我 给我 查找 查询 搜索 找出 找 显示 列出 看看 所有 全部 哪些 哪个 什么 有没有 有哪些 是 的 了 吗 呢 和 与 或 "
    "并且 以及 在 中 里 个 款 件 条 位 名 一些 最 按 排序 从 到 之间 以上 以下 以内 有 为"
)
#: Words that carry no query meaning once the rules have read the question.
FILLER = _words(_FILLER_TEXT) | _words(_ANSWER_KINDS) | CHINESE_FILLER

#: Words that turn the next condition around.
NEGATION = re.compile(
    r"\b(?:not|no|never|without|except(?:\s+for)?|excluding|exclude|other\s+than|apart\s+from|"
    r"besides|but\s+not|non|nobody|none|nothing|outside(?:\s+of)?|neither|nor)\b|不是|不在|除了|非|没有|无"
)
#: Words that ask for people: a model of people is the likely subject.
PERSON_WORDS = _words("who whom people person persons anyone someone somebody everyone everybody")
#: Column-name words that mark a model of people (they have these, things do not).
PERSON_COLUMNS = _words(
    "email phone mobile birth born first_name last_name firstname lastname surname gender"
    " hired hire salary wage"
)


def _table(text: str) -> dict[str, tuple[str, ...]]:
    """Read ``key: word, word, a phrase`` lines into a dict."""
    entries = (line.split(":", 1) for line in text.strip().splitlines())
    return {key.strip(): tuple(w.strip() for w in words.split(",")) for key, words in entries}


#: Everyday synonyms, keyed by the stem of a schema word: what else people call it.
SYNONYMS = _table(
    """
    price: 价格, 价钱, 售价, cost, costs, priced, pricing, expensive, cheap, cheaper, pricey, paid
    cost: price, priced, expensive, cheap
    salari: 工资, 薪水, pay, paid, earn, earns, earning, earned, earner, earners, wage, wages, income, compensation, making, makes
    total: 金额, 总额, 总价, spent, spend, spending, revenue, value, worth, sales, amount
    amount: 金额, spent, spend, spending, revenue, value, worth, sales, total
    revenu: sales, income, turnover
    budget: funded, funding, funds
    fee: cost, charge
    quantiti: 数量, units, unit, copies, copy, pieces, qty
    stock: 库存, inventory, units
    capac: holds, hold, seats, fits, capacity
    page: long, longer, length
    rate: 评分, rated, stars, star, score, reviewed
    rating: 评分, 星, rated, stars, star, score, reviewed
    score: rated, rating
    publish: released, release, releases, publication, came out, out
    creat: 创建, 注册, 上架, added, joined, registered, signed up, listed, new
    join: signed up, registered, member since, joined
    hire: hired, hires, joined, started, employed
    birth: born, birthday
    start: starts, starting, started, begins, begin, beginning, taking place, takes place, happening, held
    end: ends, ending, ended, finished, finishes
    order: 下单, placed, ordered
    purchas: bought, purchased
    updat: modified, changed
    citi: 城市, based, located, lives, living, town
    locat: located, based
    countri: 国家, nationality, national
    author: written, wrote, writer, authored
    name: 名字, 名称, named, called
    titl: titled, called
    job: role, position
    manag: managed, manages, reports, report, reporting, boss, supervisor
    categori: 类别, 分类, type, kind, genre, section
    genr: category, type, kind
    statu: 状态, state
    descript: about, described
    sex: gender
    gender: sex
    """
)
#: Everyday names of common models, keyed by the stem of the model's name.
MODEL_SYNONYMS = _table(
    """
    product: item, items, article, goods, merchandise, 产品, 商品, 货品
    custom: client, clients, buyer, buyers, shopper, shoppers, 客户, 顾客
    order: purchase, purchases, sale, sales, 订单
    employe: staff, worker, workers, personnel, colleague, colleagues, hire, hires, 员工
    book: novel, novels, title, titles, 书, 图书, 书籍
    event: show, shows, gig, gigs, performance, performances
    attende: guest, guests, visitor, visitors, participant, participants
    venu: place, places, hall, halls
    ticket: booking, bookings, admission, admissions
    depart: team, teams, division, divisions, dept
    project: initiative, initiatives
    user: member, members, account, accounts, 用户
    articl: post, posts, 文章
    assign: working on, works on, assigned, staffed
    """
)
#: Verbs that name a relation: "who bought …" goes through the model they name.
RELATION_VERBS = _table(
    """
    bought: order, purchase, sale, ticket, booking
    buy: order, purchase, sale, ticket, booking
    purchas: order, purchase, sale, ticket, booking
    order: order
    went: ticket, booking, registration, attendance
    attend: ticket, booking, registration, attendance
    visit: ticket, booking, visit
    work: assignment, department
    assign: assignment
    lead: assignment
    borrow: loan
    rent: rental
    review: review
    """
)

#: Verbs that only say how rows relate ("pets owned by students", "concerts held in 2014"):
#: read once the plan follows a link or tests a condition, they add nothing to it.
LIGHT_VERBS = _words(
    """
    happen happened occur occurred take takes took taken hold holds held play played perform
    performed own owned have has had raise raised keep kept produce produced make made build
    built design designed create created write wrote written publish published release released
    direct directed attend attended participate participated enrol enroll enrolled belong
    belongs register registered visit visited win won teach taught study studied work worked
    manage managed host hosted organize organized sing sang star starred feature featured appear
    appeared compete competed run ran drive drove live lived stay stayed serve served offer
    offered record recorded locate located come came show shown use used score scored operate
    operated depart departed arrive arrived leave left fly flies flew go goes went receive
    received give given got
    """
)
#: Past forms whose stem is not the root of the nouns made from the verb ("won" → "winner").
PAST_ROOTS: dict[str, str] = {
    "won": "win", "sold": "sell", "bought": "buy", "taught": "teach", "wrote": "writ",
    "written": "writ", "ran": "run", "sang": "sing", "sung": "sing", "led": "lead",
    "drove": "driv", "driven": "driv", "lost": "los", "chose": "choos", "chosen": "choos",
}  # fmt: skip
#: Of ``LIGHT_VERBS``, those that fit any link ("pets owned by students"); the others say
#: which link they mean, so "written by Maya" needs a link named for writing.
GENERIC_VERBS = _words(
    """
    have has had own owned raise raised keep kept belong belongs contain contains include
    includes hold holds held take took happen happened occur occurred exist exists locate located
    live lived stay stayed come came show shown use used receive received give given got
    """
)
#: Words for the letters a sex or gender column holds.
SEX_WORDS: dict[str, tuple[str, ...]] = {
    "f": ("female", "females", "woman", "women", "girl", "girls"),
    "m": ("male", "males", "man", "men", "boy", "boys"),
}
#: Common abbreviations, read as the words they stand for.
ABBREVIATIONS: dict[str, str] = {
    "rep": "representative", "reps": "representatives", "mgr": "manager", "mgrs": "managers",
    "dept": "department", "depts": "departments", "qty": "quantity", "amt": "amount",
    "yr": "year", "yrs": "years", "mo": "month", "mos": "months", "wk": "week", "wks": "weeks",
    "approx": "about", "info": "information", "pct": "percent", "num": "number", "nr": "number",
    "avg": "average", "emp": "employee", "emps": "employees", "cust": "customer",
    "custs": "customers", "prod": "product", "prods": "products", "cat": "category",
}  # fmt: skip
#: Single letters that stand for a part of a name in column names ("LName", "f_name").
NAME_INITIALS: dict[str, str] = {"f": "first", "l": "last", "m": "middle"}
#: Whole abbreviated words of column names, read as what they stand for.
COLUMN_ABBREVIATIONS: dict[str, str] = {
    "fname": "first name", "lname": "last name", "mname": "middle name", "dob": "date of birth",
    "addr": "address", "tel": "telephone", "desc": "description", "pop": "population",
    "no": "number", "num": "number", "nbr": "number", "nr": "number", "amt": "amount",
}  # fmt: skip
#: Words the rules read (comparison, ordering, dates, aggregates): known, never "corrected".
CUE_WORDS = _words("""
    above ago apart april ascending august average avg below beneath besides best between
    bigger biggest cheaper cheapest costliest count day days december descending during each
    fewest greatest heavier heaviest lighter lightest taller tallest shortest longest alphabetical
    alphabetically ascending
    earliest equal equals every exactly exceeding exceeds except excluding expensive february
    fewer first free future greater grouped higher highest january july june larger largest
    last latest least less longer lower lowest many march max maximum may mean min minimum
    month months more most much neither never newest next no nobody none nor not nothing
    november number october older oldest ordered other outside over past per popular previous
    pricier priciest ranked rated recent recently reviewed seller sellers selling september
    shorter since smaller smallest sorted stock sum through till today tomorrow top total
    typical under until upcoming week weeks without worst year years yesterday younger zero
    """)
#: Adjectives of nationality, for a question like "German customers" over a country column.
DEMONYMS: dict[str, str] = {
    "american": "united states", "argentinian": "argentina", "australian": "australia",
    "austrian": "austria", "belgian": "belgium", "brazilian": "brazil", "british": "united kingdom",
    "canadian": "canada", "chilean": "chile", "chinese": "china", "colombian": "colombia",
    "croatian": "croatia", "czech": "czech republic", "danish": "denmark", "dutch": "netherlands",
    "egyptian": "egypt", "english": "england", "estonian": "estonia", "finnish": "finland",
    "french": "france", "german": "germany", "greek": "greece", "hungarian": "hungary",
    "indian": "india", "indonesian": "indonesia", "irish": "ireland", "israeli": "israel",
    "italian": "italy", "japanese": "japan", "kenyan": "kenya", "korean": "south korea",
    "latvian": "latvia", "lithuanian": "lithuania", "mexican": "mexico", "moroccan": "morocco",
    "nigerian": "nigeria", "norwegian": "norway", "pakistani": "pakistan", "peruvian": "peru",
    "polish": "poland", "portuguese": "portugal", "romanian": "romania", "russian": "russia",
    "scottish": "scotland", "serbian": "serbia", "singaporean": "singapore", "slovak": "slovakia",
    "slovenian": "slovenia", "south african": "south africa", "spanish": "spain",
    "swedish": "sweden", "swiss": "switzerland", "taiwanese": "taiwan", "thai": "thailand",
    "turkish": "turkey", "ukrainian": "ukraine", "vietnamese": "vietnam", "welsh": "wales",
}  # fmt: skip
#: Column-name words that mark money (currency amounts in a question go to these).
MONEY_WORDS = _words(
    "price cost amount total revenue fee salary spent paid pay wage budget income value"
)
#: Column-name words that mark a rating.
RATING_WORDS = frozenset({"rating", "score", "stars", "rank"})
#: Column-name words that mark a count of things on hand.
STOCK_WORDS = frozenset({"stock", "inventory", "available", "on_hand"})
#: Column-name words that mark how much of something a row moved (for "best selling").
QUANTITY_WORDS = frozenset({"quantity", "qty", "units", "copies", "count", "sold", "sales"})
#: Column-name words that mark popularity counted on the row itself.
POPULARITY_WORDS = frozenset({"sold", "sales", "popularity", "views", "downloads", "plays"})
#: Column-name words that mark the size of a thing ("biggest", "larger than").
SIZE_WORDS = frozenset({"size", "capacity", "area", "volume", "length", "pages", "weight", "seats"})
#: Column-name words that mark a length ("longest", "longer than").
LENGTH_WORDS = frozenset({"length", "pages", "duration", "minutes", "hours", "runtime", "words"})
#: Column-name words of a birth date ("the oldest" was born first).
BIRTH_WORDS = frozenset({"birth", "born", "birthday", "dob"})
#: Column-name words of each kind of measure a word implies ("cheapest", "older than").
MEASURE_WORDS: dict[str, frozenset[str]] = {
    "money": MONEY_WORDS,
    "rating": RATING_WORDS,
    "size": SIZE_WORDS,
    "length": LENGTH_WORDS,
    "popularity": POPULARITY_WORDS,
    "age": frozenset({"age"}),
    "weight": frozenset({"weight", "mass"}),
    "height": frozenset({"height"}),
}
#: Column-name words of a link's direction, by the preposition that asks for it.
DIRECTION_WORDS: dict[str, frozenset[str]] = {
    "from": frozenset({"source", "src", "origin", "from", "departure", "departing", "start"}),
    "to": frozenset({"destination", "dest", "dst", "to", "arrival", "arriving", "end", "target"}),
}
#: Words before a value that say which way a link goes ("flights to Paris", "departing from").
DIRECTION_CUES = {"from": "from", "to": "to", "into": "to", "towards": "to", "toward": "to"}
#: Column-name words of a number that is a year ("Founded", "Year_Published", "join_year").
YEAR_WORDS = frozenset({"year", "founded", "established", "opened", "built", "launched"})
#: Column-name words of dates that are rarely what a bare date phrase means.
SECONDARY_DATES = frozenset({"birth", "born", "end", "ended", "updated", "modified", "deleted"})

CURRENCY = re.compile(r"[$€£¥]|\b(?:usd|eur|gbp|dollars?|bucks|euros?|pounds?)\b|元|块")

NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30, "fifty": 50, "hundred": 100, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4,
    "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10,
}  # fmt: skip
