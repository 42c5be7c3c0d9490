"""Notebook 04's exercises refuse plausible wrong answers, each with a hint that names what is
wrong, and accept every correct form (issue 29, item 3).

The wrong answers are the mistakes a learner makes on the way (cuts counted as chunks, the
document's start counted as a topic change, the default budget, a one-sided buffer); the right
ones come from the library, so nothing here is typed in."""

import math

import pytest

from chunklab.chunkers.semantic import SemanticChunker, with_neighbours
from chunklab.teaching import answers_semantic, answers_stdevs, selfcheck
from chunklab.teaching.exercises import verdict


def refusal(exercise, answer):
    line = selfcheck.verdict_for(exercise, answer)
    assert "not quite" in line, line
    return line


@pytest.mark.xdist_group("exercise-04.1")  # with its selfcheck test: one worker, one solve
def test_04_1_refuses_chunks_for_cuts_a_larger_stdevs_and_a_neighbour():
    right, gaps = selfcheck.SOLUTIONS["04.1"][1]()
    assert selfcheck.verdict_for("04.1", (right, gaps)).endswith("correct.")
    assert selfcheck.verdict_for("04.1", [right, list(gaps)]).endswith("correct.")
    hints = {miss: refusal("04.1", miss) for miss in selfcheck.form("04.1").misses()}
    assert any("count the cuts, not the chunks" in line for line in hints.values())
    below = right - 0.25
    assert "count len(chunker.cuts(sims))" in refusal(
        "04.1", (below, answers_stdevs.stdev_gaps(below))
    )
    assert "a str" in refusal("04.1", (str(right), gaps))


def test_04_1_cannot_be_walked_to_without_running_minilm():
    """The stdevs alone is one of a few multiples of 0.25: a guess walks the grid to it. The
    exercise asks the gaps cut there too, which only a run gives."""
    right, gaps = selfcheck.SOLUTIONS["04.1"][1]()
    assert "not quite" in selfcheck.verdict_for("04.1", right)
    assert "not quite" in selfcheck.verdict_for("04.1", (right, tuple(range(len(gaps)))))
    wordllama = answers_stdevs.stdev_gaps(right, "wordllama")
    assert "gaps are WordLlama's" in refusal("04.1", (right, wordllama))


def test_04_2_accepts_a_list_and_refuses_the_count_the_order_and_the_default_budget():
    right = selfcheck.SOLUTIONS["04.2"][1]()
    assert selfcheck.verdict_for("04.2", list(right)).endswith("correct.")
    assert selfcheck.verdict_for("04.2", (right[0], round(right[1], 2))).endswith("correct.")
    chunks, precision = right
    on_true = round(precision * (chunks - 1))
    assert "share of the cuts" in refusal("04.2", (chunks, on_true))
    assert "divides by the chunks" in refusal("04.2", (chunks, on_true / chunks))
    assert "recall" in refusal("04.2", (chunks, 1.0))
    assert "wrong order" in refusal("04.2", (precision, chunks))
    assert "max_tokens=30" in refusal("04.2", answers_semantic.budgeted_semantic(200))
    assert "1 item where 2 are asked" in refusal("04.2", [chunks])


def test_04_2_asks_what_the_budget_does_to_precision():
    """The binding budget cuts almost every gap: its recall is near certain, its precision is
    the skill; the unbudgeted rule's precision is not the answer."""
    chunks, precision = selfcheck.SOLUTIONS["04.2"][1]()
    assert precision < answers_semantic.budgeted_semantic(200)[1]
    assert "not quite" in selfcheck.verdict_for("04.2", (chunks, 0.8))


@pytest.mark.parametrize(
    ("slip", "hint"),
    [
        (
            lambda: (
                answers_semantic.budgeted_semantic()[0] - 1,
                answers_semantic.budgeted_semantic()[1],
            ),
            "counts the cuts",
        ),
        (lambda: answers_semantic.budgeted_semantic(embedder="hashing"), "hashing embedder"),
        (lambda: answers_semantic.budgeted_semantic(breakpoint="threshold"), "0.6 threshold"),
        (lambda: answers_semantic.budgeted_semantic(unit="line"), "cut lines, not sentences"),
    ],
    ids=["cuts-for-chunks", "hash", "threshold", "lines"],
)
def test_04_2_names_each_predictable_slip(slip, hint):
    """Each slip is computed by running the wrong method, so the hint follows the library."""
    assert hint in refusal("04.2", slip())


def _one_sided(texts, buffer_size):
    return [" ".join(texts[max(0, i - buffer_size) : i + 1]) for i in range(len(texts))]


