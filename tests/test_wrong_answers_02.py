"""Notebook 02's exercises (02.1, 02b.1, 02c.1, 02c.2) against the wrong answers written
(02d's are in test_wrong_answers_02d.py).

Each plausible wrong answer must be refused with a hint that names its mistake (not only "try
again"), and every correct form must pass: a list where a tuple is shown, a function written
another way, a truthy value for True. The expected answers come from the library (`SOLUTIONS`),
never typed in here.
"""

import re
import sys

import pytest
from conftest import ROOT

from chunklab import StructuralChunker, cl100k, load_document
from chunklab.teaching.exercises import verdict
from chunklab.teaching.selfcheck import check

sys.path.insert(0, str(ROOT))
from solutions.exercises import closes_fence  # noqa: E402

# --- 02.1: repack_tokens  ---


def _greedy(spans, fits):
    out = []
    for a, b in spans:
        if out and fits(out[-1][0], a, b):
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def repack_right(text, spans, budget):
    return _greedy(spans, lambda first, a, b: cl100k(text[first:b]) <= budget)


def repack_as_lists(text, spans, budget):  # a correct answer in another form
    return [list(span) for span in repack_right(text, spans, budget)]


def repack_adding_counts(text, spans, budget):
    pieces: list[list[tuple[int, int]]] = []
    for a, b in spans:
        if pieces and sum(cl100k(text[x:y]) for x, y in [*pieces[-1], (a, b)]) <= budget:
            pieces[-1].append((a, b))
        else:
            pieces.append([(a, b)])
    return [(p[0][0], p[-1][1]) for p in pieces]


def repack_strictly_below(text, spans, budget):  # off by one
    return _greedy(spans, lambda first, a, b: cl100k(text[first:b]) < budget)


def repack_by_characters(text, spans, budget):  # repack_ unchanged: size in characters
    return _greedy(spans, lambda first, a, b: b - first <= budget)


def repack_nothing(text, spans, budget):
    return list(spans)


def repack_merged_plus_new(text, spans, budget):  # the merged piece's count + the new piece's
    out = []
    for a, b in spans:
        if out and cl100k(text[out[-1][0] : out[-1][1]]) + cl100k(text[a:b]) <= budget:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def repack_one_over(text, spans, budget):  # off by one the other way
    return _greedy(spans, lambda first, a, b: cl100k(text[first:b]) <= budget + 1)


def repack_joined_by_space(text, spans, budget):
    pieces: list[list[tuple[int, int]]] = []
    for a, b in spans:
        if pieces and cl100k(" ".join(text[x:y] for x, y in [*pieces[-1], (a, b)])) <= budget:
            pieces[-1].append((a, b))
        else:
            pieces.append([(a, b)])
    return [(p[0][0], p[-1][1]) for p in pieces]


def repack_merged_space_new(text, spans, budget):  # no known rule: the hint reads its pieces
    return _greedy(
        spans, lambda first, a, b: cl100k(text[first:a].rstrip() + " " + text[a:b]) <= budget
    )


def repack_never_twice(text, spans, budget):  # merges a pair, then never extends it again
    out: list[tuple[int, int]] = []
    for a, b in spans:
        if out and out[-1] in spans and cl100k(text[out[-1][0] : b]) <= budget:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def repack_by_words(text, spans, budget):  # the article's stand-in for tokens
    return _greedy(spans, lambda first, a, b: len(text[first:b].split()) <= budget)


def repack_dropping_long_spans(text, spans, budget):  # a span over the budget is skipped
    out: list[tuple[int, int]] = []
    for a, b in spans:
        if out and cl100k(text[out[-1][0] : b]) <= budget:
            out[-1] = (out[-1][0], b)
        elif cl100k(text[a:b]) <= budget:
            out.append((a, b))
    return out


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (repack_by_words, "not words"),
        (repack_dropping_long_spans, "never drop it"),
        (repack_merged_space_new, "over the budget: decide each merge on that slice"),
        (repack_never_twice, "yet you left it in two pieces"),
        (repack_adding_counts, "you added up the pieces' counts"),
        (repack_strictly_below, "exactly `budget` tokens"),
        (repack_by_characters, "not characters"),
        (repack_nothing, "you returned them unmerged"),
        (repack_merged_plus_new, "the merged piece's count to the new piece's"),
        (repack_one_over, "not budget + 1"),
        (repack_joined_by_space, "joined with a space"),
    ],
    ids=lambda x: getattr(x, "__name__", "hint"),
)
def test_02_1_refuses_each_wrong_repack_naming_its_mistake(wrong, hint):
    result = verdict("02.1", wrong)
    assert not result.passed and hint in result.message, result.message


