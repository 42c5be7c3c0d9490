"""Notebook 04b's exercise refuses plausible wrong readers of a model's `split_after:` reply, each
with the reply it got wrong, and accepts any correct reader (a list or a tuple, any parsing)."""

import re

import pytest

from chunklab.chunkers.llm import LLMChunker
from chunklab.chunkers.llm import split_after as _library_reader
from chunklab.teaching.exercises import verdict


def _line(reply):
    return next((line for line in reply.splitlines() if "split_after:" in line), None)


def _after(reply):
    """The text after 'split_after:' on the line that holds it; a reply without one is refused."""
    line = _line(reply)
    if line is None:
        raise ValueError("no split_after: line")
    return line.split("split_after:", 1)[1]


def _in_order(numbers, repeats=False):
    """The numbers, refused when out of order (or repeated, unless `repeats`)."""
    if numbers != (sorted(numbers) if repeats else sorted(set(numbers))):
        raise ValueError("out of order")
    return numbers


def every_number_in_the_reply(reply):
    return [int(n) for n in re.findall(r"\d+", reply)]


def no_order_check(reply):
    return [int(n) for n in re.findall(r"\d+", _after(reply))]


def single_digits(reply):
    return _in_order([int(n) for n in re.findall(r"\d", _after(reply))], repeats=True)


def empty_when_no_line(reply):
    if _line(reply) is None:
        return []
    return _in_order([int(n) for n in re.findall(r"\d+", _after(reply))], repeats=True)


def sorting_instead_of_refusing(reply):
    return sorted(int(n) for n in re.findall(r"\d+", _after(reply)))


def accepting_a_repeat(reply):
    return _in_order([int(n) for n in re.findall(r"\d+", _after(reply))], repeats=True)


@pytest.mark.parametrize(
    ("wrong", "shown", "hint"),
    [
        (every_number_in_the_reply, "Pieces 1 to 4", "not numbers elsewhere in the reply"),
        (no_order_check, "split_after: 5, 3", "out of order: raise"),
        (single_digits, "10, 12, 31", "10 is one, not 1 and 0"),
        (empty_when_no_line, "I would cut after piece 3.", "no split_after: line; raise"),
        (sorting_instead_of_refusing, "split_after: 5, 3", "never sort them"),
        (accepting_a_repeat, "split_after: 3, 3", "a number is repeated"),
    ],
)
def test_04b_1_refuses_each_wrong_reader_naming_the_reply_and_the_slip(wrong, shown, hint):
    result = verdict("04b.1", wrong)
    assert not result.passed
    assert shown in result.message, result.message
    assert hint in result.message, result.message


def test_04b_1_accepts_any_correct_reader():
    def by_split(reply):
        for line in reply.split("\n"):
            if "split_after:" in line:
                before, rest = line.split("split_after:", 1)
                if before.strip():
                    raise ValueError(line)
                items = [item.strip() for item in rest.split(",")] if rest.strip() else []
                if not all(item.isascii() and item.isdigit() for item in items):
                    raise ValueError(line)
                numbers = tuple(int(n) for n in items)
                if list(numbers) != sorted(set(numbers)):
                    raise ValueError(line)
                return numbers
        raise ValueError(reply)

    assert verdict("04b.1", by_split).passed


def split_after_anywhere_on_its_line(reply):
    """Reads `Answer: split_after: 3, 5` as [3, 5]; the library refuses it: the line must start
    with split_after:, or any sentence that mentions it becomes a cut."""
    rest = _after(reply)
    if not re.fullmatch(r"\s*([0-9]+(\s*,\s*[0-9]+)*)?\s*", rest):
        raise ValueError(_line(reply))
    return _in_order([int(n) for n in re.findall(r"[0-9]+", rest)])


def test_04b_1_names_split_after_after_other_words_on_its_line():
    result = verdict("04b.1", split_after_anywhere_on_its_line)
    assert not result.passed
    assert "starts with split_after:" in result.message, result.message


def commas_and_spaces_alike(reply):
    """The slip a fresh reader found passing: split on commas and spaces, empty items dropped,
    so `3 5`, `3,,5` and `3, 5,` all become [3, 5], a guess."""
    rest = _after(reply)
    if not re.fullmatch(r"[\s\d,]*", rest):
        raise ValueError(_line(reply))
    return _in_order([int(n) for n in re.split(r"[\s,]+", rest) if n])


