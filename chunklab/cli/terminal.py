"""What the commands say on stderr besides their output: a warning, a progress bar, and
`Interrupted`, the one line Ctrl-C ends with (exit code 130, as a shell reports SIGINT).

Both know whether stderr is a terminal: the bar is drawn only there, and a warning clears it first.
"""

from __future__ import annotations

import sys

INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for a command stopped by Ctrl-C


class Interrupted(Exception):
    """Ctrl-C, caught by a command that can say what it had finished; its message is one line."""


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
    """One line on stderr, `chunklab: ` first (a progress bar on the line is cleared)."""
    if sys.stderr.isatty():
        print("\r\033[K", end="", file=sys.stderr)  # clear a progress bar first
    print(f"chunklab: {message}", file=sys.stderr)
