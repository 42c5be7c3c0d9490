"""Companion 03h's exercise 03h.1: per section, the tokens its children store twice (lines an
earlier child of the same section already holds: a heading path, a table's header rows), and the
slips it names.

`repeated_tokens(children, count)` takes the children as ``(section id, child text)`` pairs in
the order the chunker made them, sections possibly interleaved, and a counter `count(text) -> int`.
It returns a dict: every section that has a child, mapped to the sum of ``count(line)`` over each
line (not blank) that an earlier child of the same section already holds, one term per copy.

Why a check of its own: each shortcut is right on a page where every section's children repeat
only their heading path. The fixed cases hold a line shared by two sections, a line a child
holds twice, blank lines, a section that repeats nothing, a line repeated in three children, a
repeat two children apart, an indented line, a line inside an earlier line and a line repeated
with and without indentation, so that matching lines across sections or against the previous
child only, counting the first copy, counting a repeat once, taking a child's lines as a set,
looking at first lines only, counting blank lines or stripped lines, dropping a section at 0,
matching only the child just before in the list, matching a line as a substring of the earlier
text or stripped of its spaces, or joining the lines (a section's, or a child's) before counting
each fail somewhere. The hint shows the failing case whole, so that the expected answer can be
worked out from it.
The counter is the number of characters, so a line of spaces costs something. Registered in
`exercises`.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from chunklab.teaching.checking import NotYet, short

Children = list[tuple[str, str]]  # (section id, child text), in the chunker's order
Count = Callable[[str], int]


def repeated_tokens_expected(children: Children, count: Count) -> dict[str, int]:
    """The answer: per section, the tokens of each line an earlier child of it already holds."""
    seen: set[tuple[str, str]] = set()
    out: dict[str, int] = {}
    for section, text in children:
        lines = text.split("\n")
        out[section] = out.get(section, 0) + sum(
            count(line) for line in lines if line.strip() and (section, line) in seen
        )
        seen |= {(section, line) for line in lines}
    return out


def slipped(
    children: Children,
    count: Count,
    *,
    across=False,
    first=False,
    once=False,
    blank=False,
    within=False,
    drop=False,
    joined=False,
    joined_child=False,
    previous=False,
    adjacent=False,
    heading=False,
    dedupe=False,
    stripped=False,
    substring=False,
    loose=False,
) -> dict[str, int]:
    """The answer with one slip switched on (see SLIPS)."""
    seen: set = set()
    copies: dict = {}
    last: dict = {}  # each section's previous child's lines
    before: tuple = (None, set())  # the previous child in the list: its section and lines
    per_child: dict = {}  # each section's repeated lines, one list per child
    for i, (section, text) in enumerate(children):
        copies.setdefault(section, [])
        per_child.setdefault(section, []).append([])
        lines = text.split("\n")[:1] if heading else text.split("\n")
        for line in dict.fromkeys(lines) if dedupe else lines:
            key = line if across else (section, line.strip() if loose else line)
            repeat = line in last.get(section, ()) if previous else key in seen
            earlier = "\n".join(t for s, t in children[:i] if s == section)
            repeat = line in earlier if substring else repeat
            if adjacent:
                repeat = before[0] == section and line in before[1]
            if (line.strip() or blank) and repeat:
                copies[section].append(line)
                per_child[section][-1].append(line)
            if within:
                seen.add(key)
        seen |= {line if across else (section, line.strip() if loose else line) for line in lines}
        last[section] = set(lines)
        before = (section, set(lines))
    if joined_child:
        return {s: sum(count("\n".join(g)) for g in groups if g) for s, groups in per_child.items()}
    if first:  # every copy of a line held more than once, the first copy too
        for section in copies:
            held = [ln for s, t in children if s == section for ln in set(t.split("\n"))]
            copies[section] = [ln for ln in held if (ln.strip() or blank) and held.count(ln) > 1]
    if once:
        copies = {s: sorted(set(lines)) for s, lines in copies.items()}
    out = {
        s: count("\n".join(lines))
        if joined
        else sum(count(ln.strip() if stripped else ln) for ln in lines)
        for s, lines in copies.items()
    }
    return {s: n for s, n in out.items() if n} if drop else out


SLIPS: list[tuple[dict, str]] = [
    (
        {"previous": True},
        "you matched a line only against the section's previous child: a line any earlier "
        "child of the same section holds is a repeat, even with other children in between",
    ),
    (
        {"adjacent": True},
        "you matched a line only against the child just before it in the list: a section's "
        "children need not be next to each other; any earlier child of the same section counts",
    ),
    (
        {"heading": True},
        "you looked only at each child's first line (its heading path): any line can repeat, "
        "a table's header rows too",
    ),
    (
        {"dedupe": True},
        "you took each child's lines as a set: a child holding a repeated line twice stores "
        "both copies",
    ),
    (
        {"stripped": True},
        "you counted the line stripped of its spaces: the child stores the line as it is, "
        "spaces and all",
    ),
    (
        {"across": True},
        "you matched a line against every earlier child: a line another section's "
        "child holds is stored in that section; count only an earlier child of the same section",
    ),
    (
        {"first": True},
        "you counted the first copy too: the first child to hold a line stores it "
        "once, as its section does; only the later copies are extra",
    ),
    (
        {"once": True},
        "you counted each repeated line once per section: every later copy is stored "
        "again, so count each copy",
    ),
    ({"blank": True}, "you counted blank lines (or lines of spaces): skip them"),
    (
        {"within": True},
        "you counted a line a child holds twice: a repeat is a line an *earlier* "
        "child of the section holds (add a child's lines to the seen set after the child)",
    ),
    (
        {"substring": True},
        "you tested the line as a substring of the earlier children's text: 'row' is inside "
        "'row one' but is not a line of it; compare whole lines",
    ),
    (
        {"loose": True},
        "you matched the lines stripped of their spaces: '  note' and 'note' are different "
        "lines, stored apart; compare lines as they are",
    ),
    ({"drop": True}, "a section whose children repeat nothing stores 0 extra: keep it, at 0"),
    (
        {"joined": True},
        "you counted the repeated lines joined into one text: sum count(line) "
        "over the lines, one line at a time",
    ),
    (
        {"joined_child": True},
        "you counted each child's repeated lines joined into one text: sum count(line) "
        "over the lines, one line at a time",
    ),
]

CASES: list[Children] = [
    [
        ("s", "Top\nrow one\n  note"),
        ("t", "Tee\nrow one"),
        ("s", "Top\nr2"),
        ("s", "Top\nrow one\nr2\n  note\n  note"),
        ("t", "Tee"),
    ],
    [
        ("a", "A > x\nrow 1"),
        ("b", "B > y\nrow 1"),
        ("a", "A > x\nrow 2\n   "),
        ("b", "B > y\n| hh |\n| hh |"),
        ("a", "A > x\n   \nrow 1"),
        ("c", "C alone"),
    ],
    [
        ("s", "P\n| k | v |\n|---|---|\n| 1 | 2 |"),
        ("s", "P\n| k | v |\n|---|---|\n| 3 | 4 |"),
        ("s", "P\n| k | v |\n|---|---|\n| 5 | 6 |"),
    ],
    [("a", "one line")],
    [("s", "row one"), ("s", "row")],  # a line inside an earlier line is not that line
    [("s", "note"), ("s", "  note")],  # nor is the same line indented
    [],
]


def _random_case(rng: random.Random) -> Children:
    lines = ["H > a", "H > b", "| x |", "|---|", "row", "", "   ", "end", "  - item "]
    return [
        (rng.choice("abc"), "\n".join(rng.choice(lines) for _ in range(rng.randint(1, 4))))
        for _ in range(rng.randint(0, 7))
    ]


def check_repeated_tokens(fn: Callable) -> int:
    rng = random.Random(31)
    cases = [*CASES, *(_random_case(rng) for _ in range(60))]
    for children in cases:
        expected = repeated_tokens_expected(children, len)
        got = fn([tuple(c) for c in children], len)
        if isinstance(got, dict) and got == expected:
            continue
        why = next(
            (hint for slip, hint in SLIPS if got == slipped(children, len, **slip)),
            "not the tokens expected",
        )
        if not isinstance(got, dict):
            why = "return a dict: section id -> tokens stored twice"
        raise NotYet(
            f"{why}. Case: children {children!r}, count = len: expected "
            f"{expected}, got {short(got)}"
        )
    return len(cases)


CHECKS_CHILD_REPEATS: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "03h.1": (
        "repeated_tokens(children, count) -> dict of section -> tokens",
        check_repeated_tokens,
    ),
}
