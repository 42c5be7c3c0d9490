"""What the commands say on stderr besides their output: a warning, a progress bar, what an
embedder left unread (`warn_cut`), and `Interrupted`, the one line Ctrl-C ends with (exit code
130, as a shell reports SIGINT).

Both know whether stderr is a terminal: the bar is drawn only there, and a warning clears it first.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from chunklab.embeddings.minilm import Cut

INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for a command stopped by Ctrl-C


class Interrupted(Exception):
    """Ctrl-C, caught by a command that can say what it had finished; its message is one line."""


@contextmanager
def ctrl_c_after() -> Iterator[None]:
    """Ctrl-C inside the block takes effect when the block ends, not in the middle of it.

    For a step and its bookkeeping that must happen together: `index` commits a document and
    counts it, and a Ctrl-C between the two made the one line say 26 documents done while the
    file held 27. Outside the main thread (where no signal handler can be set) it changes nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def progress(done: int, total: int, name: str) -> None:
    """A one-line progress bar on stderr, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        return
    width = 30
    filled = width * done // max(1, total)
    end = "\n" if done == total else ""
    print(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {name[:40]:<40}",
        end=end,
        file=sys.stderr,
    )


def warn(message: str) -> None:
    """One line on stderr, starting `chunklab:` (a progress bar on the line is cleared)."""
    if sys.stderr.isatty():
        print("\r\033[K", end="", file=sys.stderr)  # clear a progress bar first
    print(f"chunklab: {message}", file=sys.stderr)


def add_cuts(cuts: Iterable[Cut | None]) -> Cut:
    """Counts of several calls (documents, or Dask workers' partitions) added up."""
    total = Cut(0, 0, 0, 0)
    for cut in cuts:
        if cut is not None:
            total = Cut(*(a + b for a, b in zip(total, cut, strict=True)))
    return total


def warn_cut(cut: Cut, embedder: str, max_tokens: int, remedy: str) -> None:
    """One line when the embedder read only the start of some chunks: how many, how many words of
    them no vector holds, and `remedy` (the flags that cut chunks it reads whole). Nothing when
    every chunk was read whole. A chunk found only by its tail is not found at all, so this is
    said even though the run succeeded."""
    if cut.truncated:
        warn(
            f"warning: {cut.truncated:,} of {cut.texts:,} chunks are longer than {embedder} reads "
            f"({max_tokens} word pieces); {cut.words_dropped:,} words of them are not in their "
            f"vectors ({remedy})"
        )
