"""One registry of strategies: every strategy declared once, and everything that lists strategies
reads it (the CLI's `chunk` and `index`, the experiment, these tests).

One parametrized test over every registered strategy (minbpe's habit): a new strategy is covered
by everything here the moment it is declared.
"""

import json
import sqlite3

import pytest
from conftest import DATA

from chunklab import Chunk, Document, load_document
from chunklab.chunkers import registry
from chunklab.chunkers.registry import OPTIONS, STRATEGIES, Strategy, UnknownOption, declare
from chunklab.chunkers.structural import StructuralChunker
from chunklab.cli import main
from chunklab.evaluation.experiment import real_strategies
from chunklab.retrieval.small_to_big import WHOLE_SUFFIX, pair_with_sections, parents_and_children

NAMES = list(STRATEGIES)


@pytest.mark.parametrize("name", NAMES)
def test_every_strategy_builds_from_its_defaults_and_cuts_inside_the_document(name):
    doc = load_document("travel_policy")
    chunks = STRATEGIES[name].build().split(doc)
    assert chunks and all(isinstance(c, Chunk) and c.doc_id == doc.doc_id for c in chunks)
    assert all(0 <= c.start <= c.end <= len(doc.text) for c in chunks)
    assert [c.chunk_id for c in chunks] == list(dict.fromkeys(c.chunk_id for c in chunks))


@pytest.mark.parametrize("name", NAMES)
def test_every_strategy_reads_only_declared_options_and_refuses_others(name):
    strategy = STRATEGIES[name]
    assert set(strategy.options) <= set(OPTIONS) and strategy.help
    other = next(o for o in OPTIONS if o not in strategy.options)
    with pytest.raises(
        UnknownOption, match=f"--{other.replace('_', '-')} does not apply to --strategy {name}"
    ):
        strategy.build(**{other: OPTIONS[other].default})


def test_a_name_declared_twice_or_an_undeclared_option_is_refused():
    once = Strategy("x", StructuralChunker, ("size",), "one")
    with pytest.raises(ValueError, match="declared twice"):
        declare(once, once)
    with pytest.raises(ValueError, match="undeclared options: pages"):
        declare(Strategy("y", StructuralChunker, ("pages",), "bad"))


def test_the_experiment_builds_its_strategies_from_the_registry(monkeypatch):
    built = []
    real_build = registry.Strategy.build

    def spy(self, **options):
        built.append(self.name)
        return real_build(self, **options)

    monkeypatch.setattr(registry.Strategy, "build", spy)
    real_strategies()
    # All but the two ports of Chroma's benchmark chunkers, which the series' own experiment
    # (notebook 07) does not run: they are scored on that benchmark's data instead; and the code
    # chunker, whose experiment is on source code (notebook 11), not on the series' documents.
    assert set(built) == set(NAMES) - {"recursive", "tokentext", "code"}


