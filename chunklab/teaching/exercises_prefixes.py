"""Notebook 06's coding exercise checks: the breadcrumb written by hand (06.1, at the end of this
module), and the article's path prefix with its level rule fixed (06.2).

The unseen documents have subsections ("2.1 Visual", "2.1. Visual", "2.1.3 …"), sections that
climb back up after them, and a depth skipped ("1." then "1.1.1" and its sibling "1.1.2", which a
stack cut by place nests under it), so only the rule itself passes: the level of a numbered
title is the depth of its number. A hard-coded level, the article's value rule, an off-by-one in
the stack, a stack cut by place, or a pattern that never reads "2.1" as a title all fail, with a
hint naming which. Judged against the
library's fixed version, `article_path_chunks(doc, fixed=True)`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from chunklab.chunkers.prefixes import article_path_chunks
from chunklab.contracts import Document
from chunklab.parsing.sections import build_outline
from chunklab.teaching.checking import NotYet, first_difference, run_without, short

TITLES = ["Escopo", "Frequência", "Tabela", "Registro", "Segurança", "Anexos", "Visual", "Ruído"]
WORDS = ["A inspeção", "ocorre", "a cada", "30 dias.", "O técnico", "registra.", "o valor"]


def _body(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 8))).capitalize()


def _numbers(rng: random.Random) -> list[str]:
    """Section numbers in document order, down to depth 3 and back up, written as GFM users do."""
    out: list[str] = []
    for top in range(1, rng.randint(3, 5)):
        out.append(f"{top}.")
        for sub in range(1, rng.randint(1, 3)):
            out.append(rng.choice([f"{top}.{sub}", f"{top}.{sub}."]))
            for leaf in range(1, rng.randint(1, 3)):
                out.append(f"{top}.{sub}.{leaf}")
    return out


def numbered_document(rng: random.Random) -> str:
    parts = ["MANUAL DE TESTE"]
    for number in _numbers(rng):
        parts.append(f"{number} {rng.choice(TITLES)}\n{_body(rng)}")
        if rng.random() < 0.3:
            parts.append(_body(rng))
    return "\n\n".join(parts) + "\n"


def _path(chunk_text: str) -> str:
    return chunk_text.split("\n", 1)[0]


def _parts(entry: str) -> int:
    """How many parts the number of a path entry has: "2. X" 1, "2.1 X" and "2.1. X" 2."""
    return entry.split(" ", 1)[0].rstrip(".").count(".") + 1


# Three sibling sections: the value rule nests each under the one before (1 > 2 > 3); a stack cut
# one level too long keeps the first in front of every other (1 > 3). Told apart by running them.
SIBLINGS = "PROBE\n\n1. Um\nA.\n\n2. Dois\nB.\n\n3. Tres\nC.\n"


# A subsection written without a trailing dot: "1.1" has two parts however its parts are counted,
# so a function that counts "2." as two parts (split(".") keeping the empty one) gets this right
# while it nests the siblings above; a stack kept one level too long gets both wrong.
SUBSECTIONS = "PROBE\n\n1. Um\nA.\n\n1.1 Sub\nB.\n\n1.2 Outra\nC.\n"
# A depth skipped: "1.1.1" straight under "1.", then its sibling "1.1.2". A stack cut by place,
# stack[: level - 1], keeps "1.1.1" (at place 2, level 3) in front of "1.1.2"; cut by level it goes.
SKIPPED = "PROBE\n\n1. Um\nA.\n\n1.1.1 Sub\nB.\n\n1.1.2 Outra\nC.\n"
SKIPPED_CASE = (
    "MANUAL DE TESTE\n\n1. Escopo\nO técnico registra.\n\n1.1.1 Visual\nA inspeção ocorre.\n\n"
    "1.1.2 Ruído\nO valor a cada 30 dias.\n\n2. Registro\nO técnico registra o valor.\n"
)
# A paragraph that opens with a number and no dot after it is text, not a title.
NO_DOT = "PROBE\n\n1. Um\nA.\n\n30 dias. B.\n\nC.\n"


def _paths_of(fn: Callable | None, text: str) -> list[str]:
    """The paths the learner's function writes for a probe ([] when it fails on it)."""
    try:
        return [_path(str(chunk)) for chunk in fn(text)] if fn else []
    except Exception:  # the learner's function may fail on a probe: then the probe says nothing
        return []