@pytest.mark.parametrize("right", [repack_right, repack_as_lists])
def test_02_1_accepts_tuples_or_lists(right):
    assert verdict("02.1", right).passed


def test_02_1_refuses_the_librarys_packer():
    """A fresh reader passed 02.1 with the packer the exercise names (`pack_spans`, 80 of 80
    cases); the check now refuses it, and `largest_fitting` beneath it, saying what to write."""
    from chunklab.tokens.budget import SourceBudget
    from chunklab.tokens.packing import largest_fitting, pack_spans

    def fitting(text, spans, budget):  # the library's search, the loop around it written out
        out, i = [], 0
        while i < len(spans):
            first = spans[i][0]
            rest = spans[i:]
            more = largest_fitting(
                len(rest) - 1, lambda k, a=first, rest=rest: cl100k(text[a : rest[k][1]]) <= budget
            )
            out.append((spans[i][0], spans[i + more][1]))
            i += more + 1
        return out

    for calling, name in [
        (lambda t, s, b: pack_spans(s, b, SourceBudget(t, cl100k)), "pack_spans"),
        (fitting, "largest_fitting"),
    ]:
        result = verdict("02.1", calling)
        assert not result.passed and name in result.message, result.message
        assert "write the loop yourself" in result.message, result.message


# --- 02b.1: closes_fence  ---


def _run(opening):
    fence = opening.lstrip(" ")
    char = fence[0]
    return char, len(fence) - len(fence.lstrip(char))


def _indented(line):  # four columns or more: a tab counts as four
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip(" ")) >= 4


def fence_right_by_regex(opening, line):
    char, length = _run(opening)
    return not _indented(line) and re.fullmatch(
        rf"[ \t]*{re.escape(char)}{{{length},}}[ \t]*", line
    )


def fence_sketch(opening, line):  # the design sketch's rule
    return line.startswith("`" * 3)


def fence_ignoring_info_strings(opening, line):
    char, length = _run(opening)
    return line.strip().startswith(char * length) and not _indented(line)


def fence_ignoring_length(opening, line):
    char, _ = _run(opening)
    stripped = line.strip()
    return len(stripped) >= 3 and stripped == char * len(stripped) and not _indented(line)


def fence_ignoring_indentation(opening, line):
    char, length = _run(opening)
    stripped = line.strip()
    return len(stripped) >= length and stripped == char * len(stripped)


def fence_either_character(opening, line):
    _, length = _run(opening)
    stripped = line.strip()
    return len(stripped) >= length and set(stripped) <= set("`~") and not _indented(line)


def fence_exact_length(opening, line):
    char, length = _run(opening)
    return line.strip() == char * length and not _indented(line)


def fence_tab_as_one_space(opening, line):
    char, length = _run(opening)
    stripped = line.strip()
    indent = len(line) - len(line.lstrip(" \t"))
    return indent < 4 and len(stripped) >= length and stripped == char * len(stripped)


def fence_spaces_only_after(opening, line):  # the spec allows spaces or tabs after the run
    char, length = _run(opening)
    stripped = line.lstrip(" ").rstrip(" ")
    return not _indented(line) and len(stripped) >= length and stripped == char * len(stripped)


def fence_mixed_run(opening, line):  # "```~" read as one run of fence characters
    char, length = _run(opening)
    m = re.fullmatch(r" {0,3}([`~]+)[ \t]*", line)
    return bool(m) and m.group(1)[0] == char and len(m.group(1)) >= length


def fence_info_string_in_run(opening, line):  # the whole opening line taken as its run
    char, length = _run(opening)
    length = len(opening.strip())
    stripped = line.strip(" \t")
    return not _indented(line) and len(stripped) >= length and stripped == char * len(stripped)


def fence_run_with_indentation(opening, line):  # the run measured without stripping indentation
    char, length = opening.strip()[0], max(3, len(opening) - len(opening.lstrip(opening[0])))
    stripped = line.strip(" \t")
    return not _indented(line) and len(stripped) >= length and stripped == char * len(stripped)