def test_a_new_strategy_joins_the_cli_with_one_declaration(monkeypatch, capsys, tmp_path):
    """A chunker the library has never seen, declared once, is offered by `chunk` and `index`."""

    class Halves:
        def __init__(self, size: int = 200) -> None:
            self.size = size

        def split(self, doc: Document) -> list[Chunk]:
            middle = len(doc.text) // 2
            return [
                Chunk(
                    chunk_id=f"{doc.doc_id}#h{n}",
                    doc_id=doc.doc_id,
                    ordinal=n,
                    text=doc.text[a:b],
                    token_count=len(doc.text[a:b].split()),
                    start=a,
                    end=b,
                )
                for n, (a, b) in enumerate([(0, middle), (middle, len(doc.text))])
            ]

    monkeypatch.setitem(STRATEGIES, "halves", Strategy("halves", Halves, ("size",), "two halves"))
    assert main(["chunk", str(DATA / "manual.md"), "--strategy", "halves", "--size", "10"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["chunk_id"] for line in lines] == ["manual#h0", "manual#h1"]
    db = tmp_path / "halves.sqlite"
    assert main(["index", str(DATA / "manual.md"), "--db", str(db), "--strategy", "halves"]) == 0
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM children").fetchone()[0] == 2


@pytest.mark.parametrize("name", NAMES)
def test_index_and_search_with_every_registered_strategy(name, tmp_path, capsys):
    db = str(tmp_path / f"{name}.sqlite")
    paths = [str(DATA / "travel_policy.md"), str(DATA / "manual.md")]
    assert main(["index", *paths, "--db", db, "--strategy", name]) == 0
    assert "indexed 2 documents" in capsys.readouterr().out
    expected = sum(
        len(STRATEGIES[name].build().split(load_document(n))) for n in ("travel_policy", "manual")
    )
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM children").fetchone()[0] == expected
    assert main(["search", db, "per diem in Tokyo", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["parents"], found
    # A second run with the same strategy and options skips both; another strategy re-indexes.
    assert main(["index", *paths, "--db", db, "--strategy", name]) == 0
    assert "2 unchanged, skipped" in capsys.readouterr().out


def test_index_refuses_an_option_the_strategy_does_not_read(tmp_path, capsys):
    db = tmp_path / "x.sqlite"
    assert (
        main(
            [
                "index",
                str(DATA / "manual.md"),
                "--db",
                str(db),
                "--strategy",
                "fixed",
                "--max-tokens",
                "9",
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--max-tokens does not apply to --strategy fixed" in err
    assert not db.exists()


# --- small-to-big for any strategy ----------------------------------------------------------------


def test_a_chunk_inside_one_section_is_its_child_and_one_across_a_heading_is_its_own_parent():
    doc = Document(
        doc_id="d",
        uri="urn:d",
        title="T",
        text="# A\n\nFirst section text.\n\n# B\n\nSecond section text.\n",
    )
    sections = [p for p in parents_and_children(STRATEGIES["markdown"].build(), doc).parents]
    b = doc.text.index("# B")
    inside = Chunk(
        chunk_id="d#0", doc_id="d", ordinal=0, text=doc.text[5:24], token_count=3, start=5, end=24
    )
    across = Chunk(
        chunk_id="d#1",
        doc_id="d",
        ordinal=1,
        text=doc.text[10 : b + 6],
        token_count=5,
        start=10,
        end=b + 6,
    )
    paired = pair_with_sections([inside, across], sections)
    assert (paired.nested, paired.alone) == (1, 1)
    assert paired.children[0].parent_id == sections[0].chunk_id
    assert paired.children[1].parent_id == "d#1" + WHOLE_SUFFIX
    whole = next(p for p in paired.parents if p.chunk_id == "d#1" + WHOLE_SUFFIX)
    assert whole.text == across.text and whole.parent_id is None


@pytest.mark.parametrize("name", NAMES)
def test_every_child_lies_inside_the_parent_it_hands_over(name):
    for document in ("travel_policy", "manual", "work_schedules"):
        doc = load_document(document)
        paired = parents_and_children(STRATEGIES[name].build(), doc)
        parents = {p.chunk_id: p for p in paired.parents}
        assert len(paired.children) == paired.nested + paired.alone
        assert {c.parent_id for c in paired.children} <= set(parents)
        for child in paired.children:
            parent = parents[child.parent_id]
            assert parent.start <= child.start and child.end <= parent.end, (name, child.chunk_id)


# --- the index asks a retriever what it needs -----------------------------------------------------


def test_the_index_asks_a_retriever_what_it_needs_instead_of_testing_its_type(tmp_path, capsys):
    from chunklab import (
        BM25Retriever,
        DenseRetriever,
        HashingEmbedder,
        LogCountRetriever,
        SQLiteStore,
    )

    db = str(tmp_path / "asks.sqlite")
    assert main(["index", str(DATA / "travel_policy.md"), "--db", db]) == 0
    store = SQLiteStore(db, read_only=True)

    class WordsLikeBM25:  # not a BM25Retriever: it only says what it needs
        name = "my-bm25"

        def stored_ranking(self):
            return BM25Retriever().stored_ranking()

    asked = store.ranked("default", "per diem Tokyo", 3, None, WordsLikeBM25())
    bm25 = store.ranked("default", "per diem Tokyo", 3, None, BM25Retriever())
    assert asked is not None and asked == bm25
    assert store.ranked("default", "per diem Tokyo", 3, None, LogCountRetriever()) is None
    # Vectors made by another embedder are never compared with the file's WordLlama vectors.
    hashing = DenseRetriever(embedder=HashingEmbedder())
    assert store.ranked("default", "per diem Tokyo", 3, None, hashing) is None
    assert store.ranked("default", "per diem Tokyo", 3, None, DenseRetriever()) is not None
    store.close()
