"""Fit the weights joining the evidence of a citation check (``grounding.py --fit``).

A logistic regression of "the cited reference is the sentence's source" on the
best term coverage and the best cosine, over the cited sentences of the tune
halves of every dataset, classes weighed equally, read at the 0.5 threshold (the
default ``citation.verify.threshold``); the same for the lexical-only model. As a
check of transfer, each dataset's own fit is applied to the others.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from grounding_cases import Case

from unified_search.citations.evidence import windows
from unified_search.citations.sentences import split_answer
from unified_search.citations.verify import CitationVerifier


def features(checker: CitationVerifier, batch: Sequence[Case]) -> tuple[np.ndarray, np.ndarray]:
    rows, labels = [], []
    for case in batch:
        if case.label == "uncited":
            continue
        split = split_answer(case.answer, checker.config.format, None)
        sentence = split.sentences[case.sentence]
        cited = sentence.cited[0][0]
        ref = next(r for r in case.references if r.id == cited)
        claim = split.prose[sentence.start : sentence.end]
        lexical, meaning, _ = checker.evidence(claim, windows(ref.content), settle=False)
        rows.append([lexical, meaning if meaning is not None else 0.0])
        labels.append(1.0 if case.label == "correct" else 0.0)
    return np.array(rows), np.array(labels)


def logistic(x: np.ndarray, y: np.ndarray, steps: int = 50) -> np.ndarray:
    """Newton's method on the log loss, classes weighted equally, a little L2."""
    design = np.hstack([np.ones((len(x), 1)), x])
    weight = np.where(y == 1, 0.5 / y.mean(), 0.5 / (1 - y.mean()))
    beta = np.zeros(design.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-design @ beta))
        gradient = design.T @ (weight * (p - y)) + 1e-3 * beta
        hessian = (design * (weight * p * (1 - p))[:, None]).T @ design + 1e-3 * np.eye(len(beta))
        beta -= np.linalg.solve(hessian, gradient)
    return beta


def rates(beta: np.ndarray, x: np.ndarray, y: np.ndarray) -> str:
    """False flags and misattributions caught at the 0.5 threshold."""
    flagged = 1 / (1 + np.exp(-(beta[0] + x[:, : len(beta) - 1] @ beta[1:]))) < 0.5
    return f"false flags {flagged[y == 1].mean():.3f}, caught {flagged[y == 0].mean():.3f}"


def fit_weights(checker: CitationVerifier, tune: dict[str, Sequence[Case]]) -> str:
    """Fit on every dataset's tune half; also fit on each alone and score it on the others."""
    data = {name: features(checker, batch) for name, batch in tune.items()}
    x = np.vstack([d[0] for d in data.values()])
    y = np.concatenate([d[1] for d in data.values()])
    both, lexical = logistic(x, y), logistic(x[:, :1], y)
    lines = [
        f"cited sentences of the tune halves: {len(y)} ({int(y.sum())} correct)",
        f"BIAS, LEXICAL_WEIGHT, EMBEDDING_WEIGHT = {both[0]:.2f}, {both[1]:.2f}, {both[2]:.2f}"
        f"  [{rates(both, x, y)}]",
        f"LEXICAL_ONLY_BIAS, LEXICAL_ONLY_WEIGHT = {lexical[0]:.2f}, {lexical[1]:.2f}"
        f"  [{rates(lexical, x, y)}]",
    ]
    for name, (xs, ys) in data.items():
        alone = logistic(xs, ys)
        for other, (xo, yo) in data.items():
            if other != name:
                lines.append(f"fit on {name} alone, applied to {other}: {rates(alone, xo, yo)}")
    return "\n".join(lines)