def fence_opening_read_unindented(opening, line):  # an indented opening is not seen as a fence
    found = re.match(r"(`{3,}|~{3,})", opening)
    stripped = line.strip(" \t")
    run = found.group(1) if found else "\0"
    return not _indented(line) and len(stripped) >= len(run) and stripped == run[0] * len(stripped)


def fence_backticks_only(opening, line):  # tilde fences never handled
    found = re.match(r" {0,3}(`{3,})", opening)
    closing = re.fullmatch(r" {0,3}(`{3,})[ \t]*", line)
    return bool(found and closing) and len(closing.group(1)) >= len(found.group(1))


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (fence_backticks_only, "closed by a run of tildes"),
        (fence_info_string_in_run, "not its info string"),
        (fence_run_with_indentation, "counted after its indentation"),
        (fence_mixed_run, "a closing run is one character only"),
        (fence_sketch, "up to three spaces before the closing run"),
        (fence_ignoring_info_strings, "info string"),
        (fence_ignoring_length, "at least as long"),
        (fence_ignoring_indentation, "four spaces or more"),
        (fence_either_character, "only a run of the opening's character"),
        (fence_exact_length, "longer than the opening's"),
        (fence_tab_as_one_space, "a tab counts as four"),
        (fence_spaces_only_after, "spaces or tabs after the closing run"),
        (fence_opening_read_unindented, "starts after its indentation"),
    ],
    ids=lambda x: getattr(x, "__name__", "hint"),
)
def test_02b_1_refuses_each_wrong_fence_rule_naming_its_mistake(wrong, hint):
    result = verdict("02b.1", wrong)
    assert not result.passed and hint in result.message, result.message


def test_02b_1_accepts_a_regex_answer_that_returns_a_match_or_none():
    assert verdict("02b.1", fence_right_by_regex).passed
    assert verdict("02b.1", closes_fence).passed


# --- 02c.1 (write code): apart_headings  ---


def said(exercise, answer, capsys) -> str:
    check(exercise, answer)
    return capsys.readouterr().out


def _old_02_2_answer():
    """The old 02.2 asked for (size, rows): section 3's repack re-run on the English rendering at
    sizes 100, 110, ..., until the Noise row shares a chunk with the header row."""
    doc = load_document("manual_en")
    rows = [r for r in doc.text.splitlines() if r.startswith("| ") and "| Measure |" not in r]
    for size in range(100, 1001, 10):
        chunks = StructuralChunker(size=size, repack=True).split(doc)
        apart = [
            r for r in rows if not any(r in c.text and "| Measure |" in c.text for c in chunks)
        ]
        if not any("Noise" in r for r in apart):
            return size, len(apart)
    raise AssertionError


def test_02c_1_refuses_the_old_answer_copied_from_a_cell_with_a_number_changed(capsys):
    old = _old_02_2_answer()
    out = said("02c.1", old, capsys)
    assert "not yet: pass your function itself" in out, out
    assert not verdict("02c.1", lambda text, spans: old).passed


def apart_by_spans(text, spans):  # a correct answer: line offsets, one span holding both
    lines, pos = [], 0
    for line in text.split("\n"):
        lines.append((pos, pos + len(line), line))
        pos += len(line) + 1
    filled = [x for x in lines if x[2].strip()]
    texts = [x for x in filled if not re.match(r"#{1,6} ", x[2])]  # the lines of text
    out = []
    for h in filled:
        after = next((x for x in texts if x[0] > h[0]), None)
        if re.match(r"#{1,6} ", h[2]) and after:
            if not any(a <= h[0] and after[1] <= b for a, b in spans):
                out.append(h[2])  # the heading line itself, '#'s and all: accepted as its title
    return out


def apart_by_regex(text, spans):  # another correct answer: a regex, the line of text looked ahead
    skipped = r"(?:\n(?:[ \t]*|#{1,6} [^\n]*))*"  # blank lines and headings between
    pattern = r"^(#{1,6} (.*))$(?=" + skipped + r"\n(?!#{1,6} )([^\n]*\S[^\n]*))"
    found = []
    for m in re.finditer(pattern, text, re.M):
        start, end = m.start(1), m.end(3)
        if not any(a <= start and end <= b for a, b in spans):
            found.append(m.group(2).strip())
    return tuple(found)


