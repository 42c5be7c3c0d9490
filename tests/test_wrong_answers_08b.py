"""Exercise 08b.1 (running lines that carry a page number): a correct answer written two ways
passes, the old answer (lines compared as given) and a call into the library's rule are refused,
and each predictable slip is told the slip it made."""

import re
import sys

import pytest
from conftest import ROOT

from chunklab.teaching import exercises_running_heads
from chunklab.teaching import running_lines as exact_rule
from chunklab.teaching.exercises import verdict

sys.path.insert(0, str(ROOT))
from solutions.exercises import running_lines  # noqa: E402


def _keyed(key, guard=True, order=lambda pages: pages[0], one_per_key=True, give_key=False):
    def running(pages):
        if not pages or (guard and len(pages) < 2):
            return []
        common = set(map(key, pages[0])).intersection(*(set(map(key, p)) for p in pages[1:]))
        out, seen = [], set()
        for line in order(pages):
            if key(line) in common and (key(line) not in seen or not one_per_key):
                seen.add(key(line))
                out.append(key(line) if give_key else line)
        return out

    return running


def _key(line):
    return re.sub(r"\d+", "#", line).strip("# ")


def by_regex_at_the_ends(pages):
    """Correct, written another way: numbers at the ends cut first, the inner ones masked after."""
    if len(pages) < 2:
        return []
    keys = [{re.sub(r"\d+", "#", re.sub(r"^[\d# ]+|[\d# ]+$", "", x)): x for x in p} for p in pages]
    found = {}
    for line in pages[0]:
        k = re.sub(r"\d+", "#", re.sub(r"^[\d# ]+|[\d# ]+$", "", line))
        if all(k in page for page in keys):
            found.setdefault(k, line)
    return list(found.values())


def on_more_than_one_page(pages):  # also test_exercises.py's plausible wrong answer
    seen = [line for page in pages for line in dict.fromkeys(page)]
    return [line for line in dict.fromkeys(seen) if seen.count(line) > 1]


def calls_the_library(pages):
    return exercises_running_heads.running_heads(pages)


def calls_the_old_rule(pages):
    return exact_rule.expected_running_lines(pages)


def test_08b_1_accepts_a_correct_answer_written_two_ways():
    assert verdict("08b.1", running_lines).passed
    assert verdict("08b.1", by_regex_at_the_ends).passed


@pytest.mark.parametrize("fn", [calls_the_library, calls_the_old_rule])
def test_08b_1_refuses_a_call_into_the_library(fn):
    message = verdict("08b.1", fn).message
    assert "the library's rule; write the rule yourself" in message, message


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_keyed(lambda line: line), "you compared the lines as given"),
        (_keyed(lambda line: re.sub(r"\d+", "#", line)), "between the line's start and its end"),
        (_keyed(lambda line: re.sub(r"\d", "#", line).strip("# ")), "replaced each digit"),
        (_keyed(lambda line: re.sub(r"\d+", "", line).strip()), "you deleted the digits"),
        (_keyed(lambda line: _key(line).lower()), "ignoring case"),
        (_keyed(lambda line: re.sub(r"\s+", " ", _key(line))), "collapsed the spaces"),
        (_keyed(_key, give_key=True), "you returned the keys"),
        (_keyed(_key, guard=False), "below two pages"),
        (_keyed(_key, one_per_key=False), "one line per key"),
        (_keyed(_key, order=lambda pages: pages[-1]), "the last page's order"),
        (on_more_than_one_page, "you compared the lines as given"),
    ],
)
def test_08b_1_names_each_slip(fn, hint):
    result = verdict("08b.1", fn)
    assert not result.passed and ": not yet: " in result.message, result.message
    assert hint in result.message, result.message


