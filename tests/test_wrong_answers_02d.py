"""Companion 02d's exercises (02d.1, a blank line above each table's header row; 02d.2,
numbered titles guarded) against the wrong answers written.

Each plausible wrong answer must be refused with a hint that names its mistake; the expected
answers come from the library (`with_blank_lines`, `numbered_title_lines`), never typed in here.
"""

import re
import sys

import pytest
from conftest import ROOT

from chunklab import load_document
from chunklab.parsing.blocks import NUMBERED_TITLE, parse_blocks
from chunklab.parsing.blocks import explicit_headings as _library_rule
from chunklab.teaching.exercises import verdict
from chunklab.teaching.selfcheck import SOLUTIONS

sys.path.insert(0, str(ROOT))
from solutions.exercises import blank_before_tables, numbered_titles  # noqa: E402

# --- 02d.1 (write code): blank_before_tables  ---


def _is_delimiter(line, cell=r"\s*:?-+:?\s*"):
    return line.startswith("|") and all(
        re.fullmatch(cell, c) for c in line.strip().strip("|").split("|")
    )


def blank_lines(*, above="text", first=False, cell=r"\s*:?-+:?\s*"):
    """Section 3's blank line for any document, with one condition changed as a learner might."""

    def rule(text):
        lines, out = text.split("\n"), []
        for k, line in enumerate(lines):
            is_header = (
                line.startswith("|") and k + 1 < len(lines) and _is_delimiter(lines[k + 1], cell)
            )
            if k == 0:
                held = first
            else:
                held = {
                    "text": bool(lines[k - 1].strip()),
                    "empty": lines[k - 1] != "",
                    "any": True,
                }[above]
            if is_header and held:
                out.append("")
            out.append(line)
        return "\n".join(out)

    return rule


def before_the_delimiter(text):  # the blank line put under the header row, above its delimiter
    lines, out = text.split("\n"), []
    for k, line in enumerate(lines):
        if k > 1 and _is_delimiter(line) and lines[k - 1].startswith("|") and lines[k - 2].strip():
            out.append("")
        out.append(line)
    return "\n".join(out)


def first_pipe_line(text):  # the first `|` line after text, no delimiter row looked for
    lines, out = text.split("\n"), []
    for k, line in enumerate(lines):
        if line.startswith("|") and k > 0 and lines[k - 1].strip() and lines[k - 1][:1] != "|":
            out.append("")
        out.append(line)
    return "\n".join(out)


def every_pipe_line(text):  # a blank line above every `|` line that follows text
    lines, out = text.split("\n"), []
    for k, line in enumerate(lines):
        if line.startswith("|") and k > 0 and lines[k - 1].strip():
            out.append("")
        out.append(line)
    return "\n".join(out)


def by_splitlines(text):  # the right rule, the lines read with splitlines()
    return "\n".join(blank_lines()(text).splitlines())


WRONG_BLANK_LINES = [
    (every_pipe_line, "not between it and its delimiter row"),
    (before_the_delimiter, "the blank line goes above the header row"),
    (first_pipe_line, "heads a table only when a delimiter row is right under it"),
    (blank_lines(above="any"), "the line above is already blank"),
    (blank_lines(above="empty"), "a line of spaces is blank too"),
    (blank_lines(first=True), "nothing stands above the first line"),
    (blank_lines(cell=r"-+"), "a delimiter row may hold colons and spaces"),
    (lambda text: text.replace("tolerância\n", "tolerância\n\n"), "whatever the text above is"),
    (lambda text: blank_lines()(text).replace("\n\n|", "\n\n\n|"), "add one, not several"),
    (lambda text: blank_lines()(text).replace("\n\n|", "\n  \n|"), "not a line of spaces"),
    (by_splitlines, "the text's last newline is lost"),
    (
        lambda text: "\n".join(line.strip() for line in blank_lines()(text).split("\n")),
        "a line was changed",
    ),
    (lambda text: blank_lines()(text).split("\n"), "return the text, a str"),
]


@pytest.mark.parametrize(
    ("wrong", "hint"), WRONG_BLANK_LINES, ids=[h for _, h in WRONG_BLANK_LINES]
)
def test_02d_1_refuses_each_slip_naming_it(wrong, hint):
    result = verdict("02d.1", wrong)
    assert not result.passed and hint in result.message, result.message


def test_02d_1_asks_for_code_and_accepts_any_correct_function():
    """02d.1 was an answer, each block's kind, from a handful of kinds a learner could try in
    turn; it now asks for the rule as code. Fails on the old checker, which had no coding
    exercise 02d.1 (verdict raises KeyError) and took only a list of kinds."""
    assert verdict("02d.1", blank_before_tables).passed
    assert verdict("02d.1", blank_lines()).passed
    from chunklab.parsing.scanner import table_starts

    def by_library_test(text):  # the library's own table test: as right as the stated one
        lines, out = text.split("\n"), []
        for k, line in enumerate(lines):
            if table_starts(lines, k) and k > 0 and lines[k - 1].strip():
                out.append("")
            out.append(line)
        return "\n".join(out)

    assert verdict("02d.1", by_library_test).passed
    assert "02d.1" not in SOLUTIONS  # no answer to guess any more


def test_02d_1_the_rule_frees_the_manuals_table():
    """On the manual the rule adds the very blank line section 3 typed, and parse_blocks then
    finds the table it frees."""
    manual = load_document("manual").text
    assert blank_lines()(manual) == manual.replace("tolerância\n", "tolerância\n\n")
    assert "table" in [b.kind for b in parse_blocks(blank_lines()(manual))]
    assert "table" not in [b.kind for b in parse_blocks(manual)]