def _probe_slip(fn: Callable | None) -> str | None:
    """A slip a small probe document gives away, named; None when no probe catches one."""
    if any("30 dias" in path for path in _paths_of(fn, NO_DOT)):
        return (
            "'30 dias. B.' is text, not a title: a title's number needs a dot ('2.', '2.1', "
            "'2.1.'), and '30' has none"
        )
    if _title_left_in_body(fn):
        return _missed_title_hint(
            "1.1 Sub", " (in a test document of the check's: '1. Um', '1.1 Sub')"
        )
    third = _paths_of(fn, SIBLINGS)[-1:]
    if third == ["PROBE > 1. Um > 3. Tres"] and _paths_of(fn, SUBSECTIONS)[-1:] == [
        "PROBE > 1. Um > 1.2 Outra"
    ]:
        return (
            "a trailing dot is not a part: '2.' has one part, but '2.'.split('.') gives "
            "['2', ''], so drop the empty part (or the trailing dot) before counting"
        )
    return None


def _missed_title_hint(title: str, where: str = "") -> str:
    return (
        f"your pattern did not read {title!r} as a title{where}: a number of two or more parts "
        "is a title, with or without a trailing dot ('2.1', '2.1.', '2.1.3')"
    )


def _missed_title(got_path: str, expected_chunk: str) -> str | None:
    """The subsection title this chunk's path lacks, if any: '2.1. Segurança'."""
    written, wanted = got_path.split(" > "), _path(expected_chunk).split(" > ")[1:]
    return next((entry for entry in wanted if _parts(entry) > 1 and entry not in written), None)


def _title_left_in_body(fn: Callable | None) -> bool:
    """Whether the subsection probe's "1.1 Sub" stayed in a chunk's text instead of its path."""
    try:
        chunks = [str(chunk) for chunk in fn(SUBSECTIONS)] if fn else []
    except Exception:  # the learner's function may fail on a probe: then the probe says nothing
        return False
    return any("1.1 Sub" in chunk.partition("\n")[2] for chunk in chunks)


def _slip_shows_in(slip: str, got_path: str, expected_chunk: str = "") -> bool:
    """Whether the probe's slip explains this chunk: a dotless number read as a title shows as an
    entry such as '30 dias' (not '1 Ruído' where '1. Ruído' is wanted), or as a missing chunk
    whose paragraph opens with such a number (read as a title, it opened a section instead of
    becoming a chunk); the other probe slips are about levels, which any path can show."""
    if slip.startswith("'30 dias"):
        body = expected_chunk.partition("\n")[2]
        wanted = _path(expected_chunk).split(" > ")[1:]
        return bool(re.match(r"\d+\s", body)) or any(
            re.match(r"\d+\s", entry) and entry.replace(" ", ". ", 1) not in wanted
            for entry in got_path.split(" > ")[1:]
        )  # "1 Ruído" where "1. Ruído" is wanted is a title rewritten, not a dotless one read
    if slip.startswith("your pattern did not read"):
        return _missed_title(got_path, expected_chunk) is not None
    return True


def _cut_by_place(fn: Callable | None) -> bool:
    """Whether the skipped-depth probe nests "1.1.2" under its sibling "1.1.1" while siblings
    and subsections with no depth skipped come out right (else another slip explains it)."""
    return (
        _paths_of(fn, SKIPPED)[-1:] == ["PROBE > 1. Um > 1.1.1 Sub > 1.1.2 Outra"]
        and _paths_of(fn, SIBLINGS)[-1:] == ["PROBE > 3. Tres"]
        and _paths_of(fn, SUBSECTIONS)[-1:] == ["PROBE > 1. Um > 1.2 Outra"]
    )


BY_PLACE = (
    "a depth can be skipped ('1.' then '1.1.1'), so a title's place in the stack is not its "
    "level: stack[: level - 1] cuts by place and keeps '1.1.1' in front of its sibling '1.1.2'. "
    "Keep each title with its level and drop those of its level or deeper"
)


def _sibling_slip(fn: Callable | None) -> str:
    """Why a section nested under a sibling: the value rule, or a stack kept one level too long."""
    value_rule = "its level is the depth of its number, not its value"
    third = (_paths_of(fn, SIBLINGS) or [""])[-1]
    if third == "PROBE > 1. Um > 3. Tres" and _paths_of(fn, SUBSECTIONS)[-1:] == [
        "PROBE > 1. Um > 1.2 Outra"
    ]:  # subsections right, siblings nested: the depth is off by one, not the stack
        return (
            "'2.' sits one level too deep: a trailing dot is not a part, but "
            "'2.'.split('.') gives ['2', '']; drop the empty part before counting"
        )
    if third == "PROBE > 1. Um > 3. Tres":
        stack = (
            "a title at level L keeps the L - 1 titles above it, stack[: level - 1], "
            "not stack[: level]"
        )
        if _title_left_in_body(fn):  # '1.1' unread: a trailing dot counted as a part looks the same
            return (
                f"a section keeps its previous sibling in front: either {stack}, or a trailing "
                "dot is counted as a part ('2.'.split('.') gives ['2', ''])"
            )
        return f"a section keeps its previous sibling in front: {stack}"
    return f"a section nests under a sibling: {value_rule}"


