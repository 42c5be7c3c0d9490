"""Companion 03g's exercise refuses plausible wrong answers, each with a hint naming what is
wrong, and accepts every correct form of the right one."""

import pytest

from chunklab.teaching.exercises import verdict

# --- 03g.1: the children alone, cut to the section's tokens, handed over in the document's order --


def _room_sliced(ranked, parent_of, sections, starts):  # section 1's cut, then sorted by position
    if not ranked:
        return "", ""
    section = sections[parent_of[ranked[0][0]]]
    text, budget = "\n".join(t for _, t in ranked), len(starts(section))
    at = starts(text)
    cut = text[: at[budget]] if budget < len(at) else text
    pieces = [(p, piece) for (p, _), piece in zip(ranked, cut.split("\n"), strict=False) if piece]
    return section, "\n".join(piece for _, piece in sorted(pieces))


def _room_child_by_child(ranked, parent_of, sections, starts):  # grows the pieces one at a time
    section = sections[parent_of[ranked[0][0]]] if ranked else ""
    room, kept = len(starts(section)), {}
    for position, text in ranked:
        so_far = "\n".join([*kept.values(), text])
        at = starts(so_far)
        if len(at) > room:
            piece = so_far[: at[room]][len(so_far) - len(text) :]
            if piece.strip():
                kept[position] = piece
            break
        kept[position] = text
    return section, "\n".join(kept[p] for p in sorted(kept))


@pytest.mark.parametrize("fn", [_room_sliced, _room_child_by_child])
def test_03g_1_accepts_any_correct_room(fn):
    assert verdict("03g.1", fn).passed, verdict("03g.1", fn).message


def _cell_pasted(ranked, parent_of, sections, starts):  # section 1's cell, best first, as it was
    if not ranked:
        return "", ""
    section = sections[parent_of[ranked[0][0]]]
    text, budget = "\n".join(t for _, t in ranked), len(starts(section))
    at = starts(text)
    return section, text[: at[budget]] if budget < len(at) else text


def test_03g_1_refuses_section_1s_cell_pasted():
    """A cold reading passed the old exercise with section 1's cell pasted in: the exercise now
    extends the cell (the document's order), and the paste is refused with the step it leaves
    out. This test fails on the old checker, which passed the paste."""
    result = verdict("03g.1", _cell_pasted)
    assert not result.passed and "you handed them over best first" in result.message, result.message


def test_03g_1_refuses_the_old_number_answer(capsys):
    """The exercise used to ask a total of tokens, passed by re-running a cell with other
    numbers (BM25, 80-token children, k = 2): that route no longer passes."""
    from chunklab import cl100k, load_document, load_questions
    from chunklab.chunkers.markdown import MarkdownChunker
    from chunklab.retrieval.retrievers import BM25Retriever
    from chunklab.teaching.selfcheck import check

    children = MarkdownChunker(max_tokens=80).split(load_document("travel_policy"))
    text_of = {c.chunk_id: c.text for c in children}
    total = sum(
        cl100k("\n".join(text_of[h.ref_id] for h in BM25Retriever().rank(q.question, children, 2)))
        for q in load_questions("travel_policy").questions
    )
    check("03g.1", total)
    said = capsys.readouterr().out
    assert "correct" not in said and "pass your function itself" in said, said


def _slipped(
    pick=0,
    join="\n",
    budget=lambda s, starts: len(starts(s)),
    shift=0,
    whole="",
    own=False,
    cut=True,
    order="document",
    sort_first=False,
):
    def fn(ranked, parent_of, sections, starts):
        if not ranked:
            return "", ""
        section = sections[parent_of[ranked[pick][0]]]
        if own:
            ranked = [r for r in ranked if parent_of[r[0]] == parent_of[ranked[0][0]]]
        if sort_first:
            ranked = sorted(ranked)
        room, kept = budget(section, starts) + shift, []
        if whole:
            for p, t in ranked:
                if len(starts(join.join([*(k for _, k in kept), t]))) > room:
                    kept += [(p, t)] if whole == "after" else []
                    break
                kept.append((p, t))
        else:
            text = join.join(t for _, t in ranked)
            at = starts(text)
            text = text[: at[room]] if cut and 0 <= room < len(at) else text
            start = 0
            for p, t in ranked:
                if start >= len(text):
                    break
                if text[start : start + len(t)].strip():
                    kept.append((p, text[start : start + len(t)]))
                start += len(t) + len(join)
        if order != "rank":
            kept.sort(reverse=order == "reverse")
        return section, join.join(t for _, t in kept)

    return fn