@pytest.mark.parametrize("right", [apart_by_spans, apart_by_regex])
def test_02c_1_accepts_a_correct_apart_headings_written_two_ways(right):
    result = verdict("02c.1", right)
    assert result.passed, result.message


def _apart_by(text, spans, kept, after_of="text", last=False):
    """after_of: "text", the first non-blank line that is no heading (right); "filled", the next
    non-blank line, a subheading too; "raw", the line just below when some text follows."""
    lines, pos = [], 0
    for line in text.split("\n"):
        lines.append((pos, pos + len(line), line))
        pos += len(line) + 1
    out = []
    for k, h in enumerate(lines):
        if not re.match(r"#{1,6} ", h[2]):
            continue
        texts = [x for x in lines[k + 1 :] if x[2].strip() and not re.match(r"#{1,6} ", x[2])]
        filled = [x for x in lines[k + 1 :] if x[2].strip()]
        if after_of == "filled":
            after = filled[0] if filled else None
        else:
            after = (texts[0] if after_of == "text" else lines[k + 1]) if texts else None
        if (after is None and last) or (after is not None and not kept(text, spans, h, after)):
            out.append(h[2].lstrip("#").strip())
    return out


def _one(spans, *lines):
    return any(all(a <= s and e <= b for s, e, _ in lines) for a, b in spans)


def _title_substring(text, spans):  # the title's words anywhere in the chunk
    return _apart_by(
        text,
        spans,
        lambda t, sp, h, n: any(
            h[2].lstrip("#").strip() in t[a:b] and n[2] in t[a:b] for a, b in sp
        ),
    )


def _title_without_its_hashes(text, spans):  # notebook 02c's test: the title as a line, '#'s or not
    def kept(t, sp, h, n):
        start = h[0] + len(h[2]) - len(h[2].lstrip("#").lstrip())
        return _one(sp, (start, h[1], ""), n)

    return _apart_by(text, spans, kept)


def _blank_line_after(text, spans):
    return _apart_by(text, spans, lambda t, sp, h, n: _one(sp, h, n), after_of="raw")


def _heading_alone(text, spans):
    return _apart_by(text, spans, lambda t, sp, h, n: _one(sp, h))


def _two_spans(text, spans):
    return _apart_by(text, spans, lambda t, sp, h, n: _one(sp, h) and _one(sp, n))


def _last_heading_counted(text, spans):
    return _apart_by(text, spans, lambda t, sp, h, n: _one(sp, h, n), last=True)


def _subheading_as_text(text, spans):  # the old exercise's answer: the next non-blank line
    return _apart_by(text, spans, lambda t, sp, h, n: _one(sp, h, n), after_of="filled")


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (_title_substring, "the heading LINE whole"),
        (_title_without_its_hashes, "the heading line runs from its first `#`"),
        (_blank_line_after, "next NON-BLANK line"),
        (_heading_alone, "the same span also holds the line after it"),
        (_two_spans, "must be in ONE span"),
        (_last_heading_counted, "no line of text after it is not counted"),
    ],
    ids=lambda x: getattr(x, "__name__", "hint"),
)
def test_02c_1_names_each_slip(wrong, hint):
    result = verdict("02c.1", wrong)
    assert not result.passed and hint in result.message, result.message


def test_02c_1_refuses_a_subheading_taken_for_the_text():
    """A heading right above a subheading is kept only with the first line of TEXT after it:
    the next non-blank line, the old exercise's rule, credited `## Stack` kept in a chunk holding
    `## Stack` and `### Under` alone. Fails on the old checker, which asked for that rule."""
    result = verdict("02c.1", _subheading_as_text)
    assert not result.passed and "a subheading right under a heading is not its text" in (
        result.message
    ), result.message


def _just_below(text, spans):  # the physical next line, blank or not, as the line after
    lines, pos = [], 0
    for line in text.split("\n"):
        lines.append((pos, pos + len(line), line))
        pos += len(line) + 1
    return [
        h[2].lstrip("#").strip()
        for h, after in zip(lines, lines[1:], strict=False)
        if re.match(r"#{1,6} ", h[2]) and not _one(spans, h, after)
    ]


