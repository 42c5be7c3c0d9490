"""Exercise 08b.1 (the lines repeated on every page): plausible wrong answers are refused, each
told the slip it made, and the reference solution passes."""

import re
import sys
from collections import Counter

import pytest
from conftest import ROOT

from chunklab.teaching.exercises import verdict

sys.path.insert(0, str(ROOT))
from solutions.exercises import running_lines  # noqa: E402


def on_more_than_one_page(pages):
    seen = [line for page in pages for line in dict.fromkeys(page)]
    return [line for line in dict.fromkeys(seen) if seen.count(line) > 1]


def every_line_of_a_single_page(pages):
    if not pages:
        return []
    common = set(pages[0]).intersection(*(set(page) for page in pages[1:]))
    return list(dict.fromkeys(line for line in pages[0] if line in common))


def repeated_as_often_as_on_page_one(pages):
    if len(pages) < 2:
        return []
    common = set(pages[0]).intersection(*(set(page) for page in pages[1:]))
    return [line for line in pages[0] if line in common]


def sorted_lines(pages):
    if len(pages) < 2:
        return []
    return sorted(set(pages[0]).intersection(*(set(page) for page in pages[1:])))


def in_the_last_pages_order(pages):
    if len(pages) < 2:
        return []
    common = set(pages[0]).intersection(*(set(page) for page in pages[1:]))
    return list(dict.fromkeys(line for line in pages[-1] if line in common))


def last_line_of_every_page(pages):
    lasts = {page[-1] for page in pages if page}
    return list(lasts) if len(lasts) == 1 and len(pages) > 1 else []


def first_page_against_the_last(pages):
    if len(pages) < 2:
        return []
    return list(dict.fromkeys(line for line in pages[0] if line in pages[-1]))


def each_pages_first_and_last_lines(pages):
    if len(pages) < 2 or not all(pages):
        return []
    ends = dict.fromkeys(pages[0][:1] + pages[0][-1:])
    return [line for line in ends if all(line in page[:1] + page[-1:] for page in pages)]


def stripped_lines(pages):
    if len(pages) < 2:
        return []
    common = {line.strip() for line in pages[0]}.intersection(
        *({line.strip() for line in page} for page in pages[1:])
    )
    return list(dict.fromkeys(line.strip() for line in pages[0] if line.strip() in common))


def _compared_loosely(loose):
    def running(pages):
        if len(pages) < 2:
            return []
        common = {loose(line) for line in pages[0]}.intersection(
            *({loose(line) for line in page} for page in pages[1:])
        )
        return list(dict.fromkeys(line for line in pages[0] if loose(line) in common))

    return running


ignoring_case = _compared_loosely(str.lower)
inner_spaces_collapsed = _compared_loosely(lambda line: re.sub(r" +", " ", line))
digits_masked = _compared_loosely(lambda line: re.sub(r"\d", "0", line))


def blank_lines_dropped(pages):
    return [line for line in running_lines(pages) if line.strip()]


def counted_over_all_pages(pages):  # a line twice on one page counted as on two pages
    if len(pages) < 2:
        return []
    counts = Counter(line for page in pages for line in page)
    return [line for line in dict.fromkeys(pages[0]) if counts[line] >= len(pages)]


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (on_more_than_one_page, "on every page"),
        (every_line_of_a_single_page, "below two pages"),
        (repeated_as_often_as_on_page_one, "each line once"),
        (sorted_lines, "are sorted"),
        (in_the_last_pages_order, "the last page's order"),
        (last_line_of_every_page, "every page, in the first page's order"),
        (first_page_against_the_last, "the first page with the last only"),
        (each_pages_first_and_last_lines, "first and last lines only"),
        (stripped_lines, "you stripped the lines"),
        (ignoring_case, "ignoring case"),
        (inner_spaces_collapsed, "collapsed the spaces"),
        (digits_masked, "masked the digits"),
        (blank_lines_dropped, "you dropped blank lines"),
        (counted_over_all_pages, "counted a line's occurrences"),
    ],
)
def test_08b_1_refuses_with_a_hint(fn, hint):
    result = verdict("08b.1", fn)
    assert not result.passed and ": not yet: " in result.message, result.message
    assert hint in result.message, result.message


def test_08b_1_accepts_the_reference_solution():
    assert verdict("08b.1", running_lines).passed


def test_08b_1_names_one_slip_for_blank_lines_dropped():
    """Dropping blank lines once got two hints joined by "or", one of them wrong."""
    message = verdict("08b.1", blank_lines_dropped).message
    assert "; or " not in message and "first and last lines" not in message, message
