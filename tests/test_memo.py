"""`chunklab.memo.Memo`: each key computed once, and the memory emptied whole when it is full."""

from chunklab.memo import Memo


def test_a_key_is_computed_once_and_a_full_memory_starts_again():
    computed = []

    def compute(key):
        computed.append(key)
        return key * 10

    memo: Memo[int] = Memo(2)
    assert [memo.get(k, lambda k=k: compute(k)) for k in (1, 2, 1, 2)] == [10, 20, 10, 20]
    assert computed == [1, 2]
    assert memo.get(3, lambda: compute(3)) == 30  # full: emptied, then 3 kept
    assert memo.get(1, lambda: compute(1)) == 10
    assert computed == [1, 2, 3, 1]