def _joined_without_spaces(texts, buffer_size):
    return [
        "".join(texts[max(0, i - buffer_size) : i + buffer_size + 1]) for i in range(len(texts))
    ]


def _off_by_one(texts, buffer_size):
    return [" ".join(texts[max(0, i - buffer_size) : i + buffer_size]) for i in range(len(texts))]


def _wrapping_around(texts, buffer_size):
    n = len(texts)
    return [
        " ".join(texts[(i + d) % n] for d in range(-buffer_size, buffer_size + 1) if n)
        for i in range(n)
    ]


@pytest.mark.parametrize(
    "wrong", [_one_sided, _joined_without_spaces, _off_by_one, _wrapping_around]
)
def test_04_3_refuses_a_wrong_buffer_and_says_which_case(wrong):
    result = verdict("04.3", wrong)
    assert not result.passed
    assert "texts=" in result.message and "buffer_size=" in result.message
    assert "expected" in result.message and "got" in result.message


def test_04_3_names_a_window_without_its_own_sentence():
    def without_itself(texts, buffer_size):
        return [
            " ".join(texts[max(0, i - buffer_size) : i] + texts[i + 1 : i + buffer_size + 1])
            for i in range(len(texts))
        ]

    result = verdict("04.3", without_itself)
    assert not result.passed
    assert "own sentence" in result.message, result.message


def _windows(texts, buffer_size):  # 04.3 written from scratch: the library's call is refused
    return [
        " ".join(texts[max(0, i - buffer_size) : i + buffer_size + 1]) for i in range(len(texts))
    ]


def test_04_3_refuses_the_librarys_with_neighbours():
    """A fresh reader passed 04.3 by calling the library's `with_neighbours` (34 of 34 cases),
    the very function 04.3b refuses; the check now refuses it and says what to write."""
    for calling in (with_neighbours, lambda texts, b: with_neighbours(list(texts), b)):
        result = verdict("04.3", calling)
        assert not result.passed, result.message
        assert "with_neighbours" in result.message, result.message
        assert "write the windows yourself" in result.message, result.message


def test_04_3_accepts_any_correct_form():
    def as_tuple(texts, buffer_size):
        return tuple(_windows(list(texts), buffer_size))

    def written_out(texts, buffer_size):
        out = []
        for i in range(len(texts)):
            window = [
                texts[j] for j in range(i - buffer_size, i + buffer_size + 1) if 0 <= j < len(texts)
            ]
            out.append(" ".join(window))
        return out

    assert verdict("04.3", as_tuple).passed
    assert verdict("04.3", written_out).passed


def test_04_2_names_the_default_budget_cuts_and_a_miscounted_share():
    chunks, precision = selfcheck.SOLUTIONS["04.2"][1]()
    assert "count again" in refusal("04.2", (chunks, 0.0))
    at_200 = answers_semantic.budgeted_semantic(200)
    assert "count chunks, not cuts" in refusal("04.2", (at_200[0] - 1, at_200[1]))
    assert "where no budget binds" in refusal("04.2", (chunks, at_200[1]))
    assert "default 200-token budget" in refusal("04.2", (at_200[0], precision))


@pytest.mark.xdist_group("exercise-04.1")
def test_04_1_asks_minilm_and_names_wordllamas_answer():
    """WordLlama's answer is printed in section 3's table: asking MiniLM takes the skill."""
    right, _ = selfcheck.SOLUTIONS["04.1"][1]()
    wordllama = answers_stdevs.stdevs_for_asked_cuts("wordllama")
    assert wordllama != right
    assert "WordLlama's answer" in refusal(
        "04.1", (wordllama, answers_stdevs.stdev_gaps(wordllama, "wordllama"))
    )


@pytest.mark.parametrize(
    ("wrong", "named"),
    [
        (_one_sided, "only the texts before"),
        (_joined_without_spaces, "single spaces"),
        (_off_by_one, "one text too few after"),
    ],
)
def test_04_3_names_the_slip(wrong, named):
    assert named in verdict("04.3", wrong).message


def test_04_3_says_when_the_function_changed_its_input():
    def emptying(texts, buffer_size):
        out = _windows(list(texts), buffer_size)
        texts.clear()
        return out

    message = verdict("04.3", emptying).message
    assert "changed its input" in message, message


