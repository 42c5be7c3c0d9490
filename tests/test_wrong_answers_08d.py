"""Exercise 08d.1 (a heading's level from size, weight and section number, a smaller bold size one
level deeper): a correct answer written another way passes, the notebook's rule as written is
refused, and each predictable slip is told the slip it made."""

import re

import pytest

from chunklab.teaching.exercises import verdict


def level_as_the_notebook_reads_it(size, bold, title, sized, body):  # rule_level, no body size
    if size in sized:
        return sized[size]
    if not bold:
        return None
    number = re.match(r"\d+(\.\d+)*", title)
    return max(sized.values(), default=0) + (number[0].count(".") + 1 if number else 1)


def by_depth_table(size, bold, title, sized, body):
    """Correct, written another way: the depth under the sized levels picked from a table."""
    numbered = re.match(r"[\d.]*\d", title)
    if size in sized or not bold:
        return sized.get(size)
    depth = numbered[0].count(".") + 1 if numbered else {True: 2, False: 1}[size / body < 0.95]
    return max([0, *sized.values()]) + depth


def written_with(smaller):
    """A learner's level_of, right but for its size test: `smaller(size, body)` decides whether an
    unnumbered bold title goes one level deeper."""

    def level_of(size, bold, title, sized, body):
        if size in sized:
            return sized[size]
        if not bold:
            return None
        number = re.match(r"\d+(\.\d+)*", title)
        if number:
            return max(sized.values(), default=0) + number[0].count(".") + 1
        return max(sized.values(), default=0) + (2 if smaller(size, body) else 1)

    return level_of


any_smaller = written_with(lambda size, body: size < body)  # no 5% tolerance


def number_as_one_level(size, bold, title, sized, body):
    if size in sized:
        return sized[size]
    if not bold:
        return None
    return max(sized.values(), default=0) + (2 if size < 0.95 * body else 1)


def bold_before_size(size, bold, title, sized, body):
    if bold:
        number = re.match(r"\d+(\.\d+)*", title)
        deepest = max(sized.values(), default=0)
        if number:
            return deepest + number[0].count(".") + 1
        return deepest + (2 if size < 0.95 * body else 1)
    return sized.get(size)


def small_numbered_deeper_too(size, bold, title, sized, body):
    if size in sized:
        return sized[size]
    if not bold:
        return None
    number = re.match(r"\d+(\.\d+)*", title)
    depth = number[0].count(".") + 1 if number else 1
    return max(sized.values(), default=0) + depth + (size < 0.95 * body)


def every_line_a_heading(size, bold, title, sized, body):
    if size in sized:
        return sized[size]
    number = re.match(r"\d+(\.\d+)*", title)
    if number:
        return max(sized.values(), default=0) + number[0].count(".") + 1
    return max(sized.values(), default=0) + (2 if size < 0.95 * body else 1)


def test_a_correct_answer_written_another_way_passes():
    result = verdict("08d.1", by_depth_table)
    assert result.passed, result.message


@pytest.mark.parametrize(
    ("wrong", "named"),
    [
        (level_as_the_notebook_reads_it, "rule_level as written"),
        (any_smaller, "within 5%"),
        (number_as_one_level, "3.3.1 is 3 deep"),
        (bold_before_size, "look it up in `sized` first"),
        (small_numbered_deeper_too, "its number already says its depth"),
        (every_line_a_heading, "return None"),
    ],
)
def test_each_slip_is_refused_and_named(wrong, named):
    result = verdict("08d.1", wrong)
    assert not result.passed and ": not yet: " in result.message
    assert named in result.message, result.message


def test_a_wrong_type_is_refused():
    result = verdict("08d.1", lambda size, bold, title, sized, body: "3")
    assert not result.passed and "return an int or None" in result.message


def body_ten_points(size, bold, title, sized, body):  # `body` ignored: 10.0 hard-coded
    return by_depth_table(size, bold, title, sized, 10.0)


def tolerance(factor):
    def rule(size, bold, title, sized, body):
        if size in sized or not bold:
            return sized.get(size)
        number = re.match(r"\d+(\.\d+)*", title)
        depth = number[0].count(".") + 1 if number else (2 if size < factor * body else 1)
        return max(sized.values(), default=0) + depth

    return rule


@pytest.mark.parametrize(
    ("wrong", "named"),
    [
        (body_ten_points, "the body is not always 10.0 points"),
        (tolerance(0.9), "0.9 reads a title 5 to 10% smaller"),
        (tolerance(1.05), "1.05 is cell 3's bound"),
    ],
)
def test_a_hard_coded_body_and_other_tolerances_are_named(wrong, named):
    result = verdict("08d.1", wrong)
    assert not result.passed and named in result.message, result.message


def test_the_reference_imported_is_refused():
    from chunklab.teaching.exercises_heading_levels import level_of

    result = verdict("08d.1", lambda *case: level_of(*case))
    assert not result.passed and "write the rule yourself" in result.message, result.message