def _hint(expected: str, got: str, fn: Callable | None = None) -> str:
    """Which rule the wrong path broke, named for the learner."""
    want, have = expected.split(" > "), got.split(" > ")
    for should, wrote in zip(want[1:], have[1:], strict=False):
        number, _, words = should.partition(" ")
        written, _, wrote_words = wrote.partition(" ")
        if should != wrote and number.rstrip(".") == written.rstrip(".") and words == wrote_words:
            return (
                f"write each title as it is numbered: keep the number as written, {should!r}, "
                f"not {wrote!r}"
            )
    if len(have) > len(want) and have[-1] == want[-1] and _cut_by_place(fn):
        return BY_PLACE
    deep = [(i, entry) for i, entry in enumerate(want) if i and _parts(entry) > 1]
    if deep and (deep[-1][0] >= len(have) or have[deep[-1][0]] != deep[-1][1]):
        i, entry = deep[-1]
        return (
            f"{entry!r} is a title whose number has {_parts(entry)} parts: it sits at level "
            f"{_parts(entry)}, under {want[i - 1]!r}"
        )
    if len(have) > len(want):
        return _sibling_slip(fn)
    if len(have) == len(want) and [_parts(e) for e in have] == [_parts(e) for e in want]:
        return (
            f"the path should be {expected!r}: write each title as it is numbered, its number "
            "and its words unchanged"
        )
    return f"the path should be {expected!r}"


REFUSAL_06_2 = (
    "your function calls {name}, the library's answer; the exercise is the level rule itself: "
    "fix the starter's pattern and level so that a title's level is the depth of its number"
)


def check_fixed_path_chunks(fn: Callable) -> int:
    """06.2: `fixed_path_chunks(text)` on numbered documents with subsections."""
    rng, cases = random.Random(6), 0
    for k in range(21):  # 20 drawn documents, then one with a depth skipped
        text = numbered_document(rng) if k < 20 else SKIPPED_CASE
        doc = Document(doc_id=f"t{k}", uri=f"urn:exercise:{k}", title="", text=text)
        expected = [c.text for c in article_path_chunks(doc, fixed=True)]
        got = list(run_without(fn, (text,), [article_path_chunks], REFUSAL_06_2))
        if got != expected:
            at, should, wrong = first_difference(got, expected, short)
            slip = _probe_slip(fn)
            both = at < len(got) and at < len(expected)
            first = _hint(_path(expected[at]), _path(str(got[at])), fn) if both else None
            missed = _missed_title(_path(str(got[at])), expected[at]) if both else None
            if slip and slip.startswith("your pattern did not read") and missed:
                slip = _missed_title_hint(missed)  # named from the chunk shown, not the probe
            if slip and first and not _slip_shows_in(slip, _path(str(got[at])), expected[at]):
                hint = f"{first}; and also: {slip}"  # two slips: the one this chunk shows first
            elif slip or first:
                hint = slip or str(first)
            else:
                hint = "one chunk per paragraph, a title alone opens its section"
            raise NotYet(
                f"on {short(text, 60)}: chunk {at} should be {should}, got {wrong} ({hint})"
            )
        cases += 1
    return cases


# 06.1: the breadcrumb alone. Headings skip back up, skip levels, repeat a level, and hold a '#'
# in a title (C#), so only the rule passes: a heading's level is its count of leading '#', and a
# heading drops every heading above it of its level or deeper (a stack of (level, title)).
HEADING_TITLES = ["Manual", "Escopo", "C# notes", "Frequência", "Tabela", "Anexos", "Visual"]


def heading_title(heading: str) -> str:
    """A heading line's title as CommonMark reads it: without the leading '#' marks, nor a
    closing run of '#' after a space (`## B ##` is `B`; `## C#` keeps its '#')."""
    return re.sub(r"\s+#+$", "", heading.lstrip("#").strip())


def heading_paths_of(headings: list[str]) -> list[str]:
    """The reference: each heading's path from the top, joined by ' > '."""
    stack: list[tuple[int, str]] = []
    out = []
    for heading in headings:
        level = len(heading) - len(heading.lstrip("#"))
        stack = [(lv, t) for lv, t in stack if lv < level] + [(level, heading_title(heading))]
        out.append(" > ".join(t for _, t in stack))
    return out


def _paths_by_position(headings: list[str]) -> list[str]:
    """The slip: the path cut by position, path[: level - 1], wrong once a level is skipped."""
    path: list[str] = []
    out = []
    for heading in headings:
        path = path[: len(heading) - len(heading.lstrip("#")) - 1] + [heading.lstrip("#").strip()]
        out.append(" > ".join(path))
    return out


