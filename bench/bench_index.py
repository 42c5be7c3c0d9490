"""`make bench`, the index: what `chunklab index` and `chunklab search` cost as an index grows.

Corpora: the bench's realistic Markdown (the series' documents, shuffled copies) cut into pages
of about 20 KB, a folder of files as a team's wiki would be, at about 1k, 10k and 50k children of
`MarkdownChunker(max_tokens=200)`.

Figures (issue 16), each measured in this one run:
  - `index`, a whole process, first run: MB of Markdown per second; with `--workers 2` too;
  - a second `index` over the unchanged folder: how many times faster than the first;
  - the index file's size per MB of source;
  - warm search: `ParentChildIndex.search` + `parents_of` on an open file, median over the
    experiment's 43 questions, BM25 and hybrid; its growth from 10k to 50k children;
  - `chunklab search` in a new process (median of 5) at 1k and at 50k, and their ratio;
  - peak RSS of `chunklab search` at 50k.
Targets:
  - warm BM25 search grows less than 2x from 10k to 50k children (it grew 7.9x when every
    question loaded every child);
  - `search` in a new process at 50k within 1.5x of a new process at 1k, and well under a
    second (< 0.6 s);
  - the second `index` run at least 5x faster than the first;
  - indexing 50k children takes minutes at most (< 5 min).
`--choose` adds the measurement behind `stored_ranking`'s design: FTS5's bm25() and a saved
bm25s index against the term counts the index keeps (agreement with `BM25Retriever`, query time,
the cost of one changed document).
Exit code 1 if a target is missed.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_chunkers import peak_rss, realistic_markdown  # noqa: E402

from chunklab.retrieval.index import ParentChildIndex  # noqa: E402
from chunklab.retrieval.retrievers import BM25Retriever, DenseRetriever, HybridRetriever  # noqa: E402
from chunklab.retrieval.sqlite_store import SQLiteStore  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHILDREN_PER_MB = {"copies": 2340, "wiki": 2830}  # MarkdownChunker(200) on each corpus, measured
SIZES = {"1k": 1_000, "10k": 10_000, "50k": 50_000}
PAGE = 20_000


def questions() -> list[str]:
    import yaml

    return [
        q["question"]
        for q in yaml.safe_load((ROOT / "data/experiment.questions.yaml").read_text())["questions"]
    ]


def topic_words(text: str, topic: int) -> str:
    """The text with each word of four letters or more made the topic's own (`lodging` ->
    `lodging_t17`); short words (the, is, for, at) stay common to every page."""
    return re.sub(r"[^\W\d_]{4,}", lambda m: f"{m.group()}_t{topic}", text)


def write_pages(folder: Path, children: int, corpus: str) -> float:
    """A folder of ~20 KB Markdown pages holding about `children` children; returns its MB.

    `copies`: the chunk bench's corpus, the series' documents and shuffled copies of them. Every
    page repeats some question's topic, so the question's words gain postings in proportion to the
    index, and its best chunk one exact twin per copy (hundreds at 50k), which an exact ranking
    must score to put them in order: the worst case for an inverted index.
    `wiki`: the series' documents once, then pages written the same way about other topics (each
    run of 20 pages has its own topic words), as a team's wiki grows: a question's rare words stay
    in the few pages about it, the common words are everywhere.
    """
    text = realistic_markdown(int(children / CHILDREN_PER_MB[corpus] * 1e6))
    original = len(
        "\n\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "data").glob("*.md")))
    )
    folder.mkdir(parents=True)
    start = n = 0
    while start < len(text):
        end = text.find("\n\n", start + PAGE)
        end = len(text) if end < 0 else end
        page = text[start:end].strip() + "\n"
        if corpus == "wiki" and start >= original:
            page = topic_words(page, n // 20)
        (folder / f"page{n:05d}.md").write_text(page, encoding="utf-8")
        start, n = end, n + 1
    return sum(p.stat().st_size for p in folder.iterdir()) / 1e6


def cli(*args: str) -> float:
    """Wall seconds of one `chunklab` process."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "chunklab", *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"chunklab {' '.join(args)} failed: {done.stderr.strip()}")
    return time.perf_counter() - start


