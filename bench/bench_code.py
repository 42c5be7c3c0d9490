"""`make bench`, code: what CodeChunker costs against one tiktoken pass and against the frameworks'
code splitters, how its time grows, and how often each splitter cuts a function in two.

The corpus is chunklab's own package (`chunklab/**/*.py`, read at run time): real Python, with
docstrings, decorators, nested classes and long functions. Every figure is measured in this one
run and only ratios are judged, because the machines are shared and noisy (interleaved rounds,
the best of each; CPU time counts every thread of the process, the encoder's included).

Budget: 200 cl100k tokens for every splitter (see `chunklab/teaching/code_peers.py` for how each
peer is held to it). Targets:
  - CodeChunker over the corpus <= 10x one tiktoken encode of the same files (wall);
  - growth: the corpus as one file, then that file four times: time(4n) / time(n) <= 4.6 (CPU;
    linear is 4.0, with room for noise, as in bench_pathological.py);
  - a 10 MB source tree (the corpus copied) indexed with `chunklab index DIR --strategy code`,
    timed; if `chunklab index` does not read .py files, that is said and CodeChunker.split over
    the tree's files is timed instead.
Not judged, printed: each peer's time against one encode and against CodeChunker, and per
splitter the corpus's functions and classes (Python `ast`, decorators included) that fit the
budget whole and were cut across chunks.
Exit code 1 if a target is missed.
"""

from __future__ import annotations

import ast
import bisect
import cProfile
import gc
import io
import math
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from chunklab import Document
from chunklab.chunkers.code import CodeChunker
from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.teaching.code_peers import (
    Located,
    cl100k_count,
    cl100k_encoding,
    peer_spans,
    peer_splitters,
)

ROOT = Path(__file__).resolve().parent.parent
BUDGET = 200
RATIO_TO_ENCODE = 10.0
GROWTH = 4.6
TREE_BYTES = 10_000_000
MB = 1_000_000

Span = tuple[int, int]


def corpus() -> dict[str, str]:
    """chunklab's own Python files, relative path -> text."""
    return {
        path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted((ROOT / "chunklab").rglob("*.py"))
    }


