"""Notebook 03's baselines: the children alone in the same tokens as small-to-big's section, and
fixed-size blocks as parents of the pieces inside them."""

from types import SimpleNamespace

from chunklab import Document, FixedSizeChunker, cl100k
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.retrieval.retrievers import LogCountRetriever
from chunklab.teaching.parent_search import block_groups, same_budget

POLICY = """# Policy

## Meals

Meals are paid up to 30 USD a day. Alcohol is never paid.

Hotel breakfast counts as a meal.

## Taxis

Taxis are paid at night only.
"""


def groups(question: str, fact: str):
    doc = Document(doc_id="p", uri="p", title="", text=POLICY)
    cut = MarkdownChunker(max_tokens=20, count_tokens=cl100k)
    children, parents = cut.split(doc), cut.parents(doc)
    q = SimpleNamespace(question=question, facts=[fact])
    return [(parents, children, {c.chunk_id: c.parent_id for c in children}, [(q, question)])]


def found(q, text: str) -> float:
    return float(all(f in text for f in q.facts))


def first_only(ranked, budget: int) -> str:
    return ranked[0].text if ranked else ""


def test_same_budget_hands_the_section_and_lets_the_fill_see_its_tokens():
    budgets = []

    def fill(ranked, budget):
        budgets.append(budget)
        return first_only(ranked, budget)

    asked = groups("Is hotel breakfast a meal?", "Meals are paid")
    s2b, alone, tokens = same_budget(LogCountRetriever, asked, found, fill, cl100k)
    # the best child holds the breakfast rule; its section also holds the 30 USD rule
    assert s2b == [1.0] and alone == [0.0]
    assert budgets == [tokens[0][0]] and tokens[0][1] < tokens[0][0]


def test_block_groups_nests_every_child_in_the_block_that_holds_its_start():
    doc = Document(doc_id="c", uri="c", title="", text="word " * 400)
    pieces = FixedSizeChunker(size=200, overlap=0).split(doc)
    asked = [SimpleNamespace(corpus="c", text="word")]
    [(blocks, children, block_of, questions)] = block_groups({"c": doc}, {"c": pieces}, asked, 1000)
    by_id = {b.chunk_id: b for b in blocks}
    assert len(blocks) == 2 and children == pieces and questions == [(asked[0], "word")]
    holder = [by_id[block_of[c.chunk_id]] for c in pieces]
    assert all(b.start <= c.start < b.end for b, c in zip(holder, pieces, strict=True))
    assert len(set(block_of.values())) == 2


def test_whole_sections_hands_over_what_it_searches():
    from chunklab import load_document
    from chunklab.teaching.parent_search import whole_sections

    prepared = whole_sections(load_document("manual_md"))
    assert prepared.searched and all(prepared.handed[c.chunk_id] is c for c in prepared.searched)


def test_series_groups_nests_each_child_in_a_section_of_its_document():
    from chunklab.teaching.parent_search import series_groups

    groups = series_groups(max_tokens=45)
    assert sum(len(asked) for *_, asked in groups) == 43  # the experiment's questions, each once
    for sections, children, parent_of, asked in groups:
        ids = {p.chunk_id for p in sections}
        assert children and all(parent_of[c.chunk_id] in ids for c in children)
        assert all(c.token_count <= 45 for c in children)
        assert {q.document for q, _ in asked} == {children[0].doc_id}


def test_children_only_shares_its_hits_and_small_to_big_reads_the_same_best_child():
    from chunklab.retrieval.retrievers import BM25Retriever
    from chunklab.teaching.parent_search import children_only, direct_vs_s2b

    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa".split()
    text = " ".join(words[(i * 7) % 10] + str(i % 13) for i in range(900))
    doc = Document(doc_id="c", uri="c", title="", text=text)
    pieces = {"c": FixedSizeChunker(size=200, overlap=0).split(doc)}
    asked = [
        SimpleNamespace(corpus="c", text=f"{w}{n} {v}", excerpts=[(40 * n, 40 * n + 30)])
        for n, (w, v) in enumerate(zip(words, reversed(words), strict=True))
    ]

    def holds(q, block):
        return float(block is not None and block.start <= q.excerpts[0][0] < block.end)

    shared: dict = {}
    alone = children_only(
        BM25Retriever, block_groups({"c": doc}, pieces, asked, 1000), [1, 3], shared
    )
    assert alone == children_only(
        BM25Retriever, block_groups({"c": doc}, pieces, asked, 1000), [1, 3]
    )
    assert all(len(hits) == 3 for hits in shared.values()) and len(shared) == len(asked)
    for size in (600, 1000):
        made = block_groups({"c": doc}, pieces, asked, size)
        assert direct_vs_s2b(BM25Retriever, made, holds, shared) == direct_vs_s2b(
            BM25Retriever, made, holds
        )
