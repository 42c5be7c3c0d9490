"""The coding exercises: each check fails the notebook's starter, passes the reference solution
(kept in solutions/, out of the learner's way) and rejects plausible wrong answers."""

import json
import math
import re
import sys

import pytest
from conftest import NOTEBOOKS, ROOT, prefix
from test_wrong_answers_01 import _spread as compare_with_facts_spread
from test_wrong_answers_02 import _title_substring as apart_by_title_substring
from test_wrong_answers_02 import glue_one_heading_only
from test_wrong_answers_08b import on_more_than_one_page
from test_wrong_answers_08d import level_as_the_notebook_reads_it
from test_wrong_answers_10 import WRONG_10
from test_wrong_answers_10b import WRONG_10B
from test_wrong_answers_10c import WRONG_10C
from test_wrong_answers_10d import WRONG_10D
from test_wrong_answers_11 import WRONG_11

from chunklab.teaching import selfcheck
from chunklab.teaching.exercises import CHECKS, verdict

sys.path.insert(0, str(ROOT))
from test_wrong_answers_04b import _no_resumption as no_resumption

from solutions import exercises as solutions  # noqa: E402


def _family_read_at_005(rows):  # 03d.3: every row read at 0.05, not 0.05 / m
    from chunklab.teaching.claims import sign_test

    return [
        "better"
        if low > 0 and won > lost and sign_test(won, lost) < 0.05
        else "worse"
        if high < 0 and lost > won and sign_test(won, lost) < 0.05
        else "no difference shown"
        for won, lost, low, high in rows
    ]


def function_name(exercise: str) -> str:
    return CHECKS[exercise][0].split("(")[0]


def starter(exercise: str) -> tuple[str, str]:
    """(notebook name, source) of the cell marked `# Exercise NN.x: your code`."""
    marker = f"# Exercise {exercise}: your code"
    for path in NOTEBOOKS:
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            text = "".join(cell["source"])
            if cell["cell_type"] == "code" and marker in text:
                return path.name, text
    raise AssertionError(f"no notebook cell holds {marker!r}")


@pytest.mark.parametrize("exercise", sorted(CHECKS))
def test_the_starter_in_the_notebook_is_not_yet_correct(exercise):
    name, text = starter(exercise)
    assert name.startswith(exercise.split(".")[0] + "_"), f"{exercise}'s starter is in {name}"
    # The starter runs as stored; a cell that also calls the self-check runs it against nothing.
    namespace: dict = {"check": lambda *args, **kwargs: None}
    exec(compile(text, f"{name}:{exercise}", "exec"), namespace)
    result = verdict(exercise, namespace[function_name(exercise)])
    assert not result.passed and ": not yet: " in result.message, result.message


@pytest.mark.parametrize("exercise", sorted(CHECKS))
def test_the_reference_solution_passes(exercise):
    result = verdict(exercise, getattr(solutions, function_name(exercise)))
    assert result.passed, result.message
    assert re.search(r"correct on all \d+ cases", result.message)


def _lead_with_the_flaws_in(questions, conversion, baseline, texts):  # 08c.1: nothing left out
    won = [q["id"] for q in questions if conversion[q["id"]] and not baseline[q["id"]]]
    return won, [q["id"] for q in questions if baseline[q["id"]] and not conversion[q["id"]]]


def _longest_row_alone(doc, size):  # 05c.1: the row without its header
    from chunklab.chunkers.tables import find_tables

    return sum(len(row) > size for t in find_tables(doc.text) for row in t.rows)


def _fingerprint_of_the_text_alone(doc, settings):  # 03e.2: the content hash, settings left out
    return doc.content_hash


def _fetch_factor_rounded_down(passing, k):  # 03c.1: the k-th passing position floored by k
    positions = [i for i, p in enumerate(passing, start=1) if p]
    return positions[k - 1] // k if len(positions) >= k else None


def _windows_without_line_snap(text, size):
    return [(a, min(a + size, len(text))) for a in range(0, len(text), size)]


def _repack_counting_pieces(text, spans, budget):  # adds piece counts: joins are not additive
    from chunklab import cl100k

    out, total = [], 0
    for a, b in spans:
        n = cl100k(text[a:b])
        if out and total + n <= budget:
            out[-1], total = (out[-1][0], b), total + n
        else:
            out.append((a, b))
            total = n
    return out


def _fence_closed_by_startswith(opening, line):  # the design sketch's rule
    return line.startswith("```")