def _wide_cuts(texts, buffer_size, percentile=80, shift=0, use_buffer=True):
    """04.3b written from scratch, with a slip when asked: another percentile, chunk starts
    numbered for gaps, no buffer."""
    import numpy as np

    from chunklab.embeddings.static import WordLlamaEmbedder

    n, b = len(texts), buffer_size if use_buffer else 0  # 04.3's buffer, written out
    given = [" ".join(texts[max(0, i - b) : i + b + 1]) for i in range(n)]
    vectors = WordLlamaEmbedder().embed_documents(given)
    cosines = [
        float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))
        for u, v in zip(vectors, vectors[1:], strict=False)
    ]
    distances = np.array([1 - s for s in cosines])
    return [i + shift for i, d in enumerate(distances) if d > np.percentile(distances, percentile)]


def _wide_cuts_by_the_library(texts, buffer_size):
    """The shortcut a value answer let pass: the library's chunker on the texts joined."""
    from chunklab import Document
    from chunklab.embeddings.static import WordLlamaEmbedder

    chunker = SemanticChunker(embedder=WordLlamaEmbedder(), buffer_size=buffer_size)
    doc = Document(doc_id="x", uri="urn:x", title="", text=" ".join(texts))
    return chunker.cuts(chunker.similarities(doc)[1])


@pytest.mark.xdist_group("exercise-04.3b")
def test_04_3b_asks_for_the_cut_written_and_refuses_the_library_and_a_value():
    """04.3b once took the gaps as a value, which SemanticChunker(buffer_size=3).cuts gave
    unwritten; now it takes the learner's function and refuses a call into the chunker."""
    assert verdict("04.3b", lambda texts, b: _wide_cuts(texts, b)).passed
    assert verdict("04.3b", lambda texts, b: tuple(_wide_cuts(texts, b))).passed
    assert not verdict("04.3b", [0, 4, 5, 13, 20]).passed
    library = verdict("04.3b", _wide_cuts_by_the_library)
    assert not library.passed and "calls" in library.message, library.message


@pytest.mark.parametrize(
    ("wrong", "named"),
    [
        (lambda t, b: _wide_cuts(t, b, use_buffer=False), "no buffer"),
        (lambda t, b: _wide_cuts(t, 3), "a buffer of 3 whatever"),
        (lambda t, b: _wide_cuts(t, b, percentile=95), "percentile 95"),
        (lambda t, b: _wide_cuts(t, b, shift=1), "gap i lies after text i"),
    ],
)
@pytest.mark.xdist_group("exercise-04.3b")
def test_04_3b_names_each_slip(wrong, named):
    result = verdict("04.3b", wrong)
    assert not result.passed and named in result.message, result.message


def _wide_cuts_slipped(texts, buffer_size, hashed=False, ties=False, after_only=False, twice=False):
    """04.3b with one of the slips the checker once met with its generic hint: the hash's
    vectors, `>=` at the cut-off, windows after each text only, or buffering twice."""
    import numpy as np

    from chunklab.embeddings.static import HashingEmbedder, WordLlamaEmbedder

    n, b = len(texts), buffer_size
    before = 0 if after_only else b
    given = [" ".join(texts[max(0, i - before) : i + b + 1]) for i in range(n)]
    if twice:
        given = [" ".join(given[max(0, i - b) : i + b + 1]) for i in range(n)]
    vectors = (HashingEmbedder() if hashed else WordLlamaEmbedder()).embed_documents(given)
    cosines = [
        float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))
        for u, v in zip(vectors, vectors[1:], strict=False)
    ]
    distances = np.array([1 - s for s in cosines])
    cutoff = np.percentile(distances, 80)
    return [i for i, d in enumerate(distances) if (d >= cutoff if ties else d > cutoff)]


@pytest.mark.parametrize(
    ("slip", "named"),
    [
        ({"hashed": True}, "the hash's cosines"),
        ({"ties": True}, "equals the cut-off"),
        ({"after_only": True}, "after each text only"),
        ({"twice": True}, "buffered twice"),
    ],
)
@pytest.mark.xdist_group("exercise-04.3b")
def test_04_3b_names_the_slips_its_generic_hint_once_covered(slip, named):
    result = verdict("04.3b", lambda t, b: _wide_cuts_slipped(t, b, **slip))
    assert not result.passed and named in result.message, result.message


def _newline_join(texts, buffer_size):
    return [
        "\n".join(texts[max(0, i - buffer_size) : i + buffer_size + 1]) for i in range(len(texts))
    ]


def _buffer_of_one(texts, buffer_size):
    return [" ".join(texts[max(0, i - 1) : i + 2]) for i in range(len(texts))]


