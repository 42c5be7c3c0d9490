"""The answer exercises of notebooks 07, 08b, 09d and 09b: each expected answer computed from
the library when asked, and the plausible wrong answers each refusal recognises (a pair in the wrong
order, the right count for the wrong setting, the reverse of what was asked), with why. Kept
apart from `teaching.selfcheck`, which registers them in its `SOLUTIONS` and `FORMS`. Reading this
file gives the answers away: try first.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from chunklab.chunkers.registry import build
from chunklab.documents.series import load_document
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.teaching import answers_split_table as split
from chunklab.teaching.answers import Form
from chunklab.teaching.answers_paired import paired_hint, paired_in_family, paired_misses
from chunklab.tokens.counters import cl100k

# the GDS Way page on sensitive code: its longest windows near the limit run 254, 255 and 258
# positions at 206, 207 and 208 tokens, so the [CLS]/[SEP] slips give answers of their own
WINDOW_PAGE = "sensitive_code"


@lru_cache(maxsize=None)  # the answer and its refusals sweep the same sizes
def _longest_window(size: int, overlap: int | None = 0) -> int:
    """The positions, [CLS] and [SEP] included, of the page's longest window at `size`."""
    doc, minilm = load_document(WINDOW_PAGE), MiniLMEmbedder()
    options = {} if overlap is None else {"overlap": overlap}
    chunker = build("fixed", size=size, unit="tokens", **options)
    return max(len(minilm.encoding(c.text).ids) for c in chunker.split(doc))


@lru_cache(maxsize=None)
def _largest_window_read_whole(overlap: int | None = 0, limit: int = 256) -> int:
    """The largest fixed window, in cl100k tokens, at which MiniLM cuts none of the
    sensitive-code page's windows (`overlap=None`: build's default overlap, a slip; `limit`: the
    positions allowed, 256 with [CLS] and [SEP], another number a slip about the markers)."""
    return max(size for size in range(150, 300) if _longest_window(size, overlap) <= limit)


@lru_cache(maxsize=None)
def _safe_up_to(overlap: int | None = 0, limit: int = 256) -> int:
    """The largest size up to which no size cuts a window of the page: the size before the first
    that cuts one (below 150 tokens no window nears 254 pieces)."""
    return next(size for size in range(150, 300) if _longest_window(size, overlap) > limit) - 1


def _safe_and_largest(overlap: int | None = 0, limit: int = 256) -> tuple[int, int]:
    """09d.2: (safe, largest). On this page the two differ: sizes 188 to 194 cut a window and 195
    to 207 cut none, so the largest size that cuts none is luck of where the cuts fall, and the
    size to configure is the one below which every size is safe."""
    return _safe_up_to(overlap, limit), _largest_window_read_whole(overlap, limit)


def _slips(right: int, of: Callable[..., int]) -> dict[int, str]:
    """Wrong values of one of the two numbers, `of` computing it under a setting, with why."""
    pieces = (
        "that is MiniLM's limit in word pieces{}; the windows count cl100k tokens, "
        "and this page has more word pieces than cl100k tokens"
    )
    misses: dict[int, str] = {
        of(limit=258): "at that size the longest window is 256 word pieces of text or fewer, but "
        "with [CLS] and [SEP] it runs past the 256 positions the model reads: count the two "
        "markers",
        of(limit=254): "no window is cut there, but it is not the largest such size: [CLS] and "
        "[SEP] are 2 of the 256 positions, so a window may hold 254 pieces of text; count the "
        "markers once, not twice",
        # section 1's table: its 200 column cuts one chunk, so 199 read off it, not off this page
        199: "that is from section 1's table, with overlap and every document; cut only this "
        "page, overlap=0",
        200: "section 1's 200 column cuts one chunk over every document, not this page's; "
        "cut this page alone at every size and count",
        254: pieces.format(" of text"),
        256: pieces.format(", [CLS] and [SEP] included"),
    }
    misses.setdefault(of(None), "that is with build's default overlap; the exercise asks overlap=0")
    doc = load_document(WINDOW_PAGE)
    ratio = (len(MiniLMEmbedder().encoding(doc.text).ids) - 2) / cl100k(doc.text)
    average = (
        "MiniLM's limit divided by the page's average ratio of word pieces to cl100k tokens; a "
        "window's own ratio can be higher than the page's, so cut the page at each size and count"
    )
    # the average-ratio slip, rounded either way, with the ratio as computed or as printed (1.12)
    for limit in (254, 256):
        for ratio_used in (ratio, round(ratio, 2)):
            misses.setdefault(int(limit / ratio_used), average)
            misses.setdefault(round(limit / ratio_used), average)
    misses.pop(right, None)
    return misses