# --- 02d.2 (write code): numbered_titles  ---


def titles(
    *,
    strip=True,
    first=True,
    blank_before=True,
    text_after=True,
    unnumbered_after=True,
    digits="each",
    period="stripped",
    base=0,
):
    """The rule with one condition changed, as a learner might write it."""

    def rule(text):
        lines, found = text.split("\n"), []
        for k, line in enumerate(lines):
            m = NUMBERED_TITLE.fullmatch(line.strip() if strip else line)
            after = lines[k + 1].strip() if k + 1 < len(lines) else ""
            before = (k == 0 and first) or not lines[k - 1].strip()
            if not m or (blank_before and not before) or (text_after and not after):
                continue
            if unnumbered_after and NUMBERED_TITLE.fullmatch(after):
                continue
            if digits == "each" and any(len(n) > 2 for n in m[1].split(".")):
                continue
            if digits == "whole" and len(m[1]) > 2:
                continue
            if digits == "anywhere" and re.search(r"\d{3,}", line):
                continue
            if period == "stripped" and line.strip().endswith("."):
                continue
            if period == "raw" and line.endswith("."):
                continue
            found.append(k + base)
        return found

    return rule


WRONG_TITLES = [
    (titles(digits=None, period=None), "a title that ends with a period is a sentence"),
    (titles(digits=None), "is no section number"),
    (titles(digits="whole"), "measure each number, not the whole numbering"),
    (titles(digits="anywhere"), "not the numbers in its text"),
    (titles(first=False), "the first line has no line before it"),
    (titles(strip=False), "strip the line before matching"),
    (titles(period="raw"), "spaces after it hide it"),
    (titles(blank_before=False), "follows a blank line: this one follows text"),
    (titles(text_after=False), "followed by a blank line or the end"),
    (titles(unnumbered_after=False), "the next line is numbered too"),
    (titles(base=1), "count lines from 0"),
    (lambda text: [line for line in text.split("\n") if line.startswith("1")], "not the lines"),
]


@pytest.mark.parametrize(("wrong", "hint"), WRONG_TITLES, ids=lambda x: getattr(x, "__name__", x))
def test_02d_2_refuses_each_wrong_rule_naming_its_condition(wrong, hint):
    result = verdict("02d.2", wrong)
    assert not result.passed and hint in result.message, result.message


def test_02d_2_accepts_the_rule_with_both_guards():
    assert verdict("02d.2", titles()).passed
    assert verdict("02d.2", numbered_titles).passed


def test_02d_2_the_guards_keep_the_manuals_titles():
    """On the manual the guarded rule takes the four titles the unguarded rule takes: the guards
    cost nothing where the rule was right."""
    manual = load_document("manual").text
    assert titles()(manual) == titles(digits=None, period=None)(manual)
    assert len(titles()(manual)) == 4


def _guarded(text, keep):
    """The right rule, then one more test on each title the learner might add."""
    lines = text.split("\n")
    return [k for k in titles()(text) if keep(lines, k)]


def titles_int_guard(text):  # each number below 100 as an int: "001" passes the guard
    lines, found = text.split("\n"), []
    for k in titles(digits=None)(text):
        if all(int(n) < 100 for n in NUMBERED_TITLE.fullmatch(lines[k].strip())[1].split(".")):
            found.append(k)
    return found


def titles_empty_only_blank(text):  # "blank" read as an empty line: spaces or a tab are text
    return _guarded(text, lambda lines, k: k == 0 or lines[k - 1] == "")


def titles_no_final_punctuation(text):  # a title ending in ?, : or ! taken for a sentence
    return _guarded(text, lambda lines, k: lines[k].strip()[-1] not in "?:!")


def titles_no_inner_period(text):  # any period in the title's text taken for a sentence
    return _guarded(text, lambda lines, k: "." not in NUMBERED_TITLE.fullmatch(lines[k].strip())[2])


def titles_by_library(text):  # explicit_headings' output filtered: section 2's rule not written
    from chunklab.parsing.blocks import explicit_headings

    lines = text.split("\n")
    out = explicit_headings(text).split("\n")
    return [k for k in titles()(text) if k < len(out) and out[k].startswith("#") and k < len(lines)]


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (titles_int_guard, "three digits or more (001)"),
        (titles_empty_only_blank, "a line of spaces or tabs is blank too"),
        (titles_no_final_punctuation, "only a final period makes a sentence"),
        (titles_no_inner_period, "only a final period makes a sentence"),
        (titles_by_library, "write section 2's three conditions yourself"),
    ],
    ids=lambda x: getattr(x, "__name__", x),
)
def test_02d_2_refuses_guards_the_fixed_cases_used_to_pass(wrong, hint):
    """A guard by value (`int(n) < 100`), a blank line read as `== ""`, guards stricter than a
    final period, and a filter over explicit_headings' output all passed the old checker, whose
    cases held no `001`, no line of spaces, no title ending in `?` and no period inside a title."""
    result = verdict("02d.2", wrong)
    assert not result.passed and hint in result.message, result.message


def _library_as_default(text, rule=_library_rule):  # the library's rule as a default argument
    out = rule(text).split("\n")
    return [k for k, line in enumerate(out) if line.startswith("#") and not line.startswith("# ")]


def test_02d_2_refuses_the_library_reached_at_run_time():
    """The old check read the names in the function's own code, so the library reached another
    way (a default argument, an alias, a helper) passed unseen; the check now watches the calls."""
    result = verdict("02d.2", _library_as_default)
    assert not result.passed and "write section 2's three conditions yourself" in result.message
