"""Notebook 03c's exercises refuse plausible wrong answers, each with a hint naming what is wrong,
and accept the right one."""

import math
import sys

import pytest
from conftest import ROOT

from chunklab.teaching.exercises import verdict

sys.path.insert(0, str(ROOT))
from solutions.exercises import current_top_k, fetch_factor  # noqa: E402

# --- 03c.1: the learner writes the fetch factor's rule ----------------------------------------


def _by_trying(passing, k):  # one correct way: raise the factor until the fetch holds k
    if sum(passing) < k:
        return None
    factor = 1
    while sum(passing[: factor * k]) < k:
        factor += 1
    return factor


def _closed_form(passing, k):  # another: the k-th passing position, divided by k, rounded up
    positions = [i for i, p in enumerate(passing) if p]
    return -(-(positions[k - 1] + 1) // k) if len(positions) >= k else None


def test_03c_1_accepts_the_rule_written_two_ways():
    assert verdict("03c.1", _by_trying).passed
    assert verdict("03c.1", _closed_form).passed
    assert verdict("03c.1", fetch_factor).passed


def test_03c_1_refuses_the_old_route_a_number_found_by_trying_factors():
    """The old exercise took one int, which a loop over factors calling the notebook's patch
    found without the rule; the check now takes a function (fails on the old check, where
    03c.1 was an answer)."""
    result = verdict("03c.1", 6)
    assert not result.passed and "pass your function itself" in result.message, result.message


def _positions(passing):
    return [i for i, p in enumerate(passing, start=1) if p]


WRONG_03C_1 = [
    (
        lambda p, k: _positions(p)[0] - 1 if _positions(p) else None,
        "the count of failing chunks above the first",
    ),
    (lambda p, k: _positions(p)[k - 1] if len(_positions(p)) >= k else None, "how deep to fetch"),
    (lambda p, k: _positions(p)[k - 1] // k if len(_positions(p)) >= k else None, "rounded down"),
    (
        lambda p, k: -(-_positions(p)[0] // k) if _positions(p) else None,
        "you stopped at the first passing chunk",
    ),
    (lambda p, k: _positions(p)[0] if _positions(p) else None, "returned its position"),
    (lambda p, k: -(-_positions(p)[k - 1] // k) if len(_positions(p)) >= k else 0, "return None"),
    (lambda p, k: None, "not None"),
    (  # the first passing one, divided by k, rounded up; None (rightly) when fewer than k pass
        lambda p, k: -(-_positions(p)[0] // k) if len(_positions(p)) >= k else None,
        "you stopped at the first passing chunk",
    ),
    (  # the k = 1 rule carried to any k: failing chunks above the k-th passing one, plus one
        lambda p, k: _positions(p)[k - 1] - k + 1 if len(_positions(p)) >= k else None,
        "the k = 1 rule",
    ),
    (  # every failing chunk in the ranking, plus one
        lambda p, k: sum(not x for x in p) + 1 if len(_positions(p)) >= k else None,
        "counts every failing chunk",
    ),
]


@pytest.mark.parametrize(("fn", "hint"), WRONG_03C_1)
def test_03c_1_refuses_each_slip_with_its_hint(fn, hint):
    result = verdict("03c.1", fn)
    assert not result.passed and hint in result.message, result.message


# --- 03c.2: filter, then rank ---------------------------------------------------------------------


def _current(versions):  # each document's newest version: the ids that pass
    newest = {}
    for doc, version in versions.values():
        newest[doc] = max(newest.get(doc, version), version)
    return {i for i, (doc, version) in versions.items() if version == newest[doc]}


def _on_versions(fn):
    """A slip written against the ids that pass, handed the right filter: its own slip alone."""
    return lambda scores, versions, k: fn(scores, _current(versions), k)


def _copied_cell(scores, versions, k):  # the notebook's filter: one version number for all
    current = max(v for _, v in versions.values())
    kept = (i for i in scores if versions[i][1] == current)
    return sorted(kept, key=lambda i: (-scores[i], i))[:k]


def _newest_among_scored(scores, versions, k):  # the newest version read from what scored
    return _on_versions(_sorted_passing)(scores, {i: versions[i] for i in scores}, k)


def _sorted_passing(scores, passes, k):
    return sorted((i for i in scores if i in passes), key=lambda i: (-scores[i], i))[:k]


def _no_version_filter(scores, versions, k):  # every version ranked, none dropped
    return sorted(scores, key=lambda i: (-scores[i], i))[:k]


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_copied_cell, "one version number for every document"),
        (_newest_among_scored, "from the chunks that scored"),
        (_no_version_filter, "a chunk of an older version came back"),
    ],
)
def test_03c_2_refuses_the_filter_of_one_version_number(fn, hint):
    """The notebook's cell filters on one version, "3.2", as its one document needs. Copied, it
    passed the old exercise (ids that pass were given); with two documents at their own newest
    versions it drops one of them, and the check names that slip (fails on the old check, which
    handed `passes`, a set, where these functions read `versions`)."""
    result = verdict("03c.2", fn)
    assert not result.passed and hint in result.message, result.message


def _rank_then_filter(scores, passes, k):
    ranked = sorted(scores, key=lambda i: (-scores[i], i))[:k]
    return [i for i in ranked if i in passes]


def _reverse_order(scores, passes, k):
    return sorted((i for i in scores if i in passes), key=lambda i: (scores[i], i))[:k]


def _unfiltered(scores, passes, k):
    return sorted(scores, key=lambda i: (-scores[i], i))[:k]


def _score_only(scores, passes, k):  # a stable sort by score: ties keep insertion order
    return sorted((i for i in scores if i in passes), key=lambda i: scores[i], reverse=True)[:k]


def _one_too_many(scores, passes, k):
    return sorted((i for i in scores if i in passes), key=lambda i: (-scores[i], i))[: k + 1]


def _one_too_few(scores, passes, k):
    return sorted((i for i in scores if i in passes), key=lambda i: (-scores[i], i))[: k - 1]


def _fetch_three_k(scores, passes, k):  # the usual patch: over-fetch, filter, cut to k
    ranked = sorted(scores, key=lambda i: (-scores[i], i))[: 3 * k]
    return [i for i in ranked if i in passes][:k]


def _walks_passes_score_only(scores, passes, k):  # passes walked, ties left to set order
    return sorted((i for i in passes if i in scores), key=lambda i: -scores[i])[:k]


def _ties_reversed(scores, passes, k):  # best first, but the larger id first on a tie
    return sorted((i for i in scores if i in passes), key=lambda i: (scores[i], i), reverse=True)[
        :k
    ]


def _drops_zero_scores(scores, passes, k):  # BM25's habit: a chunk scoring 0 left out
    kept = (i for i in scores if i in passes and scores[i] > 0)
    return sorted(kept, key=lambda i: (-scores[i], i))[:k]


def _id_only(scores, passes, k):  # sorted by id, the score forgotten
    return sorted(i for i in scores if i in passes)[:k]


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_on_versions(_id_only), "sorted the passing ids by id alone"),
        (_on_versions(_drops_zero_scores), "dropped the passing chunks that score 0"),
        (_on_versions(_rank_then_filter), "filtered after"),
        (_on_versions(_reverse_order), "wrong order"),
        (_on_versions(_unfiltered), "a chunk of an older version came back"),
        (_on_versions(_score_only), "ties: among equal scores the smaller id"),
        (_on_versions(_one_too_many), "more than k"),
        (_on_versions(_one_too_few), "not [:k-1]"),
        (_on_versions(_fetch_three_k), "fetching a few times k"),
        (_on_versions(_ties_reversed), "ties: among equal scores the smaller id"),
        (_on_versions(_walks_passes_score_only), "ties: among equal scores the smaller id"),
    ],
)
def test_03c_2_refuses_with_a_hint(fn, hint):
    result = verdict("03c.2", fn)
    assert not result.passed and hint in result.message, result.message


