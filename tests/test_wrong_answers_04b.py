"""Notebook 04b's exercise refuses plausible wrong readers of a model's `split_after:` reply, each
with the reply it got wrong, and accepts any correct reader (a list or a tuple, any parsing)."""

import re

import pytest

from chunklab.chunkers.llm import LLMChunker
from chunklab.documents.series import list_documents, load_document
from chunklab.teaching import answers_llm_cuts, selfcheck
from chunklab.teaching.exercises import verdict
from chunklab.tokens.counters import cl100k


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
                rest = line.split("split_after:", 1)[1]
                items = [item.strip() for item in rest.split(",")] if rest.strip() else []
                if not all(item.isascii() and item.isdigit() for item in items):
                    raise ValueError(line)
                numbers = tuple(int(n) for n in items)
                if list(numbers) != sorted(set(numbers)):
                    raise ValueError(line)
                return numbers
        raise ValueError(reply)

    assert verdict("04b.1", by_split).passed


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


def test_04b_2_names_each_slip_and_accepts_a_list():

    right = selfcheck.SOLUTIONS["04b.2"][1]()
    assert selfcheck.verdict_for("04b.2", list(right)).endswith("correct.")
    hints = {
        answer: selfcheck.verdict_for("04b.2", answer)
        for answer in selfcheck.form("04b.2").misses()
    }
    assert any("page's own tokens" in line for line in hints.values())
    assert any("counts the pieces" in line for line in hints.values())
    assert any("first prompt alone" in line for line in hints.values())
    assert any("wrong order" in line for line in hints.values())
    assert all("not quite" in line for line in hints.values())


def test_04b_2_names_a_call_count_one_off():
    calls, tokens = selfcheck.SOLUTIONS["04b.2"][1]()
    for off in (calls - 1, calls + 1):
        assert "one call off" in selfcheck.verdict_for("04b.2", (off, tokens))


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


def test_04b_2_names_the_instruction_left_out_and_one_call():
    from chunklab.chunkers.llm import SPLIT_PROMPT
    from chunklab.tokens.counters import cl100k

    calls, tokens = selfcheck.SOLUTIONS["04b.2"][1]()
    left_out = tokens - calls * cl100k(SPLIT_PROMPT.format(first=1, pieces=""))
    assert "leave out the instruction" in selfcheck.verdict_for("04b.2", (calls, left_out))
    assert "do not fit one call" in selfcheck.verdict_for("04b.2", (1, tokens))


def test_04b_2_needs_the_re_sent_text():
    """The pass with no cut named (prompts(page)) is the obvious guess: refused, naming it; the
    stand-in's cuts send more calls and more tokens."""
    from chunklab.teaching import answers_llm_cuts

    calls, tokens = selfcheck.SOLUTIONS["04b.2"][1]()
    no_cut = answers_llm_cuts.first_pass_on_schedules(None)
    assert no_cut[0] < calls and no_cut[1] < tokens
    assert "no cut named" in selfcheck.verdict_for("04b.2", no_cut)
    assert "quarter" in selfcheck.verdict_for(
        "04b.2", answers_llm_cuts.first_pass_on_schedules(0.25)
    )


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


def test_04b_2_names_the_pieces_tokens_alone():
    hints = [selfcheck.verdict_for("04b.2", a) for a in selfcheck.form("04b.2").misses()]
    assert any("pieces once each" in line for line in hints)


def test_04b_2_names_characters_counted_for_tokens():
    from chunklab.teaching import answers_llm_cuts, selfcheck

    calls, _ = selfcheck.SOLUTIONS["04b.2"][1]()
    characters = sum(len(p) for p in answers_llm_cuts.sent_on_schedules())
    assert "counts characters" in selfcheck.verdict_for("04b.2", (calls, characters))