def warm_search(db: Path, retriever, asked: list[str]) -> float:
    """Median seconds of search + parents over the questions, the file open, one warm-up pass."""
    index = ParentChildIndex(store=SQLiteStore(db, read_only=True), retriever=retriever)
    for q in asked:
        index.parents_of(index.search(q, k=4), 2)
    times = []
    for q in asked:
        start = time.perf_counter()
        index.parents_of(index.search(q, k=4), 2)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def children_in(db: Path) -> int:
    return sqlite3.connect(db).execute("SELECT COUNT(*) FROM children").fetchone()[0]


def choose(db: Path, asked: list[str]) -> None:
    """FTS5 and a saved bm25s index, measured against the term counts `SQLiteStore` keeps."""
    import numpy as np

    with_fold = BM25Retriever.tokens
    rows = (
        sqlite3.connect(db)
        .execute("SELECT seq, json_extract(record, '$.text') FROM children ORDER BY seq")
        .fetchall()
    )
    print(f"\nwhy term counts ({len(rows)} children):")
    # FTS5: the same folded terms, its bm25() ranking.
    fts = sqlite3.connect(":memory:")
    fts.execute("CREATE VIRTUAL TABLE f USING fts5(terms, tokenize=\"unicode61 tokenchars '_'\")")
    start = time.perf_counter()
    fts.executemany(
        "INSERT INTO f (rowid, terms) VALUES (?, ?)", [(s, " ".join(with_fold(t))) for s, t in rows]
    )
    fts_build = time.perf_counter() - start
    memory = BM25Retriever()
    from chunklab.contracts import Chunk

    chunks = [
        Chunk(chunk_id=str(s), doc_id="d", ordinal=i, text=t, token_count=1, start=0, end=len(t))
        for i, (s, t) in enumerate(rows)
    ]
    same = 0
    times = []
    for q in asked:
        match = " OR ".join(f'"{t}"' for t in dict.fromkeys(with_fold(q)))
        start = time.perf_counter()
        got = [
            str(r[0])
            for r in fts.execute(
                "SELECT rowid FROM f WHERE f MATCH ? ORDER BY bm25(f) LIMIT 4", (match,)
            )
        ]
        times.append(time.perf_counter() - start)
        same += got == [h.ref_id for h in memory.rank(q, chunks, 4)]
    print(
        f"  FTS5 bm25():        top 4 equal to BM25Retriever's for {same}/{len(asked)} questions; "
        f"query {statistics.median(times) * 1e3:.1f} ms warm; "
        f"whole table built in {fts_build:.1f} s"
    )
    # bm25s saved: exact, but one changed document means the whole matrix again.
    import bm25s

    start = time.perf_counter()
    model = bm25s.BM25()
    model.index([with_fold(t) or ["\x00"] for _, t in rows], show_progress=False)
    rebuild = time.perf_counter() - start
    folder = Path(tempfile.mkdtemp())
    model.save(folder)
    size = sum(p.stat().st_size for p in folder.iterdir()) / 1e6
    start = time.perf_counter()
    loaded = bm25s.BM25.load(folder, mmap=True)
    load = time.perf_counter() - start
    times = []
    for q in asked:
        start = time.perf_counter()
        np.argsort(-loaded.get_scores(with_fold(q)))[:4]
        times.append(time.perf_counter() - start)
    shutil.rmtree(folder)
    print(
        f"  saved bm25s:        exact; query {statistics.median(times) * 1e3:.1f} ms warm, "
        f"load {load * 1e3:.0f} ms, "
        f"{size:.0f} MB on disk; one changed document rebuilds all: {rebuild:.1f} s"
    )
    stored = warm_search(db, BM25Retriever(), asked)
    print(
        f"  term counts (kept): exact; search + parents {stored * 1e3:.1f} ms warm; "
        f"a changed document rewrites only its own rows"
    )


