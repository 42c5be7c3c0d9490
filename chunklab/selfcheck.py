"""Self-check for the notebooks' exercises: `check("01.1", answer)` says whether you got it.

Each expected answer is computed here from the library when you ask, never typed in, so an
exercise stays right when the data or the code changes. Reading this file gives the solutions
away: try first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chunklab.data import load_document
from chunklab.fixed import FixedSizeChunker
from chunklab.metrics import chunks_with_all, split_lines


def _smallest_overlap_keeping_lines() -> int:
    doc = load_document("manual")
    for overlap in range(0, 200, 10):
        if not split_lines(FixedSizeChunker(size=200, overlap=overlap).split(doc), doc):
            return overlap
    raise AssertionError("no overlap below 200 keeps every line whole")


def _token_window_counts() -> tuple[int, int]:
    chunker = FixedSizeChunker(size=50, overlap=0, unit="tokens")
    return tuple(len(chunker.split(load_document(name))) for name in ("manual", "manual_en"))


def _smallest_size_joining_92_and_header() -> int:
    doc = load_document("manual")
    for size in range(100, 801, 10):
        if chunks_with_all(FixedSizeChunker(size=size, overlap=0).split(doc), ["92", "Limite"]):
            return size
    raise AssertionError("no size up to 800 puts 92 and Limite together")


SOLUTIONS: dict[str, tuple[str, Callable[[], Any]]] = {
    "01.1": ("an int: the overlap", _smallest_overlap_keeping_lines),
    "01.2": ("a tuple (Portuguese, English) of chunk counts", _token_window_counts),
    "01.3": ("an int: the size", _smallest_size_joining_92_and_header),
}


def check(exercise: str, answer: Any) -> None:
    """Print whether `answer` is right for `exercise`. `None` means not tried yet.

    It returns nothing on purpose: a returned value would be echoed below the cell.
    """
    if exercise not in SOLUTIONS:
        raise KeyError(f"no exercise {exercise!r} (known: {', '.join(SOLUTIONS)})")
    shape, solve = SOLUTIONS[exercise]
    if answer is None:
        print(f"Exercise {exercise}: not answered yet. Expected {shape}.")
    elif answer == solve():
        print(f"Exercise {exercise}: correct.")
    else:
        print(f"Exercise {exercise}: not quite ({answer!r}). Expected {shape}; try again.")
