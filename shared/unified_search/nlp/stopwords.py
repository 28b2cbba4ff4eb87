"""Stop words: words that carry no search meaning, in English and Chinese.

The lists are deliberately short and hand-picked for queries: question words,
articles, pronouns, auxiliaries and filler. Users add their own through
``keyword.stop_words``.
"""

from __future__ import annotations

_ENGLISH_WORDS = """
    a about above after again against all also am an and any are aren't as at be because been
    before being below between both but by can can't cannot could couldn't did didn't do does
    doesn't doing don't down during each even ever every few for from further get gets getting
    give given go going got had hadn't has hasn't have haven't having he her here hers herself
    him himself his how i if in into is isn't it it's its itself just let like make many may me
    might more most much must my myself need no nor not now of off often on once one only or
    other our ours ourselves out over own please quite rather really same say she should
    shouldn't show since so some something still such tell than that that's the their theirs
    them themselves then there there's these they this those through to too under until up upon
    us use used using very via want was wasn't way we were weren't what what's when where which
    while who whom whose why will with within without would wouldn't yet you your yours
    yourself yourselves best good find looking know anyone thing things vs versus
"""

ENGLISH = frozenset(_ENGLISH_WORDS.split())
"""English function words and query filler."""

_CHINESE_WORDS = """
    的 了 和 与 及 或 是 在 有 我 你 他 她 它 我们 你们 他们 这 那 这个 那个 这些 那些 就 都 而 也
    还 又 把 被 让 给 对 从 到 向 于 为 为了 以 之 其 中 上 下 里 吗 呢 吧 啊 呀 哦 嘛 么 什么
    怎么 怎样 怎么样 如何 为什么 哪 哪个 哪些 哪里 谁 多少 几 一个 一些 一下 一种 可以 能 能够 会
    要 想 应该 需要 请 请问 关于 比较 非常 很 最 更 太 还是 但是 但 因为 所以 如果 虽然 然后
    最好 最佳 以及 并且 而且 或者 等 等等 之间 没有 不 没 个 些 着 过 得 地 即 便 则 所 将 已 已经
"""

CHINESE = frozenset(_CHINESE_WORDS.split())
"""Chinese particles, pronouns, question words and connectives."""


def is_stop_word(word: str, extra: frozenset[str] = frozenset()) -> bool:
    """Tell whether ``word`` (any case) should never be a keyword."""
    lowered = word.lower()
    return lowered in ENGLISH or lowered in CHINESE or lowered in extra