def test_04b_1_refuses_numbers_not_separated_by_single_commas():
    result = verdict("04b.1", commas_and_spaces_alike)
    assert not result.passed
    assert "split_after: 3 5" in result.message, result.message
    assert "separated by single commas" in result.message, result.message


def comma_and_space_only(reply):
    """The slip a fresh reader found passing: split on ", " only, so the readable `3,5` fails."""
    rest = _after(reply).strip()
    items = rest.split(", ") if rest else []
    if not all(item.isdigit() for item in items):
        raise ValueError(_line(reply))
    return _in_order([int(n) for n in items])


def test_04b_1_refuses_a_reader_that_needs_a_space_after_each_comma():
    result = verdict("04b.1", comma_and_space_only)
    assert not result.passed
    assert "split_after: 3,5" in result.message, result.message
    assert "spaces around them optional" in result.message, result.message


def numbers_to_the_end_of_the_reply(reply):
    """The slip a fresh reader found passing: every number after 'split_after:', whatever line."""
    if "split_after:" not in reply:
        raise ValueError("no split_after: line")
    return _in_order([int(n) for n in re.findall(r"\d+", reply.split("split_after:", 1)[1])])


def test_04b_1_names_numbers_read_past_the_line():
    result = verdict("04b.1", numbers_to_the_end_of_the_reply)
    assert not result.passed
    assert "not the lines that follow it" in result.message, result.message


def test_04b_1_refuses_a_wrapper_of_the_library_reader():
    from chunklab.chunkers.llm import split_after

    def wrapper(reply):
        return split_after(reply, 1, 10**9)

    result = verdict("04b.1", wrapper)
    assert not result.passed
    assert "calls the library's split_after" in result.message, result.message


def digits_of_a_malformed_line(reply):
    """The slip that passed while the library read '3.5' as [3, 5]: digits picked from any line."""
    return _in_order([int(n) for n in re.findall(r"\d+", _after(reply))])


def test_04b_1_refuses_digits_picked_from_a_malformed_line():
    result = verdict("04b.1", digits_of_a_malformed_line)
    assert not result.passed
    assert "split_after: 3.5" in result.message and "a guess" in result.message, result.message


def refusing_an_empty_line(reply):
    numbers = no_order_check(reply)
    if not numbers or numbers != sorted(set(numbers)):
        raise ValueError("nothing to read")
    return numbers


def first_line_only(reply):
    return no_order_check(reply.splitlines()[0]) if reply else []


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (refusing_an_empty_line, "no numbers means no cut: return []"),
        (first_line_only, "search every line"),
    ],
)
def test_04b_1_names_an_empty_line_and_a_line_after_other_text(wrong, hint):
    result = verdict("04b.1", wrong)
    assert not result.passed
    assert hint in result.message, result.message


def _int_on_each_item(reply):  # int() reads '+3', '-1' and '1_0': not whole numbers as written
    lines = [line for line in reply.splitlines() if line.startswith("split_after:")]
    if not lines:
        raise ValueError("no split_after: line")
    rest = lines[0].removeprefix("split_after:").strip()
    numbers = [int(item) for item in rest.split(",")] if rest else []
    if any(b <= a for a, b in zip(numbers, numbers[1:], strict=False)):
        raise ValueError("out of order")
    return numbers


def test_04b_1_refuses_int_on_each_item_naming_signs_and_underscores():
    from chunklab.teaching.exercises import verdict

    result = verdict("04b.1", _int_on_each_item)
    assert not result.passed
    assert "int() also reads" in result.message, result.message


def digits_of_any_script(reply):
    """The slip a fresh reader found passing: a careful reader built on \\d, which also matches
    another script's digits, so '\u0663' (an Arabic-Indic 3) is read as 3."""
    rest = _after(reply)
    if not re.fullmatch(r"\s*(\d+(\s*,\s*\d+)*)?\s*", rest):
        raise ValueError(_line(reply))
    return _in_order([int(n) for n in re.findall(r"\d+", rest)])


def test_04b_1_refuses_digits_other_than_0_to_9():
    result = verdict("04b.1", digits_of_any_script)
    assert not result.passed
    assert "split_after: \u0663, \u0665" in result.message, result.message
    assert "written in 0-9" in result.message, result.message