def _heading_lists(rng: random.Random) -> list[list[str]]:
    probes = [
        ["# A", "## B", "## C"],
        ["# A", "## B", "### C", "## D"],
        ["# A", "## B", "## C# x"],
        ["# A", "## C#"],
        ["# A", "## B", "### C", "## D", "#### F"],  # a level skipped after climbing back up
        ["# A", "### C", "### D"],  # siblings at a skipped level: D drops C
        ["## A", "#### B", "### C", "#### D", "#### E"],  # back up to a skipped level
        ["# A", "## B ##", "### C# #", "## D ## x"],  # closing runs: not part of the title
    ]
    for _ in range(20):
        levels, headings = [1], []
        for _ in range(rng.randint(3, 8)):
            levels.append(rng.randint(1, levels[-1] + 1) if levels[-1] < 4 else rng.randint(1, 4))
        for level in levels:
            headings.append("#" * level + " " + rng.choice(HEADING_TITLES))
        probes.append(headings)
    return probes


def _heading_slip(headings: list[str], got: list[str], expected: list[str]) -> str:
    """Name the rule a wrong path broke."""
    at = next(i for i, (g, e) in enumerate(zip(got, expected, strict=False)) if g != e)
    have, want = str(got[at]).split(" > "), expected[at].split(" > ")
    if ">" in str(got[at]) and str(got[at]).replace(" ", "") == expected[at].replace(" ", ""):
        return "join the titles with ' > ', a space either side of the '>'"
    written = headings[at].lstrip("#").strip()
    if have[-1] == written != want[-1] and re.search(r"\s#+$", written):
        return (
            f"{headings[at]!r}: a closing run of '#' after a space ends the line and is not part "
            "of the title (CommonMark; MarkdownChunker's path drops it too); lstrip('#') removes "
            "only the leading marks"
        )
    level = len(headings[at]) - len(headings[at].lstrip("#"))
    skipped = level > (len(expected[at - 1].split(" > ")) if at else 0) + 1
    if skipped and len(have) > len(want) and have[-1] == want[-1]:
        return (
            f"{headings[at]!r} skips a level, and a title from an earlier, deeper heading came "
            "back: a level-L heading clears every level below L, not only level L"
        )
    if got[at] == _paths_by_position(headings)[at]:
        return (
            f"{headings[at]!r}: a level was skipped above it, so a title's place in the path is "
            "not its level; path[: level - 1] cuts by place. Keep each title with its level and "
            "drop those of level L or deeper before adding a level-L heading"
        )
    if any("#" in part and "#" not in headings[at].lstrip("#") for part in have) or any(
        part != part.strip() for part in have
    ):
        return "write each title without its leading '#' marks and the space after them"
    if "#" in headings[at].lstrip("#") and len(have) != len(want):
        return f"{headings[at]!r}: count only the leading '#' marks; a title may hold a '#' itself"
    if len(have) > len(want) and have[: len(want) - 1] == want[:-1]:
        return (
            "a heading keeps a sibling or a deeper heading in front of it: a level-L heading "
            "drops every title of level L or deeper before adding its own (not path[: level], "
            "and not a path that only grows)"
        )
    if len(have) < len(want):
        return "a heading at level L keeps every title above it of a lower level; the path lost one"
    if have[-1] != want[-1] and have[-1] == want[-1].rstrip("#").strip():
        return (
            "a '#' that ends a word belongs to the title ('C#'): a closing run goes only when a "
            "space comes before it; strip('#') or rstrip('#') also eats a '#' that ends a title"
        )
    if have[-1] != want[-1] and have[-1] == " ".join(want[-1].replace("#", " ").split()):
        return (
            "remove only the leading '#' marks (lstrip): replace('#', '') also removes a '#' "
            "inside a title, as in 'C# x'"
        )
    return f"the path at {headings[at]!r} should be {expected[at]!r}"


REFUSAL_06_1 = (
    "your function calls {name}, which writes the path for you; the exercise is the rule itself: "
    "a stack of (level, title), each heading dropping those of its level or deeper"
)
_LIBRARY_PATHS: list[Callable] = [build_outline, heading_paths_of, heading_title]


def check_heading_paths(fn: Callable) -> int:
    """06.1: `heading_paths(headings)` on heading lists it has not seen."""
    cases = 0
    for headings in _heading_lists(random.Random(61)):
        expected = heading_paths_of(headings)
        got = list(run_without(fn, (list(headings),), _LIBRARY_PATHS, REFUSAL_06_1))
        if len(got) != len(expected):
            raise NotYet(f"on {headings}: {len(got)} paths for {len(expected)} headings (one each)")
        if got != expected:
            at = next(i for i, (g, e) in enumerate(zip(got, expected, strict=True)) if g != e)
            raise NotYet(
                f"on {headings}: path {at} should be {expected[at]!r}, got {got[at]!r} "
                f"({_heading_slip(headings, got, expected)})"
            )
        cases += 1
    return cases
