"""Issue 25: MiniLM wherever a dense model is used, and an index file that knows which model made
its vectors. Real SQLite files and real CLI runs; small documents (MiniLM reads ~3,000 word pieces
a second here)."""

import sqlite3
import subprocess
import sys

import pytest
from conftest import ROOT, run_cli
from test_cli import assert_usage_error

from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.embeddings.static import WordLlamaEmbedder
from chunklab.tokens.wordpiece import MINILM_INSTALL

DOCS = ("data/travel_policy.md", "data/manual.md")


def meta(path) -> dict[str, str]:
    with sqlite3.connect(path) as db:
        return dict(db.execute("SELECT key, value FROM chunklab_meta").fetchall())


def rows(path) -> tuple[int, int, int]:
    with sqlite3.connect(path) as db:
        return tuple(
            db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
            for t in ("children", "vectors", "documents")
        )


@pytest.fixture(scope="module")
def minilm_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("minilm") / "team.sqlite"
    done = run_cli("index", *DOCS, "--db", str(path), "--embedder", "minilm")
    assert done.returncode == 0, done.stderr
    return path


def test_an_index_file_records_the_embedder_that_made_its_vectors(minilm_file, tmp_path):
    record = meta(minilm_file)
    assert record["embedder"] == "minilm-l6-v2" and record["embedder_dim"] == "384"
    assert record["embedder_model_sha256"] == MiniLMEmbedder.model_hash
    assert record["format"] == "chunklab-index-3"
    with sqlite3.connect(minilm_file) as db:
        sizes = {len(blob) for (blob,) in db.execute("SELECT vector FROM vectors")}
    assert sizes == {384 * 4}
    wordllama = tmp_path / "w.sqlite"
    assert run_cli("index", DOCS[0], "--db", str(wordllama)).returncode == 0  # the default
    record = meta(wordllama)
    assert record["embedder"] == "wordllama-256" and record["embedder_dim"] == "256"
    assert record["embedder_model_sha256"] == WordLlamaEmbedder().model_hash
    assert len(record["embedder_model_sha256"]) == 64


def test_search_uses_the_files_embedder_and_ranks_as_the_api_does(minilm_file):
    from chunklab.chunkers.registry import STRATEGIES
    from chunklab.documents.reading import read_document
    from chunklab.retrieval.retrievers import DenseRetriever
    from chunklab.retrieval.small_to_big import parents_and_children

    question = "What is the lodging cap in New York?"
    done = run_cli("search", str(minilm_file), question, "--retriever", "minilm", "--json")
    assert done.returncode == 0, done.stderr
    import json

    found = [c["chunk_id"] for c in json.loads(done.stdout)["children"]]
    children = []
    for path in DOCS:
        doc = read_document(ROOT / path)
        children += parents_and_children(STRATEGIES["markdown"].build(), doc)[1]
    api = DenseRetriever(MiniLMEmbedder()).rank(question, children, 4)
    assert found == [h.ref_id for h in api]
    hybrid = run_cli("search", str(minilm_file), question, "--retriever", "hybrid")
    assert hybrid.returncode == 0 and b"travel_policy" in hybrid.stdout, hybrid.stderr


@pytest.mark.parametrize(
    "flags",
    [("--retriever", "wordllama"), ("--retriever", "hybrid", "--embedder", "wordllama")],
)
def test_a_search_with_another_embedder_is_one_line(minilm_file, flags):
    assert_usage_error(
        run_cli("search", str(minilm_file), "lodging cap", *flags),
        str(minilm_file),
        "made by minilm-l6-v2 (384 dimensions), not by wordllama-256",
        "--embedder minilm",
        "chunklab index DOCS --db NEW.sqlite --embedder wordllama",
    )


def test_a_dense_retriever_and_another_embedder_together_is_one_line(minilm_file):
    assert_usage_error(
        run_cli(
            "search",
            str(minilm_file),
            "lodging",
            "--retriever",
            "minilm",
            "--embedder",
            "wordllama",
        ),
        "--retriever minilm ranks with minilm's vectors, not --embedder wordllama",
    )


