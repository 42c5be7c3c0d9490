"""Checks for the coding exercises of notebooks 07, 07d, 08 and 09: the learner's function on cases
it has not seen, and, when it is wrong, a hint that names the mistake.

Kept apart from `teaching.exercises` so that file stays small; registered in its `CHECKS`. Each
check knows the plausible wrong answers of its exercise (a rank counted from 0, overlapping spans
counted twice, the body size taken per line instead of per character, padding averaged in) and
says which one it recognised, because "expected 0.5, got 1.0" teaches less than "positions count
from 1". The expected values come from the library where it does the same thing, from the
exercise's rule where it does not.
"""

from __future__ import annotations

import functools
import random
import re
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np

from chunklab.evaluation import metrics
from chunklab.evaluation.metrics import char_scores, has_facts, reciprocal_rank
from chunklab.teaching.answers_late_chunking import check_late_vectors
from chunklab.teaching.checking import Cases, NotYet, floors, run_without, short
from chunklab.teaching.page_lines import check_lines_as_markdown
from chunklab.teaching.pooling_checks import check_masked_mean, check_pool_span


def _is(got: Any, value: float) -> bool:
    return isinstance(got, int | float) and not isinstance(got, bool) and abs(got - value) < 1e-9


EMPTY = "an empty case is 0.0: say so before dividing"


def _call(fn: Callable, *args: Any, hint: str = EMPTY) -> Any:
    """The learner's answer for one case; a ZeroDivisionError becomes a hint, not a traceback."""
    try:
        return fn(*args)
    except ZeroDivisionError:
        raise NotYet(
            f"your function raised ZeroDivisionError on {short(args, 60)} ({hint})"
        ) from None


# --- 07.1: reciprocal rank of the first complete chunk -------------------------------------------


def _first(texts: list[str], holds: Callable[[str], bool]) -> int:
    """The position, counted from 1, of the first text for which `holds` is true (0 if none)."""
    return next((n for n, text in enumerate(texts, start=1) if holds(text)), 0)


_WORD_MATCHERS: list[Callable[[str, str], bool]] = [
    lambda fact, text: fact in text.split(),  # the chunk split on spaces
    lambda fact, text: re.search(rf"\b{re.escape(fact)}\b", text) is not None,  # word boundaries
]


def _all_words(word: Callable[[str, str], bool], text: str, *, facts: list[str]) -> bool:
    return all(word(f.lower(), text.lower()) for f in facts)


def _content_slip(texts: list[str], facts: list[str], got: Any, first: int) -> str | None:
    """The slips of `complete` itself: one fact for all, case kept, texts looked up in facts."""
    lowered = [f.lower() for f in facts]
    one = _first(texts, lambda t: any(f in t.lower() for f in lowered))
    if one and one != first and _is(got, 1 / one):
        return (
            f"the chunk at position {one} holds one fact, not every fact: complete means one "
            "chunk holds them all (m09's two facts)"
        )
    cased = _first(texts, lambda t: all(f in t for f in facts))
    if cased != first and _is(got, 1 / cased if cased else 0.0):
        return "ignore case, as `has_facts` does: 'limite' holds the fact 'Limite'"
    for word in _WORD_MATCHERS:  # a fact as a whole word: 'Limite' not found in 'Limites:'
        worded = _first(texts, functools.partial(_all_words, word, facts=facts))
        if worded != first and _is(got, 1 / worded if worded else 0.0):
            return (
                f"you matched facts as whole words: a fact need only be a substring of the chunk, "
                f"ignoring case, so the chunk at position {first} holds them all ('Limite' sits "
                "in 'Limites:'; a fact may also span words, as '30 dias' does)"
            )
    if first == 1 and _is(got, 0.0) and not any(t in facts for t in texts):
        return (
            "0.0, yet the first chunk holds every fact: test each text for the "
            "facts (each a substring, ignoring case), not whether the text is in `facts`"
        )
    return None


