"""Check of exercise 02c.1, `apart_headings(text, spans)`: notebook 02c's heading test, from spans.

A heading (a line starting with one to six `#` and a space) is kept with its text when one span
holds the whole heading line and the whole first line of text after it: the next non-blank line
that is no heading, since a subheading right under a heading is not its text. The titles of the
others (`#`s kept or not) are returned in page order; a heading with no line of text after it is
not counted. The cases stack headings, repeat titles inside other lines, and hold `# Pump` inside
`## Pump`, where a text search credits a heading no span holds. They are built from a fixed seed
(with the words and random cuts of 01.1's check, `exercises_cut_tests`); an answer that calls the
library's matcher (`chunks_with_all`) is refused, and a wrong answer is named by the slip it makes
on every case (`checking.consistent_slips`), else the first case it got wrong is shown.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from functools import partial
from typing import Any

from chunklab.evaluation.metrics import chunks_with_all
from chunklab.teaching.checking import NotYet, consistent_slips, run_without, short
from chunklab.teaching.exercises_cut_tests import WORDS, Span, draw_words, random_cut

HEADING = re.compile(r"#{1,6} ")


def _lines(text: str) -> list[tuple[int, int, str]]:
    """Every line as (start, end, line), the line break left out."""
    out, pos = [], 0
    for line in text.split("\n"):
        out.append((pos, pos + len(line), line))
        pos += len(line) + 1
    return out


def _title(line: str) -> str:
    return line.lstrip("#").strip()


def _holds(spans: list[Span], *lines: tuple[int, int, str]) -> bool:
    return any(all(a <= s and e <= b for s, e, _ in lines) for a, b in spans)


def _apart_by(
    text: str,
    spans: list[Span],
    after_of: Callable,
    kept: Callable,
    last: bool = False,
    heading: re.Pattern = HEADING,
) -> list[str]:
    """The titles `kept` says no span keeps with the line `after_of` finds; `last`: a heading
    with no line after it counted as apart too; `heading`: what a heading line looks like."""
    lines = _lines(text)
    out = []
    for k, line in enumerate(lines):
        if heading.match(line[2]):
            after = after_of(lines, k, heading)
            if (after is None and last) or (
                after is not None and not kept(text, spans, line, after)
            ):
                out.append(_title(line[2]))
    return out


Line = tuple[int, int, str]


def _next_text(lines: list[Line], k: int, heading: re.Pattern = HEADING) -> Line | None:
    """The first line of text after line k: non-blank, and no heading."""
    return next((x for x in lines[k + 1 :] if x[2].strip() and not heading.match(x[2])), None)


def _next_filled(lines: list[Line], k: int, heading: re.Pattern = HEADING) -> Line | None:
    return next((line for line in lines[k + 1 :] if line[2].strip()), None)


def _next_raw(lines: list[Line], k: int, heading: re.Pattern = HEADING) -> Line | None:
    return lines[k + 1] if k + 1 < len(lines) and _next_text(lines, k, heading) else None


def _next_any(lines: list[Line], k: int, heading: re.Pattern = HEADING) -> Line | None:
    return lines[k + 1] if k + 1 < len(lines) else None


def _reaches_next(text: str, spans: list[Span], line: tuple, after: tuple, inside: int = 1) -> bool:
    """A looser test than 02c.1 asks: the heading line whole and only the START of the next."""
    return any(a <= line[0] and line[1] <= b and after[0] + inside <= b for a, b in spans)


def _loose(pattern: str) -> Callable[..., list[str]]:
    """02c.1's test with a looser heading pattern than one to six `#`s and a space."""
    loose = re.compile(pattern)
    return lambda t, sp: _apart_by(t, sp, _next_text, _one_span, heading=loose)


_WHOLE_NEXT = "the span must hold the line of text WHOLE, to its end, not only its start"
_SEVEN = "seven or more `#`s make no heading: a heading is one to six `#`s and a space"
_NO_SPACE = "a heading is one to six `#`s and a SPACE: `#Title` and `####### Title` are plain lines"


def _one_span(text: str, spans: list[Span], line: tuple, after: tuple) -> bool:
    return _holds(spans, line, after)


def _title_and_after(text: str, spans: list[Span], line: tuple, after: tuple) -> bool:
    """A looser test than 02c.1 asks: the title alone as a line (a span may start after `#`s)."""
    title_start = line[0] + len(line[2]) - len(line[2].lstrip("#").lstrip())
    return _holds(spans, (title_start, line[1], ""), after)


def _searched(text: str, spans: list[Span], line: tuple, after: tuple, whole: bool = False) -> bool:
    """A text search in place of 02c.1's span test: the title (or the whole heading line) and the
    next line's text, both found inside one span."""
    head = line[2] if whole else _title(line[2])
    return any(head in text[a:b] and after[2] in text[a:b] for a, b in spans)


def expected_apart(text: str, spans: list[Span]) -> list[str]:
    return _apart_by(text, spans, _next_text, _one_span)


