"""What the commands say on stderr besides their output: a warning, a progress bar, what an
embedder left unread (`warn_cut`), and `Interrupted`, the one line Ctrl-C ends with (exit code
130, as a shell reports SIGINT). SIGTERM, what `kill`, a CI runner's timeout, systemd and
`docker stop` send, is handled as Ctrl-C is (`sigterm_as_ctrl_c`): the same one line, exit code
143; until issue 39 it ended `index` mid-document with no word.

Both know whether stderr is a terminal: the bar is drawn only there, and a warning clears it first.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from chunklab.documents.files import FoundDocuments
from chunklab.embeddings.minilm import Cut

INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for a command stopped by Ctrl-C
TERMINATED = 143  # 128 + SIGTERM


class Interrupted(Exception):
    """Ctrl-C or SIGTERM, caught by a command that can say what it had finished; its message is
    one line, `exit_code` the signal's (`exit_code_of`)."""

    def __init__(self, message: str, exit_code: int = INTERRUPTED) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is, as Ctrl-C raises `KeyboardInterrupt`: a subclass, so
    every step that ends cleanly on Ctrl-C (a transaction rolled back, a line said) does so on
    SIGTERM too, with no second path to keep right."""


def exit_code_of(stop: KeyboardInterrupt) -> int:
    """143 for SIGTERM, 130 for Ctrl-C."""
    return TERMINATED if isinstance(stop, Terminated) else INTERRUPTED


def stopped_by(stop: KeyboardInterrupt) -> str:
    """How the closing line starts: "interrupted" (Ctrl-C) or "terminated (SIGTERM)"."""
    return "terminated (SIGTERM)" if isinstance(stop, Terminated) else "interrupted"


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated


@contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """SIGTERM inside the block raises `Terminated`, as Ctrl-C raises `KeyboardInterrupt`. Python
    leaves SIGTERM to the system, which ends the process on the spot: no line, and a document
    half-read. Outside the main thread (where no signal handler can be set) it changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def ctrl_c_after() -> Iterator[None]:
    """Ctrl-C (or SIGTERM) inside the block takes effect when the block ends, not in the middle
    of it.

    For a step and its bookkeeping that must happen together: `index` commits a document and
    counts it, and a Ctrl-C between the two made the one line say 26 documents done while the
    file held 27. Outside the main thread (where no signal handler can be set) it changes nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def later(signum: int, frame: object) -> None:
        caught.append(signum)

    previous = {number: signal.signal(number, later) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if signal.SIGTERM in caught:
        raise Terminated
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


def say_passed_over(
    found: FoundDocuments,
    what: str,
    links: str = "not followed",
    hint: str = "",
    kind: str = "a document type chunklab reads",
) -> None:
    """The files below the folders given that were not read, on one line per reason (`what`:
    "not indexed", "not chunked"): counted by type, hidden ones, and links out of the folder
    (`links`: what would follow them). `kind`: what the files read are; `hint`: the flag that
    reads some of the others (`cli.source_files.passed_over_hint`)."""
    passed_over = [f"{n} {suffix or '(no extension)'}" for suffix, n in found.other_types.items()]
    if found.hidden:
        passed_over.append(f"{found.hidden} hidden")
    if passed_over:
        count = sum(found.other_types.values()) + found.hidden
        warn(
            f"{what} (not {kind}): {count} files: {', '.join(passed_over)}"
            + (f"; {hint}" if hint else "")
        )
    if found.outside:
        warn(f"{what}: {found.outside} link(s) to files outside the folder ({links})")


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