def measure(work: Path, corpus: str, name: str, wanted: int, asked: list[str]) -> dict[str, float]:
    folder, db = work / f"{corpus}-{name}", work / f"{corpus}-{name}.sqlite"
    mb = write_pages(folder, wanted, corpus)
    first = cli("index", str(folder), "--db", str(db))
    again = cli("index", str(folder), "--db", str(db))
    f = {
        "mb": mb,
        "files": len(list(folder.iterdir())),
        "children": children_in(db),
        "index_s": first,
        "again": first / again,
        "db_mb": db.stat().st_size / 1e6,
    }
    if corpus == "wiki" and name == "50k":
        f["index2_s"] = cli(
            "index", str(folder), "--db", str(work / "parallel.sqlite"), "--workers", "2"
        )
    question = asked[20]
    f["warm_bm25"] = warm_search(db, BM25Retriever(), asked)
    f["warm_hybrid"] = warm_search(db, HybridRetriever(dense=DenseRetriever()), asked)
    f["process"] = statistics.median(cli("search", str(db), question) for _ in range(5))
    f["process_hybrid"] = statistics.median(
        cli("search", str(db), question, "--retriever", "hybrid") for _ in range(3)
    )
    f["rss"] = peak_rss([sys.executable, "-m", "chunklab", "search", str(db), question])
    shutil.rmtree(folder)
    print(
        f"{corpus} {name}: {f['children']} children from {mb:.1f} MB in {f['files']} files",
        flush=True,
    )
    return f


def main() -> int:
    asked = questions()
    work = Path(tempfile.mkdtemp(prefix="chunklab-bench-index-"))
    figures: dict[tuple[str, str], dict[str, float]] = {}
    try:
        for corpus in ("wiki", "copies"):
            for name, wanted in SIZES.items():
                figures[corpus, name] = measure(work, corpus, name, wanted, asked)
        if "--choose" in sys.argv:
            choose(work / "copies-50k.sqlite", asked)
            choose(work / "wiki-10k.sqlite", asked)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(
        f"\n{'':>11} {'children':>9} {'index MB/s':>10} {'2nd run':>8} {'db MB/MB':>8} "
        f"{'warm bm25':>10} {'warm hybrid':>11} {'new process':>11} {'hybrid':>7} {'RSS MB':>7}"
    )
    for (corpus, name), f in figures.items():
        print(
            f"{corpus + ' ' + name:>11} {f['children']:>9} {f['mb'] / f['index_s']:>10.2f} "
            f"{f['again']:>7.1f}x {f['db_mb'] / f['mb']:>8.1f} {f['warm_bm25'] * 1e3:>8.1f}ms "
            f"{f['warm_hybrid'] * 1e3:>9.1f}ms "
            f"{f['process']:>10.2f}s {f['process_hybrid']:>6.2f}s {f['rss']:>7.0f}"
        )
    wiki = {name: figures["wiki", name] for name in SIZES}
    copies = {name: figures["copies", name] for name in SIZES}
    big = wiki["50k"]
    print(
        f"\nindexing the wiki's 50k with --workers 2: {big['mb'] / big['index2_s']:.2f} MB/s "
        f"({big['index_s'] / big['index2_s']:.2f}x one process)"
    )
    print(
        f"copies (every page repeats a question's topic): warm BM25 grows "
        f"{copies['50k']['warm_bm25'] / copies['10k']['warm_bm25']:.2f}x from 10k to 50k; "
        "see `write_pages`"
    )
    checks = [  # (what, measured, bound, passes)
        (
            "warm BM25 search on the wiki, time(50k) / time(10k) < 2",
            big["warm_bm25"] / wiki["10k"]["warm_bm25"],
            2.0,
        ),
        (
            "search in a new process on the wiki, time(50k) / time(1k) <= 1.5",
            big["process"] / wiki["1k"]["process"],
            1.5,
        ),
        ("search in a new process at 50k, seconds < 0.6", big["process"], 0.6),
        ("search in a new process at 50k copies, seconds < 0.6", copies["50k"]["process"], 0.6),
        (
            "second index run over the unchanged 50k, time(2nd) / time(1st) <= 0.2 (5x faster)",
            1 / big["again"],
            0.2,
        ),
        ("indexing the wiki's 50k children, minutes < 5", big["index_s"] / 60, 5.0),
    ]
    print()
    failed = 0
    for label, value, bound in checks:
        ok = value <= bound
        failed += not ok
        print(f"{'ok  ' if ok else 'MISS'} {label}: {value:.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
