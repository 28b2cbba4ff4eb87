"""Answers to check, built from the real references of a BEIR corpus (used by grounding.py).

For each judged query, a sentence of one relevant document is taken and written
one of several ways (``REWORDINGS``), all deterministic (a hash of the query ID
picks the sentence and the wording). It then appears in answers four ways:

- ``correct``: cited to the document it came from;
- ``wrong``: cited to a random document of the corpus;
- ``wrong_hard``: cited to a document on the same topic: another relevant document
  of the same query, else the document sharing most words with the query;
- ``uncited``: with no citation at all.

Each answer opens with a sentence that states nothing (it must not be flagged) and
gives the model's references: the cited one and two others of the same query.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from unified_search.citations.sentences import sentence_spans, split_answer
from unified_search.types import Reference, SearchType, Source

Doc = dict[str, str]
OPENERS = [
    "Here is what the references say.",
    "Let me summarise the evidence below.",
    "Good question.",
    "I looked through the sources for you.",
    "Sure, here is a short summary.",
    "I hope this helps.",
    "Below are the main points.",
    "Thanks for asking about this.",
    "Let me know if you need anything else.",
    "This is what I found.",
]
LEAD_INS = [
    "The authors report that ",
    "According to the study, ",
    "Evidence indicates that ",
    "Researchers found that ",
]
_WORD = re.compile(r"\w+")


def stable(*parts: str) -> int:
    return int(hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:12], 16)


# -- rewordings ---------------------------------------------------------------------------

SYNONYMS = {
    "increase": "rise",
    "increased": "elevated",
    "increases": "raises",
    "decrease": "decline",
    "decreased": "lowered",
    "reduced": "lowered",
    "reduces": "lowers",
    "reduce": "lower",
    "significant": "notable",
    "significantly": "markedly",
    "associated": "linked",
    "association": "link",
    "patients": "individuals",
    "study": "investigation",
    "showed": "indicated",
    "shows": "indicates",
    "show": "indicate",
    "demonstrated": "showed",
    "demonstrate": "show",
    "results": "findings",
    "higher": "greater",
    "lower": "smaller",
    "observed": "seen",
    "treatment": "therapy",
    "analysis": "assessment",
    "levels": "amounts",
    "effect": "impact",
    "effects": "impacts",
    "risk": "likelihood",
    "however": "yet",
    "important": "key",
    "approximately": "about",
    "compared": "contrasted",
    "using": "with",
    "induced": "triggered",
    "required": "needed",
    "involved": "implicated",
    "cells": "cell populations",
    "suggest": "indicate",
    "suggests": "indicates",
    "identified": "found",
    "novel": "new",
    "previously": "earlier",
    "mechanism": "process",
    "function": "role",
    "among": "in",
    "women": "females",
    "men": "males",
    "children": "kids",
    "determine": "establish",
    "evaluated": "assessed",
    "examined": "studied",
    "investigated": "studied",
}


def verbatim(sentence: str) -> str | None:
    return sentence


def trimmed(sentence: str) -> str | None:
    """The main clause: a leading or trailing clause set off by a comma is dropped."""
    parts = [p.strip() for p in sentence.rstrip(".").split(",")]
    if len(parts) < 2:
        return None
    longest = max(parts, key=lambda p: len(p.split()))
    if len(longest.split()) < 6 or longest == sentence.rstrip("."):
        return None
    return longest[0].upper() + longest[1:] + "."


def synonyms(sentence: str) -> str | None:
    """Words swapped for synonyms (at least two of them)."""
    swapped = 0

    def swap(match: re.Match[str]) -> str:
        nonlocal swapped
        word = match.group(0)
        other = SYNONYMS.get(word.lower())
        if other is None:
            return word
        swapped += 1
        return other.capitalize() if word[0].isupper() else other

    changed = _WORD.sub(swap, sentence)
    return changed if swapped >= 2 else None


def reordered(sentence: str) -> str | None:
    """The last clause or prepositional phrase moved to the front."""
    body = sentence.rstrip(".")
    if ", " in body:
        head, _, tail = body.rpartition(", ")
    else:
        found = list(re.finditer(r" (in|among|during|after|for|with) ", body))
        found = [m for m in found if m.start() > len(body) // 2]
        if not found:
            return None
        head, tail = body[: found[-1].start()], body[found[-1].start() + 1 :]
    if len(head.split()) < 4 or len(tail.split()) < 2:
        return None
    return f"{tail[0].upper()}{tail[1:]}, {head[0].lower()}{head[1:]}."


def paraphrased(sentence: str) -> str | None:
    """A lead-in, every known synonym swapped, and the last clause moved to the front."""
    swapped = synonyms(sentence)
    if swapped is None:
        return None
    moved = reordered(swapped) or swapped
    lead = LEAD_INS[stable("lead", sentence) % len(LEAD_INS)]
    return lead + moved[0].lower() + moved[1:]


_DETAIL = re.compile(r"\s*\([^()]*\)|\s*\[[^\[\]]*\]")
_FIGURE = re.compile(r"\d+(?:[.,]\d+)*\s*(%|percent)?")


def generalised(sentence: str) -> str | None:
    """Details in brackets dropped and figures made vague, behind a lead-in."""
    plain = _DETAIL.sub("", sentence)
    vague = _FIGURE.sub(lambda m: "a share of" if m.group(1) else "several", plain)
    if vague == sentence or len(vague.split()) < 6:
        return None
    lead = LEAD_INS[stable("lead", sentence) % len(LEAD_INS)]
    return lead + vague[0].lower() + vague[1:]


REWORDINGS: dict[str, Callable[[str], str | None]] = {
    "verbatim": verbatim,
    "trimmed": trimmed,
    "synonyms": synonyms,
    "reordered": reordered,
    "paraphrased": paraphrased,
    "generalised": generalised,
}
#: ``merged`` joins the first clause of a sentence and of the next one (a claim from two).
KINDS = [*REWORDINGS, "merged"]


def merged(first: str, second: str) -> str | None:
    one = first.rstrip(".").split(",")[0].strip()
    two = second.rstrip(".").split(",")[0].strip()
    if len(one.split()) < 5 or len(two.split()) < 5:
        return None
    return f"{one}, and {two[0].lower()}{two[1:]}."


# -- data ---------------------------------------------------------------------------------


def load(path: Path, split: str) -> tuple[dict[str, Doc], dict[str, str], dict[str, list[str]]]:
    corpus = {d["_id"]: d for d in map(json.loads, (path / "corpus.jsonl").open())}
    queries = {q["_id"]: q["text"] for q in map(json.loads, (path / "queries.jsonl").open())}
    relevant: dict[str, list[str]] = {}
    for number, line in enumerate((path / "qrels" / f"{split}.tsv").open()):
        qid, did, grade = line.rstrip("\n").split("\t")
        if number and int(grade) > 0 and did in corpus:
            relevant.setdefault(qid, []).append(did)
    return corpus, {q: queries[q] for q in relevant if q in queries}, relevant


def sentences(text: str) -> list[str]:
    return [text[s:e] for s, e, _ in sentence_spans(text) if len(text[s:e].split()) >= 8]


@dataclass(frozen=True)
class Case:
    """One sentence of one answer and what a checker should say about it."""

    query: str
    kind: str
    label: str
    """``correct``, ``wrong``, ``wrong_hard`` or ``uncited``."""
    answer: str
    references: list[Reference]
    sentence: int
    """Which sentence of ``answer`` is the case (the others are openers)."""


def reference(doc: Doc, number: int) -> Reference:
    return Reference(
        id=f"ref_{number:03d}",
        index=number,
        type=SearchType.KB,
        source=Source.AUTO,
        weight=0.6,
        score=1.0,
        title=doc.get("title", ""),
        content=doc["text"],
        document_id=doc["_id"],
    )


class Topics:
    """The document sharing most words with a query (other than the ones excluded)."""

    def __init__(self, corpus: dict[str, Doc]) -> None:
        self.index: dict[str, list[str]] = {}
        for did, doc in corpus.items():
            for word in set(_words(doc.get("title", "") + " " + doc["text"])):
                self.index.setdefault(word, []).append(did)

    def nearest(self, query: str, exclude: set[str]) -> str | None:
        counts: Counter[str] = Counter()
        for word in set(_words(query)):
            postings = self.index.get(word, [])
            if len(postings) < 300:  # rare words say what the topic is
                counts.update(postings)
        return next((d for d, _ in counts.most_common() if d not in exclude), None)


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if len(w) > 3]


def cases(
    corpus: dict[str, Doc], queries: dict[str, str], relevant: dict[str, list[str]], limit: int
) -> Iterator[Case]:
    topics = Topics(corpus)
    ids = sorted(corpus)
    for qid in sorted(queries, key=lambda q: stable("order", q))[:limit]:
        docs = sorted(relevant[qid], key=lambda d: stable(qid, d))
        source = corpus[docs[0]]
        found = sentences(source["text"])
        if not found:
            continue
        kind = KINDS[stable("kind", qid) % len(KINDS)]
        opener = OPENERS[stable("opener", qid) % len(OPENERS)]
        claim = _worded(kind, found, stable("sentence", qid))
        if claim is None:
            kind, claim = "verbatim", found[stable("sentence", qid) % len(found)]
        hard = next((d for d in docs[1:]), None) or topics.nearest(queries[qid], {docs[0]})
        random_doc = ids[stable("random", qid) % len(ids)]
        if hard is None or random_doc in relevant[qid] or random_doc == hard:
            continue
        refs = [reference(source, 1), reference(corpus[hard], 2), reference(corpus[random_doc], 3)]
        if len(split_answer(f"{opener} {claim}", "#ref:{id}", None).sentences) != 2:
            continue  # the wording does not read as one sentence after the opener
        for label, cite in (("correct", 1), ("wrong_hard", 2), ("wrong", 3), ("uncited", 0)):
            body = claim if not cite else claim.rstrip(".") + f" #ref:ref_{cite:03d}."
            yield Case(qid, kind, label, f"{opener} {body}", refs, 1)


def _worded(kind: str, found: list[str], seed: int) -> str | None:
    for step in range(len(found)):
        position = (seed + step) % len(found)
        if kind == "merged":
            if position + 1 < len(found) and (
                claim := merged(found[position], found[position + 1])
            ):
                return claim
        elif claim := REWORDINGS[kind](found[position]):
            return claim
    return None
