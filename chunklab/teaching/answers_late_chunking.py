"""Exercise 09c.1's check: `late_vectors(text, spans)` written from the model's own reading
(`minilm.encoding`, `minilm.read`), run on a page other than the exercise's, compared with
chunklab's `late_chunk_vectors`, and refused when it calls into `chunklab.embeddings.late`
itself. Each plausible slip (the windows not overlapping or overlapping by another number, the
means never scaled to length 1, each chunk embedded alone, a piece kept by its last character, a
tie kept from the earlier window, each window overwriting the last, the readings averaged, a
window's [CLS] left in (a one-piece shift), the markers' readings pooled, the last window not
moved back, only the first window read, the step taken for the overlap, section 3's 126-piece
windows, each span's pieces counted in turn as 09b's section 1 does) is computed here and
named in the hint; a window too wide for the model is named from the embedder's refusal.

Registered by `exercises_measures` in `CHECKS_MEASURES`.
"""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np

from chunklab.chunkers.registry import build
from chunklab.documents.series import load_document
from chunklab.embeddings import late
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.teaching.checking import Cases, NotYet

# its opening is read in several windows: the overlap and the rule that keeps a piece both matter
FRESH_PAGE = "sensitive_code"


class _ReachedLate(Exception):
    """Raised by the profile hook at the first call into `chunklab.embeddings.late`."""


def calls_into_late(fn: Callable, *args: Any, package: bool = False) -> tuple[Any, str]:
    """Run fn, stopping it at its first call into `chunklab.embeddings.late` (with `package`:
    anywhere in `chunklab.embeddings`), however it was imported: a profile hook sees each call by
    the file its code lives in, and names it."""
    late_file = str(inspect.getsourcefile(late))
    folder = os.path.dirname(late_file) + os.sep

    def watch(frame: Any, event: str, arg: Any) -> None:
        name = frame.f_code.co_filename
        if event == "call" and (name.startswith(folder) if package else name == late_file):
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
    """The opening of another page, its first four 200-token chunks, the same spans moved on one
    character (edges inside a word, so a piece kept by its last character differs), and the
    library's late vectors for them. The text runs on a few characters, until one piece sits as
    far from both edges of the last two windows (a tie, which the later window must win)."""
    doc, minilm = load_document(FRESH_PAGE), MiniLMEmbedder()
    chunks = build("fixed", size=200, overlap=0, unit="tokens").split(doc)[:4]
    end = chunks[-1].end + 1
    while True:
        pieces = len(minilm.encoding(doc.text[:end]).ids) - 2
        reads = late.windows(pieces, minilm.max_tokens - 2, 64)
        if len(reads) > 1 and (reads[-2][1] + reads[-1][0]) % 2:  # the overlap's middle: a piece
            break
        end += 1
    text = doc.text[:end]
    spans = tuple((c.start, c.end) for c in chunks) + tuple(
        (c.start + 1, c.end + 1) for c in chunks
    )
    return text, spans, late.late_chunk_vectors(minilm, text, list(spans))


def _stitched(
    text: str, starts: list[int], width: int, rule: str = "later", drop: int = 1
) -> late.TokenVectors:
    """Each piece's reading, windows of `width` pieces from `starts` (cut at the text's end), the
    piece kept from the window where it sits furthest from an edge, a tie to the `rule` "later"
    (right) or "earlier" window; `rule` "first": the paper's code's rule, each piece kept from the
    first window that reads it; "last": every window overwrites the pieces it reads. `drop` 0:
    each window's [CLS] left in its row of readings, so every piece takes its left neighbour's."""
    minilm = MiniLMEmbedder()
    encoding = minilm.encoding(text)
    ids, offsets = encoding.ids[1:-1], np.array(encoding.offsets[1:-1], dtype=np.int64)
    vectors, margin = np.zeros((len(ids), minilm.dim)), np.full(len(ids), -1)
    for first in starts:
        end = min(first + width, len(ids))
        read = minilm.read([encoding.ids[0], *ids[first:end], encoding.ids[-1]])[drop:]
        for piece in range(first, end):
            here = min(piece - first, end - 1 - piece)
            keep = {
                "first": margin[piece] < 0,
                "last": True,
                "earlier": here > margin[piece],
                "later": here >= margin[piece],
            }[rule]
            if keep:
                vectors[piece], margin[piece] = read[piece - first], here
    return late.TokenVectors(vectors, offsets.reshape(-1, 2))


