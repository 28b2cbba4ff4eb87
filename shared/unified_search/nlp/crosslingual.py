"""Cross-language sub-queries for technical questions: Chinese → English, and back.

Much technical writing exists only in English, so a Chinese technical query
("Rust 异步编程") is also searched in English ("Rust async programming"); a
conversation held in Chinese also searches an English query's Chinese
wording ("Kubernetes tutorial" → "Kubernetes 教程"). There is no translation
model offline, so a glossary of common technical terms does the work: words
it knows are translated, Latin names (Rust, Kubernetes) are kept, stop words
are dropped. A query the glossary cannot cover well gets no variant rather
than a wrong one.
"""

from __future__ import annotations

import re

from unified_search.nlp.stopwords import CHINESE, ENGLISH

#: Chinese technical terms and their usual English wording.
GLOSSARY: dict[str, str] = {
    "编程": "programming",
    "编程语言": "programming language",
    "异步": "async",
    "异步编程": "async programming",
    "同步": "synchronous",
    "并发": "concurrency",
    "并行": "parallelism",
    "多线程": "multithreading",
    "线程": "thread",
    "进程": "process",
    "协程": "coroutine",
    "函数": "function",
    "变量": "variable",
    "接口": "interface",
    "对象": "object",
    "数组": "array",
    "字符串": "string",
    "算法": "algorithm",
    "数据结构": "data structure",
    "数据库": "database",
    "向量数据库": "vector database",
    "关系型数据库": "relational database",
    "索引": "index",
    "查询": "query",
    "缓存": "cache",
    "事务": "transaction",
    "消息队列": "message queue",
    "分布式": "distributed",
    "分布式系统": "distributed system",
    "微服务": "microservices",
    "架构": "architecture",
    "容器": "container",
    "容器编排": "container orchestration",
    "编排": "orchestration",
    "部署": "deployment",
    "集群": "cluster",
    "负载均衡": "load balancing",
    "服务器": "server",
    "客户端": "client",
    "前端": "frontend",
    "后端": "backend",
    "框架": "framework",
    "插件": "plugin",
    "模块": "module",
    "依赖": "dependency",
    "编译器": "compiler",
    "编译": "compilation",
    "解释器": "interpreter",
    "调试": "debugging",
    "测试": "testing",
    "单元测试": "unit testing",
    "性能": "performance",
    "优化": "optimization",
    "性能优化": "performance optimization",
    "内存": "memory",
    "内存泄漏": "memory leak",
    "内存安全": "memory safety",
    "垃圾回收": "garbage collection",
    "安全": "security",
    "漏洞": "vulnerability",
    "加密": "encryption",
    "认证": "authentication",
    "授权": "authorization",
    "网络": "network",
    "协议": "protocol",
    "操作系统": "operating system",
    "虚拟机": "virtual machine",
    "云计算": "cloud computing",
    "人工智能": "artificial intelligence",
    "机器学习": "machine learning",
    "深度学习": "deep learning",
    "强化学习": "reinforcement learning",
    "神经网络": "neural network",
    "大模型": "large language model",
    "大语言模型": "large language model",
    "自然语言处理": "natural language processing",
    "计算机视觉": "computer vision",
    "向量": "vector",
    "嵌入": "embedding",
    "检索": "retrieval",
    "检索增强生成": "retrieval-augmented generation",
    "搜索引擎": "search engine",
    "推荐系统": "recommendation system",
    "训练": "training",
    "推理": "inference",
    "微调": "fine-tuning",
    "模型": "model",
    "数据集": "dataset",
    "类型系统": "type system",
    "正则表达式": "regular expression",
    "命令行": "command line",
    "版本控制": "version control",
    "持续集成": "continuous integration",
    "日志": "logging",
    "监控": "monitoring",
    "区块链": "blockchain",
    "爬虫": "web scraping",
    "教程": "tutorial",
    "入门": "getting started",
    "入门教程": "beginner tutorial",
    "指南": "guide",
    "文档": "documentation",
    "官方文档": "official documentation",
    "最佳实践": "best practices",
    "原理": "principles",
    "源码": "source code",
    "开源": "open source",
    "对比": "comparison",
    "区别": "differences",
    "优势": "advantages",
    "缺点": "disadvantages",
    "示例": "examples",
    "配置": "configuration",
    "安装": "installation",
    "报错": "error",
    "版本": "version",
    "最新": "latest",
    "发布": "release",
    "新闻": "news",
    "实现": "implementation",
    "学习": "learn",
    "开发": "development",
    "开发者": "developer",
    "应用": "application",
    "生态": "ecosystem",
    "工具": "tools",
}

#: Longest glossary key, in characters (the forward maximum match looks this far).
_LONGEST = max(len(key) for key in GLOSSARY)
#: Share of a query's Chinese characters that may stay untranslated (names, rare words).
UNTRANSLATED_SHARE = 1 / 3
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_PARTS = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[A-Za-z0-9][\w+#.\-]*")
_ENGLISH_TERMS = {english: chinese for chinese, english in reversed(GLOSSARY.items())}
_ENGLISH_TERM = re.compile(
    r"(?<![\w-])(?:"
    + "|".join(re.escape(term) for term in sorted(_ENGLISH_TERMS, key=len, reverse=True))
    + r")(?![\w-])",
    re.IGNORECASE,
)


def is_chinese(text: str) -> bool:
    """Tell whether ``text`` holds Chinese characters."""
    return _CJK.search(text) is not None


def english_variant(query: str) -> str | None:
    """The English wording of a Chinese technical query, or ``None`` when the glossary falls short.

    Example:
        >>> english_variant("Rust 异步编程")
        'Rust async programming'
    """
    words: list[str] = []
    translated = untranslated = chinese = 0
    for part in _PARTS.findall(query):
        if not is_chinese(part):
            words.append(part)
            continue
        chinese += len(part)
        for word, english in _chinese_words(part):
            if english is not None:
                words.append(english)
                translated += 1
            elif word not in CHINESE:
                untranslated += len(word)
    if not translated or untranslated > chinese * UNTRANSLATED_SHARE:
        return None
    return " ".join(words)


def chinese_variant(query: str) -> str | None:
    """The Chinese wording of an English technical query, or ``None`` when no term is known.

    Example:
        >>> chinese_variant("Kubernetes tutorial for beginners")
        'Kubernetes 教程 beginners'
    """
    text, count = _ENGLISH_TERM.subn(
        lambda match: _ENGLISH_TERMS[match.group(0).lower()], " ".join(query.split())
    )
    if not count:
        return None
    kept = [word for word in text.split() if word.lower() not in ENGLISH]
    return " ".join(kept)


def variants(query: str, language: str | None = None) -> list[str]:
    """The other-language sub-query of ``query``: English for Chinese, Chinese for English in zh."""
    if is_chinese(query):
        found = english_variant(query)
    elif language == "zh":
        found = chinese_variant(query)
    else:
        found = None
    return [found] if found else []


def _chinese_words(run: str) -> list[tuple[str, str | None]]:
    """Cut a run of Chinese characters by forward maximum match over the glossary."""
    words: list[tuple[str, str | None]] = []
    start = 0
    while start < len(run):
        for size in range(min(_LONGEST, len(run) - start), 0, -1):
            word = run[start : start + size]
            if word in GLOSSARY or word in CHINESE or size == 1:
                words.append((word, GLOSSARY.get(word)))
                start += size
                break
    return words