def _blank_before_every_pipe_line(text):  # 02d.1: above each `|` line after text, rows too
    lines = text.split("\n")
    return "\n".join(
        "\n" * (k > 0 and line.startswith("|") and bool(lines[k - 1].strip())) + line
        for k, line in enumerate(lines)
    )


def _titles_without_guards(text):  # 02d.2: section 2's rule unguarded: a year, a sentence taken
    from chunklab.parsing.blocks import explicit_headings

    lines, out = text.split("\n"), explicit_headings(text, title=False).split("\n")
    return [k for k, (a, b) in enumerate(zip(lines, out, strict=True)) if a != b]


def _lift_in_the_order_given(hits, parent_of, max_parents):  # the hits never sorted by score
    out = []
    for child, score in hits:
        if parent_of[child] not in [p for p, _, _ in out]:
            out.append((parent_of[child], child, score))
    return out[:max_parents]


def _parents_skipping_instead_of_stopping(children, parent_of, tokens, budget):
    chosen, spent = [], 0
    for child in children:
        parent = parent_of[child]
        if parent not in chosen and spent + tokens[parent] <= budget:
            chosen.append(parent)
            spent += tokens[parent]
    return chosen


def _windows_merged_only_when_overlapping(windows):
    out = []
    for first, last in sorted(windows):
        if out and first <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def _block_of_the_first_character(child, blocks):  # right only where children nest
    return next(i for i, a, b in blocks if a <= child[0] < b)


def _buffer_one_side(texts, buffer_size):
    return [" ".join(texts[max(0, i - buffer_size) : i + 1]) for i in range(len(texts))]


def _column_value_keeping_pipes(header, row):
    return f"{header} {row}"


def _heading_paths_keeping_siblings(headings):  # stack[: level], one level too long
    path, out = [], []
    for heading in headings:
        level = len(heading) - len(heading.lstrip("#"))
        path = path[:level] + [heading.lstrip("#").strip()]
        out.append(" > ".join(path))
    return out


def _path_chunks_with_the_articles_bug(text):
    title, stack, out = text.splitlines()[0].strip(), [], []
    for paragraph in (p.strip() for p in text.split("\n\n") if p.strip()):
        lines = paragraph.splitlines()
        heading = re.match(r"^(\d+)\.\s+(.*)$", lines[0])
        if heading:
            level = int(heading.group(1))
            stack = stack[: level - 1] + [f"{heading.group(1)}. {heading.group(2)}"]
            paragraph = "\n".join(lines[1:]).strip()
            if not paragraph:
                continue
        out.append(" > ".join([title, *stack]) + "\n" + paragraph)
    return out


def _rank_from_zero(ranked, facts):
    whole = [all(f.lower() in t.lower() for f in facts) for t in ranked]
    return next((1 / (k + 2) for k, complete in enumerate(whole) if complete), 0.0)


def _iou_without_merging(retrieved, gold):  # counts a character retrieved twice, twice
    shared = sum(max(0, min(b, d) - max(a, c)) for a, b in retrieved for c, d in gold)
    either = sum(b - a for a, b in retrieved) + sum(d - c for c, d in gold) - shared
    return shared / either if either else 0.0


def _markdown_with_body_per_line(lines):  # the body's size counted per line, not per character
    from collections import Counter

    counts = Counter(size for size, _ in lines)
    body = min(counts, key=lambda size: (-counts[size], size))
    larger = sorted((s for s in counts if s > body * 1.05), reverse=True)
    level = {size: n for n, size in enumerate(larger, start=1)}
    return "\n\n".join("#" * level[s] + " " + t if s in level else t for s, t in lines)


def _mean_over_padding_too(vectors, mask):
    import numpy as np

    means = np.asarray(vectors).mean(axis=1)
    return means / np.linalg.norm(means, axis=1, keepdims=True)


def _span_including_its_end(offsets, vectors, start, end):  # <= end: one token too many
    import numpy as np

    inside = [i for i, (first, _) in enumerate(offsets) if start <= first <= end]
    if not inside:
        return np.zeros(np.asarray(vectors).shape[1])
    mean = np.asarray(vectors)[inside].mean(axis=0)
    return mean / np.linalg.norm(mean)


def _late_by_the_library(text, spans):  # the library called, not written
    from chunklab.embeddings.late import late_chunk_vectors
    from chunklab.embeddings.minilm import MiniLMEmbedder

    return late_chunk_vectors(MiniLMEmbedder(), text, spans)


def _one_version_for_all(scores, versions, k):  # 03c.2: one version number for every document
    newest = max(v for _, v in versions.values())
    return sorted((i for i in scores if versions[i][1] == newest), key=lambda i: (-scores[i], i))[
        :k
    ]