def _averaged(text: str, starts: list[int], width: int) -> late.TokenVectors:
    """Each piece's readings from every window that reads it, averaged."""
    minilm = MiniLMEmbedder()
    encoding = minilm.encoding(text)
    ids, offsets = encoding.ids[1:-1], np.array(encoding.offsets[1:-1], dtype=np.int64)
    sums, counts = np.zeros((len(ids), minilm.dim)), np.zeros(len(ids))
    for first in starts:
        end = min(first + width, len(ids))
        sums[first:end] += minilm.read([encoding.ids[0], *ids[first:end], encoding.ids[-1]])[1:-1]
        counts[first:end] += 1
    return late.TokenVectors(sums / counts[:, None], offsets.reshape(-1, 2))


def _markers_pooled(
    text: str, spans: tuple[tuple[int, int], ...], starts: list[int], width: int
) -> np.ndarray:
    """The right readings, with the first window's [CLS] and the last window's [SEP] kept at the
    encoding's offsets for them, (0, 0): a span starting at character 0 pools them too."""
    minilm = MiniLMEmbedder()
    encoding = minilm.encoding(text)
    ids, stitched = encoding.ids, _stitched(text, starts, width)
    n = len(ids) - 2
    first = minilm.read([ids[0], *ids[1 : 1 + min(width, n)], ids[-1]])[0]
    last = minilm.read([ids[0], *ids[1 + starts[-1] : 1 + min(starts[-1] + width, n)], ids[-1]])
    vectors = np.vstack([first, stitched.vectors, last[-1]])
    firsts = np.array(encoding.offsets, dtype=np.int64)[:, 0]  # not sorted: pooled by a mask
    means = [vectors[(firsts >= a) & (firsts < b)].mean(axis=0) for a, b in spans]
    return np.array([m / np.linalg.norm(m) for m in means])


def _by_last_character(tokens: late.TokenVectors, spans: tuple[tuple[int, int], ...]) -> np.ndarray:
    ends = tokens.offsets[:, 1] - 1
    means = [tokens.vectors[(ends >= a) & (ends < b)].mean(axis=0) for a, b in spans]
    return np.array([m / np.linalg.norm(m) for m in means])


def _reading_slips(
    text: str, spans: tuple[tuple[int, int], ...], right: list[int], width: int
) -> list[tuple[np.ndarray, str]]:
    """The windows placed right, their readings kept wrongly: averaged, or shifted by [CLS]."""
    return [
        (
            late.pool_spans(_averaged(text, right, width), spans),
            "you averaged a piece's readings from the windows that read it: keep the one reading "
            "from the window where it sits furthest from an edge (a tie: the later window)",
        ),
        (
            late.pool_spans(_stitched(text, right, width, drop=0), spans),
            "each piece took its left neighbour's reading: a window's readings open with its own "
            "[CLS]; drop it (and the [SEP]) before matching readings to pieces",
        ),
        (
            _markers_pooled(text, spans, right, width),
            "you pooled the [CLS] and [SEP] readings too: their offsets are (0, 0), so the span "
            "that starts at character 0 took them in; pool the pieces of text only",
        ),
    ]