def _start_of_next(text, spans):  # the heading whole, but only the first character of the next
    return _apart_by(
        text, spans, lambda t, sp, h, n: any(a <= h[0] and h[1] <= b and n[0] < b for a, b in sp)
    )


def _loose_heading(pattern):
    def apart(text, spans):
        lines, pos = [], 0
        for line in text.split("\n"):
            lines.append((pos, pos + len(line), line))
            pos += len(line) + 1
        filled = [x for x in lines if x[2].strip()]
        out = []
        for k, h in enumerate(filled):
            after = next((x for x in filled[k + 1 :] if not re.match(pattern, x[2])), None)
            if re.match(pattern, h[2]) and after and not _one(spans, h, after):
                out.append(h[2].lstrip("#").strip())
        return out

    apart.__name__ = f"heading_{pattern}"
    return apart


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (_just_below, "which may be blank"),
        (_start_of_next, "WHOLE, to its end"),
        (_loose_heading(r"#+ "), "seven or more `#`s make no heading"),
        (_loose_heading(r"#+"), "and a SPACE: `#Title`"),
        (_loose_heading(r"#{1,6}"), "and a SPACE: `#Title`"),
    ],
    ids=["just_below", "start_of_next", "seven_hashes", "any_hashes", "no_space"],
)
def test_02c_1_names_the_next_line_and_heading_slips(wrong, hint):
    """The line just below (maybe blank), a span holding only the next line's start, and a
    heading pattern looser than one to six `#`s and a space: each refused with its own hint."""
    result = verdict("02c.1", wrong)
    assert not result.passed and hint in result.message, result.message


def test_02c_1_refuses_dropping_a_repeated_title():
    from solutions.exercises import apart_headings

    result = verdict("02c.1", lambda text, spans: list(dict.fromkeys(apart_headings(text, spans))))
    assert not result.passed and "repeats kept" in result.message, result.message


# --- 02c.2 (write code): glue_headings, section 2's glue fixed for stacked headings ---


def _is_heading_only(text):
    lines = [line for line in text.split("\n") if line.strip()]
    return bool(lines) and all(re.match(r"#{1,6} ", line) for line in lines)


def _glue_by(joins, fits=lambda first, end, size: end - first <= size):
    def glue_headings(text, spans, size):
        out = []
        for a, b in spans:
            if out and joins(text[out[-1][0] : out[-1][1]]) and fits(out[-1][0], b, size):
                out[-1] = (out[-1][0], b)
            else:
                out.append((a, b))
        return out

    return glue_headings


glue_one_heading_only = _glue_by(lambda t: bool(re.fullmatch(r"#{1,6} .*", t.strip())))


def glue_leaving_the_stack(text, spans, size):  # a heading never joined to a heading below it
    out = []
    for a, b in spans:
        if (
            out
            and _is_heading_only(text[out[-1][0] : out[-1][1]])
            and not _is_heading_only(text[a:b])
            and b - out[-1][0] <= size
        ):
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def glue_summing_lengths(text, spans, size):  # the blank lines between chunks not counted
    out = []
    for a, b in spans:
        if out and _is_heading_only(text[out[-1][0] : out[-1][1]]) and out[-1][2] + b - a <= size:
            out[-1] = (out[-1][0], b, out[-1][2] + b - a)
        else:
            out.append((a, b, b - a))
    return [(a, b) for a, b, _ in out]


def glue_to_the_previous(text, spans, size):  # a heading joined to the chunk before it
    out = []
    for a, b in spans:
        if out and _is_heading_only(text[a:b]) and b - out[-1][0] <= size:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (glue_one_heading_only, "section 2's glue"),  # the glue the exercise fixes
        (glue_leaving_the_stack, "join the stack, then the text"),
        (_glue_by(_is_heading_only, lambda first, end, size: True), "the joined span must fit"),
        (_glue_by(_is_heading_only, lambda first, end, size: end - first < size), "not <"),
        (glue_summing_lengths, "the blank lines between the chunks are in it"),
        (_glue_by(lambda t: t.startswith("#")), "`#tag` is no heading"),
        (_glue_by(lambda t: all(x[:1] == "#" for x in t.splitlines() if x.strip())), "a SPACE"),
        (_glue_by(lambda t: True), "only a chunk of headings only"),
        (glue_to_the_previous, "AFTER it"),
    ],
)
def test_02c_2_names_each_slip(wrong, hint):
    result = verdict("02c.2", wrong)
    assert not result.passed and hint in result.message, result.message