def _rr_hint(texts: list[str], facts: list[str], got: Any, fn: Callable) -> str:
    positions = [
        n for n, t in enumerate(texts, start=1) if all(f.lower() in t.lower() for f in facts)
    ]
    slip = _content_slip(texts, facts, got, positions[0] if positions else 0)
    if slip:
        return slip
    gathered = next(  # the first position by which every fact has turned up in some chunk
        (
            n
            for n in range(1, len(texts) + 1)
            if all(any(f.lower() in t.lower() for t in texts[:n]) for f in facts)
        ),
        0,
    )
    if gathered and gathered != (positions[0] if positions else 0) and _is(got, 1 / gathered):
        return (
            f"the facts are spread over the first {gathered} chunks, and no one of them holds "
            "them all: facts gathered across chunks are `fact_recall`, not `complete`"
        )
    if not positions:
        return "no chunk holds every fact, so the reciprocal rank is 0.0"
    first = positions[0]
    if first > 1 and _is(got, 1 / (first - 1)):
        return "positions count from 1: the first chunk has rank 1, the second 2"
    if len(positions) > 1 and _is(got, 1 / positions[-1]):
        return "walk the ranking in order: the first complete chunk, not the last"
    if _is(got, len(positions) / len(texts)) or _is(got, 1 / len(texts)):
        return "it is 1 / the position of the first complete chunk, not a share of the list"
    if len(positions) > 1 and _is(got, sum(1 / n for n in positions)):
        return "that adds 1 / position for every complete chunk; use only the first one"
    if len(positions) > 1 and _is(got, sum(1 / n for n in positions) / len(positions)):
        return "that averages 1 / position over the complete chunks; use only the first one"
    if got == 0 and first > 1 and isinstance(got, (int, np.integer)) and not isinstance(got, bool):
        # an integer 0: `1 // position`, or an int for the top hit only; the source tells which
        why = f"not integer division (1 // {first} is 0)" if floors(fn) else "not only the top one"
        return f"integer 0 at position {first}: 1/{first} is {1 / first:.3f}, {why}"
    if _is(got, first) and first > 1:
        return f"that is the position itself ({first}); return 1 / position, here 1/{first}"
    if got == 0 and first > 3:
        return (
            f"0 for a complete chunk at position {first}: score the whole list, do not cut it "
            "to the top 3 first"
        )
    if got == 0 and first > 1:
        return (
            f"0 for a complete chunk at position {first}: every position counts (1/{first}), "
            "not only the top one"
        )
    if _is(got, 1 / (first + 1)):
        return (
            f"that is 1/{first + 1}, one position too far: the first chunk has rank 1, so count "
            "from 1 once, without adding 1 again"
        )
    if _is(got, 1.0) and first > 1:
        return (
            f"1.0 for a first complete chunk at position {first}: that is a hit (found or not); "
            "the reciprocal rank falls with the position"
        )
    return f"the first chunk holding every fact is at position {first}"


FACTS = ["Limite", "0,08", "Maxiflex", "London", "12"]


def _rr_case(rng: random.Random) -> tuple[list[str], list[str]]:
    """Ranked chunk texts, each holding a random share of the facts, some in another case."""
    facts = rng.sample(FACTS, rng.randint(1, 3))
    texts = []
    for _ in range(rng.randint(0, 7)):
        held = [f for f in facts if rng.random() < 0.6]
        held = [f.lower() if rng.random() < 0.3 else f for f in held]
        texts.append(" ".join(["a line of text", *held, "more text"]))
    return texts, facts


