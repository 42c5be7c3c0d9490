"""Two ways to find a parent, run on the same questions: search the parents themselves, or search
their children and hand over the best child's parent (small-to-big at k = 1). Plus the children
alone at a budget of several children, judged on the character spans they cover, or filling the
tokens of the section small-to-big hands over; fixed-size blocks as parents for a corpus
without headings; `whole_sections`, small-to-big's parents searched directly (notebook 07); and
the means tables of notebook 03's section 3 and its companion 03g (`points_and_tokens`,
`feeding_table`); `series_groups`, the series' documents cut as notebook 03 cuts them.

Kept out of the notebook because it is bookkeeping (one retriever per kind of search, a cache of
child hits reused while only the parents change), not the idea being tested.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.contracts import Chunk, Document
from chunklab.documents.series import data_dir, list_documents, load_document
from chunklab.evaluation.experiment import Prepared
from chunklab.evaluation.questions import load_question_file
from chunklab.tokens.counters import cl100k

# per document: its parents, its children, each child's parent id, its (question, text) pairs
Group = tuple[Sequence[Chunk], Sequence[Chunk], dict[str, str], Sequence[tuple[Any, str]]]


def direct_vs_s2b(
    make: Callable[[], Any],
    groups: Iterable[Group],
    judge: Callable[[Any, Chunk | None], float],
    child_found: dict[tuple[str, str], list] | None = None,
) -> tuple[list[float], list[float]]:
    """Per question: judge() of the one parent found by searching the parents directly, and of the
    parent of the one child found. `child_found` keeps the child hits for a caller whose children
    stay the same across runs (only the parents grow): each question's children are ranked once.
    """
    find_parent, find_child, direct, s2b = make(), make(), [], []
    child_found = {} if child_found is None else child_found
    for parents, children, parent_of, asked in groups:
        by_id = {p.chunk_id: p for p in parents}
        for q, text in asked:
            key = (text, children[0].chunk_id)
            if key not in child_found:
                child_found[key] = find_child.rank(text, children, 1)
            top, hit = find_parent.rank(text, parents, 1), child_found[key]
            direct.append(judge(q, by_id[top[0].ref_id] if top else None))
            s2b.append(judge(q, by_id[parent_of[hit[0].ref_id]] if hit else None))
    return direct, s2b


def series_groups(max_tokens: int = 45) -> list[Group]:
    """The series' experiment documents (those with questions), each cut as notebook 03 cuts them:
    Markdown sections as parents, children of at most `max_tokens` cl100k tokens, each child's
    parent id and the document's (question, text) pairs, documents in name order."""
    documents = {name: load_document(name) for name in list_documents()}
    gold = load_question_file(data_dir() / "experiment.questions.yaml", documents)
    groups: list[Group] = []
    for name in sorted({q.document for q in gold}):
        cut = MarkdownChunker(max_tokens=max_tokens, count_tokens=cl100k)
        children = cut.split(documents[name])
        groups.append(
            (
                cut.parents(documents[name]),
                children,
                {c.chunk_id: c.parent_id or "" for c in children},  # each child has one
                [(q, q.question) for q in gold if q.document == name],
            )
        )
    return groups


def block_groups(
    docs: dict[str, Document], children: dict[str, Sequence[Chunk]], asked: Sequence[Any], size: int
) -> list[Group]:
    """Per corpus: its blocks of `size` characters (the parents), its `children` (fixed pieces that
    nest inside every block size), each child's block, and the corpus's questions (`q.corpus`,
    asked by `q.text`). The children stay the same while the block grows."""
    groups: list[Group] = []
    for corpus, doc in docs.items():
        blocks = FixedSizeChunker(size=size, overlap=0).split(doc)
        block_of = {
            c.chunk_id: next(b.chunk_id for b in blocks if b.start <= c.start < b.end)
            for c in children[corpus]
        }
        questions = [(q, q.text) for q in asked if q.corpus == corpus]
        groups.append((blocks, children[corpus], block_of, questions))
    return groups


def covered(excerpts: Iterable[tuple[int, int]], chunks: Sequence[Chunk]) -> bool:
    """Whether every (start, end) excerpt lies inside the union of the chunks' spans."""
    spans: list[list[int]] = []
    for c in sorted(chunks, key=lambda c: c.start):
        if spans and c.start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], c.end)
        else:
            spans.append([c.start, c.end])
    return all(any(a <= s and e <= b for a, b in spans) for s, e in excerpts)


