"""Exercise 09b.2's check: `late_vectors(text, spans)` written from the model's own reading
(`minilm.encoding`, `minilm.read`), run on a page other than the exercise's, compared with
chunklab's `late_chunk_vectors`, and refused when it calls into `chunklab.embeddings.late`
itself. Each plausible slip (the windows not overlapping, the means never scaled to length 1,
each chunk embedded alone) is computed here and named in the hint.

Registered by `exercises_measures` in `CHECKS_MEASURES`.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np

from chunklab.chunkers.registry import build
from chunklab.documents.series import load_document
from chunklab.embeddings import late
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.teaching.checking import NotYet

# its opening is read in 4 windows: the overlap and the rule that keeps a piece both matter
FRESH_PAGE = "sensitive_code"


class _ReachedLate(Exception):
    """Raised by the profile hook at the first call into `chunklab.embeddings.late`."""


def _calls_into_late(fn: Callable, *args: Any) -> tuple[Any, str]:
    """Run fn, stopping it at its first call into `chunklab.embeddings.late` (however it was
    imported: a profile hook sees each call by the file its code lives in) and naming it."""
    late_file = inspect.getsourcefile(late)

    def watch(frame: Any, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code.co_filename == late_file:
            raise _ReachedLate(frame.f_code.co_name)

    previous = sys.getprofile()
    sys.setprofile(watch)
    try:
        return fn(*args), ""
    except _ReachedLate as reached:
        return None, str(reached)
    finally:
        sys.setprofile(previous)


@lru_cache(maxsize=None)
def _fresh_case() -> tuple[str, tuple[tuple[int, int], ...], np.ndarray]:
    """The first 600 or so pieces of another page (four windows), its 200-token chunks and the
    library's late vectors for them."""
    doc = load_document(FRESH_PAGE)
    chunks = build("fixed", size=200, overlap=0, unit="tokens").split(doc)[:4]
    text = doc.text[: chunks[-1].end]
    spans = tuple((c.start, c.end) for c in chunks)
    return text, spans, late.late_chunk_vectors(MiniLMEmbedder(), text, list(spans))


@lru_cache(maxsize=None)
def _slips(text: str, spans: tuple[tuple[int, int], ...]) -> list[tuple[np.ndarray, str]]:
    minilm = MiniLMEmbedder()
    tokens = late.token_vectors(minilm, text)
    starts = tokens.offsets[:, 0]
    bounds = [np.searchsorted(starts, span) for span in spans]
    unscaled = np.array([tokens.vectors[a:b].mean(axis=0) for a, b in bounds])
    return [
        (
            late.late_chunk_vectors(minilm, text, list(spans), overlap=0),
            "your windows do not overlap, so a piece at a window's edge is read with context on "
            "one side only: windows of 254 pieces overlapping by 64, as section 1 read them",
        ),
        (unscaled, "your means are never scaled to length 1: scale each to length 1"),
        (
            minilm.embed_documents([text[a:b] for a, b in spans]),
            "that is each chunk embedded alone: read the whole text, then pool each span",
        ),
    ]


def check_late_vectors(fn: Callable) -> int:
    text, spans, want = _fresh_case()
    got, reached = _calls_into_late(fn, text, list(spans))
    if reached:
        raise NotYet(
            f"your function calls chunklab.embeddings.late ({reached}): "
            "the exercise is to read the windows yourself with minilm.encoding and minilm.read, "
            "and pool each span as in 09b.1"
        )
    try:
        got = np.asarray(got, dtype=np.float64)
    except (TypeError, ValueError):
        raise NotYet(f"expected an array of shape {want.shape}, one row per span") from None
    if got.shape != want.shape:
        raise NotYet(f"expected an array of shape {want.shape}, one row per span; got {got.shape}")
    if not np.allclose(got, want, atol=1e-4):
        hint = next(
            (why for wrong, why in _slips(text, spans) if np.allclose(got, wrong, atol=1e-4)),
            "each piece is kept from the window where it sits furthest from an edge (a tie: the "
            "later window); a span pools the pieces whose first character is in it",
        )
        raise NotYet(
            f"on the {FRESH_PAGE} page's opening, {len(spans)} spans of 200 tokens: "
            f"not late_chunk_vectors' vectors ({hint})"
        )
    return len(spans)