@pytest.mark.parametrize(
    ("wrong", "named"), [(_newline_join, "joined by newlines"), (_buffer_of_one, "a buffer of 1")]
)
def test_04_3_names_a_newline_join_and_a_fixed_buffer(wrong, named):
    result = verdict("04.3", wrong)
    assert not result.passed
    assert named in result.message, result.message


def _wrapping(texts, buffer_size):
    n = len(texts)
    return [
        " ".join(texts[j % n] for j in range(i - buffer_size, i + buffer_size + 1))
        for i in range(n)
    ]


def test_04_3_names_neighbours_that_wrap_round_the_ends():
    result = verdict("04.3", _wrapping)
    assert not result.passed
    assert "wrap round the ends" in result.message, result.message


def test_04_1_misses_never_print_minilms_cut_count():
    """A miss that printed "at that stdevs MiniLM makes N cut(s)" let a learner walk 0, 0.25,
    ... to the answer without running MiniLM; only named slips may speak of counts."""
    import re

    right, gaps = selfcheck.SOLUTIONS["04.1"][1]()
    for n in range(int(right / 0.25)):
        line = refusal("04.1", (n * 0.25, gaps))
        assert not re.search(r"makes \d+ cut", line), line


def test_04_2_names_hits_over_chunks_and_a_percent():
    chunks, precision = selfcheck.SOLUTIONS["04.2"][1]()
    on_true = round(precision * (chunks - 1))
    assert "divides by the chunks" in refusal("04.2", (chunks, round((on_true - 1) / chunks, 2)))
    assert "a percent" in refusal("04.2", (chunks, round(100 * precision)))


def _deduplicated(texts, buffer_size):  # a window of distinct texts: wrong where a line repeats
    out = []
    for i in range(len(texts)):
        window = texts[max(0, i - buffer_size) : i + buffer_size + 1]
        out.append(" ".join(dict.fromkeys(window)))
    return out


def _by_value(texts, buffer_size):  # the position found with texts.index: the first repeat's
    return [
        " ".join(texts[max(0, texts.index(t) - buffer_size) : texts.index(t) + buffer_size + 1])
        for t in texts
    ]


def _sliding(texts, buffer_size):  # a fixed-width window that slides at the edges
    n, width = len(texts), 2 * buffer_size + 1
    return [" ".join(texts[max(0, min(i - buffer_size, n - width)) :][:width]) for i in range(n)]


@pytest.mark.parametrize(
    ("wrong", "named"),
    [
        (_deduplicated, "appears twice is two sentences"),
        (_by_value, "appears twice is two sentences"),
        (_sliding, "slides at the edges"),
    ],
)
def test_04_3_names_repeats_dropped_and_a_sliding_edge_window(wrong, named):
    result = verdict("04.3", wrong)
    assert not result.passed
    assert named in result.message, result.message


@pytest.mark.xdist_group("exercise-04.1")
def test_04_1_chunks_counted_with_minilm_is_not_blamed_on_the_model():
    """WordLlama's stdevs with MiniLM's own gaps there is a learner who ran MiniLM and counted
    chunks: the hint names the count, not the model."""
    wordllama = answers_stdevs.stdevs_for_asked_cuts("wordllama")
    line = refusal("04.1", (wordllama, answers_stdevs.stdev_gaps(wordllama)))
    assert "count the cuts, not the chunks" in line, line
    assert "WordLlama" not in line, line


@pytest.mark.xdist_group("exercise-04.1")
def test_04_1_names_chunk_start_numbers_given_for_gaps():
    right, gaps = selfcheck.SOLUTIONS["04.1"][1]()
    line = refusal("04.1", (right, [g + 1 for g in gaps]))
    assert "gap i lies after sentence i" in line, line


def test_04_1_names_percentile_80_read_as_a_stdevs():
    """0.8 (section 1's percentile 80 as a fraction) is no multiple of 0.25: named as such, with
    no multiple given away, whatever gaps come with it."""
    right, gaps = selfcheck.SOLUTIONS["04.1"][1]()
    for answer in [(0.8, gaps), (0.8, answers_stdevs.stdev_gaps(0.75)[:4]), 0.8]:
        line = refusal("04.1", answer)
        assert "0.8 is not a multiple of 0.25" in line and "percentile 80" in line, line
        assert str(right) not in line.split("):", 1)[1], line


def test_04_3_names_texts_stripped_of_their_whitespace():
    """The slip a fresh reader found passing: each text stripped before the join. The random
    cases hold no whitespace; a text with a newline or a tab at its edge shows it."""

    def stripped(texts, buffer_size):
        return [
            " ".join(t.strip() for t in texts[max(0, i - buffer_size) : i + buffer_size + 1])
            for i in range(len(texts))
        ]

    result = verdict("04.3", stripped)
    assert not result.passed
    assert "stripped of its whitespace" in result.message, result.message
    assert verdict("04.3", _windows).passed