def _skips_empty_keys(pages):
    """A line that is only a page number has the key '': this answer drops it."""
    if len(pages) < 2:
        return []
    common = set(map(_key, pages[0])).intersection(*(set(map(_key, p)) for p in pages[1:]))
    found = {}
    for line in pages[0]:
        if _key(line) and _key(line) in common:
            found.setdefault(_key(line), line)
    return list(found.values())


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_skips_empty_keys, "you skipped the empty key"),
        (_keyed(lambda line: re.sub(r"\d+", "#", line)), "between the line's start and its end"),
        (_keyed(lambda line: re.sub(r"\d", "#", line).strip("# ")), "replaced each digit"),
    ],
)
def test_08b_1_names_one_slip_not_a_guess_between_two(fn, hint):
    """Where two slips give the same lines on one case, the hint names the one that gives the
    learner's lines on every case, not "lines as given; or ..."."""
    message = verdict("08b.1", fn).message
    assert hint in message and "as given" not in message, message


def test_08b_1_digits_stripped_at_the_ends_only_is_named_so():
    """`line.strip("0123456789 ")` keeps inner digits: not "you replaced each digit with #"."""
    message = verdict("08b.1", _keyed(lambda line: line.strip("0123456789 "))).message
    assert "stripped digits at the ends only" in message, message
    assert "replaced each digit" not in message, message


def first_and_last_lines_only(pages):
    """Each page's first and last lines only: passed every case before a case held a running line
    elsewhere, and on the agenda it finds only the foot (not `Day 1`, `Session Purpose Notes`)."""
    return _keyed(_key)([[page[0], page[-1]] if page else [] for page in pages])


def first_two_and_last_two_lines(pages):
    """Each page's first two and last two lines: passed every case until one held a running line
    three lines from either end of its page (a cold reader's run, round 46)."""
    return _keyed(_key)([page[:2] + page[2:][-2:] for page in pages])


def on_most_pages(pages):
    if len(pages) < 2:
        return []
    counts = {}
    for page in pages:
        for key in set(map(_key, page)):
            counts[key] = counts.get(key, 0) + 1
    return list(
        {_key(x): x for x in reversed(pages[0]) if counts[_key(x)] > len(pages) / 2}.values()
    )[::-1]


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (first_and_last_lines_only, "first and last lines only"),
        (first_two_and_last_two_lines, "first two and last two lines only"),
        (on_most_pages, "a key on most pages is not enough"),
    ],
)
def test_08b_1_names_a_positional_rule_and_a_majority(fn, hint):
    result = verdict("08b.1", fn)
    assert not result.passed and hint in result.message, result.message


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_keyed(lambda line: _key(line).lower()), "ignoring case"),
        (_keyed(lambda line: re.sub(r"\s+", " ", _key(line))), "collapsed the spaces"),
    ],
)
def test_08b_1_does_not_call_chunklabs_own_choices_slips(fn, hint):
    """Folding case and collapsing spaces are what chunklab's own rule does: the hints called them
    slips outright; they now say the exercise's key differs from chunklab's on purpose."""
    result = verdict("08b.1", fn)
    assert not result.passed and hint in result.message, result.message
    assert "chunklab's own rule" in result.message, result.message


@pytest.mark.parametrize("fn", [_keyed(lambda line: line), calls_the_library])
def test_08b_1_first_hints_leave_the_key_to_the_learner(fn):
    """The prompt gives examples of the key, not its recipe; the first hint a learner meets (lines
    compared as given, or a call into the library) used to write the recipe out."""
    message = verdict("08b.1", fn).message
    assert "digits as #" not in message and "spaces dropped" not in message, message
    assert "the prompt's examples" in message, message


def keys_counted_over_lines(pages):
    """A key kept when it has as many lines as there are pages, counted over every line: passed
    the old check, whose cases never held two lines of one key on a page and none on another."""
    if len(pages) < 2:
        return []
    counts = {}
    for page in pages:
        for line in page:
            counts[_key(line)] = counts.get(_key(line), 0) + 1
    return list({_key(x): x for x in reversed(pages[0]) if counts[_key(x)] >= len(pages)}.values())[
        ::-1
    ]


def test_08b_1_refuses_keys_counted_over_lines_not_pages():
    result = verdict("08b.1", keys_counted_over_lines)
    assert not result.passed and "two lines on one page are not two pages" in result.message, (
        result.message
    )