def test_the_library_reads_0_to_9_alone():
    from chunklab.chunkers.llm import split_after

    assert split_after("split_after: 3, 5", 1, 10) == [3, 5]
    for reply in ["split_after: \u0663", "split_after: 2, \uff14"]:
        with pytest.raises(ValueError):
            split_after(reply, 1, 10)


def _no_resumption(tokens, model, call_tokens):  # every call starts after the previous window
    calls, first = [], 1
    while first <= len(tokens):
        last, used = first - 1, 0
        while last < len(tokens) and (last == first - 1 or used <= call_tokens):
            used, last = used + tokens[last], last + 1
        calls.append((first, last))
        first = last + 1
    return calls


def _resuming(start_after, fill=lambda used, t, ct: used <= ct, end_at_last=True):
    def pass_windows(tokens, model, call_tokens):
        calls, first = [], 1
        while first <= len(tokens):
            last, used = first - 1, 0
            while last < len(tokens) and (
                last == first - 1 or fill(used, tokens[last], call_tokens)
            ):
                used, last = used + tokens[last], last + 1
            calls.append((first, last))
            if end_at_last and last == len(tokens):
                break
            named = model(first, last)
            first = start_after(named) if named else last + 1
        return calls

    return pass_windows


def test_04b_2_accepts_a_pass_written_two_ways():
    from solutions.exercises import pass_windows

    def by_sums(tokens, model, call_tokens):  # cumulative sums; asks the model on the last call too
        from itertools import accumulate

        calls, first = [], 0
        while first < len(tokens):
            sums = list(accumulate(tokens[first:]))
            last = (
                first + next((i for i, s in enumerate(sums) if s > call_tokens), len(sums) - 1) + 1
            )
            calls.append((first + 1, last))
            named = model(first + 1, last)
            if last == len(tokens):
                break
            if not all(a < b <= last for a, b in zip([first, *named], named, strict=False)):
                raise ValueError(named)  # a reply outside pieces first + 1..last, or out of order
            first = named[-1] if named else last
        return calls

    for right in (pass_windows, by_sums):
        result = verdict("04b.2", right)
        assert result.passed, result.message


def test_04b_2_refuses_the_old_route_and_the_library():
    """The old exercise asked for (calls, prompt tokens) read off a run of LLMChunker: that pair is
    refused, and so is a pass that hands the counting to LLMChunker.window."""
    from types import SimpleNamespace

    assert not verdict("04b.2", (3, 2514)).passed

    def library(tokens, model, call_tokens):
        pieces = [SimpleNamespace(text="x", token_count=t) for t in tokens]
        chunker = LLMChunker(lambda prompt: "split_after:", call_tokens=call_tokens)
        calls, first = [], 0
        while first < len(pieces):
            _, past = chunker.window(pieces, first)
            calls.append((first + 1, past))
            if past == len(pieces):
                break
            named = model(first + 1, past)
            first = named[-1] if named else past
        return calls

    result = verdict("04b.2", library)
    assert not result.passed
    assert "calls chunklab.chunkers.llm.window" in result.message, result.message


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (_no_resumption, "the pieces after it are sent again"),
        (_resuming(lambda named: named[-1]), "the pass never ends"),
        (_resuming(lambda named: named[0] + 1), "after the first cut named"),
        (
            _resuming(lambda named: named[-1] + 1, fill=lambda u, t, ct: u + t <= ct),
            "pass call_tokens",
        ),
        (_resuming(lambda named: named[-1] + 1, end_at_last=False), "ends the pass"),
        (
            _resuming(lambda named: named[-1] + 1, fill=lambda u, t, ct: u < ct),
            "not until they reach it",
        ),
        (
            lambda tokens, model, ct: [
                (a - 1, b - 1) for a, b in _no_resumption(tokens, model, ct)
            ],
            "compare",
        ),
        (lambda tokens, model, ct: 3, "return a list of (first, last) pairs"),
    ],
)
def test_04b_2_names_each_slip(wrong, hint):
    result = verdict("04b.2", wrong)
    assert not result.passed
    assert hint in result.message, result.message


def test_04b_2_names_pieces_numbered_from_0():
    from solutions.exercises import pass_windows

    def from_zero(tokens, model, call_tokens):
        return [(a - 1, b - 1) for a, b in pass_windows(tokens, model, call_tokens)]

    assert "numbered from 1" in verdict("04b.2", from_zero).message


