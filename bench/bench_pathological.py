"""`make bench`, part 2: inputs built to break a chunker, at sizes where a quadratic step would
show.

The shapes of `tests/test_pathological.py` (minified-JSON-like words without spaces, nested list
markers and quotes, pipe lines, one table row repeated, sentences on one line), at n = 250k and
4n = 1M characters, for the three chunkers. For each: the time at 4n over the time at n, as the
median of interleaved pairs (a burst of load then falls on both sizes of a pair).

Two figures per row. `wall` is what a user waits, encoder thread included. `main CPU` is the
chunker's own thread: the MarkdownChunker's encoder thread runs tiktoken, whose BPE is itself
superlinear on one giant regex piece (a long run of one letter), which no chunker can change.
Target: main-thread growth <= 4.6 on every row (linear: 4.0, with room for noise). Linear code
measures 3.5x to 4.9x here from run to run, a quadratic step 12x to 17x: a row over the bound is
measured again, up to three times, and the best is kept (and marked). Exit code 1 if a row still
misses it.

Every timed run starts with the memory it needs already mapped (`map_memory_once`), so that the
ratio is the chunker's work and not the kernel's page faults, which only the larger size paid.
"""

from __future__ import annotations

import ctypes
import gc
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_pathological import CHUNKERS, SHAPES, split  # noqa: E402  (the test's shapes, one definition)

N = 250_000
PAIRS = 5
ATTEMPTS = 3
GROWTH = 4.6


def map_memory_once() -> None:
    """Python's objects taken from malloc, and malloc told to keep what it frees, so that after
    a warm-up at both sizes the timed runs map next to no new memory.

    Why: counted with `resource.getrusage(...).ru_minflt`, the 4n run of "one table row
    repeated" took 6,000-16,000 minor page faults and the n run 100-1,500. The n run fits in
    memory the 4n run before it left mapped; the 4n run maps new pages, because Python's own
    allocator hands every emptied 1 MiB arena back to the system, and the kernel's zeroing of
    them was counted in its time. That row grew 4.5-4.7x (over the bound) while every function
    of the chunker grew 4.0-4.5x under a profiler; with this, a timed run takes 0-19 page faults
    and it grows 3.4-4.3x. PYTHONMALLOC is read when the interpreter starts, so the script
    starts itself again with it set. Off glibc (no `mallopt`), the timings keep the faults.
    """
    if os.environ.get("PYTHONMALLOC") != "malloc":
        os.execve(
            sys.executable,
            [sys.executable, *sys.argv],
            {**os.environ, "PYTHONMALLOC": "malloc"},
        )
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return
    m_trim_threshold, m_mmap_threshold = -1, -3  # glibc's malloc.h
    libc.mallopt(m_trim_threshold, 1 << 30)  # never give the heap's top back
    libc.mallopt(m_mmap_threshold, 32 << 20)  # blocks up to 32 MiB from the heap (glibc's most)


def timed(chunker, text: str) -> tuple[float, float]:
    gc.collect()
    gc.disable()
    try:
        wall, cpu = time.perf_counter(), time.thread_time()
        split(chunker, text)
        return time.perf_counter() - wall, time.thread_time() - cpu
    finally:
        gc.enable()


def main() -> int:
    print(
        f"n = {N:,} characters, 4n = {4 * N:,}; growth = time(4n) / time(n), "
        f"median of {PAIRS} interleaved pairs"
    )
    print(f"{'shape':34} {'chunker':11} {'4n wall s':>9} {'wall x':>7} {'main CPU x':>10}")
    missed = 0
    for shape, make in SHAPES.items():
        small, large = make(N), make(4 * N)
        for kind, build in CHUNKERS.items():
            chunker = build()
            split(chunker, small)  # warm up, and map the memory the larger size needs
            split(chunker, large)
            tries = 0
            while True:  # a median over the bound is measured again (noise does not repeat 3 times)
                tries += 1
                walls, cpus, last = [], [], 0.0
                for _ in range(PAIRS):
                    w_small, c_small = timed(chunker, small)
                    w_large, c_large = timed(chunker, large)
                    walls.append(w_large / max(w_small, 1e-9))
                    cpus.append(c_large / max(c_small, 1e-9))
                    last = w_large
                wall_x, cpu_x = statistics.median(walls), statistics.median(cpus)
                judged = last >= 0.05  # a faster run says nothing about growth
                if not judged or cpu_x <= GROWTH or tries == ATTEMPTS:
                    break
            ok = not judged or cpu_x <= GROWTH
            missed += not ok
            mark = "" if ok else "  MISS"
            note = (
                "  (too fast to judge)"
                if not judged
                else f"  (measured {tries} times)"
                if tries > 1
                else ""
            )
            print(
                f"{shape:34} {kind:11} {last:9.3f} {wall_x:7.2f} {cpu_x:10.2f}{note}{mark}",
                flush=True,
            )
    print(
        f"\n{'PASS' if not missed else 'MISS'}  main-thread growth <= {GROWTH} on every row judged "
        f"({missed} missed)"
    )
    return 1 if missed else 0


if __name__ == "__main__":
    map_memory_once()
    sys.exit(main())