def test_03c_2_accepts_the_solution():
    assert verdict("03c.2", current_top_k).passed


def test_03c_2_verdict_does_not_depend_on_the_hash_seed():
    """A set's order follows the hash seed: the checker's verdict on a solution that walks
    the current ids as a set and sorts by score alone must be the same refusal in every process."""
    import os
    import subprocess

    code = (
        "from chunklab.teaching.exercises import verdict\n"
        "new = lambda v: {i for i in v if v[i][1] == max(w for d, w in v.values() if d == v[i][0])}"
        "\n"
        "fn = lambda s, v, k: sorted((i for i in new(v) if i in s), key=lambda i: -s[i])[:k]\n"
        "print(verdict('03c.2', fn).passed)"
    )
    seen = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for seed in ["1", "2", "3"]
    }
    assert seen == {"False"}, seen


def _pads_with_none(scores, passes, k):  # k places always, the empty ones None
    found = sorted((i for i in scores if i in passes), key=lambda i: (-scores[i], i))[:k]
    return found + [None] * (k - len(found))


def _raises_when_short(scores, passes, k):  # insists on k passing ids
    found = sorted((i for i in scores if i in passes), key=lambda i: (-scores[i], i))
    if len(found) < k:
        raise ValueError(f"only {len(found)} chunks pass the filter")
    return found[:k]


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_on_versions(_pads_with_none), "padded the list with None"),
        (_on_versions(_raises_when_short), "fewer than k pass, return them all"),
    ],
)
def test_03c_2_names_the_fewer_than_k_slips(fn, hint):
    """Padding to k with None is not "an id that fails the filter", and raising where fewer
    than k pass gets more than the bare exception: both hints name the case."""
    result = verdict("03c.2", fn)
    assert not result.passed and hint in result.message, result.message


