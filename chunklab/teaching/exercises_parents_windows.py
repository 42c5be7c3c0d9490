"""The coding exercises of 03b and 03c: merged sentence windows, and filter then rank. Fixed cases
come first, built so each plausible wrong answer fails one (windows that only touch, a filter after
ranking), then random ones; a refusal names what is wrong, not only where. A merge that calls
the library's own (`union`, which companion 03b imports) is refused before any case. 03.1's
lift is checked in `exercises_parent_lift`, 03.2's budget in `exercises_parent_budget`, the
answer exercises' wrong answers are in `answers_small_to_big`."""

from __future__ import annotations

import random
from collections.abc import Callable

from chunklab.evaluation.chroma import union
from chunklab.teaching.checking import NotYet, run_without, short

# --- 03b.2: merging overlapping sentence windows -------------------------------------------------


def merged_expected(windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The answer: (first, last) sentence ranges, both included, merged where they overlap or
    touch (last + 1 == next first), in document order."""
    out: list[tuple[int, int]] = []
    for first, last in sorted(windows):
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def _merged_without_max(windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The slip that drops `max`: a window lying inside the range so far replaces its end."""
    out: list[tuple[int, int]] = []
    for first, last in sorted(windows):
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], last)
        else:
            out.append((first, last))
    return out


