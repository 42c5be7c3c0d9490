"""Companion 03h's exercise refuses plausible wrong answers, each with a hint naming what is
wrong, and accepts every correct form of the right one."""

import pytest

from chunklab.teaching.exercises import verdict
from chunklab.teaching.exercises_child_repeats import SLIPS, slipped

# --- 03h.1: per section, the tokens its children store twice -------------------------------------


def _by_counting_lines(children, count):  # another correct route: lines counted, then summed
    from collections import Counter

    out, seen = {}, Counter()
    for section, text in children:
        out.setdefault(section, 0)
        lines = text.split("\n")
        out[section] += sum(count(line) for line in lines if line.strip() and seen[section, line])
        seen.update({(section, line) for line in lines})
    return out


def test_03h_1_accepts_another_correct_route():
    assert verdict("03h.1", _by_counting_lines).passed


@pytest.mark.parametrize("slip, hint", SLIPS, ids=[next(iter(s)) for s, _ in SLIPS])
def test_03h_1_refuses_each_slip_with_its_hint(slip, hint):
    result = verdict("03h.1", lambda children, count: slipped(children, count, **slip))
    assert not result.passed and hint in result.message, result.message


def test_03h_1_refuses_a_list_and_the_lines_themselves():
    listed = verdict("03h.1", lambda children, count: [0 for _ in children])
    assert not listed.passed and "return a dict" in listed.message
    lines = verdict("03h.1", lambda children, count: {s: [] for s, _ in children})
    assert not lines.passed and "not the tokens expected" in lines.message


# Four slips written out as a learner would, not through `slipped`: the old checker passed the
# stripped count and named the other three with the wrong slip (or none).


def _against_previous_child(children, count):
    last, out = {}, {}
    for section, text in children:
        lines = text.split("\n")
        held = last.get(section, set())
        out[section] = out.get(section, 0) + sum(count(x) for x in lines if x.strip() and x in held)
        last[section] = set(lines)
    return out


def _heading_paths_only(children, count):
    seen, out = set(), {}
    for section, text in children:
        first = text.split("\n")[0]
        out[section] = out.get(section, 0) + (count(first) if (section, first) in seen else 0)
        seen.add((section, first))
    return out


def _each_child_as_a_set(children, count):
    seen, out = set(), {}
    for section, text in children:
        lines = set(text.split("\n"))
        out[section] = out.get(section, 0) + sum(
            count(x) for x in lines if x.strip() and (section, x) in seen
        )
        seen |= {(section, x) for x in lines}
    return out


def _counting_stripped_lines(children, count):
    seen, out = set(), {}
    for section, text in children:
        lines = text.split("\n")
        out[section] = out.get(section, 0) + sum(
            count(x.strip()) for x in lines if x.strip() and (section, x) in seen
        )
        seen |= {(section, x) for x in lines}
    return out


@pytest.mark.parametrize(
    "wrong, named",
    [
        (_against_previous_child, "only against the section's previous child"),
        (_heading_paths_only, "only at each child's first line"),
        (_each_child_as_a_set, "each child's lines as a set"),
        (_counting_stripped_lines, "stripped of its spaces"),
    ],
    ids=["previous", "heading", "set", "stripped"],
)
def test_03h_1_names_each_written_out_slip(wrong, named):
    result = verdict("03h.1", wrong)
    assert not result.passed and named in result.message, result.message


# Two slips the old checker only called "not the tokens expected", and its case cut short with "…".


def _against_the_child_just_before(children, count):  # the child just before, if same section
    out, before = {}, (None, set())
    for section, text in children:
        out.setdefault(section, 0)
        lines = text.split("\n")
        if before[0] == section:
            out[section] += sum(count(x) for x in lines if x.strip() and x in before[1])
        before = (section, set(lines))
    return out


def _each_childs_repeats_joined(children, count):
    seen, out = set(), {}
    for section, text in children:
        out.setdefault(section, 0)
        lines = text.split("\n")
        repeats = [x for x in lines if x.strip() and (section, x) in seen]
        out[section] += count("\n".join(repeats)) if repeats else 0
        seen |= {(section, x) for x in lines}
    return out


@pytest.mark.parametrize(
    "wrong, named",
    [
        (_against_the_child_just_before, "only against the child just before it in the list"),
        (_each_childs_repeats_joined, "each child's repeated lines joined into one text"),
    ],
    ids=["adjacent", "joined-per-child"],
)
def test_03h_1_names_the_adjacent_and_joined_slips(wrong, named):
    result = verdict("03h.1", wrong)
    assert not result.passed and named in result.message, result.message


def test_03h_1_shows_the_failing_case_whole():
    result = verdict("03h.1", lambda children, count: {s: 0 for s, _ in children})
    assert not result.passed and "…" not in result.message.split("expected")[0], result.message
    assert "('t', 'Tee')]" in result.message, result.message


def _copies_past_the_first(children, count):  # section 2's count copied: per section, not child
    from collections import Counter

    held = Counter((s, x) for s, text in children for x in text.split("\n") if x.strip())
    out = {s: 0 for s, _ in children}
    for (s, x), copies in held.items():
        out[s] += (copies - 1) * count(x)
    return out


def test_03h_1_refuses_section_2s_count_copied():
    result = verdict("03h.1", _copies_past_the_first)
    assert not result.passed and "an *earlier* child" in result.message, result.message


# Two slips the old checker passed ("correct on all 65 cases"): no case held a line inside an
# earlier line of the same section, or the same line with and without indentation.


def _as_a_substring(children, count):  # `line in` the earlier children's text, joined
    earlier, out = {}, {}
    for section, text in children:
        before = "\n".join(earlier.get(section, []))
        out[section] = out.get(section, 0) + sum(
            count(x) for x in text.split("\n") if x.strip() and x in before
        )
        earlier.setdefault(section, []).append(text)
    return out


def _matched_stripped(children, count):  # lines matched on x.strip(), the line counted as it is
    seen, out = set(), {}
    for section, text in children:
        lines = text.split("\n")
        out[section] = out.get(section, 0) + sum(
            count(x) for x in lines if x.strip() and (section, x.strip()) in seen
        )
        seen |= {(section, x.strip()) for x in lines}
    return out


@pytest.mark.parametrize(
    "wrong, named",
    [
        (_as_a_substring, "as a substring of the earlier children's text"),
        (_matched_stripped, "matched the lines stripped of their spaces"),
    ],
    ids=["substring", "stripped-key"],
)
def test_03h_1_refuses_substring_and_stripped_matching(wrong, named):
    result = verdict("03h.1", wrong)
    assert not result.passed and named in result.message, result.message