def test_indexing_another_embedder_into_a_file_is_refused_and_changes_nothing(tmp_path):
    path = tmp_path / "team.sqlite"
    assert run_cli("index", DOCS[0], "--db", str(path)).returncode == 0
    before, record = rows(path), meta(path)
    done = run_cli("index", DOCS[1], "--db", str(path), "--embedder", "minilm")
    assert_usage_error(
        done,
        f"{path}: its vectors were made by wordllama-256 (256 dimensions), not by minilm-l6-v2",
        "add to it with --embedder wordllama",
        f"chunklab index {DOCS[1]} --db NEW.sqlite --embedder minilm",
    )
    assert rows(path) == before and meta(path) == record
    # Without --embedder, a run adds to the file with the file's own model (here: WordLlama).
    again = run_cli("index", DOCS[1], "--db", str(path))
    assert again.returncode == 0, again.stderr
    assert rows(path)[2] == 2 and meta(path)["embedder"] == "wordllama-256"


def test_an_old_index_file_opens_and_is_taken_as_wordllama(tmp_path):
    path = tmp_path / "old.sqlite"
    assert run_cli("index", DOCS[0], "--db", str(path)).returncode == 0
    expected = run_cli("search", str(path), "lodging cap", "--retriever", "wordllama").stdout
    with sqlite3.connect(path) as db:  # as chunklab wrote it before the embedder was recorded
        db.execute("DELETE FROM chunklab_meta WHERE key LIKE 'embedder%'")
        db.execute("UPDATE chunklab_meta SET value = 'chunklab-index-2' WHERE key = 'format'")
    done = run_cli("search", str(path), "lodging cap", "--retriever", "wordllama")
    assert done.returncode == 0 and done.stdout == expected, done.stderr
    assert_usage_error(
        run_cli("search", str(path), "lodging cap", "--retriever", "minilm"),
        "made by wordllama-256 (256 dimensions), not by minilm-l6-v2",
    )
    assert_usage_error(
        run_cli("index", DOCS[1], "--db", str(path), "--embedder", "minilm"),
        "made by wordllama-256 (256 dimensions), not by minilm-l6-v2",
    )
    assert meta(path)["format"] == "chunklab-index-3"  # a writer opened it: upgraded in place
    assert run_cli("index", DOCS[1], "--db", str(path)).returncode == 0
    assert meta(path)["embedder"] == "wordllama-256" and meta(path)["embedder_dim"] == "256"


def test_a_format_this_chunklab_does_not_read_is_one_line(tmp_path):
    path = tmp_path / "future.sqlite"
    assert run_cli("index", DOCS[0], "--db", str(path)).returncode == 0
    with sqlite3.connect(path) as db:
        db.execute("UPDATE chunklab_meta SET value = 'chunklab-index-9' WHERE key = 'format'")
    assert_usage_error(
        run_cli("search", str(path), "lodging"),
        "index format 'chunklab-index-9', this chunklab reads chunklab-index-2 or chunklab-index-3",
    )


def cut_of_stored_children(path):
    from chunklab.contracts import Chunk

    with sqlite3.connect(path) as db:
        records = [r for (r,) in db.execute("SELECT record FROM children ORDER BY seq")]
    return MiniLMEmbedder().cut([Chunk.model_validate_json(r).text for r in records])


@pytest.mark.parametrize("workers", [None, "2"])
def test_what_minilm_cut_is_one_warning_line(tmp_path, workers):
    path = tmp_path / "long.sqlite"
    spread = ["--workers", workers] if workers else []
    done = run_cli(
        "index", *DOCS, "--db", str(path), "--embedder", "minilm", "--max-tokens", "500", *spread
    )
    assert done.returncode == 0, done.stderr
    cut = cut_of_stored_children(path)
    assert cut.truncated > 0  # else this test proves nothing
    assert done.stderr.decode().splitlines() == [
        f"chunklab: warning: {cut.truncated} of {cut.texts} chunks are longer than minilm-l6-v2 "
        f"reads (256 word pieces); {cut.words_dropped:,} words of them are not in their vectors "
        "(cut with --counter minilm --max-tokens 256 to fit)"
    ]


