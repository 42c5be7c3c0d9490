"""The lines repeated on every page, compared as given, and the hints naming each slip.

Exercise 08b.1 now asks for running lines that carry a page number
(`teaching.exercises_running_heads`); this exact rule is its first slip, and its hints stay here.

A PDF's running head or foot (a title, an agency's name, "Sample agenda" at the bottom of every
page) is text like any other, and a converter that keeps it puts the same line into every chunk of
a page. chunklab drops it, as it drops page numbers. The rule a learner writes here is the test
behind that: a line that appears on every page, taken in the first page's order, each once. One
page cannot tell a running line from the text, so fewer than two pages give none.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from chunklab.teaching.checking import NotYet, short


def expected_running_lines(pages: list[list[str]]) -> list[str]:
    if len(pages) < 2:
        return []
    common = set(pages[0]).intersection(*(set(page) for page in pages[1:]))
    return list(dict.fromkeys(line for line in pages[0] if line in common))


def _cases() -> list[list[list[str]]]:
    """Hand-picked cases, each a slip's trap, then random ones from a fixed seed."""
    cases = [
        # first: the right lines in an order neither sorted nor a page's, as a set gives them
        [["f6", "c3", "a1", "e5", "b2", "d4"], ["d4", "b2", "e5", "a1", "c3", "f6"]],
        [["Agenda", "Day 1", "18F kick-off"], ["Day 2", "18F kick-off"], ["Day 3", "18F kick-off"]],
        [["Report", "a", "Page foot"], ["Report", "b", "Page foot"]],  # a head and a foot
        [["Draft", "a"], ["Draft", "b"], ["c"]],  # on two pages of three: not running
        [["only", "one page"]],  # one page: nothing can be told running
        [],
        [["Foot", "a", "Foot"], ["Foot", "b"]],  # twice on a page: returned once
        [["Mid", "Zed", "Alp"], ["Zed", "Alp", "Mid"]],  # the last page's order, not sorted
        [
            ["Zeta head", "text", "Alpha foot"],
            ["Alpha foot", "more", "Zeta head"],
        ],  # first page's order
        [["Page foot ", "a"], ["Page foot", "b"]],  # a trailing space: not the same line
        [["Page Foot", "a"], ["page foot", "b"]],  # another case: not the same line
        [["Page  foot", "a"], ["Page foot", "b"]],  # two spaces inside: not the same line
        [["Page 1 of 2", "a"], ["Page 2 of 2", "b"]],  # another number: not the same line
        [["x", "Head", "", "a"], ["y", "Head", "", "b"]],  # a blank line on every page is returned
        [["Foot", "a", "Foot"], ["b"]],  # twice on one page, on no other: not on every page
    ]
    rng = np.random.default_rng(8)
    vocabulary = [f"line {i}" for i in range(12)]
    for _ in range(30):
        pages = [
            [vocabulary[int(i)] for i in rng.integers(0, 12, int(rng.integers(1, 7)))]
            for _ in range(int(rng.integers(1, 5)))
        ]
        cases.append(pages)
    return cases


def _slips(pages: list[list[str]]) -> dict[str, list[str]]:
    """What each predictable slip returns on one case -> the words that name it."""
    seen_on = [line for page in pages for line in dict.fromkeys(page)]
    several = [line for line in dict.fromkeys(seen_on) if seen_on.count(line) > 1]
    every = set(pages[0]).intersection(*(set(page) for page in pages[1:])) if pages else set()
    return {
        "you kept lines found on some pages only: a running line is on every page": several,
        "with one page every line is on every page: return [] below two pages": list(
            dict.fromkeys(line for line in pages[0] if line in every)
        )
        if pages
        else [],
        "you returned a line once per time the first page holds it: each line once": [
            line for line in (pages[0] if pages else []) if line in every
        ]
        if len(pages) >= 2
        else [],
        "your lines follow the last page's order: give them in the order of the first page": list(
            dict.fromkeys(line for line in pages[-1] if line in every)
        )
        if len(pages) >= 2
        else [],
        "your lines are sorted: give them in the order of the first page": sorted(every)
        if len(pages) >= 2
        else [],
        "you compared the first page with the last only: a running line is on every page": list(
            dict.fromkeys(line for line in pages[0] if line in pages[-1])
        )
        if len(pages) >= 2
        else [],
        "you stripped the lines: compare them as given, a trailing space makes another line": list(
            dict.fromkeys(
                line.strip()
                for line in pages[0]
                if all(line.strip() in {x.strip() for x in page} for page in pages[1:])
            )
        )
        if len(pages) >= 2
        else [],
        "you counted a line's occurrences over all pages: a line twice on one page is not on two "
        "pages; count the pages that hold it": [
            line
            for line in dict.fromkeys(pages[0])
            if sum(page.count(line) for page in pages) >= len(pages)
        ]
        if len(pages) >= 2
        else [],
        "you dropped blank lines: a blank line found on every page is returned too": [
            line for line in expected_running_lines(pages) if line.strip()
        ],
        "you looked at each page's first and last lines only: a running line may stand anywhere": [
            line
            for line in dict.fromkeys(pages[0][:1] + pages[0][-1:])
            if all(line in page[:1] + page[-1:] for page in pages)
        ]
        if len(pages) >= 2 and all(pages)
        else [],
    }


LOOSE: dict[str, Callable[[str], str]] = {  # a looser comparison -> the words naming it
    "you compared the lines ignoring case: compare them as given": str.lower,
    "you collapsed the spaces inside the lines: compare them as given": (
        lambda line: re.sub(r"\s+", " ", line)
    ),
    "you masked the digits: a line with another number is another line, compare them as given": (
        lambda line: re.sub(r"\d+", "#", line)
    ),
}


def _loose_hint(pages: list[list[str]], got: object) -> str:
    """A returned line not on every page as given, but on every page once case, inner spaces or
    digits are ignored, names that looser comparison."""
    try:
        extra = [line for line in got if not all(line in page for page in pages)]  # type: ignore[attr-defined]
    except TypeError:
        return ""
    for words, loose in LOOSE.items():
        if extra and all(
            isinstance(line, str) and all(loose(line) in map(loose, page) for page in pages)
            for line in extra
        ):
            return words
    return ""


def _order_hint(got: object, expected: list[str]) -> str:
    """The hint when no named slip matched: a set, or the right lines in another order, says so;
    a set's order is its hashes', so it matches the sorted order only by chance."""
    if isinstance(got, (set, frozenset)):
        return "you returned a set, which has no order: return a list in the first page's order"
    try:
        same_lines = sorted(got) == sorted(expected)  # type: ignore[call-overload]
    except TypeError:
        same_lines = False
    if same_lines:
        return "the right lines in another order (a set's?): give them in the first page's order"
    return "keep the lines found on every page, in the first page's order, each once"


def check_running_lines(fn: Callable) -> int:
    cases = 0
    for pages in _cases():
        expected = expected_running_lines(pages)
        got = fn([list(page) for page in pages])
        try:
            ok = list(got) == expected
        except TypeError:
            ok = False
        if not ok:
            matched = [
                words for words, slip in _slips(pages).items() if slip != expected and slip == got
            ]
            hint = "; or ".join(matched) or _loose_hint(pages, got) or _order_hint(got, expected)
            raise NotYet(f"pages {short(pages)}: expected {expected}, got {short(got)}: {hint}")
        cases += 1
    return cases


CHECKS_RUNNING: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "08b.1": ("running_lines(pages) -> list of str", check_running_lines),
}