def glue_with_a_while_loop(text, spans, size):  # correct, written another way: lists returned
    out, k = [], 0
    while k < len(spans):
        start, end = spans[k]
        k += 1
        while k < len(spans) and spans[k][1] - start <= size:
            lines = [x for x in text[start:end].splitlines() if x.strip()]
            if not lines or not all(re.match(r"#{1,6} ", x) for x in lines):
                break
            end = spans[k][1]
            k += 1
        out.append([start, end])
    return out


def glue_once(text, spans, size):  # a heading-only chunk takes the next chunk, then stops
    out, done = [], []
    for a, b in spans:
        if out and not done[-1] and _is_heading_only(text[out[-1][0] : out[-1][1]]):
            if b - out[-1][0] <= size:
                out[-1], done[-1] = (out[-1][0], b), True
                continue
        out.append((a, b))
        done.append(False)
    return out


def test_02c_2_names_a_glue_that_joins_once():
    """Joining once and stopping is refused with its own slip, not called section 2's glue: a
    chunk of two stacked headings, then a third, is joined twice. Fails on the old checker, whose
    cases never held two headings in one chunk, so this answer got section 2's hint."""
    result = verdict("02c.2", glue_once)
    assert not result.passed and "you joined once and stopped" in result.message, result.message
    assert "section 2's glue" not in result.message, result.message


def test_02c_2_refuses_a_chunk_whose_last_line_is_a_heading():
    """A chunk of text that ends with a heading is not heading-only; the statement excludes the
    rule "its last non-blank line is a heading". Fails on the old checker, whose cases held no
    text followed by a heading in one chunk."""
    last_line = _glue_by(lambda t: bool(re.match(r"#{1,6} ", t.rstrip().split("\n")[-1])))
    result = verdict("02c.2", last_line)
    assert not result.passed and "not heading-only" in result.message, result.message


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (  # `#+ `: seven `#`s taken for a heading
            _glue_by(
                lambda t: (
                    all(re.match(r"#+ ", x) for x in t.split("\n") if x.strip())
                    and any(x.strip() for x in t.split("\n"))
                )
            ),
            "with seven, is no heading",
        ),
        (  # `if line`: a line of spaces counted as text, so the chunk is not headings only
            _glue_by(
                lambda t: (
                    all(re.match(r"#{1,6} ", x) for x in t.split("\n") if x)
                    and any(x for x in t.split("\n"))
                )
            ),
            "a line of spaces only is blank",
        ),
    ],
)
def test_02c_2_names_seven_hashes_and_a_line_of_spaces(wrong, hint):
    """A heading test that allows seven `#`s, and one that takes a line of spaces for text, are
    refused, each with its hint. Fails on the old checker, whose cases held neither line."""
    result = verdict("02c.2", wrong)
    assert not result.passed and hint in result.message, result.message


@pytest.mark.parametrize("right", [glue_with_a_while_loop, "solution"])
def test_02c_2_accepts_a_correct_glue_written_two_ways(right):
    from solutions.exercises import glue_headings

    result = verdict("02c.2", glue_headings if right == "solution" else right)
    assert result.passed, result.message


def test_02c_2_refuses_the_old_int_answer(capsys):
    """The old exercise took the count 2, guessable; now it asks for the glue itself."""
    assert "pass your function itself" in said("02c.2", 2, capsys)


def test_02c_2_fixed_glue_keeps_every_policy_heading_where_section_2s_leaves_four():
    """On the travel policy at 800 section 2's glue joins each of its two stacked headings to the
    subheading below and stops: both headings of each stack stay apart from their text (4). The
    fixed glue leaves none."""
    from solutions.exercises import apart_headings, glue_headings

    doc = load_document("travel_policy")
    spans = [(c.start, c.end) for c in StructuralChunker(size=800).split(doc)]
    assert len(apart_headings(doc.text, glue_one_heading_only(doc.text, spans, 800))) == 4
    assert apart_headings(doc.text, glue_headings(doc.text, spans, 800)) == []


def test_02c_1_names_titles_returned_sorted():
    from solutions.exercises import apart_headings

    result = verdict("02c.1", lambda text, spans: sorted(apart_headings(text, spans)))
    assert not result.passed and "not sorted" in result.message, result.message


