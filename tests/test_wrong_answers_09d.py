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


def test_09d_2_refuses_wrong_sizes_and_accepts_the_right_one(capsys):
    size = selfcheck.SOLUTIONS["09d.2"][1]()
    for answer in [size + 1, size - 1, 254, 256, 800, (size, 0)]:
        selfcheck.check("09d.2", answer)
        assert ": correct" not in capsys.readouterr().out
    selfcheck.check("09d.2", size)
    assert ": correct." in capsys.readouterr().out


def test_09d_2_names_the_mistake_of_each_known_wrong_size(capsys):
    from chunklab.teaching.answers_experiments import FORMS_EXPERIMENTS

    misses = FORMS_EXPERIMENTS["09d.2"].misses()
    assert len(misses) >= 4  # one past the answer, 254, 256, build's default overlap
    for answer, why in misses.items():
        selfcheck.check("09d.2", answer)
        out = capsys.readouterr().out
        assert "Exercise 09d.2: correct" not in out and why in out, out


def test_09d_2_names_a_size_that_cuts_a_window(capsys):
    """Sizes 188 to 194 cut a window of the page though 195 to 207 do not: 190 is told it cuts."""
    selfcheck.check("09d.2", 190)
    out = capsys.readouterr().out
    assert ": correct" not in out and "a window of this page is cut" in out, out


def test_09d_2_names_one_below_the_answer_and_the_table_column(capsys):
    size = selfcheck.SOLUTIONS["09d.2"][1]()
    for answer, why in [
        (size - 1, "not the largest such size"),
        (199, "section 1's table"),
        (200, "200 column"),
    ]:
        selfcheck.check("09d.2", answer)
        out = capsys.readouterr().out
        assert ": correct" not in out and why in out, out


def test_09d_2_tells_the_markers_forgotten_from_counted_twice(capsys):
    # on the exercise's page the three readings of the limit give three different sizes
    size = selfcheck.SOLUTIONS["09d.2"][1]()
    for answer, why in [(size + 1, "count the two markers"), (size - 1, "once, not twice")]:
        selfcheck.check("09d.2", answer)
        out = capsys.readouterr().out
        assert ": correct" not in out and why in out, out
        assert str(size) not in out, out  # the hint does not give the answer away


def test_09d_2_names_the_size_a_search_that_stops_at_the_first_cut_finds(capsys):
    # on this page sizes 188-194 cut a window and 195-207 cut none: growing the window until one
    # is cut answers 187, the natural loop's answer, refused with a hint about the condition
    from chunklab import load_document
    from chunklab.chunkers.registry import build
    from chunklab.embeddings.minilm import MiniLMEmbedder

    size, page = selfcheck.SOLUTIONS["09d.2"][1](), load_document("sensitive_code")
    minilm = MiniLMEmbedder()

    def cuts_one(at):
        windows = build("fixed", size=at, overlap=0, unit="tokens").split(page)
        return any(len(minilm.encoding(c.text).ids) > 256 for c in windows)

    stop = next(at for at in range(150, 300) if cuts_one(at)) - 1
    assert stop < size - 1
    selfcheck.check("09d.2", stop)
    out = capsys.readouterr().out
    assert ": correct" not in out and "larger sizes cut none again" in out, out
    assert str(size) not in out, out
