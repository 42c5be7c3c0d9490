"""Notebook 03's exercises refuse plausible wrong answers, each with a hint naming what is wrong,
and accept every correct form of the right one."""

import sys

import pytest
from conftest import ROOT

from chunklab.teaching.exercises import verdict

sys.path.insert(0, str(ROOT))
from solutions.exercises import lift, parents_within  # noqa: E402

# --- 03.1: child hits in any order, lifted to their parents ---------------------------------------


def given_order(hits, parent_of, most):  # the lift of the notebook, without the sort
    out = []
    for child, score in hits:
        if parent_of[child] not in [p for p, _, _ in out]:
            out.append((parent_of[child], child, score))
    return out[:most]


def reverse_sorted(hits, parent_of, most):
    return given_order(sorted(hits, key=lambda h: h[1]), parent_of, most)


def one_per_hit(hits, parent_of, most):
    return [(parent_of[c], c, s) for c, s in sorted(hits, key=lambda h: -h[1])][:most]


def by_pooled_score(pool):
    def ranked(hits, parent_of, most):
        best = {p: (c, s) for p, c, s in lift(hits, parent_of, 99)}
        score = {p: pool([s for c, s in hits if parent_of[c] == p]) for p in best}
        return [(p, *best[p]) for p in sorted(best, key=lambda p: -score[p])][:most]

    return ranked


def first_child_carried(hits, parent_of, most):
    first = {}
    for c, s in hits:
        first.setdefault(parent_of[c], (c, s))
    return [(p, *first[p]) for p, _, _ in lift(hits, parent_of, most)]


def worst_child_carried(hits, parent_of, most):  # a dict overwritten at every hit, best first
    worst = {parent_of[c]: (c, s) for c, s in sorted(hits, key=lambda h: -h[1])}
    return [(p, *worst[p]) for p, _, _ in lift(hits, parent_of, most)]


def last_child_carried(hits, parent_of, most):  # the last of a parent's children as given
    last = {parent_of[c]: (c, s) for c, s in hits}
    return [(p, *last[p]) for p, _, _ in lift(hits, parent_of, most)]


def first_seen_parents(hits, parent_of, most):  # best child kept, parents in first-seen order
    best = {p: (c, s) for p, c, s in lift(hits, parent_of, 99)}
    return [(p, *best[p]) for p in dict.fromkeys(parent_of[c] for c, _ in hits)][:most]


def first_child_then_sorted(hits, parent_of, most):  # first-seen child kept, then parents sorted
    first = {}
    for c, s in hits:
        first.setdefault(parent_of[c], (c, s))
    return [(p, *first[p]) for p in sorted(first, key=lambda p: -first[p][1])][:most]


def worst_child_then_sorted(hits, parent_of, most):  # overwritten best first, then sorted
    worst = {parent_of[c]: (c, s) for c, s in sorted(hits, key=lambda h: -h[1])}
    return [(p, *worst[p]) for p in sorted(worst, key=lambda p: -worst[p][1])][:most]


def whole_list_reversed(hits, parent_of, most):
    return list(reversed(lift(hits, parent_of, most)))


def reversed_then_cut(hits, parent_of, most):
    return list(reversed(lift(hits, parent_of, 99)))[:most]


def hits_cut_first(hits, parent_of, most):
    return lift(sorted(hits, key=lambda h: -h[1])[:most], parent_of, most)


def child_ids_first(hits, parent_of, most):
    return [(c, p, s) for p, c, s in lift(hits, parent_of, most)]


def parent_ids_only(hits, parent_of, most):
    return [p for p, _, _ in lift(hits, parent_of, most)]


def no_limit(hits, parent_of, most):
    return lift(hits, parent_of, 99)


def fields_swapped(hits, parent_of, most):  # (parent, score, child): the best child is there
    return [(p, s, c) for p, c, s in lift(hits, parent_of, most)]


def one_parent_short(hits, parent_of, most):
    return lift(hits, parent_of, most)[: most - 1]


def by_child_id(hits, parent_of, most):  # hits sorted by child id, one row each: repeats
    return [(parent_of[c], c, s) for c, s in sorted(hits)][:most]


def right_parents_by_id(hits, parent_of, most):  # the right rows, sorted by parent id
    return sorted(lift(hits, parent_of, most))


def right_rows_by_child_id(hits, parent_of, most):  # the right rows, sorted by child id
    return sorted(lift(hits, parent_of, most), key=lambda row: row[1])


def by_parent_id_then_cut(hits, parent_of, most):  # every parent lifted, sorted by id, then cut
    return sorted(lift(hits, parent_of, 99))[:most]


def best_child_summed_score(hits, parent_of, most):  # the best child, with its parent's sum
    total = {}
    for c, s in hits:
        total[parent_of[c]] = total.get(parent_of[c], 0) + s
    return [(p, c, total[p]) for p, c, _ in lift(hits, parent_of, most)]


