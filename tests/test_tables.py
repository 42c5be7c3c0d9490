import pytest

from chunklab import Document, FixedSizeChunker, load_document
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.structural import StructuralChunker
from chunklab.chunkers.tables import (
    LinearizedChunker,
    find_tables,
    linearize_tables,
    orphans,
    pack_lines,
)
from chunklab.evaluation.metrics import starts_mid_line


def test_finds_the_manuals_table_although_commonmark_sees_none(manual):
    (table,) = find_tables(manual.text)
    assert table.header == "| Medida | Unidade | Limite | Ação |"
    assert [row[2] for row in table.cells] == ["4,5", "85", "92", "0,08"]


def test_the_articles_four_strategies_chunks_mid_line_and_orphans(manual):
    strategies = {
        "fixed_size": FixedSizeChunker().split(manual),
        "structural": StructuralChunker().split(manual),
        "structural+": StructuralChunker(repack=True).split(manual),
        "linearized": LinearizedChunker().split(manual),
    }
    got = {
        name: (len(c), starts_mid_line(c, manual), orphans(c, manual))
        for name, c in strategies.items()
    }
    assert got == {
        "fixed_size": (5, 3, 1),
        "structural": (11, 0, 4),
        "structural+": (6, 0, 1),
        "linearized": (5, 0, 0),
    }


def test_linearized_pieces_pair_every_row_with_its_header(manual):
    chunks = LinearizedChunker().split(manual)
    assert chunks[2].text == (
        "| Medida | Unidade | Limite | Ação |\n| Vibração | mm/s | 4,5 | Parar o equipamento |\n"
        "| Medida | Unidade | Limite | Ação |\n| Temperatura | C | 85 | Reduzir a carga |"
    )


def test_linearizing_alone_fixes_nothing(manual):
    # Linearize, then cut by characters again: the cut falls between a repeated header and its row.
    linear = Document(doc_id="lin", uri="urn:lin", title="", text=linearize_tables(manual.text))
    assert orphans(FixedSizeChunker(size=200, overlap=40).split(linear), manual) > 0
    # Cut by line without atoms, at a size where a boundary falls inside a header+row pair: some
    # piece ends on a bare header, and its row opens the next piece. With atoms, never.
    lines = linear.text.splitlines()
    header = "| Medida | Unidade | Limite | Ação |"
    assert any(p.endswith(header) for p in pack_lines(lines, 60, atoms=False))
    assert not any(p.endswith(header) for p in pack_lines(lines, 60, atoms=True))


def test_orphans_work_for_any_table_not_a_list_of_values():
    policy = load_document("travel_policy")
    assert (
        orphans(MarkdownChunker(max_tokens=45).split(policy), policy) == 0
    )  # rows repeat the header
    assert (
        orphans(StructuralChunker(size=40).split(policy), policy) >= 4
    )  # one row per chunk, no header


@pytest.mark.parametrize(
    "text", ["| a | b |\n| --- | --- |\n", "no tables here\n", "a | b\n--|--\n1 | 2\n"]
)
def test_tables_without_rows_or_outer_pipes(text):
    doc = Document(doc_id="t", uri="urn:t", title="", text=text)
    chunks = LinearizedChunker().split(doc)
    assert all(c.text.strip() for c in chunks)
    assert orphans(chunks, doc) == 0


CORPUS_WITH_TABLES = [
    "18f-work-schedules.md",
    "cloudgov-space-egress.md",
    "gdsway-managing-sensitive-information.md",
    "pagerduty-post-mortem-template.md",
]


def corpus(name):
    from conftest import DATA

    from chunklab import read_document

    return read_document(DATA / name)


@pytest.mark.parametrize("name", CORPUS_WITH_TABLES)
@pytest.mark.parametrize("mode", ["rows", "linearize", "whole"])
def test_no_orphans_on_the_corpus_when_tables_fit(name, mode):
    doc = corpus(name)
    assert orphans(MarkdownChunker(max_tokens=200, table_mode=mode).split(doc), doc) == 0


