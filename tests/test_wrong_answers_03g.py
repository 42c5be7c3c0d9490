"""Companion 03g's exercise refuses plausible wrong answers, each with a hint naming what is
wrong, and accepts every correct form of the right one."""

import pytest

from chunklab.teaching.exercises import verdict

# --- 03g.1: the children alone, cut to the tokens of the section small-to-big hands over ----------


def _room_sliced(ranked, parent_of, sections, starts):  # the notebook's children_within, adapted
    if not ranked:
        return "", ""
    section = sections[parent_of[ranked[0][0]]]
    text, budget = "\n".join(t for _, t in ranked), len(starts(section))
    at = starts(text)
    return section, text[: at[budget]] if budget < len(at) else text


def _room_token_by_token(ranked, parent_of, sections, starts):  # grows the text a token at a time
    section = sections[parent_of[ranked[0][0]]] if ranked else ""
    text = "\n".join(t for _, t in ranked)
    at, room = starts(text), len(starts(section))
    kept = [text[a:b] for a, b in zip(at, [*at[1:], len(text)], strict=False)][:room]
    return section, "".join(kept).rstrip()


@pytest.mark.parametrize("fn", [_room_sliced, _room_token_by_token])
def test_03g_1_accepts_any_correct_room(fn):
    assert verdict("03g.1", fn).passed, verdict("03g.1", fn).message


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
):
    def fn(ranked, parent_of, sections, starts):
        if not ranked:
            return "", ""
        section = sections[parent_of[ranked[pick][0]]]
        if own:
            ranked = [r for r in ranked if parent_of[r[0]] == parent_of[ranked[0][0]]]
        room, texts = budget(section, starts) + shift, [t for _, t in ranked]
        if whole:
            kept = []
            for t in texts:
                if len(starts(join.join([*kept, t]))) > room:
                    kept += [t] if whole == "after" else []
                    break
                kept.append(t)
            return section, join.join(kept)
        text, at = join.join(texts), starts(join.join(texts))
        return section, text[: at[room]] if cut and room < len(at) else text

    return fn


def _calls_cl100k(ranked, parent_of, sections, starts):  # cell 28 copied with its tokenizer
    from chunklab.tokens.counters import cl100k_token_starts

    return _room_sliced(ranked, parent_of, sections, cl100k_token_starts)


def _per_child(ranked, parent_of, sections, starts):  # sums each child's tokens, newlines left out
    if not ranked:
        return "", ""
    section = sections[parent_of[ranked[0][0]]]
    room, used, kept = len(starts(section)), 0, []
    for _, t in ranked:
        at = starts(t)
        if used + len(at) <= room:
            kept.append(t)
            used += len(at)
        else:
            kept.append(t[: at[room - used]])
            break
    return section, "\n".join(kept)


def _cut_at_characters(ranked, parent_of, sections, starts):
    section, _ = _room_sliced(ranked, parent_of, sections, starts)
    return section, "\n".join(t for _, t in ranked)[: len(section)]


def _as_many_words(ranked, parent_of, sections, starts):
    section, _ = _room_sliced(ranked, parent_of, sections, starts)
    return section, " ".join("\n".join(t for _, t in ranked).split()[: len(section.split())])


def _resorted(ranked, parent_of, sections, starts):  # ranked re-sorted before the cut
    return _room_sliced(sorted(ranked), parent_of, sections, starts)


def _no_empty_case(ranked, parent_of, sections, starts):  # ranked[0] read before any check
    section = sections[parent_of[ranked[0][0]]]
    text, at = "\n".join(t for _, t in ranked), starts("\n".join(t for _, t in ranked))
    room = len(starts(section))
    return section, text[: at[room]] if room < len(at) else text


WRONG_03G_1 = [
    (_resorted, "do not sort it"),
    (_cut_at_characters, "at the section's character count"),
    (_as_many_words, "as many words as the"),
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


# --- hints a cold reading found generic or doubled --------------------------------------------


def _whole_children_counted_apart(ranked, parent_of, sections, starts):  # whole children only
    section = sections[parent_of[ranked[0][0]]] if ranked else ""
    kept, used = [], 0
    for _, text in ranked:
        if used + len(starts(text)) > len(starts(section)):
            break
        kept.append(text)
        used += len(starts(text))
    return section, "\n".join(kept)


def _words_split_at_spaces(ranked, parent_of, sections, starts):  # the room counted in words
    section = sections[parent_of[ranked[0][0]]] if ranked else ""
    text = "\n".join(t for _, t in ranked)
    return section, " ".join(text.split(" ")[: len(section.split())])


def _one_short_right_guard(ranked, parent_of, sections, starts):  # short by one, guard unshifted
    section = sections[parent_of[ranked[0][0]]] if ranked else ""
    text, room = "\n".join(t for _, t in ranked), len(starts(section))
    at = starts(text)
    return section, text[: at[room - 1]] if room < len(at) else text


def _one_short_loose_guard(ranked, parent_of, sections, starts):  # short by one, guard with <=
    section = sections[parent_of[ranked[0][0]]] if ranked else ""
    text, room = "\n".join(t for _, t in ranked), len(starts(section))
    at = starts(text)
    return section, text[: at[room - 1]] if ranked and room <= len(at) else text


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_whole_children_counted_apart, "you kept whole children only"),
        (_words_split_at_spaces, "not its words"),
        (_one_short_right_guard, "you cut one token short"),
        (_one_short_loose_guard, "you cut one token short"),
    ],
    ids=["whole-children", "words", "one-short-guarded", "one-short-loose"],
)
def test_a_named_slip_gets_its_own_hint(fn, hint):
    result = verdict("03g.1", fn)
    assert not result.passed and hint in result.message and "; or " not in result.message, (
        result.message
    )


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