def _window_slips(text: str, spans: tuple[tuple[int, int], ...]) -> list[tuple[np.ndarray, str]]:
    """The windows placed or kept wrongly, each with its hint (numbers computed here)."""
    minilm = MiniLMEmbedder()
    width, overlap = minilm.max_tokens - 2, 64
    n = len(minilm.encoding(text).ids) - 2
    right = [first for first, _ in late.windows(n, width, overlap)]
    unmoved = list(range(0, n, width - overlap))
    out = [
        (
            late.pool_spans(_stitched(text, right, width, rule="earlier"), spans),
            "on a tie you kept the earlier window's reading: a piece as far from both edges keeps "
            "the later window's",
        ),
        (
            late.pool_spans(_stitched(text, unmoved, width), spans),
            f"your last window starts at piece {unmoved[-1]} and holds {n - unmoved[-1]} pieces: "
            f"move it back to start at {right[-1]} ({n} - {width}), so it ends with the last piece",
        ),
        (
            late.pool_spans(_stitched(text, right, width, rule="first"), spans),
            "you kept the earlier window's reading of the whole overlap, the late-chunking "
            "paper's code's rule: here each piece is kept from the window where it sits furthest "
            "from an edge, so the later window takes over from the middle of the overlap",
        ),
        (
            late.pool_spans(
                _stitched(text, [a for a, _ in late.windows(n, width - 2, overlap)], width - 2),
                spans,
            ),
            f"your windows hold {width - 2} pieces: the model reads {minilm.max_tokens} "
            f"positions, [CLS] and [SEP] among them, so a window holds {width} pieces of text",
        ),
        (
            late.pool_spans(_stitched(text, right, width, rule="last"), spans),
            "each window overwrote the pieces it reads, so the last window to read a piece always "
            "won: keep each piece from the window where it sits furthest from an edge (a tie: the "
            "later window)",
        ),
        (
            late.pool_spans(_stitched(text, list(range(0, n, width)), width), spans),
            f"your windows do not overlap and the last is not moved back: windows of {width} "
            f"pieces overlapping by {overlap}, the last ending with the last piece",
        ),
        *_reading_slips(text, spans, right, width),
        (
            late.pool_spans(_stitched(text, [0], width), spans),
            f"you read only the first {width} pieces of {n}: read the rest in more windows",
        ),
    ]
    for wrong in (32, 50, 128):  # 0: named in _slips; 50, a round guess
        read = late.late_chunk_vectors(minilm, text, list(spans), overlap=wrong)
        out.append((read, f"your windows overlap by {wrong} pieces, not {overlap}"))
    return out + _setting_slips(text, spans, n, width, overlap)


def _setting_slips(
    text: str, spans: tuple[tuple[int, int], ...], n: int, width: int, overlap: int
) -> list[tuple[np.ndarray, str]]:
    """Settings read from the wrong place: the overlap taken for the step, section 3's
    128-position windows, and 09b's section 1, which counts each chunk's pieces in turn."""
    step_64 = [a for a, _ in late.windows(n, width, width - overlap)]
    short = [a for a, _ in late.windows(n, 126, 32)]
    return [
        (
            late.pool_spans(_stitched(text, step_64, width), spans),
            f"your windows start every {overlap} pieces: {overlap} is the overlap, the pieces two "
            f"neighbours share; each window starts {width} - {overlap} = {width - overlap} pieces "
            "after the one before",
        ),
        (
            late.pool_spans(_stitched(text, short, 126), spans),
            "your windows hold 126 pieces overlapping by 32, section 3's 128-position follow-up: "
            f"read as section 1 does, windows of {width} pieces overlapping by {overlap}",
        ),
        *((wrong, _IN_TURN) for wrong in _counted_in_turn(text, spans)),
    ]


_IN_TURN = (
    "you counted each span's pieces in turn, as 09b's section 1 does: that holds only for "
    "spans that follow one another and split alone into the pieces they have in the text; these "
    "overlap and start inside words, so keep a piece by its first character's offset (09b.1)"
)