def test_linearize_leaves_fewer_orphans_than_rows_when_the_budget_is_tight():
    docs = [corpus(n) for n in CORPUS_WITH_TABLES]
    count = {
        mode: sum(
            orphans(MarkdownChunker(max_tokens=40, table_mode=mode).split(d), d) for d in docs
        )
        for mode in ("rows", "linearize")
    }
    assert count["linearize"] < count["rows"]


def test_a_value_shared_by_two_tables_is_not_an_orphan_of_the_other():
    text = (
        "| Day | Hours |\n|---|---|\n| Monday | 10 |\n\n"
        "| Day | Hours | Day | Hours |\n|---|---|---|---|\n| Monday | 10 | Monday | 9 |\n"
    )
    doc = Document(doc_id="t", uri="urn:t", title="", text=text)
    assert orphans(StructuralChunker(size=500).split(doc), doc) == 0
    assert orphans(StructuralChunker(size=20).split(doc), doc) > 0


def test_linearize_mode_pairs_every_row_with_its_header_and_drops_the_delimiter():
    policy = load_document("travel_policy")
    chunks = MarkdownChunker(max_tokens=60, table_mode="linearize").split(policy)
    rows = [c for c in chunks if "| Tokyo |" in c.text or "| London |" in c.text]
    assert rows and all(
        "| City | Daily limit (USD) | Lodging cap (USD) |\n| " in c.text for c in rows
    )
    assert not any("|---|" in c.text for c in chunks)


def test_whole_mode_gives_a_fitting_table_a_chunk_of_its_own():
    policy = load_document("travel_policy")
    chunks = MarkdownChunker(max_tokens=200, table_mode="whole").split(policy)
    table = next(c for c in chunks if "| Tokyo |" in c.text)
    assert table.text.split("\n\n", 1)[1].startswith("| City |") and "Exception" not in table.text


def test_a_table_wider_than_the_budget_keeps_the_budget():
    header = "| " + " | ".join(f"column {i} with a long descriptive name" for i in range(12)) + " |"
    text = f"# Wide\n\n{header}\n|{'---|' * 12}\n| {' | '.join(str(i) for i in range(12))} |\n"
    doc = Document(doc_id="w", uri="urn:w", title="", text=text)
    for mode in ("rows", "linearize", "whole"):
        chunks = MarkdownChunker(max_tokens=40, table_mode=mode).split(doc)
        assert max(c.token_count for c in chunks) <= 40
        assert orphans(chunks, doc) >= 1  # the hard case: no room for the header beside the row


def test_a_table_without_outer_pipes_keeps_its_header_with_each_row():
    # Valid GFM: no leading or trailing pipes. Linearizing finds it; packing must glue by header
    # too.
    text = (
        "Plans we offer:\n\n"
        "Plan Name | Description | Monthly price\n--- | --- | ---\n"
        "Basic | One user, community support only | 10 USD\n"
        "Team | Up to ten users, email support in one business day | 45 USD\n"
        "Enterprise | Unlimited users, a named engineer and a phone line | 300 USD\n\n"
        "Prices exclude tax.\n"
    )
    doc = Document(doc_id="plans", uri="urn:plans", title="", text=text)
    (table,) = find_tables(text)
    assert table.header == "Plan Name | Description | Monthly price" and len(table.rows) == 3
    for size in (60, 90, 140):
        chunks = LinearizedChunker(size=size).split(doc)
        assert orphans(chunks, doc) == 0, size
        assert all(len(c.text) <= size for c in chunks)
        for row in table.rows:
            holders = [c for c in chunks if row in c.text]
            if len(table.header) + 1 + len(row) <= size:  # fits whole: one chunk, with its header
                (holder,) = holders
                assert f"{table.header}\n{row}" in holder.text
            else:  # cut at spaces into parts, each after the header
                parts = [
                    c.text.split("\n", 1)[1]
                    for c in chunks
                    if c.text.startswith(table.header + "\n")
                ]
                assert row in " ".join(parts)
    pieces = pack_lines(linearize_tables(text).splitlines(), 90, atoms=True, headers={table.header})
    assert not any(p.endswith(table.header) for p in pieces)  # no header left at the end of a piece
