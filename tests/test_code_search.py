"""Code-search questions built CodeSearchNet's way, and the line-based scores of a cut
(`chunklab.teaching.code_search`, notebook 11)."""

import ast
from types import SimpleNamespace

import numpy as np
import pytest

from chunklab.documents.series import data_dir
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.embeddings.stored import VectorStore, text_key
from chunklab.teaching.code_cut_sizes import cut_sizes, over_budget
from chunklab.teaching.code_search import (
    Piece,
    code_lines,
    complete_at,
    corpus,
    first_sentence,
    functions_cut,
    line_recall,
    minilm_budget_cuts,
    strip_docstrings,
    text_splitter,
)
from chunklab.tokens.wordpiece import minilm_pieces

SOURCE = '''"""A module docstring stays: it is no function's."""
import functools


def plain(x):
    """Return x doubled, as an example. More text here.

    >>> plain(2)
    4
    """
    return 2 * x


class Box:
    """A class docstring stays too."""

    @functools.cache
    def size(self):
        """Say how big the box is."""


def short():
    """Too short."""
    return 1
'''


def test_docstrings_come_out_and_their_first_sentences_ask():
    stripped, questions = strip_docstrings(SOURCE, "m.py")
    ast.parse(stripped)  # still Python
    assert "Return x doubled" not in stripped and "Say how big" not in stripped
    assert "Too short" not in stripped  # taken out, though too short to ask
    assert '"""A module docstring stays' in stripped and '"""A class docstring' in stripped
    asked = {q.function: q for q in questions}
    assert set(asked) == {"plain", "Box.size"}
    assert asked["plain"].question == "Return x doubled, as an example."
    assert asked["Box.size"].question == "Say how big the box is."
    size = asked["Box.size"]
    gold = stripped[size.start : size.end]
    assert gold.startswith("@functools.cache") and gold.endswith("pass")  # a body left empty
    plain = asked["plain"]
    assert stripped[plain.start : plain.end] == "def plain(x):\n    return 2 * x"


def test_first_sentence_stops_at_the_first_full_stop_or_blank_line():
    assert first_sentence("Merge dicts.  Later ones win.") == "Merge dicts."
    assert first_sentence("Apply a function\n  to every value\n\nMore.") == (
        "Apply a function to every value"
    )
    assert first_sentence("Use e.g.x as a name") == "Use e.g.x as a name"


def test_a_cut_is_scored_by_the_lines_it_hands_over():
    source = "def f():\n    a = 1\n\n    return a\n"
    whole = code_lines(source, 0, len(source))
    assert whole == {1, 2, 4}
    head = frozenset(("m", n) for n in code_lines(source, 0, 20))  # ends inside line 3's blank
    tail = frozenset(("m", n) for n in code_lines(source, 20, len(source)))
    gold = frozenset(("m", n) for n in whole)
    assert head == {("m", 1), ("m", 2)} and tail == {("m", 4)}
    assert complete_at([head], gold) == 0.0 and complete_at([head, tail], gold) == 1.0
    assert line_recall([head], gold) == pytest.approx(2 / 3)
    assert code_lines(source, 3, len(source)) == {2, 4}  # a line cut into is not handed over


def test_functions_cut_counts_definitions_that_fit_and_no_piece_holds():
    source = "def a():\n    return 1\n\n\ndef b():\n    return 2\n"
    files = {"m.py": source}
    split = source.index("def b") + 3
    pieces = [Piece("m.py", 0, split, ""), Piece("m.py", split, len(source), "")]
    assert functions_cut(files, pieces, lambda text: True) == (1, 2)
    assert functions_cut(files, pieces, lambda text: "a()" in text) == (0, 1)


def test_a_framework_chunk_found_nowhere_is_an_error_not_a_drop():
    split = text_splitter(lambda text: [text[:5], "not in the file at all"])
    with pytest.raises(ValueError, match="in no place of the file"):
        split("m.py", "def f():\n    return 1\n")


def test_the_stored_vectors_are_the_models_and_hold_every_question():
    _, questions = corpus(data_dir() / "code" / "toolz")
    store = VectorStore.load(data_dir() / "code" / "embeddings" / "minilm")
    model = MiniLMEmbedder()
    store.check_model(model)
    assert all(text_key(q.question) in store.row for q in questions)
    sample = [q.question for q in questions[:3]]
    live = model.embed_documents(sample)
    stored = store.vectors[[store.row[text_key(t)] for t in sample]].astype(np.float32)
    assert np.abs(live - stored).max() < 2e-3  # float16 storage, nothing more


def test_a_budget_in_minilm_pieces_keeps_every_blind_chunk_within_the_read_limit():
    line = "def f{}(x):\n    return x + 1  # a line of a function\n"
    source = "\n".join(line.format(i) for i in range(60))
    cuts = minilm_budget_cuts(60)
    for label in ("fixed tokens", "lines packed"):
        pieces = cuts[label]("m.py", source)
        assert len(pieces) > 1, label  # the file is longer than one budget: it is cut
        assert all(minilm_pieces(p.text) <= 62 for p in pieces), label  # the budget, not cl100k's
    tree = cuts["chunklab code"]("m.py", source)
    assert all(p.text.startswith("m.py") for p in tree)  # the tree's chunks carry their breadcrumb


def test_cut_sizes_counts_chunks_over_the_budget_and_the_read_limit():
    long = "word " * 300  # about 300 cl100k tokens and 302 pieces by the counter below
    pieces = [Piece("m.py", 0, 10, "x" * 10), Piece("m.py", 10, 1510, long)]
    asked = [
        SimpleNamespace(uri="m.py", start=12, end=15),
        SimpleNamespace(uri="m.py", start=0, end=5),
    ]
    table = cut_sizes({"cut": pieces}, asked, budget=50, count_pieces=lambda t: len(t.split()) + 2)
    row = table.loc["cut"]
    assert (row["chunks"], row["over the budget"], row["over MiniLM's 256"]) == (2, 1, 1)
    assert row["gold in a cut-off chunk"] == 1  # the first question's span lies in the long chunk


def test_over_budget_names_a_string_literal_and_the_short_chunk_before_it():
    source = 'f.__doc__ = """' + "a long docstring " * 40 + '"""\n'
    split = source.index('"""')
    cut = [
        Piece("m.py", 0, split, "m.py\n\n" + source[:split]),
        Piece("m.py", split, len(source), "m.py\n\n" + source[split:]),
    ]
    lines = over_budget(cut, {"m.py": source}, budget=20)
    assert "one string literal" in lines[0] and "the chunk before it: 'f.__doc__ = '" in lines[1]