def _counted_in_turn(text: str, spans: tuple[tuple[int, int], ...]) -> list[np.ndarray]:
    """The right readings, each span given the next run of pieces as long as it is alone (the
    run starting where the last ended, or after the pieces of the text before the span)."""
    minilm = MiniLMEmbedder()
    tokens = late.token_vectors(minilm, text)

    def pooled(first: int, n: int) -> np.ndarray:
        run = tokens.vectors[first : first + n].astype(np.float64)
        mean = run.mean(axis=0) if len(run) else np.zeros(minilm.dim)
        norm = np.linalg.norm(mean)
        return mean / norm if norm else mean

    def pieces(part: str) -> int:
        return len(minilm.encoding(part).ids) - 2

    running, position = [], 0
    for a, b in spans:
        running.append(pooled(position, pieces(text[a:b])))
        position += pieces(text[a:b])
    before = [pooled(pieces(text[:a]) if a else 0, pieces(text[a:b])) for a, b in spans]
    return [np.array(running), np.array(before)]


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
        (
            _by_last_character(tokens, spans),
            "you kept a piece by its last character: a span pools the pieces whose FIRST "
            "character is in it (09b.1), which differs when a span's edge falls inside a word",
        ),
        *_window_slips(text, spans),
    ]


def check_late_vectors(fn: Callable) -> Cases:
    text, spans, want = _fresh_case()
    try:
        got, reached = calls_into_late(fn, text, list(spans))
    except ValueError as error:  # the embedder refuses a row longer than it reads
        if not str(error).startswith("a row of"):
            raise
        raise NotYet(
            f"the model was handed {error}: a window of text plus [CLS] and [SEP] must fit in "
            "256 positions, so a window holds 254 pieces of text"
        ) from None
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
            (
                why
                for wrong, why in _slips(text, spans)
                if np.allclose(np.nan_to_num(got), wrong, atol=1e-4)  # a span left unread: 0s
            ),
            "each piece is kept from the window where it sits furthest from an edge (a tie: the "
            "later window); a span pools the pieces whose first character is in it",
        )
        raise NotYet(
            f"on {len(spans)} spans of one page, {FRESH_PAGE}'s opening (200-token chunks, and "
            "the same moved on one character): "
            f"not late_chunk_vectors' vectors ({hint})"
        )
    return Cases(
        len(spans),
        f"late_chunk_vectors' vectors for {len(spans)} spans of one page, {FRESH_PAGE}'s opening "
        f"(four 200-token chunks, and the same moved on one character). {_schedules_answer()}",
    )


@lru_cache(maxsize=None)
def _schedules_answer() -> str:
    """The prompt's second question answered, shown only on a pass, after the prompt has asked
    for the learner's own three numbers first: section 2's mean cosine on the work-schedules page,
    alone, late, and late with the first window's reading kept (which the library cannot give)."""
    doc, minilm = load_document("work_schedules"), MiniLMEmbedder()
    chunks = build("fixed", size=200, overlap=0, unit="tokens").split(doc)

    def mean_pairwise(vectors: np.ndarray) -> float:
        sims = vectors @ vectors.T
        return float(sims[~np.eye(len(vectors), dtype=bool)].mean())

    spans = [(c.start, c.end) for c in chunks]
    alone = mean_pairwise(minilm.embed_documents([c.text for c in chunks]))
    late_ = mean_pairwise(late.late_chunk_vectors(minilm, doc.text, spans))
    n = len(minilm.encoding(doc.text).ids) - 2  # the library has no first-window rule
    starts = [a for a, _ in late.windows(n, minilm.max_tokens - 2, 64)]
    tokens = _stitched(doc.text, starts, minilm.max_tokens - 2, rule="first")
    first = mean_pairwise(late.pool_spans(tokens, spans))
    return (
        f"Now set your three numbers beside these: on the work-schedules page, {len(chunks)} "
        f"chunks of 200 tokens, the mean cosine between two chunks is {alone:.2f} alone and "
        f"{late_:.2f} late: it rises there too, by {late_ - alone:.2f} (not set beside the "
        f"policy's 0.36: those were 40-token chunks, and section 2's table shows the rise "
        f"depends on chunk size); with each piece kept from the first window that reads it, "
        f"{first:.2f} late ({first - late_:+.3f}): the rule for a piece read twice "
        + ("barely moves this number" if abs(first - late_) < 0.01 else "moves this number")
    )
