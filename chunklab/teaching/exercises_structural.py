"""The checks of notebook 02's coding exercises (02.1, 02b.1), registered in `exercises.CHECKS`.

Why a module of its own: each check also recognises the plausible wrong answers a learner writes
(adding up the pieces' token counts, counting characters, `startswith` for a fence) and names the
rule that answer breaks, which would push `exercises` past its size. A wrong answer that is none
of these still fails, on the first unseen case where it differs, with what was expected.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

from chunklab.chunkers.structural import split_span
from chunklab.parsing.scanner import closes_fence, indent_width, opening_fence
from chunklab.teaching.checking import NotYet, run_without, short
from chunklab.tokens.budget import SourceBudget
from chunklab.tokens.counters import cl100k
from chunklab.tokens.packing import largest_fitting, pack_spans

Span = tuple[int, int]

# --- 02.1: repack by tokens --------------------------------------------------------------------


def greedy(spans: list[Span], fits: Callable[[list[Span], Span], bool]) -> list[Span]:
    """Merge each span into the last piece while `fits(pieces_of_that_piece, span)` says so."""
    pieces: list[list[Span]] = []
    for span in spans:
        if pieces and fits(pieces[-1], span):
            pieces[-1].append(span)
        else:
            pieces.append([span])
    return [(group[0][0], group[-1][1]) for group in pieces]


def repack_mistakes(text: str, spans: list[Span], budget: int) -> dict[str, list[Span]]:
    """What each plausible wrong rule returns, keyed by the hint that names its mistake."""
    right = greedy(spans, lambda group, s: cl100k(text[group[0][0] : s[1]]) <= budget)
    return {
        "neighbouring spans should be merged while they fit; you returned them unmerged": list(
            spans
        ),
        "you added up the pieces' counts; count the merged slice text[first_start:last_end] "
        "itself, separators included": greedy(
            spans, lambda group, s: sum(cl100k(text[a:b]) for a, b in [*group, s]) <= budget
        ),
        "a merged piece may have exactly `budget` tokens (at most, not fewer than)": greedy(
            spans, lambda group, s: cl100k(text[group[0][0] : s[1]]) < budget
        ),
        "the budget is in cl100k tokens, not characters": greedy(
            spans, lambda group, s: s[1] - group[0][0] <= budget
        ),
        "you added the merged piece's count to the new piece's; count the merged slice "
        "text[first_start:last_end] once, as one text": greedy(
            spans,
            lambda group, s: (
                cl100k(text[group[0][0] : group[-1][1]]) + cl100k(text[s[0] : s[1]]) <= budget
            ),
        ),
        "a merged piece may have at most `budget` tokens, not budget + 1": greedy(
            spans, lambda group, s: cl100k(text[group[0][0] : s[1]]) <= budget + 1
        ),
        "you counted the pieces joined with a space; count the slice of the text itself, "
        "with its own separators": greedy(
            spans, lambda group, s: cl100k(" ".join(text[a:b] for a, b in [*group, s])) <= budget
        ),
        "you counted the pieces joined with a line break; spans need not be lines (some texts "
        "are cut at spaces): count the slice of the text itself, separators included": greedy(
            spans, lambda group, s: cl100k("\n".join(text[a:b] for a, b in [*group, s])) <= budget
        ),
        "the budget is in cl100k tokens, not words (`split()`)": greedy(
            spans, lambda group, s: len(text[group[0][0] : s[1]].split()) <= budget
        ),
        "a span over the budget on its own is still a piece: keep it whole, never drop it": [
            (a, b) for a, b in right if (a, b) not in spans or cl100k(text[a:b]) <= budget
        ],
    }


SENTENCES = [
    "Inspect the pump every 30 days.",
    "Vibration above 4,5 mm/s stops the line.",
    "Log the value.",
    "A technician signs each record, with date and time.",
    "Incomplete records are refused by the audit system.",
    "Ok.",
    "Misalignment over 0,08 mm means realigning the shaft before restart.",
    "- check the seal",
    "| Vibração | mm/s | 4,5 |",
    "Registro",
    "see section 4",
]


# 02.1 asks for the packer the library holds: a call into it is refused, with what to write
LIBRARY: list[Callable] = [pack_spans, largest_fitting]
OWN = (
    "your function calls {name}, the library's packer: write the loop yourself (repack_ above, "
    "with the merged slice counted by cl100k instead of its length in characters)"
)


def check_repack_tokens(fn: Callable) -> int:
    """02.1 against the library's packer (`pack_spans`) on random texts and budgets.

    On a miss, the hint names the plausible mistake that gives the learner's pieces on *every*
    case, not only the first one missed: on a small case two mistakes can return the same pieces.
    """
    rng, runs = random.Random(2), []
    # 60 texts cut at line breaks, then 20 cut at spaces, where a rebuilt "\n".join is wrong
    for separator, texts, fewest in (("\n", 60, 1), (" ", 20, 2)):
        for _ in range(texts):
            budget = rng.randint(6, 60)
            text = separator.join(rng.choice(SENTENCES) for _ in range(rng.randint(fewest, 9)))
            spans = split_span(text, 0, len(text), separator)
            got = [tuple(s) for s in run_without(fn, (text, list(spans), budget), LIBRARY, OWN)]
            want = pack_spans(spans, budget, SourceBudget(text, cl100k))
            runs.append((text, spans, budget, got, want))
    missed = [run for run in runs if run[3] != run[4]]
    if not missed:
        return len(runs)
    mistakes = [repack_mistakes(text, spans, budget) for text, spans, budget, _, _ in runs]
    hint = next(
        (
            h
            for h in mistakes[0]
            if all(m[h] == run[3] for m, run in zip(mistakes, runs, strict=True))
        ),
        None,
    )
    text, spans, budget, got, expected = missed[0]
    raise NotYet(
        f"budget={budget}, text={short(text, 60)}: expected {short(expected)}, got {short(got)}: "
        f"{hint or piece_hint(text, spans, budget, got)}"
    )


def piece_hint(text: str, spans: list[Span], budget: int, got: list[Span]) -> str:
    """A hint read off the learner's own pieces, when no known mistake gives them all: a merged
    piece over the budget, or two neighbours left apart although their slice fits."""
    for a, b in got:
        if (a, b) not in spans and (n := cl100k(text[a:b])) > budget:
            return (
                f"your piece ({a}, {b}) is {n} cl100k tokens counted as text[{a}:{b}], over the "
                "budget: decide each merge on that slice, separators included"
            )
    for (a, _), (_, d) in zip(got, got[1:], strict=False):
        if (n := cl100k(text[a:d])) <= budget:
            return (
                f"text[{a}:{d}] is {n} cl100k tokens, within the budget, yet you left it in two "
                "pieces: merge while the slice fits"
            )
    return "compare your pieces with the expected ones"


# --- 02b.1: does this line close the fence? ----------------------------------------------------

OPENINGS = [
    "```",
    "```python",
    "````markdown",
    "~~~",
    "~~~~ yaml",
    "  ```js",
    "`````",
    "  ````",
    "~~~ a~b",
]
LINES = [
    "```",
    "``` ",
    "   ```",
    "    ```",
    "````",
    "``",
    "```python",
    "``` x",
    "~~~",
    "~~~~~",
    "~~~ ~",
    "`````",
    "\t```",
    " \t```",
    "x```",
    "```\t",
    "```~",
    "~~~~`",
]
LATE_LINES = ["```\xa0"]  # tried after every other line: a slip only the strictest answers make


def why_fence(opening: str, line: str, expected: bool) -> str:
    """The rule that decides this case, in words."""
    char, length = opening_fence(opening) or ("`", 3)
    stripped = line.strip(" \t")
    run = len(stripped) - len(stripped.lstrip(char))
    if indent_width(line) >= 4:
        return (
            "a line indented four spaces or more (a tab counts as four: it moves to the next "
            "multiple of four columns, so a space then a tab is four too) is code, never a fence"
        )
    if not stripped.startswith(char):
        return (
            f"a closing fence is only a run of the opening's character ({char!r}), after at most "
            "three spaces"
        )
    if run < length:
        after = ", counted after its indentation" if opening[:1] == " " else ""
        return f"the closing run must be at least as long as the opening's ({length}{after})"
    if stripped[run : run + 1] in ("`", "~"):
        return (
            "a closing run is one character only: the backticks and tildes of a mixed run like "
            f"{stripped!r} are not one run, so what follows the {char * run!r} is text and the "
            "line is code"
        )
    if stripped[run:].strip():
        return "a closing fence has nothing after its run: a line with an info string is code"
    if stripped[run:]:
        return (
            f"only spaces or tabs may follow a closing run: {stripped[run:]!r} is neither, though "
            "Python's \\s and str.strip() take it for whitespace, so the line is code"
        )
    if expected and line[:1] == " ":
        return "up to three spaces before the closing run still close the fence"
    if expected and run > length:
        return f"a closing run longer than the opening's ({run} > {length}) still closes the fence"
    if expected and line.rstrip(" \t") != line:
        return "spaces or tabs after the closing run still close the fence"
    if expected and opening[:1] == " ":
        info = ", not its info string" if opening.lstrip(" ")[length:].strip() else ""
        return (
            f"the opening's run starts after its indentation: it is {length} {char!r}{info}, "
            f"so {line.strip()!r} closes {opening!r}"
        )
    if expected and opening.lstrip(" ")[length:].strip():
        return (
            f"the opening's run is its {char!r} characters only ({length}), not its info string: "
            f"{line.strip()!r} closes {opening!r}"
        )
    if expected and char == "~":
        return "a fence opened with tildes is closed by a run of tildes, as backticks by backticks"
    return "this line closes the fence" if expected else "this line does not close the fence"


FIXED_FENCE_PAIRS = {(o, x) for lines in (LINES, LATE_LINES) for o in OPENINGS for x in lines}
FENCE_LIBRARY: list[Callable] = [closes_fence, opening_fence]
try:  # the reference notebook 02b checks chunklab against: handing it the question is no answer
    from markdown_it import MarkdownIt
    from markdown_it.rules_block import fence as markdown_it_fence

    FENCE_LIBRARY += [MarkdownIt.parse, markdown_it_fence]
except ImportError:  # markdown-it-py is a test extra; without it no answer can call it
    pass
FENCE_OWN = (
    "the check refuses a call to {name}: the exercise asks you to write the rule yourself (the "
    "opening's run, then the closing line's indentation, run and tail); markdown-it-py is the "
    "reference to check your rule against, not the rule"
)
FITTED = (
    " (right on every listed case, wrong on this new one: an answer read off the check's own "
    "lists, OPENINGS and LINES, is a table, not the fence rule)"
)


@functools.cache
def fresh_fence_cases(count: int = 120) -> tuple[tuple[str, str], ...]:
    """Openings and lines the fixed lists do not hold: runs of 3 to 8, indents of 0 to 5 columns
    (a tab among them), tails of spaces, tabs, text or the other fence character."""
    rng, cases = random.Random(47), list[tuple[str, str]]()
    while len(cases) < count:
        char, other = rng.choice([("`", "~"), ("~", "`")])
        length = rng.randint(3, 8)
        info = rng.choice(["", "py", " sh", "x"])
        opening = " " * rng.randint(0, 3) + char * length + info
        indent = rng.choice(["", " ", "  ", "   ", "    ", "     ", "\t", " \t"])
        run = rng.choice([char, char, other]) * max(1, length + rng.randint(-2, 3))
        line = indent + run + rng.choice(["", "", " ", "\t", " \t ", "x", "\xa0", other])
        if (opening, line) not in FIXED_FENCE_PAIRS:
            cases.append((opening, line))
    return tuple(cases)


def check_closes_fence(fn: Callable) -> int:
    """02b.1 against chunklab's scanner, on every opening x line pair (any truthy value is True);
    `LATE_LINES` after all the others, so each earlier slip keeps its own hint; then fresh cases,
    which an answer read off these lists misses. A call to the scanner's own functions is
    refused."""
    listed = [(o, x) for lines in (LINES, LATE_LINES) for o in OPENINGS for x in lines]
    fresh = list(fresh_fence_cases())
    for index, (opening, line) in enumerate(listed + fresh):
        char, length = opening_fence(opening) or ("`", 3)
        expected = closes_fence(line, char, length)
        got = bool(run_without(fn, (opening, line), FENCE_LIBRARY, FENCE_OWN))
        if got != expected:
            why = why_fence(opening, line, expected) + (FITTED if index >= len(listed) else "")
            raise NotYet(
                f"opening {opening!r}, line {line!r}: expected {expected}, got {got}: {why}"
            )
    return len(listed) + len(fresh)