def _calls_cl100k(ranked, parent_of, sections, starts):  # the notebook's tokenizer called
    from chunklab.tokens.counters import cl100k_token_starts

    return _room_sliced(ranked, parent_of, sections, cl100k_token_starts)


def _per_child(ranked, parent_of, sections, starts):  # sums each child's tokens, newlines left out
    if not ranked:
        return "", ""
    section = sections[parent_of[ranked[0][0]]]
    room, used, kept = len(starts(section)), 0, []
    for p, t in ranked:
        at = starts(t)
        if used + len(at) <= room:
            kept.append((p, t))
            used += len(at)
        else:
            kept.append((p, t[: at[room - used]]))
            break
    return section, "\n".join(t for _, t in sorted(kept) if t)


def _no_empty_case(ranked, parent_of, sections, starts):  # ranked[0] read before any check
    section = sections[parent_of[ranked[0][0]]]
    return section, _room_sliced(ranked, parent_of, sections, starts)[1]


WRONG_03G_1 = [
    (_cell_pasted, "you handed them over best first"),
    (_slipped(order="rank"), "you handed them over best first"),
    (_slipped(order="reverse"), "smallest position first"),
    (_slipped(sort_first=True), "sorting before the cut"),
    (_per_child, "counting each child apart"),
    (_slipped(pick=-1), "the best child's"),
    (_slipped(budget=lambda s, starts: len(s)), "not its characters"),
    (_slipped(budget=lambda s, starts: len(s.split())), "not its words"),
    (_slipped(whole="before"), "stopped before the child that overflows"),
    (_slipped(whole="after"), "kept the overflowing child whole"),
    (_slipped(join=" "), "with a newline"),
    (_slipped(join=""), "not with nothing"),
    (_slipped(shift=-1), "one token short"),
    (_slipped(shift=1), "one token long"),
    (_slipped(cut=False), "cut the children to the section's tokens"),
    (_slipped(own=True), "from anywhere"),
    (_calls_cl100k, "calls cl100k_token_starts"),
    (_no_empty_case, 'return ("", "")'),
]


@pytest.mark.parametrize(("fn", "hint"), WRONG_03G_1, ids=lambda x: x if isinstance(x, str) else "")
def test_03g_1_refuses_with_a_hint(fn, hint):
    result = verdict("03g.1", fn)
    assert not result.passed and hint in result.message, result.message


def _one_short_right_guard(ranked, parent_of, sections, starts):  # short by one, guard unshifted
    section = sections[parent_of[ranked[0][0]]] if ranked else ""
    text, room = "\n".join(t for _, t in ranked), len(starts(section))
    at = starts(text)
    cut = text[: at[room - 1]] if room < len(at) else text
    pieces = [(p, piece) for (p, _), piece in zip(ranked, cut.split("\n"), strict=False) if piece]
    return section, "\n".join(piece for _, piece in sorted(pieces))


def test_a_one_short_cut_guarded_either_way_gets_its_own_hint():
    result = verdict("03g.1", _one_short_right_guard)
    assert not result.passed and "you cut one token short" in result.message, result.message
    assert "; or " not in result.message, result.message


# --- 03g.2: 03's gain split in two halves, each with the questions it does not tie ----------------


def _split_paired(section, alone, direct):  # one pass over the questions
    halves = []
    for x, y in ((alone, direct), (section, alone)):
        pairs = list(zip(x, y, strict=True))
        halves.append(
            (100 * sum(a - b for a, b in pairs) / len(pairs), sum(a != b for a, b in pairs))
        )
    return tuple(halves)


