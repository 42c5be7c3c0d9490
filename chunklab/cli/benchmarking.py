"""`chunklab benchmark`: a strategy on Chroma's chunking benchmark, in the report's four columns.

The five corpora and 472 questions of data/chroma/ are cut by `--strategy` (with `--size`,
`--overlap` and `--length` where the strategy reads them), the chunks located and scored as the
report's code does (`evaluation.benchmark`), and the table printed: recall, precision,
precision-Ω and IoU (x 100) over all questions and per corpus. `--out` writes the same rows as
CSV. `--retriever none` computes precision-Ω alone, which needs no model (seconds).

`recursive` and `tokentext` hand over their texts, located as the report locates them; any other
strategy hands over its chunks' spans. A progress bar shows on a terminal; Ctrl-C stops with one
line and writes nothing.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from chunklab.chunkers.recursive import RecursiveChunker
from chunklab.chunkers.registry import STRATEGIES
from chunklab.chunkers.tokentext import TokenTextChunker
from chunklab.cli.terminal import progress
from chunklab.embeddings.registry import EMBEDDERS
from chunklab.evaluation.benchmark import (
    METRICS,
    Cut,
    Ranker,
    Result,
    by_retriever,
    chunker_cut,
    dense,
    evaluate,
)
from chunklab.evaluation.chroma import CORPORA
from chunklab.retrieval.retrievers import BM25Retriever, DenseRetriever, HybridRetriever

RANKERS = ("dense", "bm25", "hybrid", "none")
HEADERS = {"recall": "recall", "precision": "precision", "precision_omega": "prec-Ω", "iou": "IoU"}
EXAMPLE = """examples:
  chunklab benchmark --strategy recursive --size 200 --overlap 0 --length minilm
  chunklab benchmark --strategy markdown --size 200 --retriever bm25 --out rows.csv
  chunklab benchmark --strategy tokentext --size 250 --retriever none   # precision-Ω only"""


class BenchmarkError(ValueError):
    """A value the chosen strategy refuses (`main` prints it as one line, exit code 2)."""


def at_least(low: int):
    """An argparse type: an integer >= `low`, else argparse's one-line error."""

    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value

    return read


def add_benchmark_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--strategy", choices=list(STRATEGIES), default="recursive", help="the cut")
    parser.add_argument(
        "--size",
        type=at_least(1),
        default=200,
        help="chunk size (max_tokens for token-budget strategies)",
    )
    parser.add_argument(
        "--overlap", type=at_least(0), default=0, help="overlap, for strategies with one"
    )
    parser.add_argument(
        "--length",
        default="cl100k",
        choices=("cl100k", "minilm", "r50k"),
        help="what --size counts: cl100k tokens, MiniLM word pieces, GPT-2 (r50k) tokens",
    )
    parser.add_argument(
        "--embedder", choices=sorted(EMBEDDERS), default="minilm", help="model of dense and hybrid"
    )
    parser.add_argument(
        "--retriever",
        choices=RANKERS,
        default="dense",
        help="dense: the report's nearest embeddings; bm25; hybrid (both, fused by rank); "
        "none: precision-Ω only",
    )
    parser.add_argument("--k", type=at_least(1), default=5, help="chunks retrieved per question")
    parser.add_argument("--out", default=None, help="write the rows to this CSV file")


def strategy_keywords(name: str, args: argparse.Namespace) -> dict[str, Any]:
    """The flags as the strategy's options: --size is its size or max_tokens, --length its
    length or counter; an option it does not read is left out (its own default)."""
    reads = STRATEGIES[name].options
    out: dict[str, Any] = {}
    for option, value in (
        ("size", args.size),
        ("max_tokens", args.size),
        ("overlap", args.overlap),
        ("length", args.length),
        ("counter", "minilm" if args.length == "minilm" else "cl100k"),
    ):
        if option in reads:
            out[option] = value
    if "unit" in reads:
        out["unit"] = "tokens"
    return out


def ranker_of(args: argparse.Namespace) -> Ranker | None:
    if args.retriever == "none":
        return None
    embedder = EMBEDDERS[args.embedder]()
    if args.retriever == "dense":
        return dense(embedder)
    if args.retriever == "bm25":
        return by_retriever(BM25Retriever())
    return by_retriever(HybridRetriever(dense=DenseRetriever(embedder)))


def table(result: Result, label: str) -> list[dict[str, Any]]:
    """One row for all questions, then one per corpus."""
    rows = []
    for corpus in (None, *CORPORA):
        count = sum(1 for q in result.questions if corpus in (None, q.corpus))
        row: dict[str, Any] = {"cut": label, "corpus": corpus or "all", "questions": count}
        row.update({m: round(v, 2) for m, v in result.row(corpus).items()})
        rows.append(row)
    return rows


def run_benchmark(args: argparse.Namespace) -> int:
    try:
        chunker = STRATEGIES[args.strategy].build(**strategy_keywords(args.strategy, args))
    except ValidationError as exc:
        error = exc.errors()[0]
        message = str(error["msg"]).removeprefix("Value error, ")
        raise BenchmarkError(f"--strategy {args.strategy}: {message}") from None
    # The report's chunkers hand over their texts, located as the report locates them.
    cut: Cut = chunker_cut(chunker)
    if isinstance(chunker, RecursiveChunker | TokenTextChunker):
        cut = chunker.split_text
    result = evaluate(
        cut, ranker_of(args), k=args.k, progress=lambda step, done, of: progress(done, of, step)
    )
    label = f"{args.strategy} {args.size}/{args.overlap} {args.length}"
    rows = table(result, label)
    shown = [m for m in METRICS if m in result.scores]
    print(f"{label}: {len(result.chunks)} chunks, top {args.k} by {args.retriever}")
    print(f"{'corpus':20}{'questions':>10}" + "".join(f"{HEADERS[m]:>11}" for m in shown))
    for row in rows:
        cells = "".join(f"{row[m]:11.1f}" for m in shown)
        print(f"{row['corpus']:20}{row['questions']:>10}{cells}")
    if args.out:
        with Path(args.out).open("w", encoding="utf-8", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        print(f"wrote {args.out}")
    return 0
