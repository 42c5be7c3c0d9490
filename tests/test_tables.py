import pytest

from chunklab import Document, FixedSizeChunker, load_document
from chunklab.markdown_chunker import MarkdownChunker
from chunklab.metrics import starts_mid_line
from chunklab.structural import StructuralChunker
from chunklab.tables import LinearizedChunker, find_tables, linearize_tables, orphans, pack_lines


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
    got = {name: (len(c), starts_mid_line(c, manual), orphans(c, manual)) for name, c in strategies.items()}
    assert got == {"fixed_size": (5, 3, 1), "structural": (11, 0, 4), "structural+": (6, 0, 1), "linearized": (5, 0, 0)}


def test_linearized_pieces_pair_every_row_with_its_header(manual):
    chunks = LinearizedChunker().split(manual)
    assert chunks[2].text == ("| Medida | Unidade | Limite | Ação |\n| Vibração | mm/s | 4,5 | Parar o equipamento |\n"
                              "| Medida | Unidade | Limite | Ação |\n| Temperatura | C | 85 | Reduzir a carga |")


def test_linearizing_alone_fixes_nothing(manual):
    # Linearize, then cut by characters again: the cut falls between a repeated header and its row.
    linear = Document(doc_id="lin", uri="urn:lin", title="", text=linearize_tables(manual.text))
    assert orphans(FixedSizeChunker(size=200, overlap=40).split(linear), manual) > 0
    # Cut by line without atoms, at a size where a boundary falls inside a header+row pair: some piece
    # ends on a bare header, and its row opens the next piece. With atoms, never.
    lines = linear.text.splitlines()
    header = "| Medida | Unidade | Limite | Ação |"
    assert any(p.endswith(header) for p in pack_lines(lines, 60, atoms=False))
    assert not any(p.endswith(header) for p in pack_lines(lines, 60, atoms=True))


def test_orphans_work_for_any_table_not_a_list_of_values():
    policy = load_document("travel_policy")
    assert orphans(MarkdownChunker(max_tokens=45).split(policy), policy) == 0  # rows repeat the header
    assert orphans(StructuralChunker(size=40).split(policy), policy) >= 4  # one row per chunk, no header


@pytest.mark.parametrize("text", ["| a | b |\n| --- | --- |\n", "no tables here\n", "a | b\n--|--\n1 | 2\n"])
def test_tables_without_rows_or_outer_pipes(text):
    doc = Document(doc_id="t", uri="urn:t", title="", text=text)
    chunks = LinearizedChunker().split(doc)
    assert all(c.text.strip() for c in chunks)
    assert orphans(chunks, doc) == 0