def children_only(
    make: Callable[[], Any],
    groups: Iterable[Group],
    ks: Sequence[int],
    child_found: dict[tuple[str, str], list] | None = None,
) -> dict[int, list[float]]:
    """Per k: for each question, 1.0 when the top k children together cover every excerpt of its
    answer (`q.excerpts`), else 0.0. Each question's children are ranked once, at the largest k;
    given `child_found`, those hits are kept there for `direct_vs_s2b`, whose best child is the
    first of them (ranking is deterministic, ties to the child given first)."""
    ranker = make()
    found: dict[int, list[float]] = {k: [] for k in ks}
    child_found = {} if child_found is None else child_found
    for _, children, _, asked in groups:
        by_id = {c.chunk_id: c for c in children}
        for q, text in asked:
            key = (text, children[0].chunk_id)
            if key not in child_found or len(child_found[key]) < min(max(ks), len(children)):
                child_found[key] = ranker.rank(text, children, max(ks))
            ranked = [by_id[h.ref_id] for h in child_found[key][: max(ks)]]
            for k in ks:
                found[k].append(float(covered(q.excerpts, ranked[:k])))
    return found


def same_budget(
    make: Callable[[], Any],
    groups: Iterable[Group],
    judge: Callable[[Any, str], float],
    fill: Callable[[Sequence[Chunk], int], str],
    count: Callable[[str], int],
) -> tuple[list[float], list[float], list[tuple[int, int]]]:
    """Per question: judge() of the section small-to-big hands over at k = 1 (the best child's
    parent), judge() of `fill(ranked children, that section's tokens)` (the children alone at the
    same budget), and the tokens of each. Every child is ranked, so `fill` can take as many as
    fit."""
    ranker, s2b, alone, tokens = make(), [], [], []
    for parents, children, parent_of, asked in groups:
        parent_by_id = {p.chunk_id: p for p in parents}
        child_by_id = {c.chunk_id: c for c in children}
        for q, text in asked:
            ranked = [child_by_id[h.ref_id] for h in ranker.rank(text, children, len(children))]
            section = parent_by_id[parent_of[ranked[0].chunk_id]].text if ranked else ""
            handed = fill(ranked, count(section))
            s2b.append(judge(q, section))
            alone.append(judge(q, handed))
            tokens.append((count(section), count(handed)))
    return s2b, alone, tokens


def whole_sections(document: Document) -> Prepared:
    """Small-to-big's own parents (Markdown sections within 100 tokens, heading path in front)
    searched directly: what is ranked is what is handed over. The baseline a skeptic runs against
    small-to-big's lead (notebook 07): is it the children's search, or only the whole sections?"""
    parents = MarkdownChunker(max_tokens=100, prefix="path").parents(document)
    return Prepared(parents, {p.chunk_id: p for p in parents})


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def points_and_tokens(
    found: dict[str, tuple[Sequence[float], Sequence[float]]],
    tokens: dict[str, tuple[Sequence[int], Sequence[int]]],
) -> Any:
    """Per retriever, the means of section 5's two ways in notebook 03: fact recall in points
    (sections searched directly, small-to-big) and cl100k tokens handed over. Kept out of the
    notebook because it only averages what `direct_vs_s2b` returned; it tests nothing."""
    import pandas as pd

    return pd.DataFrame(
        {
            "sections searched directly": {n: 100 * _mean(d) for n, (d, _) in found.items()},
            "small-to-big": {n: 100 * _mean(s) for n, (_, s) in found.items()},
            "tokens, directly": {n: _mean(d) for n, (d, _) in tokens.items()},
            "tokens, small-to-big": {n: _mean(s) for n, (_, s) in tokens.items()},
        }
    ).round(1)


def feeding_table(fed: dict[str, tuple[list[float], list[float], list[tuple[int, int]]]]) -> str:
    """Per retriever, the means of `same_budget`'s three lists (companion 03g), one line each:
    points for the section and for the children alone, the tokens of each, and on how many
    questions the children ran out before the section's room was full (they had less room).
    Plain text, so that the companion need not load pandas for one small table."""
    lines = [
        f"{'':<10} {'section':>8} {'children':>9} {'section':>9} {'children':>9} {'ran':>4}",
        f"{'retriever':<10} {'points':>8} {'points':>9} {'tokens':>9} {'tokens':>9} {'out':>4}",
    ]
    for name, (s, a, n) in fed.items():
        lines.append(
            f"{name:<10} {100 * _mean(s):>8.1f} {100 * _mean(a):>9.1f} "
            f"{_mean([t[0] for t in n]):>9.1f} {_mean([t[1] for t in n]):>9.1f} "
            f"{sum(t[1] < t[0] for t in n):>4}"
        )
    return "\n".join(lines)