def _name_cut_sizes(misses: dict[int, str]) -> None:
    """Every size from 150 to 299 at which a window of the page is cut, not named already."""
    cut = "at that size a window of this page is cut: its longest runs past 256 positions"
    misses |= {s: cut for s in range(150, 300) if s not in misses and _longest_window(s) > 256}


def _safe_misses() -> dict[int, str]:
    """Wrong first numbers (safe), each with why."""
    right, largest = _safe_and_largest()
    misses = {
        right + 1: "at that size a window is already cut: every size up to the first number must "
        "cut none",
        largest: "no window is cut at that size, but some smaller sizes cut one: the first number "
        "needs every size up to it to cut none; test every size from below",
    } | _slips(right, _safe_up_to)
    _name_cut_sizes(misses)
    short = "no size up to it cuts a window, but it is not the largest such size"
    misses |= {s: short for s in range(100, right) if s not in misses}
    misses.pop(right, None)
    return misses


def _largest_misses() -> dict[int, str]:
    """Wrong second numbers (largest), each with why."""
    safe, right = _safe_and_largest()
    misses = {
        right + 1: "at that size a window is already cut; the second number is the largest size "
        "with none cut",
        right - 1: "no window is cut there either; the second number is the largest such size",
        safe: "no window is cut there, and one is cut a size up, but larger sizes cut none again: "
        "a window's own ratio of pieces to tokens moves as the cuts move, so a size that cuts "
        "none can sit above one that cuts some; test every size, do not stop at the first cut",
    } | _slips(right, _largest_window_read_whole)
    _name_cut_sizes(misses)
    misses.pop(right, None)
    return misses


def _safe_and_largest_misses() -> dict[Any, str]:
    """Whole answers refused with their own reason: one size where two are asked, or one of the
    two numbers given for both."""
    safe, largest = _safe_and_largest()
    two = (
        "the exercise asks two sizes, (safe, largest): the largest size up to which every size "
        "cuts none, and the largest size that cuts none; on this page they differ"
    )
    return {
        largest: two,
        safe: two,
        (largest, largest): "the second is right, but the first is not: some sizes below it cut a "
        "window; test every size from below",
        (safe, safe): "the first is right, but the second is not: larger sizes cut none again "
        "past the first cut; test every size, do not stop at the first cut",
        (largest, safe): "the right two sizes in the wrong order: first safe, then largest",
    }


def _safe_and_largest_hint(answer: Any, expected: tuple[int, int]) -> str:
    """Why each wrong number of a (safe, largest) pair is wrong, named by its place."""
    if not isinstance(answer, (tuple, list)) or len(answer) != 2:
        return ""  # judge's own words: the type or the length
    whys = [
        f"the {place} number: {misses().get(given, 'not right')}"
        for place, given, right, misses in zip(
            ("first", "second"), answer, expected, (_safe_misses, _largest_misses), strict=True
        )
        if given != right
    ]
    return "; ".join(whys)


# exercise -> what a right answer is told besides "correct": the prompt's own question, answered
AFTERWORDS_EXPERIMENTS: dict[str, Callable] = {"08b.2": split.afterword}


SOLUTIONS_EXPERIMENTS: dict[str, tuple[str, Callable[[], Any]]] = {
    "07c.1": ("a tuple (m, won, lost, high, verdict)", paired_in_family),
    "09d.2": ("a tuple (safe, largest) of two sizes in cl100k tokens", _safe_and_largest),
    "08b.2": ("an integer, a budget in cl100k tokens", split.word_table_whole),
}

FORMS_EXPERIMENTS: dict[str, Form] = {
    "07c.1": Form(decimals=1, misses=paired_misses),
    "09d.2": Form(misses=_safe_and_largest_misses),
    "08b.2": Form(misses=split.split_table_misses),
}


HINTS_EXPERIMENTS: dict[str, Callable[[Any, Any], str]] = {
    "07c.1": paired_hint,
    "09d.2": _safe_and_largest_hint,
}