def _held_by_doc_id_alone(calls):  # 03f.1: the flat store, one tenant's document lost
    docs = {doc_id: (tenant or "default", ids) for tenant, doc_id, ids in calls}
    held = {}
    for tenant, ids in docs.values():
        held.setdefault(tenant, []).extend(ids)
    return {tenant: sorted(ids) for tenant, ids in held.items()}


def _chunk_again_ids_only(stored, now):  # new ids found, edited documents missed
    return sorted(d for d in now if d not in stored)


def _facts_spread_over_chunks(chunks, facts):  # fact_recall 1 taken for one chunk answering
    return sorted(
        q
        for q, fs in facts.items()
        if not all(any(f.lower() in c.lower() for c in chunks) for f in fs)
    )


def _each_read_at_0_05(family):  # the family's m forgotten
    from chunklab.teaching.exercises_reading import sign_p

    return [
        n for n, won, lost, low in family if low > 0 and won > lost and sign_p(won, lost) < 0.05
    ]


def _room_of_the_longest_row(
    text, count, rows_mode=False
):  # the row alone, no breadcrumb or header
    return max((count(line) for line in text.split("\n") if line.startswith("| ")), default=0)


def _bold_table_of_the_first_bold_line(words):  # a bold title of one cell taken for the header
    first = min((w["top"] for w in words if w["bold"]), default=None)
    return [[w["text"] for w in words if w["top"] == first]] if first is not None else []


def _numbers_anywhere_in_the_reply(reply):  # reads "Pieces 1 to 4" as cuts too
    return [int(n) for n in re.findall(r"\d+", reply)]


def _cuts_counting_every_cut_as_a_change(sims, percentile, topic_starts):
    import numpy as np

    distances = 1 - np.asarray(sims)
    cuts = int((distances > np.percentile(distances, percentile)).sum())
    return cuts, cuts


def _chance_of_exactly_as_many(places, marked, cuts, hits):  # 04d.1: not "at least"
    ways = math.comb(marked, hits) * math.comb(places - marked, cuts - hits)
    return ways / math.comb(places, cuts)


def _threshold_from_the_similarities(sims, percentile):  # the percentile of sims, not distances
    import numpy as np

    return float(np.percentile(sims, percentile))


def _sign_test_counting_ties(differences):  # ties tossed as coins too
    won = sum(d > 0 for d in differences)
    n = len(differences)
    return min(1.0, 2 * sum(math.comb(n, k) for k in range(min(won, n - won) + 1)) / 2**n)


def _room_with_the_last_childs_section(ranked, parent_of, sections, starts):
    if not ranked:
        return "", ""
    section, text = sections[parent_of[ranked[-1][0]]], "\n".join(t for _, t in ranked)
    at, room = starts(text), len(starts(section))
    return section, text[: at[room]] if room < len(at) else text


def _block_without_overlap(excerpts, size, step):  # blocks every size characters
    lo, hi = min(a for a, _ in excerpts), max(b for _, b in excerpts)
    return lo // size if lo // size == (hi - 1) // size else None


def _size_until_first_failure(text, budget, count):  # stops at the first size that does not fit
    size = 1
    while size <= len(text) and all(
        count(text[k : k + size]) <= budget for k in range(0, len(text), size)
    ):
        size += 1
    return size - 1


def _interval_at_fixed_ends(differences, draws, seed, level):  # 01b.3: 2.5 and 97.5 always
    import numpy as np

    diffs = np.asarray(differences, dtype=float)
    picks = np.random.default_rng(seed).integers(0, len(diffs), size=(draws, len(diffs)))
    low, high = np.percentile(diffs[picks].mean(axis=1) * 100, [2.5, 97.5])
    return float(low), float(high)