WRONG_03_2 = [
    (best_child_summed_score, "not that child's own score"),
    (given_order, "in the order they came"),
    (reverse_sorted, "lowest score first"),
    (one_per_hit, "a parent appears twice"),
    (by_pooled_score(sum), "the sum of its children's scores"),
    (by_pooled_score(len), "how many children"),
    (first_child_carried, "its best child and that child's score"),
    (worst_child_carried, "not its worst"),
    (last_child_carried, "best child"),
    (first_seen_parents, "ordered the parents by first appearance"),
    (first_child_then_sorted, "you kept the first child seen for each parent"),
    (whole_list_reversed, "your list is worst first"),
    (reversed_then_cut, "kept the worst parents"),
    (hits_cut_first, "before the lift"),
    (child_ids_first, "return parent ids"),
    (parent_ids_only, "a tuple (parent_id, child_id, score)"),
    (no_limit, "at most max_parents"),
    (fields_swapped, "the right values in another order"),
    (one_parent_short, "max_parents - 1"),
    (by_pooled_score(lambda s: sum(s) / len(s)), "the mean of its children's scores"),
    (by_child_id, "a parent appears twice"),
    (worst_child_then_sorted, "so it kept its worst child"),
    (right_parents_by_id, "sorted by parent id"),
    (right_rows_by_child_id, "sorted by child id"),
    (by_parent_id_then_cut, "sorted the parents by id, then cut"),
]


@pytest.mark.parametrize(
    ("fn", "wrong"),
    [
        (fields_swapped, "not each one's best child"),  # the best child is there, misplaced
        (by_pooled_score(sum), "worst first"),  # the sum's hint alone, not four joined by "or"
    ],
    ids=["fields_swapped", "summed"],
)
def test_03_1_names_no_slip_the_code_does_not_make(fn, wrong):
    result = verdict("03.1", fn)
    assert not result.passed and wrong not in result.message, result.message


@pytest.mark.parametrize(("fn", "hint"), WRONG_03_2, ids=lambda x: getattr(x, "__name__", ""))
def test_03_1_refuses_with_a_hint(fn, hint):
    result = verdict("03.1", fn)
    assert not result.passed and hint in result.message, result.message


@pytest.mark.parametrize(
    "fn",
    [
        lift,
        lambda *args: [list(row) for row in lift(*args)],  # lists for tuples
        lambda *args: iter(lift(*args)),
        lambda h, p, m: [  # any correct method: the best child per parent first, then sorted
            (q, *best)
            for q, best in sorted(
                {
                    q: max(((c, s) for c, s in h if p[c] == q), key=lambda x: x[1])
                    for q in set(p[c] for c, _ in h)
                }.items(),
                key=lambda kv: -kv[1][1],
            )
        ][:m],
    ],
)
def test_03_1_accepts_any_correct_lift(fn):
    assert verdict("03.1", fn).passed


def test_03_1_refuses_a_lift_that_sorts_the_callers_hits():
    def in_place(hits, parent_of, most):
        hits.sort(key=lambda h: -h[1])  # the caller's ranking reordered as a side effect
        return lift(list(hits), parent_of, most)

    result = verdict("03.1", in_place)
    assert not result.passed and "reordered the caller's hits" in result.message, result.message


# --- 03.2: parents within a token budget ---------------------------------------------------------


def skipping(children, parent_of, tokens, budget):
    chosen, spent = [], 0
    for child in children:
        parent = parent_of[child]
        if parent not in chosen and spent + tokens[parent] <= budget:
            chosen.append(parent)
            spent += tokens[parent]
    return chosen


def strict_budget(children, parent_of, tokens, budget):
    chosen, spent = [], 0
    for child in children:
        parent = parent_of[child]
        if parent in chosen:
            continue
        if spent + tokens[parent] >= budget:  # off by one: a parent that fills it exactly fits
            break
        chosen.append(parent)
        spent += tokens[parent]
    return chosen


def with_repeats(children, parent_of, tokens, budget):
    chosen, spent = [], 0
    for child in children:
        parent = parent_of[child]
        if spent + tokens[parent] > budget:
            break
        chosen.append(parent)
        spent += tokens[parent]
    return chosen


def sorted_ids(children, parent_of, tokens, budget):
    return sorted(parents_within(children, parent_of, tokens, budget))


def child_ids(children, parent_of, tokens, budget):
    chosen = parents_within(children, parent_of, tokens, budget)
    return [next(c for c in children if parent_of[c] == p) for p in chosen]


def budget_before_repeat(children, parent_of, tokens, budget):
    chosen, spent = [], 0
    for child in children:
        parent = parent_of[child]
        if spent + tokens[parent] > budget:  # a repeat is tested against the budget too
            break
        if parent not in chosen:
            chosen.append(parent)
            spent += tokens[parent]
    return chosen


