"""`equal_count_table`'s `known`: a second table of the same cuts against other windows reuses the
cuts' scores, and the table is the same as without it."""

from chunklab.teaching.equal_count import equal_count_table


def test_known_scores_are_reused_and_change_nothing():
    cut_at = {"cut": {n: list(range(n)) for n in (2, 3, 4)}}  # a "cut" of n chunks at size n
    calls: list[int] = []

    def apart(chunks):
        calls.append(len(chunks))
        return len(chunks) % 2

    tests = {"": apart}
    plain = equal_count_table(cut_at, lambda n: list(range(n)), range(1, 6), tests)
    known: dict = {}
    first = equal_count_table(cut_at, lambda n: list(range(n)), range(1, 6), tests, known)
    calls.clear()
    second = equal_count_table(cut_at, lambda n: list(range(n + 1)), range(1, 6), tests, known)
    assert first.equals(plain)
    assert set(known) == {("cut", n, "") for n in (2, 3, 4)}
    assert len(calls) == 3  # the windows' three counts scored, the cut's sizes not again
    assert list(second["n windows"]) == [1, 1, 1]
