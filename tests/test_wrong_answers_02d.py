"""Companion 02d's exercises (02d.1, the manual's blocks once spaced; 02d.2, numbered titles
guarded) against the wrong answers written.

Each plausible wrong answer must be refused with a hint that names its mistake; the expected
answers come from the library (`SOLUTIONS`, `numbered_title_lines`), never typed in here.
"""

import re
import sys

import pytest
from conftest import ROOT

from chunklab import load_document
from chunklab.parsing.blocks import NUMBERED_TITLE, parse_blocks, with_explicit_headings
from chunklab.parsing.blocks import explicit_headings as _library_rule
from chunklab.teaching.exercises import verdict
from chunklab.teaching.selfcheck import SOLUTIONS, check

sys.path.insert(0, str(ROOT))
from solutions.exercises import numbered_titles  # noqa: E402


def said(exercise, answer, capsys) -> str:
    check(exercise, answer)
    return capsys.readouterr().out


# --- 02d.1: the blocks of `spaced`, an answer exercise  ---


def test_02d_1_refuses_each_wrong_pair_naming_its_mistake(capsys):
    kinds = SOLUTIONS["02d.1"][1]()
    manual = load_document("manual").text
    structured = [
        b.kind for b in parse_blocks(with_explicit_headings(load_document("manual")).text)
    ]
    for wrong, hint in [
        (["paragraph", "list", "table", "list"], "delimiter row"),
        (["paragraph", "list"], "unchanged manual"),
        ([*kinds[:2], "table"], "delimiter row"),
        ([*kinds[:1], "list", "list"], "two list blocks in a row"),
        (kinds[:-1], "you stopped early"),
        (["heading", *kinds[1:]], "finds no heading"),
        (structured, "structured manual"),
        ([*kinds[:2], "code", "list"], "no code"),
        ([k.title() for k in kinds], "lower case"),
        (("table", 4), "not a (kind, count) pair"),  # an older exercise's answer
        ("table", "a list of str"),
    ]:
        out = said("02d.1", wrong, capsys)
        assert "not quite" in out and hint in out, (wrong, out)
        # the exercise says: work it out without running anything on the changed text
        assert "run parse_blocks" not in out and "parse_blocks returns" not in out, (wrong, out)
        assert "print the kind" not in out, (wrong, out)
    assert [b.kind for b in parse_blocks(manual)] == ["paragraph", "list"]
    assert said("02d.1", kinds, capsys).endswith("correct.\n")
    assert said("02d.1", tuple(kinds), capsys).endswith("correct.\n")


def test_02d_1_refuses_the_obvious_guess_and_nothing_changed(capsys):
    """Neither the unchanged manual's blocks (paragraph, list: what section 1 printed) nor the
    obvious guess (the blank line frees a table: paragraph, list, table, list) is the answer: with
    no delimiter row the rows are a paragraph. Fails on the old exercise, whose answer was the
    unchanged manual's blocks."""
    unchanged = [b.kind for b in parse_blocks(load_document("manual").text)]
    obvious = ["paragraph", "list", "table", "list"]
    assert SOLUTIONS["02d.1"][1]() == ["paragraph", "list", "paragraph", "list"]
    for wrong in (unchanged, obvious):
        assert "not quite" in said("02d.1", wrong, capsys), wrong


def test_02d_1_names_a_list_not_started_after_a_paragraph(capsys):
    """A learner who reads `4. Registro`, after the rows' paragraph and a blank line, as no list
    (only `1.` may start one after a paragraph) is told the rule's condition, the missing blank
    line. Fails on the old checker, which gave only its generic hint."""
    kinds = SOLUTIONS["02d.1"][1]()
    assert kinds[-2:] == ["paragraph", "list"]
    out = said("02d.1", [*kinds[:-1], "paragraph"], capsys)
    assert "not quite" in out and "an ordered list may start at any number" in out, out


def test_02d_1_hints_name_no_position(capsys):
    """No hint names a position, a direction or the kind asked for: a few guesses must not walk
    to the answer."""
    for wrong in [["paragraph", "table"], ["paragraph", "paragraph"], ["list"], ["table", "list"]]:
        out = said("02d.1", wrong, capsys)
        assert "of 2" not in out, out
        assert not any(w in out for w in ["one more", "one fewer", "fewer", "too many"]), out


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
