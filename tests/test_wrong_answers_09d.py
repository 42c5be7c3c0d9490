"""Companion 09d: each exercise refuses the plausible wrong answers, with a hint that names the
mistake, and accepts every correct form."""

import pytest

from chunklab.teaching import selfcheck
from chunklab.teaching.exercises import verdict


def _read_at_1(text, facts, read_until):
    read = text[: read_until(text)].lower()
    return all(fact.lower() in read for fact in facts)


def test_09d_1_accepts_a_bool_an_int_and_has_facts():
    from chunklab.evaluation.metrics import has_facts

    for fn in (
        _read_at_1,
        lambda t, f, r: int(_read_at_1(t, f, r)),
        lambda t, f, r: has_facts(t[: r(t)], f),
    ):
        assert verdict("09d.1", fn).passed, verdict("09d.1", fn).message


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda t, f, r: _read_at_1(t, f, lambda x: len(x)), "as complete@1 does"),
        (lambda t, f, r: _read_at_1(t[r(t) :], f, len), "the part never read"),
        (lambda t, f, r: any(x.lower() in t[: r(t)].lower() for x in f), "every fact"),
        (lambda t, f, r: all(x in t[: r(t)] for x in f), "whatever its case"),
        (lambda t, f, r: _read_at_1(t, f, lambda x: r(x) - 1), "the last character read"),
        (lambda t, f, r: _read_at_1(t, f, lambda x: r(x) + 1), "+ 1 adds a character"),
        (
            lambda t, f, r: all(0 <= t.lower().find(x.lower()) < r(t) for x in f),
            "starts before the stop",
        ),
    ],
)
def test_09d_1_names_each_slip(wrong, hint):
    result = verdict("09d.1", wrong)
    assert not result.passed
    assert hint in result.message, result.message


def test_09d_1_refuses_an_answer_that_is_not_one_or_zero():
    result = verdict("09d.1", lambda t, f, r: t[: r(t)])
    assert not result.passed and "return 1 or 0" in result.message, result.message


def _cuts_one(at: int) -> bool:
    """Whether MiniLM cuts a window of the sensitive-code page at `at` tokens, no overlap."""
    from chunklab import load_document
    from chunklab.chunkers.registry import build
    from chunklab.embeddings.minilm import MiniLMEmbedder

    windows = build("fixed", size=at, overlap=0, unit="tokens").split(
        load_document("sensitive_code")
    )
    return any(len(MiniLMEmbedder().encoding(c.text).ids) > 256 for c in windows)


def test_09d_2_asks_the_safe_size_and_the_largest_and_they_differ(capsys):
    """Sizes 188 to 194 cut a window of the page though 195 to 207 do not: the largest size that
    cuts none (207) is luck of where the cuts fall, so the exercise asks for both it and the size
    below which every size is safe (187). Fails on the old checker, which expected 207 alone."""
    safe, largest = selfcheck.SOLUTIONS["09d.2"][1]()
    assert safe < largest - 1
    assert not any(_cuts_one(at) for at in range(150, safe + 1)) and _cuts_one(safe + 1)
    assert not _cuts_one(largest) and _cuts_one(largest + 1)
    for answer in [(safe, largest), [safe, largest]]:
        selfcheck.check("09d.2", answer)
        assert ": correct." in capsys.readouterr().out


def test_09d_2_refuses_one_size_where_two_are_asked(capsys):
    """The old answer, the largest size alone, is refused with a hint (the old checker took it)."""
    safe, largest = selfcheck.SOLUTIONS["09d.2"][1]()
    for answer in (largest, safe):
        selfcheck.check("09d.2", answer)
        out = capsys.readouterr().out
        assert ": correct" not in out and "asks two sizes" in out, out


def test_09d_2_names_the_mistake_of_each_known_wrong_answer(capsys):
    from chunklab.teaching.answers_experiments import FORMS_EXPERIMENTS

    misses = FORMS_EXPERIMENTS["09d.2"].misses()
    assert len(misses) >= 4  # one size alone either way, one number given for both, swapped
    for answer, why in misses.items():
        selfcheck.check("09d.2", answer)
        out = capsys.readouterr().out
        assert "Exercise 09d.2: correct" not in out and why in out, out


@pytest.mark.parametrize(
    ("place", "offset", "why"),
    [
        (0, +1, "already cut"),
        (0, -1, "not the largest such size"),
        (1, +1, "count the two markers"),
        (1, -1, "once, not twice"),
    ],
)
def test_09d_2_names_the_slip_in_each_number(capsys, place, offset, why):
    expected = selfcheck.SOLUTIONS["09d.2"][1]()
    answer = list(expected)
    answer[place] += offset
    selfcheck.check("09d.2", tuple(answer))
    out = capsys.readouterr().out
    assert ": correct" not in out and why in out and ("first", "second")[place] in out, out
    assert str(expected[place]) not in out.split("Expected")[0].replace(str(tuple(answer)), ""), out


def test_09d_2_names_a_size_that_cuts_a_window(capsys):
    """190 cuts a window of the page, in either place."""
    safe, largest = selfcheck.SOLUTIONS["09d.2"][1]()
    for answer in [(190, largest), (safe, 190)]:
        selfcheck.check("09d.2", answer)
        out = capsys.readouterr().out
        assert ": correct" not in out and "a window of this page is cut" in out, out


def test_09d_2_names_the_table_column_and_the_word_pieces(capsys):
    safe, largest = selfcheck.SOLUTIONS["09d.2"][1]()
    for answer, why in [
        ((safe, 199), "section 1's table"),
        ((safe, 200), "200 column"),
        ((safe, 254), "MiniLM's limit in word pieces"),
        ((safe, 256), "MiniLM's limit in word pieces"),
    ]:
        selfcheck.check("09d.2", answer)
        out = capsys.readouterr().out
        assert ": correct" not in out and why in out, out