def document(name: str, text: str) -> Document:
    return Document(doc_id="bench", uri=name, title=name, text=text)


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall, CPU of every thread) seconds of one call, the collector off."""
    gc.collect()
    gc.disable()
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        return time.perf_counter() - wall, time.process_time() - cpu
    finally:
        gc.enable()


def interleaved(jobs: dict[str, Callable[[], object]], rounds: int) -> dict[str, tuple[float, ...]]:
    """Best wall and best CPU of each job over rounds that run every job once in turn."""
    best = {name: (math.inf, math.inf) for name in jobs}
    for _ in range(rounds):
        for name, job in jobs.items():
            wall, cpu = timed(job)
            best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
    return best


# --- functions cut across chunks -----------------------------------------------------------------


def definitions(text: str) -> list[Span]:
    """Character spans of every function and class (nested ones too), decorators included.

    `ast` gives lines (1-based) and UTF-8 byte columns; a decorator's position is its expression's,
    after the `@`."""
    lines = io.StringIO(text, newline="").readlines()
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def char(line: int, byte_col: int) -> int:
        return starts[line - 1] + len(lines[line - 1].encode("utf-8")[:byte_col].decode("utf-8"))

    spans = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            start = char(node.lineno, node.col_offset)
            if node.decorator_list:
                first = node.decorator_list[0]
                expression = char(first.lineno, first.col_offset)
                start = text.rfind("@", starts[first.lineno - 1], expression)
            assert node.end_lineno is not None and node.end_col_offset is not None
            spans.append((start, char(node.end_lineno, node.end_col_offset)))
    return spans


def cut_definitions(definition_spans: list[Span], chunk_spans: list[Span]) -> list[Span]:
    """The definitions that lie in no single chunk. Chunk spans are sorted and do not overlap (no
    splitter here overlaps), so the only chunk that can hold a definition is the last one that
    starts at or before it."""
    chunk_spans = sorted(chunk_spans)
    firsts = [a for a, _ in chunk_spans]
    cut = []
    for start, end in definition_spans:
        k = bisect.bisect_right(firsts, start) - 1
        if k < 0 or chunk_spans[k][1] < end:
            cut.append((start, end))
    return cut


def chunklab_spans(chunker: CodeChunker | FixedSizeChunker, name: str, text: str) -> Located:
    chunks = chunker.split(document(name, text))
    marked = sum(bool(c.metadata.get("over_budget")) for c in chunks)
    return Located([(c.start, c.end) for c in chunks], 0, len(chunks), marked)


def cuts_table(files: dict[str, str], splitters: dict[str, Callable[[str, str], Located]]) -> None:
    """Per splitter: its chunks' sizes, and the definitions that fit the budget alone but that it
    cut across chunks (how many, and how many tokens they take alone, smallest to largest)."""
    every = {name: definitions(text) for name, text in files.items()}
    fitting = {
        name: [(a, b) for a, b in spans if cl100k_count(files[name][a:b]) <= BUDGET]
        for name, spans in every.items()
    }
    total = sum(len(spans) for spans in every.values())
    fit = sum(len(spans) for spans in fitting.values())
    print(
        f"\nfunctions and classes cut across chunks, budget {BUDGET}: {total} definitions in "
        f"{len(files)} files, {fit} of them fit the budget alone"
    )
    print(
        f"{'splitter':34} {'chunks':>6} {'median':>6} {'max':>5} {'over':>5} {'lost':>4} "
        f"{'cut':>4} {'cut %':>6} {'cut ones, tokens':>16}"
    )
    for label, split in splitters.items():
        chunks = lost = marked = 0
        sizes: list[int] = []
        cut: list[int] = []  # the tokens of each definition cut, alone
        for name, text in files.items():
            located = split(name, text)
            chunks += located.chunks
            lost += located.unlocated
            marked += located.marked_over_budget
            sizes += [cl100k_count(text[a:b]) for a, b in located.spans]
            cut += [
                cl100k_count(text[a:b]) for a, b in cut_definitions(fitting[name], located.spans)
            ]
        sizes.sort()
        over = sum(size > BUDGET for size in sizes)
        over_text = f"{over}" + (f" ({marked} marked)" if marked else "")
        cut_range = f"{min(cut)}-{max(cut)}" if cut else "-"
        print(
            f"{label:34} {chunks:6d} {sizes[len(sizes) // 2]:6d} {sizes[-1]:5d} {over:5d} "
            f"{lost:4d} {len(cut):4d} {len(cut) / fit:6.1%} {cut_range:>16}"
            + (f"   over budget: {over_text}" if marked else "")
        )
    print(
        "  median/max/over: cl100k tokens of each chunk's span of the source (CodeChunker's\n"
        "  breadcrumb, which heads its chunk text and counts in its budget, not included);\n"
        "  marked: chunks the splitter itself marks over_budget (a docstring or comment too long\n"
        "  alone, never cut); lost: chunks not found in the source"
    )


def why_code_chunker_cuts(files: dict[str, str], chunker: CodeChunker) -> None:
    """Whether each definition CodeChunker cuts would fit with its breadcrumb: a chunk's text is
    its scope path, a blank line, then its span, all within the budget, so a definition that fits
    alone can be a few tokens too big under its path. The breadcrumb's cost is read off the
    chunk that starts the definition (its token count less its span's)."""
    cut = with_crumb = 0
    for name, text in files.items():
        chunks = chunker.split(document(name, text))
        spans = [(c.start, c.end) for c in chunks]
        fitting = [(a, b) for a, b in definitions(text) if cl100k_count(text[a:b]) <= BUDGET]
        for start, end in cut_definitions(fitting, spans):
            cut += 1
            first = max((c for c in chunks if c.start <= start), key=lambda c: c.start)
            crumb = first.token_count - cl100k_count(text[first.start : first.end])
            with_crumb += cl100k_count(text[start:end]) + crumb > BUDGET
    if cut:
        print(
            f"CodeChunker: {with_crumb} of the {cut} definitions it cuts fit the budget alone "
            "but not under the breadcrumb (scope path) that heads their chunk"
        )


# --- where the time goes -------------------------------------------------------------------------


def where_time_goes(files: dict[str, str], top: int = 8) -> None:
    profile = cProfile.Profile()
    chunker = CodeChunker(max_tokens=BUDGET)
    docs = [document(name, text) for name, text in files.items()]
    profile.runcall(lambda: [chunker.split(d) for d in docs])
    stats = pstats.Stats(profile)
    own_total = sum(row[2] for row in stats.stats.values())  # type: ignore[attr-defined]
    rows = sorted(stats.stats.items(), key=lambda item: -item[1][2])[:top]  # type: ignore[attr-defined]
    print("\nwhere CodeChunker's time goes (cProfile, own time, main thread):")
    for (path, line, function), (_, calls, own, _, _) in rows:
        where = f"{Path(path).name}:{line} {function}" if line else function
        print(f"  {own / own_total:6.1%}  {calls:9d} calls  {where[:70]}")


# --- the 10 MB tree ------------------------------------------------------------------------------


def source_tree(folder: Path, files: dict[str, str]) -> tuple[int, int]:
    """The corpus copied into `folder` until it holds TREE_BYTES; (files, bytes)."""
    size = sum(len(t.encode("utf-8")) for t in files.values())
    copies = math.ceil(TREE_BYTES / size)
    for k in range(copies):
        for name, text in files.items():
            path = folder / f"copy{k:02d}" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    return copies * len(files), copies * size


def index_tree(checks: list[tuple[str, float, float]]) -> None:
    with tempfile.TemporaryDirectory() as work:
        tree = Path(work) / "src"
        n_files, n_bytes = source_tree(tree, corpus())
        print(f"\na source tree: {n_files} .py files, {n_bytes / MB:.1f} MB (the corpus copied)")
        cli = str(Path(sys.executable).parent / "chunklab")
        argv = [
            cli,
            "index",
            str(tree),
            "--db",
            str(Path(work) / "code.sqlite"),
            "--strategy",
            "code",
        ]
        wall = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True)
        wall = time.perf_counter() - wall
        said = (done.stderr.strip() or done.stdout.strip()).splitlines()
        if done.returncode == 0:
            print(
                f"chunklab index SRC --strategy code: {wall:.1f} s wall, "
                f"{n_bytes / MB / wall:.2f} MB/s"
            )
            for line in done.stdout.strip().splitlines()[-3:]:
                print(f"  {line}")
        else:
            print(
                f"chunklab index SRC --strategy code: exit code {done.returncode}, "
                f"{said[-1] if said else 'nothing said'}"
            )
            print(
                "  (it does not read .py files yet: CodeChunker.split over the tree's files "
                "instead)"
            )
        paths = sorted(tree.rglob("*.py"))
        chunker = CodeChunker(max_tokens=BUDGET)
        encoding = cl100k_encoding()

        def split_all() -> None:
            for path in paths:
                chunker.split(document(path.name, path.read_text(encoding="utf-8")))

        def encode_all() -> None:
            for path in paths:
                encoding.encode_ordinary(path.read_text(encoding="utf-8"))

        best = interleaved({"encode": encode_all, "split": split_all}, rounds=2)
        ratio = best["split"][0] / best["encode"][0]
        print(
            f"read + CodeChunker.split, every file: {best['split'][0]:.1f} s wall "
            f"({n_bytes / MB / best['split'][0]:.2f} MB/s), {ratio:.2f}x read + one encode "
            f"({best['encode'][0]:.1f} s)"
        )
        checks.append(
            (
                f"10 MB tree: CodeChunker <= {RATIO_TO_ENCODE:g}x one encode (wall)",
                ratio,
                RATIO_TO_ENCODE,
            )
        )