def _split_by_means(section, alone, direct):  # means first, as lists
    def mean(xs):
        return sum(xs) / len(xs)

    untied = [
        sum(1 for a, b in zip(x, y, strict=True) if a != b)
        for x, y in ((alone, direct), (section, alone))
    ]
    return [
        [100 * (mean(alone) - mean(direct)), untied[0]],
        [100 * (mean(section) - mean(alone)), untied[1]],
    ]


@pytest.mark.parametrize("fn", [_split_paired, _split_by_means])
def test_03g_2_accepts_any_correct_split(fn):
    assert verdict("03g.2", fn).passed, verdict("03g.2", fn).message


def _split_with(
    first, second, scale=100, untied=lambda x, y: sum(a != b for a, b in zip(x, y, strict=True))
):
    def fn(section, alone, direct):
        lists = {"s": section, "a": alone, "d": direct}
        return tuple(
            (
                scale * sum(a - b for a, b in zip(lists[x], lists[y], strict=True)) / len(section),
                untied(lists[x], lists[y]),
            )
            for x, y in (first, second)
        )

    return fn


def _split_with_compare(section, alone, direct):
    from chunklab.teaching.claims import compare

    halves = [compare(x, y, show=False) for x, y in ((alone, direct), (section, alone))]
    return tuple((c.mean_difference, c.won + c.lost) for c in halves)


WRONG_03G_2 = [
    (_split_with("sa", "ad"), "the halves are swapped"),
    (_split_with("da", "as"), "read the other way round"),
    (_split_with("ad", "sd"), "against the sections searched directly it is the whole gain"),
    (_split_with("sd", "sa"), "the section against them is the whole gain"),
    (_split_with("ad", "sa", scale=1), "you returned shares"),
    (
        _split_with("ad", "sa", untied=lambda x, y: sum(a == b for a, b in zip(x, y, strict=True))),
        "counted the ties",
    ),
    (_split_with("ad", "sa", untied=lambda x, y: len(x)), "not every question"),
    (
        _split_with("ad", "sa", untied=lambda x, y: sum(a > b for a, b in zip(x, y, strict=True))),
        "lost as well as won",
    ),
    (
        _split_with(
            "ad",
            "sa",
            untied=lambda x, y: sum(a != b for a, b in zip(sorted(x), sorted(y), strict=True)),
        ),
        "you sorted them",
    ),
    (_split_with_compare, "calls"),
    (lambda section, alone, direct: 15.9, "return ((points, untied), (points, untied))"),
]


@pytest.mark.parametrize(("fn", "hint"), WRONG_03G_2, ids=lambda x: x if isinstance(x, str) else "")
def test_03g_2_refuses_with_a_hint(fn, hint):
    result = verdict("03g.2", fn)
    assert not result.passed and hint in result.message and "; or " not in result.message, (
        result.message
    )


# --- 03g.2: two slips a cold reading found answered only by the generic hint --------------------


def _untied_mean(guarded):
    def fn(section, alone, direct):
        halves = []
        for x, y in ((alone, direct), (section, alone)):
            differences = [a - b for a, b in zip(x, y, strict=True) if a != b]
            if guarded and not differences:
                halves.append((0.0, 0))
                continue
            halves.append((100 * sum(differences) / len(differences), len(differences)))
        return tuple(halves)

    return fn


def _rounded_as_printed(digits):
    def fn(section, alone, direct):
        return tuple((round(p, digits), u) for p, u in _split_paired(section, alone, direct))

    return fn


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_untied_mean(guarded=True), "you averaged over the untied questions only"),
        (_untied_mean(guarded=False), "you averaged over the untied questions only"),
        (_rounded_as_printed(1), "you rounded them"),
        (_rounded_as_printed(0), "you rounded them"),
    ],
    ids=["untied-mean", "untied-mean-unguarded", "rounded-1", "rounded-0"],
)
def test_03g_2_names_the_untied_mean_and_the_rounding(fn, hint):
    result = verdict("03g.2", fn)
    assert not result.passed and hint in result.message and "; or " not in result.message, (
        result.message
    )
