"""Inputs built to break a chunker: no hang, no crash, nothing lost, time linear in the input.

Each shape is a real kind of file (minified JSON and base64 have no spaces, logs repeat one
token, a generated list nests a marker per level) taken to a size where a quadratic step shows:
the same shape at n and at 4n, timed in this one process, must not grow as a quadratic step does.
Linear code measures 3.5x to 5x here (allocation, caches and load on a shared machine), a quadratic
step 12x to 17x: the bound of 8x sits between them on a log scale (the geometric mean of 4 and 16),
so the test fails on the bug it guards against and not on a busy machine. The speed target itself,
4.6x on larger sizes, is `make bench`'s (bench/bench_pathological.py), as speed targets are.

Two depths: `make growth` checks n = 20,000 with 3 pairs per measurement; `make bench` (and any run
with CHUNKLAB_DEEP=1) checks n = 40,000 with 5 pairs. Every shape and chunker is checked at both
depths; the quadratic step below is measured at 20,000 -> 80,000 in both, so the bound is shown
to fail on it at the sizes the growth checks time. The timed tests are marked `timed`: they run
in a serial pytest call of their own, never beside a parallel worker, as `make growth` (CI runs it
right after `make test`; speed and growth are measured outside `make test`, as the project's
speed targets are). Nothing lost and the size kept are checked by `make test` on every shape and
chunker at 4n, untimed.
"""

import gc
import os
import statistics
import time

import pytest

from chunklab import Document, MarkdownChunker, StructuralChunker
from chunklab.chunkers.tables import LinearizedChunker, find_tables