def check_reciprocal_rank(fn: Callable) -> int:
    rng, cases = random.Random(7), 0
    fixed = [  # in this order, each slip is first refused where it alone explains the answer
        (["Limite de 0,08 mm", "other", "more"], ["0,08", "Limite"]),  # complete first: 1.0
        (["x", "y", "Limite 0,08"], ["0,08", "Limite"]),  # third: 1/3
        (["Limites: 0,08", "x", "0,08 Limite", "Limite 0,08"], ["0,08", "Limite"]),  # 1.0: no words
        (["x", "Limite: 0,08", "0,08 is the Limite"], ["Limite", "0,08"]),  # two: the first, 1/2
        (["x", "y", "z", "w", "Maxiflex 12"], ["Maxiflex", "12"]),  # below the top 3
        (["nothing here", "nor here"], ["London"]),  # none holds a fact: 0.0
        (["Maxiflex", "12"], ["Maxiflex", "12"]),  # spread over two chunks: none complete
        (["0,08 mm", "Tolerance", "limite: 0,08"], ["0,08", "Limite"]),  # one fact, then a case
        ([], ["London"]),
    ]
    for texts, facts in fixed + [_rr_case(rng) for _ in range(40)]:
        hint = "positions count from 1; no complete chunk is 0.0"
        got = _call(fn, list(texts), list(facts), hint=hint)
        expected = reciprocal_rank(texts, {t for t in texts if has_facts(t, facts)})
        if not _is(got, expected):
            raise NotYet(
                f"ranked {short(texts, 120)}, facts {facts}: expected {expected:.4g}, got "
                f"{short(got)} ({_rr_hint(texts, facts, got, fn)})"
            )
        cases += 1
    return cases


# --- 07d.1: character IoU -------------------------------------------------------------------------


def _iou_hint(retrieved: list, gold: list, got: Any) -> str:
    scores = char_scores(retrieved, gold)
    if not retrieved and not gold:
        return "neither holds any character: the answer is 0.0 when neither holds any"
    kept = _iou_gold_repeats_kept(retrieved, gold)
    if kept != scores["char_iou"] and _is(got, kept):
        return "a gold character listed twice counts once: merge the gold spans too"
    both = scores["char_iou"] * 2 / (1 + scores["char_iou"])  # Dice from IoU: 2J / (1 + J)
    if both != scores["char_iou"] and _is(got, both):
        return (
            "that is the Dice coefficient, 2 x shared / (retrieved + gold): Dice divides by the "
            "sum, IoU by the union"
        )
    recall = _is(got, scores["char_recall"]) and scores["char_recall"] != scores["char_iou"]
    precision = (
        _is(got, scores["char_precision"]) and scores["char_precision"] != scores["char_iou"]
    )
    if recall or precision:
        which = {
            (True, False): "the recall (shared / gold)",
            (False, True): "the precision (shared / retrieved)",
            (True, True): "the recall and the precision here",
        }
        return f"that is {which[recall, precision]}; IoU divides by the characters in either"
    inclusive = char_scores([(a, b + 1) for a, b in retrieved], [(c, d + 1) for c, d in gold])
    if _is(got, inclusive["char_iou"]) and inclusive["char_iou"] != scores["char_iou"]:
        return "the end is excluded: a span (a, b) holds characters a to b - 1, so range(a, b)"
    shared = sum(max(0, min(b, d) - max(a, c)) for a, b in retrieved for c, d in gold)
    either = sum(b - a for a, b in retrieved) + sum(d - c for c, d in gold) - shared
    if either and _is(got, shared / either):
        return "a character retrieved twice counts once: merge overlapping spans first"
    if _is(got, _iou_merged_without_max(retrieved, gold)) and not _is(got, scores["char_iou"]):
        return (
            "a span inside the previous one must not shorten it: when merging, keep "
            "max(end, previous_end)"
        )
    unsorted = _iou_merged_unsorted(retrieved, gold)
    if unsorted != scores["char_iou"] and _is(got, unsorted):
        pair = _first_out_of_order(retrieved) or _first_out_of_order(gold)
        if pair:
            return f"sort the spans before merging: {pair[0]} comes after {pair[1]}"
    merged = _merged_in_given_order(sorted(retrieved)), _merged_in_given_order(sorted(gold))
    if _is(got, _iou_of(*merged, first_only=True)) and not _is(got, scores["char_iou"]):
        return "one retrieved span may cover two gold spans: step past the span ending first"
    return _iou_half_merged_hint(retrieved, gold, got)