WRONG = {
    "01c.1": _size_until_first_failure,
    "01.1": compare_with_facts_spread,
    "01d.2": _windows_without_line_snap,
    "01b.1": _sign_test_counting_ties,
    "01b.3": _interval_at_fixed_ends,
    "02.1": _repack_counting_pieces,
    "02c.1": apart_by_title_substring,
    "02c.2": glue_one_heading_only,  # section 3's glue, unfixed
    "02b.1": _fence_closed_by_startswith,
    "02d.1": _blank_before_every_pipe_line,
    "02d.2": _titles_without_guards,
    "03g.1": _room_with_the_last_childs_section,
    "03g.2": lambda s, a, d: ((100 * (sum(a) - sum(d)) / len(a), len(a)), (0.0, 0)),  # all counted
    "03.1": _lift_in_the_order_given,
    "03.2": _parents_skipping_instead_of_stopping,
    "03h.1": lambda children, count: {s: 0 for s, _ in children},  # nothing counted twice
    "03b.2": _windows_merged_only_when_overlapping,
    "03c.1": _fetch_factor_rounded_down,
    "03c.2": _one_version_for_all,
    "03d.1": _block_without_overlap,
    "03d.2": _block_of_the_first_character,
    "03d.3": _family_read_at_005,
    "08c.1": _lead_with_the_flaws_in,
    "03e.1": _chunk_again_ids_only,
    "03e.2": _fingerprint_of_the_text_alone,
    "03f.1": _held_by_doc_id_alone,
    "04.3": _buffer_one_side,
    "04.3b": lambda texts, buffer_size: list(range(0, len(texts) - 1, 4)),  # gaps not computed
    "04b.1": _numbers_anywhere_in_the_reply,
    "04c.1": _threshold_from_the_similarities,
    "04c.2": _cuts_counting_every_cut_as_a_change,
    "04d.1": _chance_of_exactly_as_many,
    "04e.1": lambda questions, alpha: next(n for n in range(1, 99) if 0.5**n < alpha),  # one-sided
    "04b.2": no_resumption,  # every call starts after the previous window
    "05.1": _column_value_keeping_pipes,
    "05.2": lambda text: "\n".join(line for line in text.split("\n") if set(line) - set("|-: ")),
    "05c.1": _longest_row_alone,
    "05b.1": _room_of_the_longest_row,
    "06.1": _heading_paths_keeping_siblings,
    "06.2": _path_chunks_with_the_articles_bug,
    "06b.1": lambda rows, a, b, m: {r["question"]: r[m] for r in rows if r["strategy"] == a},
    "06b.2": lambda splits: [i for i, (w, lo) in enumerate(splits) if 2 * 0.5**w < 0.05 and not lo],
    "06c.1": lambda sentence, room: " ".join(sentence.split()[:room]),  # words counted, no "…"
    "07.1": _rank_from_zero,
    "07.2": lambda s, a, bs: [b for b in bs if sum(s[a].values()) > sum(s[b].values())],  # totals
    "07d.1": _iou_without_merging,
    "07c.2": _facts_spread_over_chunks,
    "07b.1": _each_read_at_0_05,
    "08.1": _markdown_with_body_per_line,
    "08.2": _bold_table_of_the_first_bold_line,
    "08b.1": on_more_than_one_page,
    "08d.1": level_as_the_notebook_reads_it,
    "09.1": _mean_over_padding_too,
    "09.2": lambda text, offsets, limit: len(text) - offsets[limit - 2][1],  # MiniLM's 2 markers
    "09b.1": _span_including_its_end,
    "09d.1": lambda text, facts, read_until: int(all(f.lower() in text.lower() for f in facts)),
    "09c.1": _late_by_the_library,
    **WRONG_10,
    **WRONG_10B,
    **WRONG_10C,
    **WRONG_10D,
    **WRONG_11,
}


@pytest.mark.parametrize("exercise", sorted(CHECKS))
def test_a_plausible_wrong_answer_is_not_yet(exercise):
    result = verdict(exercise, WRONG[exercise])
    assert not result.passed and ": not yet: " in result.message, result.message


@pytest.mark.parametrize("exercise", sorted(CHECKS))
def test_a_function_that_raises_gets_a_message_not_a_traceback(exercise, capsys):
    def broken(*args):
        return 1 / 0

    selfcheck.check(exercise, broken)
    selfcheck.check(exercise, None)
    first, second = capsys.readouterr().out.splitlines()
    assert "not yet: your function raised ZeroDivisionError" in first
    assert "not yet: pass your function itself" in second


def test_every_notebook_has_a_coding_exercise():
    numbers = {exercise.split(".")[0] for exercise in CHECKS}
    assert numbers == {prefix(path) for path in NOTEBOOKS}


def test_every_exercise_has_plausible_wrong_answers_refused_in_a_test():
    """Issue 29: each exercise, coding or answer, is run against wrong answers somewhere in
    tests/test_wrong_answers_*.py; a new exercise without them fails here."""
    files = ROOT.glob("tests/test_wrong_answers_*.py")
    texts = "".join(p.read_text(encoding="utf-8") for p in files)
    exercises = set(CHECKS) | set(selfcheck.SOLUTIONS)
    missing = sorted(e for e in exercises if f'"{e}"' not in texts)
    assert len(exercises) > 20 and missing == []