SHAPES = {  # name -> text of about n characters
    "one word, no spaces": lambda n: "a" * n + "\n",
    "'Word.' repeated": lambda n: "Word." * (n // 5) + "\n",
    "'[' repeated": lambda n: "[" * n + "\n",
    "nested bullets": lambda n: "- " * (n // 2) + "x\n",
    "nested numbers": lambda n: "1. " * (n // 3) + "x\n",
    "nested quotes, then a lazy line": lambda n: "> " * (n // 2) + "x\nlazy\n",
    "a thematic break of markers": lambda n: "- " * (n // 2) + "\n",
    "pipe lines": lambda n: "|\n" * (n // 2),
    "one table row repeated": lambda n: "| a | b |\n|---|---|\n" + "| x | y |\n" * (n // 10),
    "sentences on one line": lambda n: "The cat sat on the mat. " * (n // 24) + "\n",
}
CHUNKERS = {
    "markdown": lambda: MarkdownChunker(max_tokens=200),
    "structural": lambda: StructuralChunker(size=200, repack=True),
    "linearized": lambda: LinearizedChunker(size=200),
}
# Where each chunker had a quadratic path (the scanner and the packing for markdown; spans and the
# long line for linearized; the long line for structural), its time is checked on that shape.
# Every chunker is checked on every shape for lost text.
TIMED = {
    "markdown": set(SHAPES),
    "linearized": {
        "one word, no spaces",
        "pipe lines",
        "one table row repeated",
        "sentences on one line",
    },
    "structural": {"one word, no spaces", "sentences on one line"},
}
DEEP = os.environ.get("CHUNKLAB_DEEP") == "1"
N = 40_000 if DEEP else 20_000
PAIRS = 5 if DEEP else 3  # interleaved (small, large) pairs per measured median
GROWTH = 8.0  # not quadratic: linear is 4, a quadratic step 16 (see the module docstring)
NOISE = 0.08  # seconds: a shorter run at 4n says nothing about growth


def split(chunker, text):
    return chunker.split(Document(doc_id="p", uri="urn:p", title="", text=text))


def timed_split(chunker, text):
    """The chunks of one split and its CPU seconds in this thread, with the cyclic garbage
    collector off: the growth of chunklab's own work, not of the collector. The MarkdownChunker's
    encoder thread is left out: it runs tiktoken, whose BPE is itself superlinear on one giant
    regex piece (a run of one letter: 5.6x the time for 4x the length), a cost outside this code;
    `make bench` times whole processes."""
    gc.collect()
    gc.disable()
    try:
        start = time.thread_time()
        chunks = split(chunker, text)
        return chunks, time.thread_time() - start
    finally:
        gc.enable()


def cpu_time(chunker, text):
    return timed_split(chunker, text)[1]


def growth(chunker, small, large, pairs=PAIRS, attempts=3):
    """Median over interleaved pairs of time(large) / time(small): a burst of load on a shared
    machine then falls on both sizes of a pair, and one bad pair does not decide.

    A median over the bound is measured again, up to `attempts` times, and the best is judged.
    Noise does not repeat three times in a row; a quadratic step does.
    """
    best = float("inf")
    for _ in range(attempts):
        ratio = statistics.median(
            cpu_time(chunker, large) / max(cpu_time(chunker, small), 1e-9) for _ in range(pairs)
        )
        best = min(best, ratio)
        if best <= GROWTH:
            break
    return best


def assert_nothing_lost(chunks, text, kind):
    headers = {t.header for t in find_tables(text)}
    covered = bytearray(len(text))
    for c in chunks:
        assert 0 <= c.start <= c.end <= len(text)
        covered[c.start : c.end] = b"\x01" * (c.end - c.start)
        source = text[c.start : c.end]
        if kind == "structural":
            assert c.text == source
        elif kind == "markdown":
            assert " ".join(source.split()) in " ".join(c.text.split())
        else:  # linearized: every line of the chunk that is not a repeated header is in its span
            assert all(
                line in source
                for line in c.text.split("\n")
                if line.strip() and line not in headers
            )
    lost = [i for i, ch in enumerate(text) if not ch.isspace() and not covered[i]]
    assert not lost, f"{len(lost)} characters in no chunk's span, first at {lost[0]}"


def assert_size_kept(chunks, kind):
    if kind != "markdown":
        assert all(len(c.text) <= 200 for c in chunks), "size is a promise"
    else:
        assert all(c.token_count <= 200 for c in chunks)


@pytest.mark.parametrize("kind", list(CHUNKERS))
@pytest.mark.parametrize("shape", list(SHAPES))
def test_nothing_is_lost_and_the_size_is_kept(shape, kind):
    """Part of `make test`: every chunker on every shape at 4n, no character in no chunk."""
    large = SHAPES[shape](4 * N)
    chunks = split(CHUNKERS[kind](), large)
    assert_nothing_lost(chunks, large, kind)
    assert_size_kept(chunks, kind)


@pytest.mark.timed
@pytest.mark.usefixtures("frozen_heap")
@pytest.mark.parametrize(
    "shape, kind", [(shape, kind) for kind in CHUNKERS for shape in SHAPES if shape in TIMED[kind]]
)
def test_time_grows_linearly(shape, kind):
    """`make growth` (run by CI beside `make test`, and by `make bench` at the deeper size)."""
    chunker = CHUNKERS[kind]()
    small, large = SHAPES[shape](N), SHAPES[shape](4 * N)
    _, seconds = timed_split(chunker, large)
    if seconds < NOISE:
        return  # fast at 4n: timer noise would say nothing about growth
    ratio = growth(chunker, small, large)
    assert ratio <= GROWTH, f"time grows {ratio:.2f}x from n to 4n"


@pytest.mark.timed
@pytest.mark.usefixtures("frozen_heap")
def test_the_growth_check_fails_on_a_quadratic_step():
    """The bound must catch the bug it guards against: a split that inserts each line at the front
    of a list (a quadratic step, as the old scanner's was) measures far above it."""

    class FrontInserting:
        def split(self, doc):
            lines: list[str] = []
            for line in doc.text.split("\n"):
                lines.insert(0, line)
            return lines

    # 20,000 -> 80,000 characters at both depths: the sizes `make growth` times every shape at.
    small, large = SHAPES["pipe lines"](20_000), SHAPES["pipe lines"](80_000)
    assert growth(FrontInserting(), small, large, attempts=1) > GROWTH