def main() -> int:
    files = corpus()
    size = sum(len(t) for t in files.values())
    docs = [document(name, text) for name, text in files.items()]
    joined = "\n\n".join(files.values())
    encoding = cl100k_encoding()
    print(
        f"corpus: chunklab/**/*.py, {len(files)} files, {size / MB:.2f} M characters, "
        f"{cl100k_count(joined) / len(joined):.3f} cl100k tokens per character; budget {BUDGET}"
    )
    print("(the machine is shared with other work: absolute times are noisy, ratios are judged)")
    checks: list[tuple[str, float, float]] = []

    chunker = CodeChunker(max_tokens=BUDGET)
    chunker.split(docs[0])  # load the grammar
    peers = peer_splitters(BUDGET, joined)
    jobs: dict[str, Callable[[], object]] = {
        "one tiktoken encode": lambda: [encoding.encode_ordinary(t) for t in files.values()],
        "CodeChunker": lambda: [chunker.split(d) for d in docs],
    }
    not_run = {}
    for name, split in peers.items():
        if isinstance(split, str):
            not_run[name] = split
        else:
            jobs[name] = lambda split=split: [split(t) for t in files.values()]
    best = interleaved(jobs, rounds=3)
    ew, ec = best["one tiktoken encode"]
    cw = best["CodeChunker"][0]
    print(
        f"\n{'speed over the corpus, file by file':34} {'wall s':>7} {'x encode':>9} "
        f"{'CPU x':>7} {'x CodeChunker':>14}"
    )
    for name, (wall, cpu) in best.items():
        print(f"{name:34} {wall:7.3f} {wall / ew:9.2f} {cpu / ec:7.2f} {wall / cw:14.2f}")
    for name, reason in not_run.items():
        print(f"{name:34} not run: {reason}")
    print("  (x CodeChunker: that row's wall time over CodeChunker's)")
    to_encode = cw / ew
    checks.append(
        (f"CodeChunker <= {RATIO_TO_ENCODE:g}x one encode (wall)", to_encode, RATIO_TO_ENCODE)
    )
    if to_encode > RATIO_TO_ENCODE:
        where_time_goes(files)

    small, large = document("corpus.py", joined), document("corpus.py", "\n\n".join([joined] * 4))
    chunker.split(large)
    walls, cpus = [], []
    for _ in range(3):
        w_small, c_small = timed(lambda: chunker.split(small))
        w_large, c_large = timed(lambda: chunker.split(large))
        walls.append(w_large / w_small)
        cpus.append(c_large / c_small)
    wall_x, cpu_x = statistics.median(walls), statistics.median(cpus)
    print(
        f"\ngrowth: the corpus as one file (n = {len(joined):,} characters), then four times: "
        f"time(4n) / time(n) = {wall_x:.2f} wall, {cpu_x:.2f} CPU (median of 3 pairs)"
    )
    checks.append((f"CodeChunker growth n -> 4n <= {GROWTH} (CPU)", cpu_x, GROWTH))

    splitters: dict[str, Callable[[str, str], Located]] = {
        "CodeChunker": lambda name, text: chunklab_spans(chunker, name, text),
        "fixed (tokens, no overlap)": lambda name, text: chunklab_spans(
            FixedSizeChunker(size=BUDGET, overlap=0, unit="tokens"), name, text
        ),
    }
    for name, split in peers.items():
        if not isinstance(split, str):
            splitters[name] = lambda _, text, split=split: peer_spans(split, text)
    cuts_table(files, splitters)
    for name in not_run:
        print(f"{name:34} not run (see above)")
    why_code_chunker_cuts(files, chunker)

    index_tree(checks)

    print()
    failed = 0
    for label, value, limit in checks:
        ok = value <= limit
        failed += not ok
        print(f"{'ok  ' if ok else 'MISS'} {label}: {value:.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