def repack_joined_by_line_break(text, spans, budget):  # right only where spans are lines
    pieces: list[list[tuple[int, int]]] = []
    for a, b in spans:
        if pieces and cl100k("\n".join(text[x:y] for x, y in [*pieces[-1], (a, b)])) <= budget:
            pieces[-1].append((a, b))
        else:
            pieces.append([(a, b)])
    return [(p[0][0], p[-1][1]) for p in pieces]


def test_02_1_refuses_pieces_rebuilt_with_line_breaks():
    result = verdict("02.1", repack_joined_by_line_break)
    assert not result.passed and "joined with a line break" in result.message, result.message


def apart_indented_too(text, spans):  # "  # X" taken for a heading
    lines, pos = [], 0
    for line in text.split("\n"):
        lines.append((pos, pos + len(line), line))
        pos += len(line) + 1
    out = []
    for k, (s, e, line) in enumerate(lines):
        after = next(
            (x for x in lines[k + 1 :] if x[2].strip() and not re.match(r"\s*#{1,6} ", x[2])), None
        )
        if re.match(r"\s*#{1,6} ", line) and after is not None:
            if not any(a <= s and e <= b and a <= after[0] and after[1] <= b for a, b in spans):
                out.append(line.strip().lstrip("#").strip())
    return out


def test_02c_1_refuses_an_indented_heading():
    result = verdict("02c.1", apart_indented_too)
    assert not result.passed and "STARTS with its `#`s" in result.message, result.message


def _section_5_line_pattern():
    """The `filled` pattern of notebook 02c's section 1, read from the notebook itself."""
    import json

    cells = json.loads((ROOT / "notebooks" / "02c_headings.ipynb").read_text())["cells"]
    source = next("".join(c["source"]) for c in cells if "filled = [" in "".join(c["source"]))
    return re.search(r'finditer\(r"(.+?)", text', source)[1]


def test_02c_1_accepts_section_5s_test_adapted_to_spans():
    pattern = _section_5_line_pattern()

    def apart_headings(text, spans):  # section 1's filled/titled/holds, over spans
        filled = [(m.start(1), m.end(1), m[1]) for m in re.finditer(pattern, text, re.M)]
        titled = []
        for k, line in enumerate(filled):
            after = next((x for x in filled[k + 1 :] if not re.match(r"#{1,6} ", x[2])), None)
            if re.match(r"#{1,6} ", line[2]) and after:
                titled.append((line, after))
        return [
            h[2].lstrip("#").strip()
            for h, a in titled
            if not any(s <= h[0] and a[1] <= e for s, e in spans)
        ]

    result = verdict("02c.1", apart_headings)
    assert result.passed, result.message


def apart_by_text_search(text, spans):  # the whole heading line searched as text, not placed
    lines = [x for x in text.split("\n") if x.strip()]
    out = []
    for k, h in enumerate(lines):
        after = next((x for x in lines[k + 1 :] if not re.match(r"#{1,6} ", x)), None)
        if re.match(r"#{1,6} ", h) and after:
            if not any(h in text[a:b] and after in text[a:b] for a, b in spans):
                out.append(h.lstrip("#").strip())
    return out


def test_02c_1_refuses_a_text_search_for_the_heading_line():
    """'# Pump' is found inside '## Pump': a text search credits a heading no span holds."""
    result = verdict("02c.1", apart_by_text_search)
    assert not result.passed and "inside `## Pump`" in result.message, result.message


def fence_any_whitespace_after(opening, line):  # `\s*` after the run: a no-break space passes
    char, length = _run(opening)
    return not _indented(line) and re.fullmatch(rf"[ \t]*{re.escape(char)}{{{length},}}\s*", line)


def fence_run_by_count(opening, line):  # the run measured as every fence character of the line
    char = opening.lstrip(" ")[0]
    length = opening.count(char)
    closing = re.fullmatch(rf"[ \t]*{re.escape(char)}{{{length},}}[ \t]*", line)
    return not _indented(line) and closing