def no_spaces_before_the_line(reply):
    """The gap a fresh reader found passing: a reader that wants split_after: at the very start of
    its line refuses `  split_after: 3, 5`, which the brief allows (spaces or tabs before it)."""
    line = next((ln for ln in reply.splitlines() if ln.startswith("split_after:")), None)
    if line is None:
        raise ValueError("no split_after: line")
    rest = line.split("split_after:", 1)[1]
    if not re.fullmatch(r"\s*([0-9]+(\s*,\s*[0-9]+)*)?\s*", rest):
        raise ValueError(line)
    return _in_order([int(n) for n in re.findall(r"[0-9]+", rest)])


def test_04b_1_refuses_a_reader_that_refuses_spaces_before_the_line():
    result = verdict("04b.1", no_spaces_before_the_line)
    assert not result.passed
    assert "spaces or tabs before split_after: are allowed" in result.message, result.message


def last_split_after_line(reply):
    """Takes the last `split_after:` line; the first is the answer (the library's reading)."""
    lines = [ln for ln in reply.splitlines() if ln.lstrip().startswith("split_after:")]
    if not lines:
        raise ValueError("no split_after: line")
    rest = lines[-1].split("split_after:", 1)[1]
    if not re.fullmatch(r"\s*([0-9]+(\s*,\s*[0-9]+)*)?\s*", rest):
        raise ValueError(lines[-1])
    return _in_order([int(n) for n in re.findall(r"[0-9]+", rest)])


def any_case(reply):
    """Reads `SPLIT_AFTER: 3, 5` too; the brief's line starts with split_after:, lowercase."""
    line = next(
        (ln for ln in reply.splitlines() if ln.lower().lstrip().startswith("split_after:")), None
    )
    if line is None:
        raise ValueError("no split_after: line")
    rest = line.split(":", 1)[1]
    if not re.fullmatch(r"\s*([0-9]+(\s*,\s*[0-9]+)*)?\s*", rest):
        raise ValueError(line)
    return _in_order([int(n) for n in re.findall(r"[0-9]+", rest)])


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (last_split_after_line, "the first is the answer"),
        (any_case, "written in lowercase"),
    ],
)
def test_04b_1_refuses_the_last_line_and_any_case(wrong, hint):
    result = verdict("04b.1", wrong)
    assert not result.passed
    assert hint in result.message, result.message


def test_04b_2_names_resuming_at_the_cut_piece_even_with_a_guard():
    """The next call starts AT the last cut piece (kept from looping by moving on when that is the
    call's own first piece): it got only "compare your calls"."""

    def at_the_cut(tokens, model, call_tokens):
        calls, first = [], 1
        while first <= len(tokens):
            last, used = first - 1, 0
            while last < len(tokens) and (last == first - 1 or used <= call_tokens):
                used, last = used + tokens[last], last + 1
            calls.append((first, last))
            if last == len(tokens):
                break
            named = model(first, last)
            first = (named[-1] if named[-1] > first else named[-1] + 1) if named else last + 1
        return calls

    result = verdict("04b.2", at_the_cut)
    assert not result.passed
    assert "starts at the piece the call before it cut after" in result.message, result.message


def test_04b_2_first_cut_hint_says_whose_call_starts_where():
    result = verdict("04b.2", _resuming(lambda named: named[0] + 1))
    assert "yours starts after the first cut named" in result.message, result.message


def test_the_library_reads_the_line_that_starts_with_split_after_as_the_exercise_does():
    """The exercise's rule (the first line that starts with `split_after:`) is the library's: a
    line that only mentions it is not the answer line."""
    from chunklab.chunkers.llm import split_after

    assert split_after("Reply as split_after: N.\nsplit_after: 3, 5", 1, 10) == [3, 5]
    with pytest.raises(ValueError, match="no 'split_after:' line"):
        split_after("Answer: split_after: 3", 1, 10)


def _reader_as_default(reply, read=_library_reader):  # the library's reader as a default argument
    return read(reply, 0, 10**9)


def test_04b_1_refuses_the_library_reached_at_run_time():
    """The old check read only the names in the function's own code, so `split_after` reached
    through a default argument, an alias or a helper passed; the check now watches the calls."""
    result = verdict("04b.1", _reader_as_default)
    assert not result.passed and "calls the library's split_after" in result.message