def test_04_2_names_precision_rounded_to_one_decimal():
    """(20, 0.3) is the right precision rounded to one decimal, and also the first chunk counted
    as a cut on a true change (6 of 20): the hint names both, without the answer."""
    chunks, precision = answers_semantic.budgeted_semantic()
    message = refusal("04.2", (chunks, round(precision, 1)))
    assert "give two decimals" in message, message
    assert f"{precision:.2f}" not in message, message


def test_04_3_names_a_window_padded_with_the_edge_text():
    def padded(texts, b):
        n = len(texts)
        return [
            " ".join(texts[min(max(j, 0), n - 1)] for j in range(i - b, i + b + 1))
            for i in range(n)
        ]

    result = verdict("04.3", padded)
    assert not result.passed
    assert "edge text is repeated" in result.message, result.message


@pytest.mark.xdist_group("exercise-04.1")
def test_04_1_names_the_true_changes_and_a_stdevs_that_does_not_make_five_cuts():
    """The answer key's gaps are named as such, and a wrong stdevs is not called "not the
    smallest": the question asks for the stdevs that makes exactly 5 cuts, no smallest."""
    right, _ = selfcheck.SOLUTIONS["04.1"][1]()
    assert "true topic changes" in refusal("04.1", (right, [3, 7, 11, 15, 18]))
    wrong = refusal("04.1", (0.5, list(answers_stdevs.stdev_gaps(0.5))))
    assert "does not make exactly 5 cuts" in wrong and "smallest" not in wrong


def test_04_2_names_a_precision_rounded_up():
    chunks, precision = selfcheck.SOLUTIONS["04.2"][1]()
    assert "rounded up" in refusal("04.2", (chunks, math.ceil(precision * 100) / 100))


def _padded(texts, b):
    return [" ".join(([""] * b + texts + [""] * b)[i : i + 2 * b + 1]) for i in range(len(texts))]


def test_04_3_names_ends_padded_with_empty_texts():
    assert "padded with empty texts" in verdict("04.3", _padded).message
    stripped = verdict("04.3", lambda t, b: [w.strip() for w in _padded(t, b)]).message
    assert "padded with empty texts, then stripped" in stripped, stripped


def test_04_1_names_a_wrong_stdevs_beside_the_right_gaps():
    """A stdevs on the grid that is not the answer, with the answer's gaps, got the generic
    'item 1 of 2'; the hint now names it (a pure function: no model runs)."""
    gaps = (3, 6, 7, 11, 15)
    hint = answers_stdevs.stdevs_off_the_grid((0.5, list(gaps)), (0.75, gaps))
    assert "the gaps are right, the stdevs is not" in hint, hint
    assert "0.75" not in hint
    assert answers_stdevs.stdevs_off_the_grid((0.75, gaps), (0.75, gaps)) == ""


def test_04_3_refuses_empty_texts_skipped_and_names_it():
    """The brief says each text as it is; a window that drops the empty ones (`if t`) passed
    every case before one held an empty text."""

    def skipping_empty(texts, buffer_size):
        return [
            " ".join(t for t in texts[max(0, i - buffer_size) : i + buffer_size + 1] if t)
            for i in range(len(texts))
        ]

    result = verdict("04.3", skipping_empty)
    assert not result.passed and "empty texts were skipped" in result.message, result.message
    assert verdict("04.3", lambda texts, b: _windows(list(texts), b)).passed


@pytest.mark.xdist_group("exercise-04.2")
def test_04_2_names_minilm_when_its_numbers_are_the_hashs_too():
    """MiniLM gives the hash's (chunks, precision) at max_tokens=30; the hint blamed the hash."""
    from chunklab.documents.series import load_document, load_topic_boundaries
    from chunklab.embeddings.minilm import MiniLMEmbedder

    chunks = SemanticChunker(embedder=MiniLMEmbedder(), max_tokens=30).split(
        load_document("topics")
    )
    on_true = sum(c.start in set(load_topic_boundaries("topics")) - {0} for c in chunks)
    minilm = (len(chunks), on_true / (len(chunks) - 1))  # MiniLM's answer, run as a learner would
    line = refusal("04.2", minilm)
    assert "MiniLM" in line and "WordLlamaEmbedder()" in line, line
    if minilm == answers_semantic.budgeted_semantic(embedder="hashing"):
        assert "hashing embedder" in line, line