def _merged_unsorted(windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The slip that skips the sort: the answer's sweep over the windows in the order given."""
    out: list[tuple[int, int]] = []
    for first, last in windows:
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def _merged_sweep(
    windows: list[tuple[int, int]], order: Callable, gap: int, at: int = -1
) -> list[tuple[int, int]]:
    """The sweep with a slip: windows visited in `order`, merged when at most `gap` sentences
    lie between them, into range `at` (the answer: document order, gap 0, the last range)."""
    out: list[tuple[int, int]] = []
    for first, last in sorted(windows, key=order):
        if out and first <= out[at][1] + 1 + gap:
            out[at] = (min(out[at][0], first), max(out[at][1], last))
        else:
            out.append((first, last))
    return out


def _why_merged(got: list, expected: list, windows: list) -> str:
    flat = [s for a, b in got for s in range(a, b + 1)]
    want = {s for a, b in windows for s in range(a, b + 1)}
    if got == _merged_sweep(windows, order=lambda w: (w[1], w[0]), gap=0):
        return (
            "you swept the windows sorted by their last sentence: sort by first sentence before "
            "sweeping, or a window that starts early lands after one it overlaps"
        )
    if got in (_merged_unsorted(windows), _merged_sweep(windows, order=lambda w: 0, gap=0)):
        return (
            "the sentences covered changed: you swept the windows in the order given; sort the "
            "windows by their first sentence first (document order), so each meets its neighbour"
        )
    if got == _merged_sweep(windows, order=lambda w: w, gap=0, at=0):
        return (
            "each window was checked against the first range only: compare it with the last "
            "range so far (out[-1]), the one just before it in document order"
        )
    if got == _merged_sweep(windows, order=lambda w: w, gap=1):
        return (
            "the sentences covered changed: you merged across a gap of one sentence; (4, 4) and "
            "(6, 6) leave sentence 5 out, so don't merge them"
        )
    if got == _merged_without_max(windows):
        return (
            "the sentences covered changed: a window inside another cut the merged range short; "
            "keep the larger end, max(last, the new window's last)"
        )
    if got == [(first, last + 1) for first, last in expected]:
        return (
            "each range's last is one past the window's last sentence: (first, last) are both "
            "inclusive, as the windows given are, not a half-open range"
        )
    if set(flat) != want:
        return "the sentences covered changed: every sentence of every window, and no other"
    if len(flat) != len(set(flat)):
        return "a sentence is still in two ranges: merge windows that overlap"
    if got != sorted(got):
        return "return the ranges in document order"
    if len(got) > len(expected):
        return "merge windows that touch too (one ends at sentence 5, the next starts at 6)"
    return "not the ranges expected"


MERGE_CASES = [
    [(0, 3), (2, 5)],  # overlap
    [(4, 6), (0, 3)],  # touch, and out of order
    [(7, 9), (1, 4), (2, 3)],  # one inside another
    [(0, 2), (6, 8)],  # apart
    [(5, 8), (5, 8)],  # the same window twice
    [(0, 10), (12, 13), (5, 14)],  # sorted by last sentence, (12, 13) splits what overlaps
    [(4, 4), (6, 6)],  # one sentence between: not touching
    [],
]


LIBRARY_MERGE_HINT = (
    "your function calls the library's union, which merges the spans for you: the exercise is "
    "that merge, so write it yourself (sorted by first sentence, each window joined to the range "
    "before it when they overlap or touch)"
)


def check_merged_windows(fn: Callable) -> int:
    rng, cases = random.Random(31), list(MERGE_CASES)
    for _ in range(40):
        centres = [rng.randint(0, 30) for _ in range(rng.randint(1, 6))]
        size = rng.randint(0, 3)
        cases.append([(max(0, c - size), c + size) for c in centres])
    for windows in cases:
        expected, given = merged_expected(windows), list(windows)
        try:
            got = [tuple(w) for w in run_without(fn, (given,), union, LIBRARY_MERGE_HINT)]
        except IndexError as error:
            if windows:
                raise
            raise NotYet(
                "windows = [] (no hits) raised IndexError: with nothing to merge, "
                "return [] before reading a first range"
            ) from error
        if given != windows:  # the caller's list is the top k hits' windows, in rank order
            how = (
                "windows.sort() sorts the caller's list in place"
                if given == sorted(windows)
                else "assigning into it, windows[:] = ... or .append, rewrites the caller's list"
            )
            raise NotYet(
                f"your function changed the list it was given ({how}, and the caller loses the "
                "hits' rank order): work on a copy, sorted(windows), and return a new list. "
                f"Case: windows {windows}, left as {short(given)}"
            )
        if got != expected:
            raise NotYet(
                f"{_why_merged(got, expected, windows)}. Case: windows {windows}: got {short(got)}"
            )
    return len(cases)


# --- 03c.2: filter (each document's newest version), then rank -----------------------------------


def filtered_expected(scores: dict[str, float], passes: set[str], k: int) -> list[str]:
    """The answer: the k best-scoring ids among those that pass the filter (ties by id)."""
    allowed = sorted((i for i in scores if i in passes), key=lambda i: (-scores[i], i))
    return allowed[:k]


def _why_filtered(got: list, scores: dict[str, float], passes: set[str], k: int) -> str:
    ranked = sorted(scores, key=lambda i: (-scores[i], i))
    ranked_first = ranked[:k]
    expected = filtered_expected(scores, passes, k)
    short_by = len(expected) - len(got)
    if short_by > 0 and got == [i for i in ranked[: 10 * k] if i in passes][:k]:
        return (
            "the passing chunk ranks below the first 10 × k: taking the top k, or fetching a few "
            "times k, before filtering misses it, in silence; filter first, then rank"
        )
    if got and all(isinstance(i, tuple) for i in got):
        return "you returned (id, score) pairs: return the ids alone, best first"
    if got == [i for i in expected if scores[i] > 0] != expected:  # BM25 drops 0s; a filter not
        return "you dropped the passing chunks that score 0: passing, they still fill places"
    if got == [i for i in ranked_first if i in passes]:
        return (
            "you took the top k first and filtered after: a chunk that fails the filter then "
            "takes a place the best passing chunk should have; filter first, then rank"
        )
    if short_by > 0 and len(got) == k - 1 and got == expected[: len(got)]:
        return (
            f"you returned {len(got)} ids where k = {k} and {len(expected)} pass: cut to the "
            "first k ([:k], not [:k-1])"
        )
    if None in got and [i for i in got if i is not None] == expected:
        return "you padded the list with None up to k: fewer than k pass, return them all"
    if any(i not in scores for i in got):
        return "an id that is not in `scores` came back: rank only the ids that were scored"
    if any(i not in passes for i in got):
        return (
            "a chunk of an older version came back: it fails the filter; keep each document's "
            "newest version only"
        )
    if short_by > 0:
        return (
            f"you returned {len(got)} ids where {len(expected)} of the passing ones fit in k = "
            f"{k}: return min(k, how many pass)"
        )
    if len(got) > k:
        return f"you returned {len(got)} ids, more than k = {k}: keep only the k best"
    if got == sorted(i for i in scores if i in passes)[:k]:
        return (
            "you sorted the passing ids by id alone: sort by score, best first, and let the id "
            "only break ties"
        )
    if [scores.get(i) for i in got] == [scores[i] for i in expected] and got != expected:
        return (
            "ties: among equal scores the smaller id comes first, and your order puts a larger "
            "one before it (the order they were given in, or the set's)"
        )
    if sorted(got) == sorted(expected):
        return "the right ids in the wrong order: best score first (ties by id)"
    return "not the ids expected"


def current_ids(versions: dict[str, tuple[str, int]]) -> set[str]:
    """The ids of each document's newest version among those the index holds."""
    newest: dict[str, int] = {}
    for doc, version in versions.values():
        newest[doc] = max(newest.get(doc, version), version)
    return {i for i, (doc, version) in versions.items() if version == newest[doc]}


def current_expected(scores: dict[str, float], versions: dict, k: int) -> list[str]:
    """The answer: the k best-scoring ids among each document's newest version (ties by id)."""
    return filtered_expected(scores, current_ids(versions), k)


def _newest_as_text(versions: dict) -> set[str]:
    """The ids a filter keeps that compares versions as strings, where "9" > "10"."""
    newest: dict[str, str] = {}
    for doc, version in versions.values():
        newest[doc] = max(newest.get(doc, str(version)), str(version))
    return {i for i, (doc, version) in versions.items() if str(version) == newest[doc]}


def _why_current(got: list, scores: dict[str, float], versions: dict, k: int) -> str:
    as_text = _newest_as_text(versions)
    if as_text != current_ids(versions) and got == filtered_expected(scores, as_text, k):
        return (
            'you compared versions as strings, where "9" > "10": compare them as the ints they are'
        )
    newest = max(v for _, v in versions.values())
    one_number = {i for i, (_, v) in versions.items() if v == newest}
    if got == filtered_expected(scores, one_number, k):
        return (
            "you kept one version number for every document, the newest in the whole index (as "
            'the notebook\'s filter version == "3.2" did for its one document): each document '
            "has its own newest version"
        )
    scored = current_ids({i: versions[i] for i in scores})
    if got == filtered_expected(scores, scored, k):
        return (
            "you read each document's newest version from the chunks that scored: the newest is "
            "the one the index holds (`versions`), even when none of its chunks scored"
        )
    return _why_filtered(got, scores, current_ids(versions), k)


def _as_versions(scores: dict[str, float], passes: set[str]) -> dict[str, tuple[str, int]]:
    """One document: the passing ids its version 2, the others its version 1."""
    return {i: ("d", 2 if i in passes else 1) for i in sorted({*scores, *passes}, reverse=True)}


FILTER_CASES = [  # (scores, versions, k): one document, its best chunks an old version's
    (s, _as_versions(s, p), k)
    for s, p, k in [
        ({"a": 2.0, "b": 1.0}, {"a", "b"}, 2),  # all current: k ids come back
        ({"a": 3.0, "b": 2.0, "c": 1.0}, {"c"}, 1),
        ({"a": 3.0, "b": 2.0, "c": 1.0, "d": 0.5}, {"b", "d"}, 2),
        ({"a": 1.0, "b": 1.0}, {"a", "b"}, 1),
        ({"a": 1.0}, {"n"}, 3),  # the newest version scored nothing: none of it comes back
        ({"b": 1.0, "a": 1.0}, {"a", "b"}, 1),  # a tie in reverse insertion order: "a" first
        # 20 old chunks above the only current one: over-fetching a few times k misses it
        ({**{f"f{n:02d}": float(30 - n) for n in range(20)}, "p": 1.0}, {"p"}, 1),
        ({f"t{n}": 1.0 for n in range(8)}, {f"t{n}" for n in range(8)}, 3),  # all tied: ids
        ({"a": 2.0, "b": 0.0}, {"b", "z"}, 2),  # "z" is current but was never scored
    ]
] + [  # two documents, each at its own newest version
    (
        {"p1": 3.0, "p2": 2.0, "m1": 2.5, "m2": 1.0},
        {"p1": ("policy", 3), "p2": ("policy", 2), "m1": ("manual", 1), "m2": ("manual", 1)},
        2,
    ),
    (  # the manual's version 2 scored nothing: its version 1 is old all the same
        {"m1": 4.0, "p1": 1.0},
        {"m1": ("manual", 1), "m9": ("manual", 2), "p1": ("policy", 1)},
        2,
    ),
    (  # versions past 9: compared as strings, "9" > "10" and the old one is kept
        {"a": 3.0, "b": 1.0, "c": 2.0},
        {"a": ("policy", 9), "b": ("policy", 10), "c": ("manual", 12)},
        2,
    ),
]


def _random_case(rng: random.Random) -> tuple[dict[str, float], dict, int]:
    ids = [f"c{n:02d}" for n in range(rng.randint(1, 9))]
    rng.shuffle(ids)  # insertion order is not id order: a stable sort by score alone fails
    versions = {i: (rng.choice("xyz"), rng.randint(1, 3)) for i in sorted(ids, reverse=True)}
    scores = {i: float(rng.randint(0, 9)) for i in ids if rng.random() < 0.8}
    return scores, versions, rng.randint(1, 4)


def check_current_top_k(fn: Callable) -> int:
    rng = random.Random(5)
    cases = [_random_case(rng) for _ in range(60)]
    for scores, versions, k in [*FILTER_CASES, *cases]:
        expected = current_expected(scores, versions, k)
        passes = current_ids(versions)
        case = f"scores {scores}, versions {versions}, k={k}"
        try:
            given = dict(scores)
            returned = fn(given, dict(versions), k)
        except Exception as error:  # an unscored id looked up, or fewer than k pass: name it
            unscored = sorted(passes - scores.keys())
            if isinstance(error, KeyError) and error.args and error.args[0] in unscored:
                raise NotYet(
                    f"your function raised KeyError on {error.args[0]!r}, a current chunk that "
                    f"is not in `scores`: it was never scored, leave it out. Case: {case}"
                ) from error
            if len(expected) >= k:
                raise
            raise NotYet(
                f"your function raised {type(error).__name__} where only {len(expected)} ids "
                f"are current and scored and k = {k}: fewer than k pass, return them all. "
                f"Case: {case}"
            ) from error
        if given != scores:
            raise NotYet(
                "your function changed the `scores` it was given: leave the caller's dict as it "
                f"was and build a new list. Case: {case}"
            )
        if not isinstance(returned, list):
            raise NotYet(f"return a list of ids, not a {type(returned).__name__}")
        if returned != expected:
            raise NotYet(
                f"{_why_current(returned, scores, versions, k)}. Case: {case}: expected "
                f"{expected}, got {short(returned)}"
            )
    return len(FILTER_CASES) + len(cases)