def test_chunks_cut_to_fit_minilm_give_no_warning(tmp_path):
    path = tmp_path / "fit.sqlite"
    done = run_cli(
        "index", *DOCS, "--db", str(path), "--embedder", "minilm", "--counter", "minilm",
        "--max-tokens", "256",
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    assert cut_of_stored_children(path).truncated == 0


# A process where the MiniLM wheel is not installed: its package cannot be found.
HIDDEN = """
import importlib.util, sys
real = importlib.util.find_spec
importlib.util.find_spec = lambda name, *a: None if name == "all_minilm_l6_v2" else real(name, *a)
from chunklab.cli import main
sys.exit(main(sys.argv[1:]))
"""


def run_without_model(*args, pythonpath=None):
    import os

    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = str(pythonpath)
    code = "from chunklab.cli import main; import sys; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", HIDDEN if pythonpath is None else code, *args],
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )


def test_a_missing_model_is_one_line_with_the_command_and_no_file(tmp_path, minilm_file):
    path = tmp_path / "none.sqlite"
    done = run_without_model("index", DOCS[0], "--db", str(path), "--embedder", "minilm")
    assert_usage_error(done, "the MiniLM model is not installed; run: " + MINILM_INSTALL)
    assert not path.exists()
    assert_usage_error(
        run_without_model("search", str(minilm_file), "lodging", "--retriever", "minilm"),
        MINILM_INSTALL,
    )
    questions = ROOT / "data" / "example.questions.yaml"
    assert_usage_error(
        run_without_model(
            "experiment",
            "--docs",
            "data",
            "--questions",
            str(questions),
            "--embedder",
            "minilm",
            "--out",
            str(tmp_path / "out"),
        ),  # fmt: skip
        MINILM_INSTALL,
    )


def test_a_broken_model_is_one_line_with_the_command(tmp_path):
    fake = tmp_path / "site" / "all_minilm_l6_v2"  # found before the real one on PYTHONPATH
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "model.zip").write_bytes(b"not a zip file")
    path = tmp_path / "broken.sqlite"
    done = run_without_model(
        "index", DOCS[0], "--db", str(path), "--embedder", "minilm", pythonpath=fake.parent
    )
    assert_usage_error(done, "cannot read tokenizer.json", MINILM_INSTALL + " --force-reinstall")
    assert not path.exists()


