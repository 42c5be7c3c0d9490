"""Store the MiniLM vectors of notebook 11's code-search experiment: data/code/embeddings/minilm.*

Embeds, with the live all-MiniLM-L6-v2, every question and every chunk text of every cut in
`chunklab.teaching.code_search.experiment_cuts` (and lines packed at `SIZE_MATCHED`, and
`minilm_budget_cuts`, the budget counted in MiniLM's own pieces, at 200 and at the read limit of
256) on the
corpus in data/code/toolz/ (and the questions and three cuts at 200 of data/code/chunklab_chunkers/,
11b's second codebase), and stores
them keyed by the model's hash and each text's SHA-256 (`chunklab.embeddings.stored`), so the
notebook ranks with the model's own vectors in seconds. Minutes on two cores. It prints the
SHA-256 of both files, for data/SOURCES.md. A text already in the store keeps its stored vector
(float16, saved again unchanged), so adding a cut embeds only its new texts; `--fresh` embeds all.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python scripts/code_embeddings.py [--fresh]
"""

from __future__ import annotations

import sys

from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.documents.series import data_dir
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.embeddings.stored import store_texts
from chunklab.teaching.code_search import (
    BUDGET,
    OVERLAP,
    SIZE_MATCHED,
    SWEEP,
    blind_cuts_and_tree,
    chunker_splitter,
    corpus,
    cut_corpus,
    experiment_cuts,
    minilm_budget_cuts,
)


def main() -> int:
    folder = data_dir() / "code"
    files, questions = corpus(folder / "toolz")
    texts: dict[str, str] = {}  # text -> where it comes from
    for n, q in enumerate(questions):
        texts.setdefault(q.question, f"question {n}")
    for label, splitter in experiment_cuts(BUDGET).items():
        for p in cut_corpus(files, splitter):
            texts.setdefault(p.text, f"{label}: {p.uri} {p.start} {p.end}")
    for budget in SIZE_MATCHED:  # the size-matched baseline: whole lines packed to fewer tokens
        for p in cut_corpus(files, experiment_cuts(budget)["lines packed"]):
            texts.setdefault(p.text, f"lines packed at {budget}: {p.uri} {p.start} {p.end}")
    for label, splitter in minilm_budget_cuts(BUDGET).items():  # the budget in MiniLM's own pieces
        for p in cut_corpus(files, splitter):
            texts.setdefault(p.text, f"{label}, {BUDGET} MiniLM pieces: {p.uri} {p.start} {p.end}")
    # the three cuts at the read limit itself: the blind ones freed of it, the tree in the same unit
    for label, splitter in minilm_budget_cuts(256).items():
        for p in cut_corpus(files, splitter):
            texts.setdefault(p.text, f"{label}, 256 MiniLM pieces: {p.uri} {p.start} {p.end}")
    window = chunker_splitter(
        FixedSizeChunker(size=BUDGET, overlap=OVERLAP, unit="tokens"), crumb=False
    )
    for p in cut_corpus(files, window):  # the fixed window with overlap
        texts.setdefault(p.text, f"fixed tokens, overlap {OVERLAP}: {p.uri} {p.start} {p.end}")
    for budget in SWEEP:  # the lead's three cuts at other budgets
        for label, splitter in blind_cuts_and_tree(budget).items():
            for p in cut_corpus(files, splitter):
                texts.setdefault(p.text, f"{label} at {budget}: {p.uri} {p.start} {p.end}")
    second, asked = corpus(folder / "chunklab_chunkers")  # 11b's replication on a second codebase
    for n, q in enumerate(asked):
        texts.setdefault(q.question, f"chunklab_chunkers question {n}")
    for label, splitter in blind_cuts_and_tree(BUDGET).items():
        for p in cut_corpus(second, splitter):
            texts.setdefault(p.text, f"{label}, chunklab_chunkers: {p.uri} {p.start} {p.end}")
    stem = folder / "embeddings" / "minilm"
    for line in store_texts(MiniLMEmbedder(), texts, stem, fresh="--fresh" in sys.argv):
        print(line)
    print(f"{len(texts)} texts stored at {stem}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
