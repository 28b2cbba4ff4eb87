"""What people read about a search: labels, progress messages and summary logs, in en and zh.

The wording is the one of the search module design this package implements.
"""

from __future__ import annotations

from typing import Literal

Language = Literal["en", "zh"]
ProgressKind = Literal["searching", "found", "partial", "failed", "none"]

_LABELS: dict[str, dict[Language, str]] = {
    "search": {"en": "Search", "zh": "搜索"},
    "web": {"en": "Web Search", "zh": "网页搜索"},
    "kb": {"en": "Knowledge Base Search", "zh": "知识库搜索"},
    "db": {"en": "Database Search", "zh": "数据库搜索"},
    "keyword_extraction": {"en": "Keyword Extraction", "zh": "关键词提取"},
    "embedding": {"en": "Embedding", "zh": "向量化"},
    "vector_search": {"en": "Vector Search", "zh": "向量检索"},
    "lexical_search": {"en": "Lexical Search", "zh": "全文检索"},
    "graph_search": {"en": "Graph Search", "zh": "图谱检索"},
    "dsl_build": {"en": "DSL Build", "zh": "生成查询 DSL"},
    "db_query": {"en": "Database Query", "zh": "数据库查询"},
    "rerank": {"en": "Rerank", "zh": "重排序"},
    "provider_call": {"en": "Provider Call", "zh": "调用搜索服务"},
    "fusion": {"en": "Fusion", "zh": "结果融合"},
    "record_write": {"en": "Record Write", "zh": "保存记录"},
}

_PROGRESS: dict[Language, dict[ProgressKind, str]] = {
    "en": {
        "searching": "Searching...",
        "found": "Found {n} references",
        "partial": "Found {n} references (some sources failed)",
        "failed": "Search failed",
        "none": "No references found",
    },
    "zh": {
        "searching": "正在搜索...",
        "found": "找到 {n} 条参考资料",
        "partial": "找到 {n} 条参考资料（部分来源失败）",
        "failed": "搜索失败",
        "none": "未找到相关资料",
    },
}

#: Summary log lines: the search's start and end, and each request's end, by outcome.
_SUMMARY: dict[Language, dict[str, str]] = {
    "en": {
        "search_start": "Starting search",
        "search_completed": "Search completed",
        "search_failed": "Search failed",
        "web_completed": "Web search completed",
        "web_failed": "Web search failed",
        "kb_completed": "KB search completed",
        "kb_failed": "KB search failed",
        "db_completed": "DB search completed",
        "db_failed": "DB search failed",
    },
    "zh": {
        "search_start": "开始搜索",
        "search_completed": "搜索完成",
        "search_failed": "搜索失败",
        "web_completed": "网页搜索完成",
        "web_failed": "网页搜索失败",
        "kb_completed": "知识库搜索完成",
        "kb_failed": "知识库搜索失败",
        "db_completed": "数据库搜索完成",
        "db_failed": "数据库搜索失败",
    },
}


def label(key: str, language: Language = "en") -> str:
    """Return the display label of the search, a source type or a step (else ``key`` itself)."""
    labels = _LABELS.get(key)
    return labels[language] if labels else key


def progress_message(kind: ProgressKind, count: int = 0, language: Language = "en") -> str:
    """Return the progress text people see, pluralised in English.

    Example:
        >>> progress_message("found", 1)
        'Found 1 reference'
    """
    text = _PROGRESS[language][kind].format(n=count)
    if language == "en" and count == 1 and kind in ("found", "partial"):
        text = text.replace("1 references", "1 reference")
    return text


def outcome_kind(count: int, failed: int, total: int) -> ProgressKind:
    """Classify a finished search for its closing progress message."""
    if total and failed == total:
        return "failed"
    if count == 0:
        return "none"
    return "partial" if failed else "found"


def summary(key: str, language: Language = "en") -> str:
    """Return a summary log line: ``search_start``, ``search_completed``, ``web_failed`` ..."""
    return _SUMMARY[language][key]