def _iou_half_merged_hint(retrieved: list, gold: list, got: Any) -> str:
    """Two slips of a merge-based answer: the gold spans left unmerged; the union taken as a sum."""
    r, g = _merged_in_given_order(sorted(retrieved)), _merged_in_given_order(sorted(gold))
    for spans, gold_merged in ((g, True), (gold, False)):
        shared = sum(max(0, min(b, d) - max(a, c)) for a, b in r for c, d in spans)
        total = sum(b - a for a, b in r) + sum(d - c for c, d in spans)
        if gold_merged and total and shared and _is(got, shared / total):
            return "either = |retrieved| + |gold| - both: subtract the shared characters once"
        swept = _swept_shared(r, sorted(spans))  # the same, shared counted by a two-pointer sweep
        for both in {shared, swept}:
            if not gold_merged and total - both and _is(got, both / (total - both)):
                return "the retrieved spans are merged, the gold ones not: merge the gold spans too"
    return "shared characters / characters in either, each character counted once"


def _swept_shared(x: list, y: list) -> int:
    """The overlap of two sorted span lists walked together, one step on the span ending first."""
    i = j = shared = 0
    while i < len(x) and j < len(y):
        shared += max(0, min(x[i][1], y[j][1]) - max(x[i][0], y[j][0]))
        i, j = (i + 1, j) if x[i][1] < y[j][1] else (i, j + 1)
    return shared


def _iou_merged_without_max(retrieved: list, gold: list) -> float:
    """IoU from a merge that sets the merged end to the new span's end instead of the larger of
    the two: a span inside the previous one then cuts the merged span short."""
    r, g = (_merged_in_given_order(sorted(spans), keep_max=False) for spans in (retrieved, gold))
    return _iou_of(r, g)


def _iou_of(r: list, g: list, first_only: bool = False) -> float:
    """IoU of two merged span lists; `first_only`: each retrieved span counts only the first gold
    span it overlaps, as a two-pointer that steps past the retrieved span after every overlap."""
    pairs = [[o for c, d in g if (o := min(b, d) - max(a, c)) > 0] for a, b in r]
    shared = sum(sum(o[:1] if first_only else o) for o in pairs)
    either = sum(b - a for a, b in r) + sum(d - c for c, d in g) - shared
    return shared / either if either else 0.0


def _merged_in_given_order(spans: list, keep_max: bool = True) -> list[tuple[int, int]]:
    """The usual merge loop run without sorting first: a span that starts before the last merged
    end is folded into it, even when it starts before that span too (`keep_max` False: the merged
    end is the new span's end, even when shorter)."""
    out: list[tuple[int, int]] = []
    for a, b in spans:
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b) if keep_max else b)
        else:
            out.append((a, b))
    return out


def _iou_merged_unsorted(retrieved: list, gold: list) -> float:
    """IoU over spans merged in the order given: what forgetting to sort before merging returns."""
    return _iou_of(_merged_in_given_order(retrieved), _merged_in_given_order(gold))


