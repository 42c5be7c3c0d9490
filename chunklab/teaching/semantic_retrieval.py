"""Companion 04e's bookkeeping, kept out of the cells so that each comparison and claim
stays in view: the per-question scores when every strategy hands over its ranked chunks up to a
common token cap (a cap, not equal amounts), and a family's verdicts as one table (a family's
power, the fewest decisive questions that can reach its level, is `claims.fewest_decisive`,
beside the sign test)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from chunklab.evaluation.recall import fact_recall
from chunklab.teaching.claims import signed

Key = tuple[str, str]  # (retriever, strategy)


def recall_within_tokens(
    cut: Mapping[tuple[str, str], list[Any]],
    retrievers: Mapping[str, Any],
    questions: Sequence[Any],
    hand: Callable[[list[Any]], list[Any]],
) -> tuple[dict[Key, np.ndarray], dict[Key, float], dict[Key, float]]:
    """Per retriever and strategy: each question's fact recall in the chunks `hand` keeps of the
    full ranking (in question-id order, the order of the paired runs), and the mean chunks and
    tokens handed over. `cut[strategy, document]` is the list of chunks searched."""
    scores: dict[Key, np.ndarray] = {}
    chunks_mean: dict[Key, float] = {}
    tokens_mean: dict[Key, float] = {}
    strategies = sorted({name for name, _ in cut})
    for retriever_name, retriever in retrievers.items():
        for name in strategies:
            recall, counts, tokens = [], [], []
            for q in sorted(questions, key=lambda q: q.id):
                chunks = cut[name, q.document]
                by_id = {c.chunk_id: c for c in chunks}
                hits = retriever.rank(q.question, chunks, len(chunks))
                ranked = [by_id[hit.ref_id] for hit in hits]
                handed = hand(ranked)
                counts.append(len(handed))
                tokens.append(sum(c.token_count for c in handed))
                context = "\n\n".join(c.text for c in handed)
                recall.append(fact_recall(context.lower(), [f.lower() for f in q.facts]))
            scores[retriever_name, name] = np.array(recall)
            chunks_mean[retriever_name, name] = float(np.mean(counts))
            tokens_mean[retriever_name, name] = float(np.mean(tokens))
    return scores, chunks_mean, tokens_mean


def verdict_table(verdicts: Mapping[tuple[int, str, str], Any], level: float) -> Any:
    """A family's verdicts, one row per (k, retriever, baseline): won, lost, tied, the mean
    difference, the interval at the family's `level`, the sign test and the verdict, with the test
    that withheld it when only one of the two rejects (`Comparison.verdict_text`)."""
    import pandas as pd

    return pd.DataFrame(
        [
            {
                "k": k,
                "retriever": r,
                "semantic vs": b,
                "won": v.won,
                "lost": v.lost,
                "tied": v.tied,
                "mean": signed(v.mean_difference),
                f"{level:.4g}% interval": f"[{signed(v.low)}, {signed(v.high)}]",
                "sign test p": round(v.p_value, 3),
                "verdict": v.verdict_text(),
            }
            for (k, r, b), v in verdicts.items()
        ]
    )