def test_the_experiment_ranks_with_minilm_and_says_what_it_cut(tmp_path, monkeypatch, capsys):
    from chunklab.cli import main
    from chunklab.evaluation import experiment

    real = experiment.real_strategies

    def two(max_tokens):  # two strategies of the eleven keep the test fast
        made = real(max_tokens)
        return {name: made[name] for name in ("fixed_size", "markdown")}

    monkeypatch.setattr(experiment, "real_strategies", two)
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "manual.md").write_bytes((ROOT / "data" / "manual.md").read_bytes())
    questions = tmp_path / "q.yaml"
    questions.write_text(
        "questions:\n  - {id: v, document: manual, question: 'Qual o limite de vibração?', "
        "facts: ['4,5']}\n",
        encoding="utf-8",
    )
    argv = ["experiment", "--docs", str(folder), "--questions", str(questions)]
    code = main([*argv, "--embedder", "minilm", "--max-tokens", "500", "--out", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 0, err
    retrievers = {line.split()[1] for line in out.splitlines()[1:] if not line.startswith("wrote")}
    assert retrievers == {"overlap", "bm25", "minilm"}  # the default list follows --embedder
    texts = [c.text for s in two(500).values() for c in s(experiment_document(folder)).searched]
    cut = MiniLMEmbedder().cut(list(dict.fromkeys(texts)))
    assert cut.truncated > 0
    assert err.splitlines() == [
        f"chunklab: warning: {cut.truncated} of {cut.texts} chunks are longer than minilm-l6-v2 "
        f"reads (256 word pieces); {cut.words_dropped:,} words of them are not in their vectors "
        "(a smaller --max-tokens cuts the token strategies' chunks shorter)"
    ]


def experiment_document(folder):
    from chunklab.documents.reading import read_document

    return read_document(folder / "manual.md", "manual")


def test_the_dense_retrievers_are_named_by_their_model():
    from chunklab.chunkers.registry import STRATEGIES
    from chunklab.retrieval.retrievers import (
        RETRIEVERS,
        DenseRetriever,
        HybridRetriever,
        make_retriever,
    )

    assert DenseRetriever().name == "wordllama" and DenseRetriever.name == "wordllama"
    assert DenseRetriever(MiniLMEmbedder()).name == "minilm"
    assert RETRIEVERS["minilm"]().embedder.name == "minilm-l6-v2"
    assert HybridRetriever(embedder=MiniLMEmbedder()).dense.name == "minilm"
    assert HybridRetriever().dense.name == "wordllama"
    assert make_retriever("hybrid", "minilm").dense.stored_ranking().embedder == "minilm-l6-v2"
    with pytest.raises(ValueError, match="not both"):
        HybridRetriever(dense=DenseRetriever(), embedder=MiniLMEmbedder())
    chunker = STRATEGIES["semantic"].build(embedder="minilm")
    assert isinstance(chunker.embedder, MiniLMEmbedder)


def test_the_store_keeps_one_embedders_vectors(tmp_path):
    import numpy as np

    from chunklab.embeddings.registry import EmbedderIdentity
    from chunklab.retrieval.index_file import IndexFileError
    from chunklab.retrieval.sqlite_store import EmbedderMismatch, SQLiteStore

    store = SQLiteStore(tmp_path / "api.sqlite")
    assert store.embedder() is None
    mine = EmbedderIdentity("minilm-l6-v2", 384, "ab" * 32)
    store.use_embedder(mine)
    assert store.embedder() == mine
    with pytest.raises(EmbedderMismatch, match="made by minilm-l6-v2 .384 dimensions., not by w"):
        store.use_embedder(EmbedderIdentity("wordllama-256", 256, "cd" * 32))
    with pytest.raises(EmbedderMismatch, match="with other weights"):
        store.use_embedder(EmbedderIdentity("minilm-l6-v2", 384, "ef" * 32))
    from chunklab import MarkdownChunker, load_document

    doc = load_document("travel_policy")
    chunker = MarkdownChunker(max_tokens=60)
    parents, children = chunker.parents(doc), chunker.split(doc)
    sections = [(p, [c for c in children if c.parent_id == p.chunk_id]) for p in parents]
    wrong = {c.chunk_id: np.zeros(256, dtype=np.float32) for c in children}
    with pytest.raises(IndexFileError, match="vectors of 256 dimensions, but the file holds"):
        store.replace_document("default", doc.doc_id, sections, vectors=wrong)
    assert store.children("default") == []  # nothing of the document was written
    store.close()


def test_the_file_ranks_inside_itself_only_with_the_embedder_that_made_its_vectors(minilm_file):
    from chunklab.retrieval.retrievers import DenseRetriever, HybridRetriever
    from chunklab.retrieval.sqlite_store import SQLiteStore

    store = SQLiteStore(minilm_file, read_only=True)
    question = "lodging cap in New York"
    for retriever in (DenseRetriever(MiniLMEmbedder()), HybridRetriever(embedder=MiniLMEmbedder())):
        assert store.ranked("default", question, 3, None, retriever), retriever.name
    for retriever in (DenseRetriever(), HybridRetriever()):  # WordLlama: ranked in memory
        assert store.ranked("default", question, 3, None, retriever) is None
    store.close()


def test_a_missing_wordllama_is_one_line_with_the_command(tmp_path):
    from chunklab.embeddings.static import WORDLLAMA_HINT

    hidden = HIDDEN.replace("all_minilm_l6_v2", "wordllama")
    path = tmp_path / "w.sqlite"
    done = subprocess.run(
        [sys.executable, "-c", hidden, "index", DOCS[0], "--db", str(path)],
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    assert_usage_error(done, "needs the wordllama package", WORDLLAMA_HINT)
    assert not path.exists()


def test_the_semantic_strategy_cuts_with_the_indexs_embedder(tmp_path):
    from chunklab.chunkers.registry import STRATEGIES
    from chunklab.contracts import Chunk
    from chunklab.documents.reading import read_document
    from chunklab.retrieval.small_to_big import parents_and_children

    path = tmp_path / "semantic.sqlite"
    done = run_cli(
        "index", DOCS[0], "--db", str(path), "--strategy", "semantic", "--embedder", "minilm"
    )
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(path) as db:
        stored = [
            Chunk.model_validate_json(r).text
            for (r,) in db.execute("SELECT record FROM children ORDER BY seq")
        ]
    doc = read_document(ROOT / DOCS[0])
    chunker = STRATEGIES["semantic"].build(embedder="minilm")
    expected = [c.text for c in parents_and_children(chunker, doc)[1]]
    wordllama = [c.text for c in parents_and_children(STRATEGIES["semantic"].build(), doc)[1]]
    assert stored == expected and expected != wordllama
