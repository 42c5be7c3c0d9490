"""A parent has a cap: a long section is handed over as the window of its children around the hit.

The long document without headings is the 2024 State of the Union address from Chroma's benchmark
corpora (`data/chroma/`): one section of about ten thousand tokens, where an uncapped small-to-big
hands over the whole speech for every question.
"""

import json
import shutil

import pytest
from conftest import ROOT, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunklab import cl100k, read_document
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.registry import STRATEGIES
from chunklab.evaluation.chroma import load_corpora, load_questions
from chunklab.retrieval.index import MemoryStore, ParentChildIndex, index_document
from chunklab.retrieval.ingest import settings_label
from chunklab.retrieval.retrievers import BM25Retriever
from chunklab.retrieval.small_to_big import (
    DEFAULT_PARENT_TOKENS,
    parents_and_children,
    window_around,
)
from chunklab.retrieval.sqlite_store import SQLiteStore

SPEECH = ROOT / "data" / "chroma" / "state_of_the_union.md"
QUESTION = "How much has the racial wealth gap decreased?"  # one of Chroma's questions on it


@pytest.fixture(scope="module")
def speech():
    return read_document(SPEECH)


@pytest.fixture(scope="module")
def answer():
    """The excerpt Chroma's benchmark gives as the answer to QUESTION, read from its corpus."""
    (question,) = [q for q in load_questions() if q.text.startswith("As of the statement")]
    assert "racial wealth gap" in question.text
    corpus = load_corpora()["state_of_the_union"]
    return [corpus[a:b] for a, b in question.excerpts]


def indexed(store, paired, tenant="default"):
    index = ParentChildIndex(store=store, retriever=BM25Retriever())
    index_document(index, paired.parents, paired.children, tenant=tenant)
    return index


def test_a_document_without_headings_is_one_section_handed_over_whole_without_a_cap(speech):
    whole = parents_and_children(MarkdownChunker(), speech, parent_tokens=None)
    assert len(whole.parents) == 1 and whole.parents[0].token_count > 4 * DEFAULT_PARENT_TOKENS
    (handed,) = indexed(MemoryStore(), whole).small_to_big(QUESTION, k=4, max_parents=2)
    assert handed.token_count == whole.parents[0].token_count  # the whole speech, every time


def test_search_hands_over_at_most_the_cap_and_the_answer_is_inside(speech, answer):
    paired = parents_and_children(MarkdownChunker(), speech)  # the default cap
    index = indexed(MemoryStore(), paired)
    hits = index.search(QUESTION, k=4)
    handed = index.parents_of(hits, max_parents=2)
    assert handed and all(p.token_count <= DEFAULT_PARENT_TOKENS for p in handed)
    for p in handed:
        assert p.token_count == cl100k(p.text)
        assert p.text == speech.text[p.start : p.end]  # an exact slice of the one section
        assert p.metadata["capped_from"] == "state_of_the_union#preamble"
        assert p.metadata["section_tokens"] > DEFAULT_PARENT_TOKENS
    best = index.store.child("default", hits[0].ref_id)
    assert handed[0].start <= best.start and best.end <= handed[0].end
    assert all(part in handed[0].text for part in answer)


def test_each_window_handed_over_adds_a_hit_the_earlier_ones_did_not_hold(speech):
    index = indexed(MemoryStore(), parents_and_children(MarkdownChunker(), speech))
    hits = index.search("families workers jobs taxes", k=12)
    children = [index.store.child("default", h.ref_id) for h in hits]
    handed = index.parents_of(hits, max_parents=12)
    assert len({p.chunk_id for p in handed}) == len(handed) > 1
    for n, p in enumerate(handed):
        own = [c for c in children if c.parent_id == p.chunk_id]
        assert any(
            not any(q.start <= c.start and c.end <= q.end for q in handed[:n]) for c in own
        ), p.chunk_id
    for c in children:  # and nothing a hit found is left out
        assert any(p.start <= c.start and c.end <= p.end for p in handed)


def test_the_sqlite_store_hands_over_the_same_capped_windows(tmp_path, speech, answer):
    paired = parents_and_children(MarkdownChunker(), speech, parent_tokens=800)
    path = tmp_path / "speech.sqlite"
    store = SQLiteStore(path)
    indexed(store, paired, tenant="acme")
    store.close()
    reopened = ParentChildIndex(store=SQLiteStore(path, read_only=True), retriever=BM25Retriever())
    memory = indexed(MemoryStore(), paired, tenant="acme")
    from_file = reopened.small_to_big(QUESTION, k=4, max_parents=2, tenant="acme")
    assert from_file == memory.small_to_big(QUESTION, k=4, max_parents=2, tenant="acme")
    assert all(p.token_count <= 800 and p.metadata["parent_tokens"] == 800 for p in from_file)
    assert any(part in from_file[0].text for part in answer)


def test_sections_within_the_cap_are_left_as_they_were():
    """The default is above every section of the series' documents: with headings, a document
    hands over what it always did (and tests/test_same_chunks.py holds)."""
    from same_chunks import documents

    chunker = STRATEGIES["markdown"].build()
    for name, doc in documents().items():
        whole = parents_and_children(chunker, doc, parent_tokens=None)
        assert max(p.token_count for p in whole.parents) <= DEFAULT_PARENT_TOKENS, name
        assert parents_and_children(chunker, doc) == whole, name


# --- the window, for any hit --------------------------------------------------------------------

WORDS = st.sampled_from("the per diem is 95 USD a day in Tokyo, and 75% after day 30 . été".split())
PARAGRAPH = st.lists(WORDS, min_size=1, max_size=40).map(" ".join)