def test_04b_2b_names_each_slip_of_the_re_sent_tokens():
    """How many more prompt tokens the halfway stand-in sends than the pass with no cut: the
    stand-in's total, the no-cut total, the sign, characters and the pieces alone are refused."""
    from chunklab.teaching import answers_llm_cuts

    right = selfcheck.SOLUTIONS["04b.2b"][1]()
    assert right > 0
    assert selfcheck.verdict_for("04b.2b", right).endswith("correct.")
    calls, tokens = answers_llm_cuts.first_pass_on_schedules()
    _, no_cut = answers_llm_cuts.first_pass_on_schedules(None)
    assert "subtract" in selfcheck.verdict_for("04b.2b", tokens)
    assert "no cut named" in selfcheck.verdict_for("04b.2b", no_cut)
    assert "wrong sign" in selfcheck.verdict_for("04b.2b", -right)
    hints = [selfcheck.verdict_for("04b.2b", a) for a in selfcheck.form("04b.2b").misses()]
    assert any("characters" in h for h in hints) and any("instruction again" in h for h in hints)


def test_04b_2_names_the_first_prompt_left_out():
    """Summing every prompt but the first is a predictable slip: its own hint, not a generic
    'item 2 is not right'."""
    from chunklab.teaching import answers_llm_cuts
    from chunklab.tokens.counters import cl100k

    calls, tokens = selfcheck.SOLUTIONS["04b.2"][1]()
    first = cl100k(answers_llm_cuts.sent_on_schedules()[0])
    assert "leave out the first prompt" in selfcheck.verdict_for("04b.2", (calls, tokens - first))
    assert "leaves out the first prompt" in selfcheck.verdict_for(
        "04b.2", (calls - 1, tokens - first)
    )


def test_04b_2b_names_the_instructions_alone_and_the_page_subtracted():
    from chunklab.chunkers.llm import SPLIT_PROMPT
    from chunklab.documents.series import load_document
    from chunklab.teaching import answers_llm_cuts
    from chunklab.tokens.counters import cl100k

    calls, tokens = answers_llm_cuts.first_pass_on_schedules()
    no_cut_calls, _ = answers_llm_cuts.first_pass_on_schedules(None)
    instructions = (calls - no_cut_calls) * cl100k(SPLIT_PROMPT.format(first=1, pieces=""))
    assert "only the instruction" in selfcheck.verdict_for("04b.2b", instructions)
    page = cl100k(load_document("work_schedules").text)
    assert "page's own tokens" in selfcheck.verdict_for("04b.2b", tokens - page)


def test_04b_2_the_wrong_document_is_named():
    """A fresh reader ran the stand-in on the topics document, not the 18F page, and got a
    generic hint: the answer it gives is refused naming the document."""
    from chunklab.chunkers.llm import LLMChunker
    from chunklab.documents.series import load_document
    from chunklab.teaching.answers_llm_cuts import last_cut_at
    from chunklab.tokens.counters import cl100k

    sent: list[str] = []
    LLMChunker(last_cut_at(0.5, sent)).split(load_document("topics"))
    wrong = (len(sent), sum(cl100k(p) for p in sent))
    assert "topics document" in selfcheck.verdict_for("04b.2", wrong)


def test_04b_2_names_04b_2bs_answer_in_its_slot():
    """(calls, the extra tokens) puts 04b.2b's answer where 04b.2 asks the whole pass."""
    calls, _ = selfcheck.SOLUTIONS["04b.2"][1]()
    extra = selfcheck.SOLUTIONS["04b.2b"][1]()
    assert "04b.2b's answer" in selfcheck.verdict_for("04b.2", (calls, extra))


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


def test_04b_2_names_section_2s_list_reused():
    """Run in order, the notebook's `sent` already holds section 2's prompts: the likeliest slip
    is counted, and named."""
    sent = []
    names = [*list_documents(), "work_schedules"]  # section 2's documents, then the page
    for doc in (load_document(name) for name in names):
        LLMChunker(answers_llm_cuts.last_cut_at(0.5, sent)).split(doc)
    stale = (len(sent), sum(cl100k(p) for p in sent))
    assert stale != selfcheck.SOLUTIONS["04b.2"][1]()
    assert "sent = []" in selfcheck.verdict_for("04b.2", stale)
    no_cut_tokens = answers_llm_cuts.first_pass_on_schedules(None)[1]
    assert "sent = []" in selfcheck.verdict_for("04b.2b", stale[1] - no_cut_tokens)


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