at_most_five_percent = written_with(lambda size, body: size <= 0.95 * body)  # <= where it is <


def test_08d_1_refuses_a_title_exactly_five_percent_smaller_read_as_smaller():
    """9.5 points on a 10-point body is 5% smaller, not more: `<=` passed every case before a case
    sat on the boundary."""
    result = verdict("08d.1", at_most_five_percent)
    assert not result.passed and "exactly 5% smaller" in result.message, result.message


def deeper_by(smaller_depth=2, base=lambda sized: max(sized.values(), default=0), lookup=True):
    """A learner's level_of with its base level, its smaller title's depth or its lookup of `sized`
    written another way."""

    def level_of(size, bold, title, sized, body):
        if lookup and size in sized:
            return sized[size]
        if not bold:
            return None
        number = re.match(r"\d+(\.\d+)*", title)
        depth = number[0].count(".") + 1 if number else (smaller_depth if size < 0.95 * body else 1)
        return base(sized) + depth

    return level_of


def rounded_to_a_point(size, bold, title, sized, body):
    return by_depth_table(float(round(size)), bold, title, sized, float(round(body)))


@pytest.mark.parametrize(
    ("wrong", "named"),
    [
        (deeper_by(smaller_depth=3), "two levels deeper"),
        (deeper_by(base=lambda sized: 0), "not from 0"),
        (deeper_by(base=lambda sized: min(sized.values(), default=0)), "not min"),
        (deeper_by(lookup=False), "return sized[size] before anything else"),
        (deeper_by(base=lambda sized: 0, lookup=False), "`sized` is never read"),
        (rounded_to_a_point, "rounded to a whole point"),
    ],
)
def test_08d_1_names_the_slips_that_got_the_generic_hint(wrong, named):
    """Two levels deeper, `sized` ignored in part or whole, sizes rounded: each got only "sized
    first, then bold, then number, then size"."""
    result = verdict("08d.1", wrong)
    assert not result.passed and named in result.message, result.message


def test_08d_1_accepts_the_number_of_sized_levels_as_the_base():
    """heading_levels ranks the sizes 1, 2, ...: their count is their deepest level."""
    result = verdict("08d.1", deeper_by(base=len))
    assert result.passed, result.message


@pytest.mark.parametrize(
    "wrong",
    [
        body_ten_points,
        tolerance(0.9),
        tolerance(1.05),
        tolerance(1.0),
        at_most_five_percent,
        rounded_to_a_point,
        "through the check",
    ],
)
def test_08d_1_hints_never_write_the_size_test_out(wrong):
    """The prompt asks the learner to turn notebook 08's 5% margin into a test; every size slip's
    hint (and the refusal of a call into the check) used to end with `size < 0.95 * body`, the
    test itself. They now name the slip and leave the test to the learner."""
    if wrong == "through the check":
        from chunklab.teaching.exercises_heading_levels import level_of

        wrong = lambda *case: level_of(*case)  # noqa: E731
    result = verdict("08d.1", wrong)
    assert not result.passed and "0.95" not in result.message, result.message


def test_08d_1_names_the_margin_turned_around():
    """The margin turned around, the body more than 5% above the title (size * 1.05 < body), is a
    reading of "the same 5%, below it": it got the hint for `<=`, which names another slip."""
    result = verdict("08d.1", written_with(lambda size, body: size * 1.05 < body))
    assert not result.passed and "turned around" in result.message, result.message
    assert "exactly 5% smaller" not in result.message, result.message


def test_08d_1_refuses_a_half_point_margin_and_names_it():
    """`size < body - 0.5` agreed with 5% on every case until one sat at an 8-point body (7.55 is
    5.6% under, 0.45 points) and one at a 12-point body (11.42 is 4.8% under, 0.58 points)."""
    result = verdict("08d.1", written_with(lambda size, body: size < body - 0.5))
    assert not result.passed and "a margin in points" in result.message, result.message


@pytest.mark.parametrize(
    "smaller",
    [
        lambda size, body: size <= body - 1,  # a point under
        lambda size, body: round(size) < round(0.95 * body),  # rounded, the rounded slip escaped
    ],
)
def test_08d_1_a_wrong_margin_is_told_the_margin_not_the_order(smaller):
    result = verdict("08d.1", written_with(smaller))
    assert not result.passed and "the margin" in result.message, result.message
    assert "sized first, then bold" not in result.message, result.message


def number_anywhere(size, bold, title, sized, body):  # re.search where the number opens the title
    if size in sized or not bold:
        return sized.get(size)
    number = re.search(r"\d+(\.\d+)*", title)
    depth = number[0].count(".") + 1 if number else (2 if size < 0.95 * body else 1)
    return max(sized.values(), default=0) + depth


def test_08d_1_refuses_a_section_number_found_anywhere_in_the_title():
    """No unnumbered title held a digit: `re.search` passed every case before "Form 71 notes"."""
    result = verdict("08d.1", number_anywhere)
    assert not result.passed and "at the title's start" in result.message, result.message