def fence_tab_only_at_start(opening, line):  # the prompt's old words: a tab first never closes
    char, length = _run(opening)
    spaces = len(line) - len(line.lstrip(" "))
    stripped = line.strip(" \t")
    return (
        not line.startswith("\t")
        and spaces < 4
        and len(stripped) >= length
        and stripped == char * len(stripped)
    )


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (fence_tab_only_at_start, "a space then a tab is four too"),
        (fence_any_whitespace_after, "only spaces or tabs may follow a closing run"),
        (fence_run_by_count, "not its info string"),
    ],
    ids=lambda x: getattr(x, "__name__", "hint"),
)
def test_02b_1_refuses_slips_the_old_cases_let_pass(wrong, hint):
    """`\\s*` after the run (a no-break space is no space or tab) and the opening's run counted
    with `opening.count` (wrong for `~~~ a~b`, whose info string holds a tilde) passed the old
    checker, which tried neither line nor opening; so did a tab counted only first on the line
    (`" \\t```"` is indented four columns: a cold reader's run, round 46)."""
    result = verdict("02b.1", wrong)
    assert not result.passed and hint in result.message, result.message


def glue_stripping_lines(text, spans, size):  # "  ## A" taken for a heading: each line stripped
    def headings_only(t):
        lines = [x.strip() for x in t.split("\n") if x.strip()]
        return bool(lines) and all(re.match(r"#{1,6} ", x) for x in lines)

    return _glue_by(headings_only)(text, spans, size)


def test_02c_2_refuses_an_indented_line_taken_for_a_heading():
    """02c.1 refuses `  ## A` as a heading; 02c.2 now does too (its check holds an indented line).
    Fails on the old checker, whose cases held no indented heading line."""
    result = verdict("02c.2", glue_stripping_lines)
    assert not result.passed and "indented" in result.message, result.message


def test_02c_2_refuses_a_call_to_the_librarys_glue():
    from chunklab.chunkers.structural import glue_headings

    result = verdict("02c.2", lambda text, spans, size: glue_headings(text, spans, size))
    assert not result.passed and "glue_headings" in result.message, result.message


def fence_by_the_library(opening, line):  # the scanner's own functions, called
    from chunklab.parsing.scanner import closes_fence as library_closes
    from chunklab.parsing.scanner import opening_fence

    return library_closes(line, *opening_fence(opening))


def fence_table_from_the_lists():  # a table read off the check's own lists
    from chunklab.parsing.scanner import closes_fence as library_closes
    from chunklab.parsing.scanner import opening_fence
    from chunklab.teaching import exercises_structural as es

    table = {
        (o, x): library_closes(x, *opening_fence(o))
        for o in es.OPENINGS
        for x in es.LINES + es.LATE_LINES
    }
    return lambda opening, line: table.get((opening, line), False)


def test_02b_1_refuses_the_library_and_a_table_of_its_cases():
    """A call to `scanner.closes_fence` (or `opening_fence`) and a table copied from `OPENINGS`
    and `LINES` both passed the old checker (a cold reader's run, round 47)."""
    called = verdict("02b.1", fence_by_the_library)
    assert not called.passed and "write the rule yourself" in called.message, called.message
    table = verdict("02b.1", fence_table_from_the_lists())
    assert not table.passed and "is a table, not the fence rule" in table.message, table.message


def fence_by_markdown_it(opening, line):  # the notebook's reference, handed the question
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse(opening + "\n" + line + "\nZZZ\n")
    return not any(t.type == "fence" and "ZZZ" in t.content for t in tokens)


def fence_by_markdown_its_rule(opening, line):  # the block rule alone, without `parse`
    from markdown_it import MarkdownIt
    from markdown_it.rules_block.state_block import StateBlock

    md, text = MarkdownIt("commonmark"), opening + "\n" + line + "\nZZZ\n"
    state = StateBlock(text, md, {}, [])
    md.block.tokenize(state, 0, state.lineMax)
    return not any(t.type == "fence" and "ZZZ" in t.content for t in state.tokens)


@pytest.mark.parametrize("wrong", [fence_by_markdown_it, fence_by_markdown_its_rule])
def test_02b_1_refuses_handing_the_question_to_markdown_it(wrong):
    """A cold reader passed all 291 cases by parsing the fence with markdown-it-py, the reference
    cell 11 imports (round 47); it is refused as chunklab's own scanner is."""
    result = verdict("02b.1", wrong)
    assert not result.passed and "write the rule yourself" in result.message, result.message
    assert "markdown_it" in result.message, result.message