def _guarded(refuse):
    """The right pass, with the reply's check `refuse(named, first, last, n)` (True: raise)."""

    def pass_windows(tokens, model, call_tokens):
        calls, first = [], 1
        while first <= len(tokens):
            last, used = first - 1, 0
            while last < len(tokens) and (last == first - 1 or used <= call_tokens):
                used, last = used + tokens[last], last + 1
            calls.append((first, last))
            if last == len(tokens):
                break
            named = model(first, last)
            if refuse(named, first, last, len(tokens)):
                raise ValueError(f"bad reply {named}")
            first = named[-1] + 1 if named else last + 1
        return calls

    return pass_windows


def _asserted(tokens, model, call_tokens):  # the reply checked with assert, not ValueError
    def refuse(named, first, last, n):
        assert all(first <= k <= last for k in named) and named == sorted(set(named))
        return False

    return _guarded(refuse)(tokens, model, call_tokens)


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (
            _guarded(lambda named, first, last, n: False),
            "past the call's last",
        ),  # notebook's loop adapted
        (
            _guarded(lambda named, first, last, n: any(not 1 <= k <= n for k in named)),
            "inside the document",
        ),
        (
            _guarded(lambda named, first, last, n: any(not 1 <= k <= last for k in named)),
            "not 1 <= n",
        ),
        (
            _guarded(lambda named, first, last, n: any(not first <= k <= last for k in named)),
            "not ascending",
        ),
        (
            _guarded(
                lambda named, first, last, n: (
                    any(not first <= k <= last for k in named)
                    or any(a > b for a, b in zip(named, named[1:], strict=False))
                )
            ),
            "a number repeated",
        ),
        (_asserted, "raise ValueError, as split_after does"),
        (_guarded(lambda named, first, last, n: last in named), "every reply here is well formed"),
    ],
    ids=[
        "no check",
        "1..n, not first..last",
        "1..last, not first..last",
        "range, not order",
        "order, not repeats",
        "assert",
        "refuses its last",
    ],
)
def test_04b_2_refuses_following_a_bad_reply_and_names_each_check_missed(wrong, hint):
    """The notebook's prompt loop, adapted (resume after the last cut), passed the round-44
    checker: it follows any reply. Each of these passed it, or got 'your function raised'."""
    result = verdict("04b.2", wrong)
    assert not result.passed and hint in result.message, result.message


def multiline_regex(reply):
    """The slip a fresh reader found passing: a re.M pattern whose \\s* crosses the newline, so
    'split_after:\\n3, 5' reads [3, 5] where the line names no cut."""
    found = re.search(r"^[ \t]*split_after:\s*([0-9]+(?:\s*,\s*[0-9]+)*)?\s*$", reply, re.M)
    if not found:
        raise ValueError("no readable split_after: line")
    return _in_order([int(n) for n in re.findall(r"[0-9]+", found[1] or "")])


def test_04b_1_refuses_a_pattern_whose_spaces_cross_the_newline():
    result = verdict("04b.1", multiline_regex)
    assert not result.passed and "matches a newline too" in result.message, result.message
    assert "'split_after:\\n3, 5'" in result.message, result.message


def chromas_reader(reply):  # Chroma's own: [0] of the lines holding split_after:
    numbers = [
        int(n)
        for n in re.findall(r"\d+", [li for li in reply.split("\n") if "split_after:" in li][0])
    ]
    return _in_order(numbers)


def test_04b_1_shows_the_reply_that_made_chromas_reader_raise_index_error():
    result = verdict("04b.1", chromas_reader)
    assert not result.passed
    assert "I would cut after piece 3." in result.message, result.message
    assert "IndexError" in result.message and "raises ValueError" in result.message, result.message


def spaces_only_before_the_line(reply):  # lstrip(" "): a tab before split_after: is missed
    line = next((li for li in reply.split("\n") if li.lstrip(" ").startswith("split_after:")), None)
    if line is None:
        raise ValueError("no split_after: line")
    body = line.split("split_after:", 1)[1].strip()
    items = [i.strip() for i in body.split(",")] if body else []
    if not all(i and set(i) <= set("0123456789") for i in items):
        raise ValueError("unreadable")
    return _in_order([int(i) for i in items])


def test_04b_1_hint_on_a_tab_before_the_line_names_tabs_as_the_text_does():
    result = verdict("04b.1", spaces_only_before_the_line)
    assert not result.passed
    assert "\\tsplit_after: 4" in result.message, result.message
    assert "spaces or tabs before split_after: are allowed" in result.message, result.message
