import pytest

from chunklab.teaching import selfcheck


# Each exercise in its own xdist group, shared with the wrong-answer tests of the same exercise
# (`--dist loadgroup`, the Makefile's `unit`): one worker computes an expensive solution (10c.2 cuts
# and scores Chroma's corpora) once and `selfcheck` remembers it for the others.
@pytest.mark.parametrize(
    "exercise",
    [
        pytest.param(e, marks=pytest.mark.xdist_group(f"exercise-{e}"))
        for e in sorted(selfcheck.SOLUTIONS)
    ],
)
def test_each_exercise_accepts_its_solution_and_rejects_a_wrong_answer(exercise, capsys):
    solution = selfcheck.solution(exercise)
    selfcheck.check(exercise, solution)
    selfcheck.check(exercise, "surely wrong")
    selfcheck.check(exercise, None)
    out = capsys.readouterr().out.splitlines()
    # a right answer may be told more after "correct." (08b.2 answers its prompt's own question)
    assert out[0].startswith(f"Exercise {exercise}: correct.")
    assert "not quite" in out[1] and "not answered yet" in out[2]


def test_unknown_exercise():
    with pytest.raises(KeyError, match="no exercise '99.9'"):
        selfcheck.check("99.9", 1)


@pytest.fixture
def exercise(monkeypatch):
    """A made-up answer exercise (`99.1`) with a given shape and expected value."""

    def make(shape, value):
        monkeypatch.setitem(selfcheck.SOLUTIONS, "99.1", (shape, lambda: value))
        return lambda answer: selfcheck.verdict_for("99.1", answer)

    return make


def test_a_tuple_and_a_list_are_the_same_answer(exercise):
    asked_tuple = exercise("a pair (a, b)", (3, 4))
    assert asked_tuple([3, 4]).endswith("correct.") and asked_tuple((3, 4)).endswith("correct.")
    asked_list = exercise("a list of ints", [3, 4])
    assert asked_list((3, 4)).endswith("correct.")


def test_any_rounding_within_the_asked_precision(exercise):
    check = exercise("a float, two decimals", 0.83)
    for right in (0.83, 0.833, 0.8349, 0.826):
        assert check(right).endswith("correct."), right
    assert "round it" in check(0.82)  # truncated 0.829: within a hundredth, wrongly rounded
    assert "not right" in check(0.7) and "0.83" not in check(0.7)
    exact = exercise("a float", 0.83)
    assert "not right" in exact(0.833)


def test_order_counts_only_where_it_is_asked(exercise):
    ids = exercise("a sorted list of question ids", ["q1", "q2", "q3"])
    assert ids(["q3", "q1", "q2"]).endswith("correct.")
    assert "2 of your 3 items are right" in ids(["q3", "q1", "q9"])
    pair = exercise("a pair (Portuguese, English)", (8, 6))
    assert "in the wrong order" in pair((6, 8))
    assert "item 2 of 2 is not right" in pair((8, 5))


def test_every_refusal_says_what_is_wrong(exercise):
    count = exercise("an int: the size", 170)
    assert "a str ('170') where an int is asked" in count("170")
    assert "a bool" in count(True)
    assert count(170.0).endswith("correct.")
    pair = exercise("a pair (size, True or False)", (170, False))
    assert "3 items where 2 are asked" in pair((170, False, 1))
    assert "an int where True or False is asked" in pair((170, 0))
    assert "a list or tuple of 2 items" in pair(170)


def test_a_set_answer_of_the_wrong_size_is_refused_without_telling_the_size():
    from chunklab.teaching.answers import Form, judge

    expected, form = ["t01", "t02", "t05"], Form(ordered=False)
    for answer, says in [
        (["t01", "t01", "t02", "t05"], "repeats"),
        (["t01", "t09"], "1 of your 2 items do not belong"),
        (["t05", "t01"], "some are missing"),
    ]:
        why = judge(answer, expected, form)
        assert why is not None and says in why
        assert str(len(expected)) not in why.replace(f"of your {len(answer)}", "")
    assert judge(["t05", "t01", "t02"], expected, form) is None


def test_run_without_watches_several_library_functions_and_names_the_one_called():
    from chunklab.evaluation.metrics import chunks_with_all
    from chunklab.teaching.checking import NotYet, run_without
    from chunklab.teaching.fact_matching import answerable

    def leans_on_answerable(text):
        return answerable([], [])  # any call counts, whatever it returns

    with pytest.raises(NotYet, match=r"calls chunklab\.teaching\.fact_matching\.answerable: no"):
        run_without(
            leans_on_answerable, ("x y",), [chunks_with_all, answerable], "calls {name}: no"
        )
    assert run_without(len, ("abc",), [chunks_with_all, answerable], "calls {name}: no") == 3