def _as_tuple(scores, passes, k):  # the right ids, but a tuple where a list is asked for
    return tuple(sorted((i for i in scores if i in passes), key=lambda i: (-scores[i], i))[:k])


def _deletes_failing(scores, passes, k):  # filters by deleting from the caller's dict
    for i in [i for i in scores if i not in passes]:
        del scores[i]
    return sorted(scores, key=lambda i: (-scores[i], i))[:k]


def _unscored_as_zero(scores, passes, k):  # walks passes, an unscored id given 0
    return sorted(passes, key=lambda i: (-scores.get(i, 0.0), i))[:k]


def _pairs(scores, passes, k):  # (id, score) pairs, not ids
    kept = sorted((i for i in scores if i in passes), key=lambda i: (-scores[i], i))[:k]
    return [(i, scores[i]) for i in kept]


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_on_versions(_as_tuple), "return a list of ids, not a tuple"),
        (_on_versions(_deletes_failing), "changed the `scores` it was given"),
        (_on_versions(_unscored_as_zero), "not in `scores` came back"),
        (_on_versions(_pairs), "(id, score) pairs"),
    ],
)
def test_03c_2_refuses_the_wrong_forms(fn, hint):
    """A tuple, a function that edits the caller's dict, an unscored id ranked as 0 and
    (id, score) pairs are each refused, with a hint naming that slip."""
    result = verdict("03c.2", fn)
    assert not result.passed and hint in result.message, result.message


def _keyerror_on_unscored(scores, passes, k):  # walks passes, looks up an id never scored
    return sorted(passes, key=lambda i: (-scores[i], i))[:k]


def _ties_by_larger_id(scores, passes, k):  # equal scores: the larger id first
    return sorted((i for i in scores if i in passes), key=lambda i: (scores[i], i), reverse=True)[
        :k
    ]


def test_03c_2_a_keyerror_on_an_unscored_id_is_named():
    """It used to be told "fewer than k pass": the slip is the lookup of an id `scores` lacks."""
    result = verdict("03c.2", _on_versions(_keyerror_on_unscored))
    assert not result.passed and "not in `scores`" in result.message, result.message
    assert "fewer than k pass" not in result.message, result.message


def test_03c_2_the_tie_hint_names_the_slip_without_the_code():
    result = verdict("03c.2", _on_versions(_ties_by_larger_id))
    assert not result.passed and "puts a larger" in result.message, result.message
    assert "(-score, id)" not in result.message, result.message


def _kth_position(passing, k):
    seen = [i for i, p in enumerate(passing, start=1) if p]
    return seen[k - 1] if len(seen) >= k else None


def _unrounded(passing, k):  # position / k, a float
    at = _kth_position(passing, k)
    return None if at is None else at / k


def _one_too_many(passing, k):  # position // k + 1: right unless k divides the position
    at = _kth_position(passing, k)
    return None if at is None else at // k + 1


@pytest.mark.parametrize(
    ("fn", "hint"),
    [(_unrounded, "a float"), (_one_too_many, "one too many when the position divides by k")],
)
def test_03c_1_names_the_float_and_the_off_by_one(fn, hint):
    """p / k unrounded lost its own hint to the generic one; p // k + 1 only ever had that."""
    result = verdict("03c.1", fn)
    assert not result.passed and hint in result.message, result.message


def _zero_based(passing, k):  # the k-th passing chunk's 0-based index read as its position
    seen = 0
    for i, p in enumerate(passing):
        seen += bool(p)
        if p and seen == k:
            return max(1, math.ceil(i / k))
    return None


def test_03c_1_names_a_zero_based_position():
    """The old check told it "the count of failing chunks above the first that passes", true at
    k = 1 only."""
    result = verdict("03c.1", _zero_based)
    assert not result.passed and "counted positions from 0" in result.message, result.message


def _versions_as_strings(scores, versions, k):  # the newest read by comparing str(version)
    newest = {}
    for doc, version in versions.values():
        newest[doc] = max(newest.get(doc, str(version)), str(version))
    kept = (i for i in scores if str(versions[i][1]) == newest[versions[i][0]])
    return sorted(kept, key=lambda i: (-scores[i], i))[:k]


def test_03c_2_refuses_versions_compared_as_strings():
    """The notebook's own versions were strings ("3.1", "3.2"); carried over, "9" > "10". The
    old check had no version past 9, so this passed it; a case with 9 and 10 now refuses it and
    names the slip."""
    result = verdict("03c.2", _versions_as_strings)
    assert not result.passed and "compared versions as strings" in result.message, result.message