def _first_out_of_order(spans: list) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The first span that starts before the span listed just ahead of it, with that span."""
    pairs = zip(spans, spans[1:], strict=False)
    return next(((tuple(b), tuple(a)) for a, b in pairs if tuple(b) < tuple(a)), None)


def _iou_gold_repeats_kept(retrieved: list, gold: list) -> float:
    """IoU with the retrieved characters as a set but the gold ones counted once per span."""
    mine = {i for a, b in retrieved for i in range(a, b)}
    listed = [i for a, b in gold for i in range(a, b)]
    shared = sum(i in mine for i in listed)
    either = len(mine) + len(listed) - shared
    return shared / either if either else 0.0


def _spans(rng: random.Random, n: int) -> list[tuple[int, int]]:
    out = []
    for _ in range(n):
        a = rng.randint(0, 40)
        out.append((a, a + rng.randint(1, 12)))
    return out


def _own_iou(fn: Callable, *args: Any) -> Any:
    library = (metrics.char_scores, metrics._merge, metrics._intersection)
    why = "it calls {name}: the exercise asks you to merge the spans yourself"
    return run_without(fn, args, library, why)


def check_char_iou(fn: Callable) -> int:
    rng, cases, fn = random.Random(70), 0, functools.partial(_own_iou, fn)
    fixed = [([], []), ([(0, 10)], []), ([(0, 10), (5, 15)], [(0, 15)])]
    # IoU, recall, precision, Dice, repeated gold kept, end included: six values apart here
    fixed += [([(0, 4)], [(2, 7), (3, 7)])]
    fixed += [([(0, 4)], [(2, 6), (2, 6)])]  # a gold span listed twice
    fixed += [([(0, 10), (2, 5)], [(0, 10)])]  # a span inside the previous one
    fixed += [([(0, 20)], [(0, 5), (10, 15)])]  # two gold spans under one retrieved span
    randoms = [(_spans(rng, rng.randint(0, 4)), _spans(rng, rng.randint(0, 3))) for _ in range(60)]
    for retrieved, gold in fixed + randoms:
        got = _call(fn, list(retrieved), list(gold), hint="0.0 when neither holds any character")
        expected = char_scores(retrieved, gold)["char_iou"]
        if not _is(got, expected):
            raise NotYet(
                f"retrieved {retrieved}, gold {gold}: expected {expected:.4g}, got {short(got)} "
                f"({_iou_hint(retrieved, gold, got)})"
            )
        cases += 1
    return cases + _check_iou_on_long_spans(fn)


HUGE_SPAN = 1_000_000  # characters: a set of their positions holds hundreds of megabytes
MEMORY_LIMIT = 100_000  # bytes an answer may allocate there; merging two spans takes a few hundred


def _check_iou_on_long_spans(fn: Callable) -> int:
    """One case with spans of a million characters, refused by the memory the answer allocates
    (tracemalloc's peak), not by its time: bytes allocated are the same on a fast machine and a
    slow one, and a set of a million positions (or a mask of a million flags) is over thirty
    times the limit, while merging the spans stays a hundred times under it. The exercise asks for
    IoU without a set of positions."""
    retrieved, gold = [(0, HUGE_SPAN)], [(5, HUGE_SPAN + 5)]
    already = tracemalloc.is_tracing()
    if not already:
        tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    try:
        got = _call(fn, list(retrieved), list(gold))
        allocated = tracemalloc.get_traced_memory()[1] - before
    finally:
        if not already:
            tracemalloc.stop()
    expected = char_scores(retrieved, gold)["char_iou"]
    if not _is(got, expected):
        raise NotYet(
            f"retrieved {retrieved}, gold {gold}: expected {expected:.6g}, got {short(got)}"
        )
    if allocated > MEMORY_LIMIT:
        raise NotYet(
            f"retrieved {retrieved}, gold {gold}: right, but it allocated {allocated / 1e6:.1f} MB "
            f"(the limit is {MEMORY_LIMIT / 1e6:.1f} MB): a set of character positions is too "
            "large here, and so is a mask of them: merge the spans and add up their lengths"
        )
    return 1


CHECKS_MEASURES: dict[str, tuple[str, Callable[[Callable], int | Cases]]] = {
    "07.1": ("reciprocal_rank(ranked_texts, facts) -> float", check_reciprocal_rank),
    "07d.1": ("char_iou(retrieved, gold) -> float", check_char_iou),
    "08.1": ("lines_as_markdown(lines) -> str", check_lines_as_markdown),
    "09.1": ("masked_mean(vectors, mask) -> array (texts, dimensions)", check_masked_mean),
    "09b.1": ("pool_span(offsets, vectors, start, end) -> array (dimensions,)", check_pool_span),
    "09c.1": ("late_vectors(text, spans) -> array (spans, dimensions)", check_late_vectors),
}
