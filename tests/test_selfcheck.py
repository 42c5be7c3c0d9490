import pytest

from chunklab.teaching import selfcheck


@pytest.mark.parametrize("exercise", sorted(selfcheck.SOLUTIONS))
def test_each_exercise_accepts_its_solution_and_rejects_a_wrong_answer(exercise, capsys):
    _, solve = selfcheck.SOLUTIONS[exercise]
    solution = solve()
    selfcheck.check(exercise, solution)
    selfcheck.check(exercise, "surely wrong")
    selfcheck.check(exercise, None)
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("correct.") and "not quite" in out[1] and "not answered yet" in out[2]


def test_unknown_exercise():
    with pytest.raises(KeyError, match="no exercise '99.9'"):
        selfcheck.check("99.9", 1)