def repeat_counted(children, parent_of, tokens, budget):
    chosen, spent = [], 0
    for child in children:
        parent = parent_of[child]
        if spent + tokens[parent] > budget:
            break
        spent += tokens[parent]  # a repeat's tokens counted again
        if parent not in chosen:
            chosen.append(parent)
    return chosen


def smallest_first(children, parent_of, tokens, budget):
    unique = sorted(dict.fromkeys(parent_of[c] for c in children), key=lambda p: tokens[p])
    return parents_within(unique, {p: p for p in unique}, tokens, budget)


def children_sorted(children, parent_of, tokens, budget):
    return parents_within(
        sorted(children), parent_of, tokens, budget
    )  # the ids' order, not the rank


def stop_at_repeat(children, parent_of, tokens, budget):
    chosen, spent = [], 0
    for child in children:
        parent = parent_of[child]
        if parent in chosen or spent + tokens[parent] > budget:  # a repeat ends the loop
            break
        chosen.append(parent)
        spent += tokens[parent]
    return chosen


def largest_first(children, parent_of, tokens, budget):
    unique = sorted(dict.fromkeys(parent_of[c] for c in children), key=lambda p: -tokens[p])
    return parents_within(unique, {p: p for p in unique}, tokens, budget)


def set_order(children, parent_of, tokens, budget):  # a set's order, fixed here: not the rank's
    return sorted(parents_within(children, parent_of, tokens, budget), reverse=True)


def set_walked(children, parent_of, tokens, budget):  # dedupe by a set, walked in its order
    unique = sorted(set(parent_of[c] for c in children), reverse=True)  # a set's order, fixed
    return parents_within(unique, {p: p for p in unique}, tokens, budget)


def worst_first(children, parent_of, tokens, budget):
    return parents_within(children[::-1], parent_of, tokens, budget)  # the ranking read backwards


def budget_as_count(ranked, parent_of, tokens, budget):  # the budget read as a number of parents
    return list(dict.fromkeys(parent_of[c] for c in ranked))[:budget]


def each_alone(ranked, parent_of, tokens, budget):  # each parent against the budget, no total
    out = []
    for parent in dict.fromkeys(parent_of[c] for c in ranked):
        if tokens[parent] > budget:
            break
        out.append(parent)
    return out


WRONG_03_3 = [
    (budget_as_count, "not of parents"),
    (each_alone, "tested each parent alone"),
    (children_sorted, "you sorted the child ids"),
    (worst_first, "walked the ranking from its end"),
    (stop_at_repeat, "stopped at the first repeated parent"),
    (budget_before_repeat, "skip repeats before testing the budget"),
    (repeat_counted, "counted a repeated parent's tokens again"),
    (smallest_first, "took the smallest parents first"),
    (skipping, "stop at the first parent that does not fit"),
    (strict_budget, "fills the budget exactly still fits"),
    (with_repeats, "a parent appears twice"),
    (sorted_ids, "the right parents in the wrong order"),
    (child_ids, "return parent ids"),
    (largest_first, "took the largest parents first"),
    (set_order, "the right parents in the wrong order"),
    (set_walked, "not walked in rank order"),
]


def test_03_2_a_lost_order_is_not_told_walked_backwards():
    result = verdict("03.2", set_order)  # matches the backward walk on one case, not on all
    assert not result.passed and "from its end" not in result.message, result.message


@pytest.mark.parametrize(("fn", "hint"), WRONG_03_3, ids=lambda x: getattr(x, "__name__", ""))
def test_03_2_refuses_with_a_hint(fn, hint):
    result = verdict("03.2", fn)
    assert not result.passed and hint in result.message, result.message


@pytest.mark.parametrize(
    "fn",
    [
        parents_within,
        lambda *args: tuple(parents_within(*args)),
        lambda *args: iter(parents_within(*args)),
    ],
)
def test_03_2_accepts_a_list_a_tuple_or_an_iterator(fn):
    assert verdict("03.2", fn).passed


# --- hints a cold reading found generic or doubled --------------------------------------------


def last_child_then_sorted(hits, parent_of, most):  # overwritten in the order given, then sorted
    last = {parent_of[c]: (c, s) for c, s in hits}
    return [(p, *last[p]) for p in sorted(last, key=lambda p: -last[p][1])][:most]


def lifted_in_child_id_order(hits, parent_of, most):  # sorted(hits): by child id, not score
    return given_order(sorted(hits), parent_of, most)


@pytest.mark.parametrize(
    ("exercise", "fn", "hint"),
    [
        ("03.1", last_child_then_sorted, "kept the last of its children in the list"),
        ("03.1", lifted_in_child_id_order, "by child id"),
    ],
    ids=["last-child", "child-id"],
)
def test_a_named_slip_gets_its_own_hint(exercise, fn, hint):
    result = verdict(exercise, fn)
    assert not result.passed and hint in result.message and "; or " not in result.message, (
        result.message
    )