@st.composite
def documents_and_budgets(draw):
    paragraphs = draw(st.lists(PARAGRAPH, min_size=1, max_size=25))
    headed = draw(st.lists(st.booleans(), min_size=len(paragraphs), max_size=len(paragraphs)))
    parts = [
        f"## Part {n}\n\n{p}" if h else p
        for n, (p, h) in enumerate(zip(paragraphs, headed, strict=True))
    ]
    return "\n\n".join(parts), draw(st.integers(8, 40)), draw(st.integers(1, 150))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents_and_budgets())
def test_any_hit_gets_a_contiguous_slice_of_its_section_within_the_cap(case):
    text, child_tokens, cap = case
    chunker = MarkdownChunker(max_tokens=child_tokens)
    whole = parents_and_children(chunker, text, parent_tokens=None)
    capped = parents_and_children(chunker, text, parent_tokens=cap)
    sections = {p.chunk_id: p for p in whole.parents}
    parents = {p.chunk_id: p for p in capped.parents}
    assert [c.model_copy(update={"parent_id": None}) for c in capped.children] == [
        c.model_copy(update={"parent_id": None}) for c in whole.children
    ]  # the cap moves no child
    for before, child in zip(whole.children, capped.children, strict=True):
        section, parent = sections[before.parent_id], parents[child.parent_id]
        if section.token_count <= cap:
            assert parent == section
            continue
        assert parent.metadata["capped_from"] == section.chunk_id
        assert parent.text in section.text  # a contiguous slice of the section
        assert parent.text == text[parent.start : parent.end]
        assert parent.start <= child.start and child.end <= parent.end  # holds the hit
        assert parent.token_count == cl100k(parent.text)
        if parent.token_count > cap:  # only the hit's child alone may be over the cap
            assert (parent.start, parent.end) == (child.start, child.end)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 30), min_size=1, max_size=30), st.data())
def test_the_window_is_centred_and_cannot_grow_on_either_side(sizes, data):
    hit = data.draw(st.integers(0, len(sizes) - 1))
    budget = data.draw(st.integers(0, 120))

    def fits(first, last):
        return sum(sizes[first : last + 1]) <= budget

    first, last = window_around(hit, len(sizes), fits)
    assert first <= hit <= last
    assert fits(first, last) or first == last == hit
    assert first == 0 or not fits(first - 1, last)
    assert last == len(sizes) - 1 or not fits(first, last + 1)


def test_the_window_grows_after_the_hit_on_a_tie_and_keeps_it_in_the_middle():
    assert window_around(5, 11, lambda a, b: b - a < 2) == (5, 6)
    assert window_around(5, 11, lambda a, b: b - a < 3) == (4, 6)
    assert window_around(5, 11, lambda a, b: b - a < 5) == (3, 7)
    assert window_around(0, 11, lambda a, b: b - a < 3) == (0, 2)  # no child before: all after


def test_a_cap_below_one_token_is_an_error(speech):
    with pytest.raises(ValueError, match="parent_tokens must be at least 1"):
        parents_and_children(MarkdownChunker(), speech, parent_tokens=0)


# --- the command line ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def speech_index(tmp_path_factory):
    """The speech as a plain text file, indexed with the default cap."""
    folder = tmp_path_factory.mktemp("speech")
    shutil.copy(SPEECH, folder / "speech.txt")
    db = folder / "speech.sqlite"
    done = run_cli("index", str(folder / "speech.txt"), "--db", str(db))
    assert done.returncode == 0, done.stderr
    return folder, db


def test_cli_search_shows_the_capped_window_and_says_so(speech_index, answer):
    _, db = speech_index
    done = run_cli("search", str(db), QUESTION, "--parents", "1")
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr
    header = next(line for line in out.splitlines() if line.startswith("=== speech:"))
    assert f"capped at {DEFAULT_PARENT_TOKENS}: the window of children speech#preamble-c" in header
    tokens = int(header.split("[", 1)[1].split(" tokens", 1)[0])
    assert tokens <= DEFAULT_PARENT_TOKENS
    assert all(part in out for part in answer)

    record = json.loads(run_cli("search", str(db), QUESTION, "--json").stdout)
    assert record["parents"] and all(p["capped"] for p in record["parents"])
    for p in record["parents"]:
        assert p["token_count"] <= DEFAULT_PARENT_TOKENS < p["metadata"]["section_tokens"]
        assert p["metadata"]["capped_from"] == "speech#preamble"


def test_cli_parent_tokens_sets_the_cap(speech_index):
    folder, _ = speech_index
    db = folder / "small.sqlite"
    done = run_cli("index", str(folder / "speech.txt"), "--db", str(db), "--parent-tokens", "500")
    assert done.returncode == 0, done.stderr
    record = json.loads(run_cli("search", str(db), QUESTION, "--json").stdout)
    assert record["parents"]
    assert all(p["capped"] and p["token_count"] <= 500 for p in record["parents"])


def test_a_new_cap_is_a_new_fingerprint_so_index_does_the_document_again():
    labels = {settings_label(s, {}, cap) for s in ("markdown", "fixed") for cap in (500, 900)}
    assert len(labels) == 4


def test_cli_parent_tokens_below_one_is_one_line_and_exit_2(tmp_path):
    done = run_cli(
        "index", "data/travel_policy.md", "--db", str(tmp_path / "i.sqlite"), "--parent-tokens", "0"
    )
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode() == "chunklab: error: --parent-tokens must be at least 1\n"
    assert not (tmp_path / "i.sqlite").exists()