HEADING_SLIPS: list[tuple[Callable[..., Any], str]] = [
    (
        lambda t, sp: _apart_by(t, sp, _next_filled, _one_span),
        "a subheading right under a heading is not its text: the line to keep with it is the "
        "first non-blank line that is no heading",
    ),
    (
        lambda t, sp: _apart_by(t, sp, _next_text, _searched),
        "you looked for the title's words in the chunk: a title can also occur inside another "
        "line; test that the span holds the heading LINE whole, start to end",
    ),
    (
        lambda t, sp: _apart_by(t, sp, _next_text, partial(_searched, whole=True)),
        "you searched the chunk's text for the heading line: `# Pump` is also found inside "
        "`## Pump`; test where the line is, start <= its first character, its end <= end",
    ),
    (
        lambda t, sp: _apart_by(t, sp, _next_text, _title_and_after),
        "a span that starts after the heading's `#`s holds its title but not its whole line: "
        "the heading line runs from its first `#`",
    ),
    (
        lambda t, sp: _apart_by(t, sp, _next_raw, _one_span),
        "the line after a heading is the next NON-BLANK line of text: a blank line is held by "
        "any span that reaches it",
    ),
    (
        lambda t, sp: _apart_by(t, sp, _next_any, _one_span),
        "the line after a heading is the next NON-BLANK line of text, not the line just below "
        "it, which may be blank or a heading",
    ),
    (lambda t, sp: _apart_by(t, sp, _next_text, _reaches_next), _WHOLE_NEXT),
    (lambda t, sp: _apart_by(t, sp, _next_text, partial(_reaches_next, inside=0)), _WHOLE_NEXT),
    (
        lambda t, sp: [_title(x) for x in _loose(r"[ \t]*#{1,6} ")(t, sp)],
        "a heading line STARTS with its `#`s: an indented `  # Title` is a plain line here",
    ),
    (_loose(r"#+ "), _SEVEN),
    (_loose(r"#{1,6}(?!#)"), _NO_SPACE),
    (_loose(r"#+"), _NO_SPACE),
    (_loose(r"#{1,6}"), _NO_SPACE),
    (
        lambda t, sp: _apart_by(t, sp, _next_text, lambda t, sp, h, n: _holds(sp, h)),
        "a heading counts as kept only when the same span also holds the line after it",
    ),
    (
        lambda t, sp: _apart_by(
            t, sp, _next_text, lambda t, sp, h, n: _holds(sp, h) and _holds(sp, n)
        ),
        "the heading line and the line after it must be in ONE span, not each in some span",
    ),
    (
        lambda t, sp: _apart_by(t, sp, _next_text, _one_span, last=True),
        "a heading with no line of text after it is not counted: it has no text to keep",
    ),
    (
        lambda t, sp: sorted(expected_apart(t, sp)),
        "return the titles in page order, as the headings come, not sorted",
    ),
    (
        lambda t, sp: list(dict.fromkeys(expected_apart(t, sp))),
        "two headings can share a title: return one title per heading left apart, repeats kept",
    ),
]


def heading_cases() -> list[tuple[str, list[Span]]]:
    text = "# Pump\nSee Pump below.\n\n## Seal\n\nseal text\n## Pump care\nlast line"
    cases = [(text, [(0, 22), (22, len(text))]), (text, []), ("## Only heading", [(0, 15)])]
    odd = "####### Seven\nbody one\n#Nospace\nbody two\n# Real\nbody three"  # two non-headings
    cases.append((odd, [(0, 5), (5, 27), (27, len(odd))]))
    twice = "## Notes\nalpha\n## Notes\nbeta"  # the same title apart twice
    cases.append((twice, [(0, 10), (10, 20), (20, len(twice))]))
    indented = "  # Indented\nbody one\n# Real\nbody two"  # the first line is no heading
    cases.append((indented, [(0, 13), (13, 22), (22, len(indented))]))
    cases.append(("# Pump\nintro\n\n## Pump\nintro\n", [(0, 8), (8, 28)]))  # '# Pump' in '## Pump'
    stack = "## Stack\n\n### Under\n\nbody\n\n## End\n### Last"  # two stacks; the last, no text
    cases.append((stack, [(0, 19), (19, len(stack))]))  # 'Stack' with 'Under' only: apart
    cases.append((stack, [(0, 25), (25, len(stack))]))  # a stack kept whole with its text
    rng = random.Random(202)
    for _ in range(60):
        lines: list[str] = []
        titles = rng.sample([w.title() for w in WORDS], rng.randint(1, 5))
        for title in titles:
            lines.append("#" * rng.randint(1, 4) + " " + title)
            if rng.random() < 0.5:
                lines.append("")
            for _ in range(rng.randint(0, 2)):
                words = draw_words(rng, rng.randint(1, 4))
                if rng.random() < 0.4:  # a title inside another line
                    words.insert(rng.randint(0, len(words)), rng.choice(titles))
                lines.append(" ".join(words))
            if rng.random() < 0.3:
                lines.append("")
        text = "\n".join(lines)
        cases.append((text, random_cut(rng, len(text)) if len(text) > 1 else []))
    return cases


def _as_titles(got: Any) -> list[str]:
    return [_title(str(item)) for item in got]


def check_apart_headings(fn: Callable) -> int:
    cases = heading_cases()
    for text, spans in cases:
        got = run_without(
            fn,
            (text, list(spans)),
            chunks_with_all,
            "your function calls {name}: the exercise asks you to test each span yourself",
        )
        try:
            titles = _as_titles(got)
        except TypeError:
            titles = None
        right = expected_apart(text, spans)
        if titles != right:
            slips = consistent_slips(fn, HEADING_SLIPS, cases, shape=_as_titles)
            why = "; or ".join(dict.fromkeys(slips)) or (
                "a heading is kept when one span holds its whole line and the whole first line "
                "of text after it; return the others' titles in page order"
            )
            raise NotYet(
                f"text {short(text, 70)}, spans {short(spans, 50)}: expected {right}, got "
                f"{short(titles if titles is not None else got)}: {why}"
            )
    return len(cases)


CHECKS_HEADINGS_APART: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "02c.1": ("apart_headings(text, spans) -> list of titles", check_apart_headings),
}
