"""Reference solutions to the notebooks' coding exercises. Try the exercise first.

Kept out of the package (nothing in `chunklab` imports this folder): `tests/test_exercises.py`
proves with them that each check passes a correct answer, and with the notebooks' starters that
it fails an unfinished one.
"""

from __future__ import annotations

import hashlib
import json
import math
import re


def line_windows(text: str, size: int) -> list[tuple[int, int]]:
    """01d.2: windows of at most `size` characters, each ending after the last line break it
    holds."""
    spans, start = [], 0
    while start < len(text):
        stop = min(start + size, len(text))
        if stop < len(text) and (last_break := text.rfind("\n", start, stop)) >= 0:
            stop = last_break + 1
        spans.append((start, stop))
        start = stop
    return spans


def size_for_budget(text: str, budget: int, count) -> int:
    """01c.1: the largest size whose every window, with no overlap, costs at most `budget`."""
    for size in range(len(text), 0, -1):
        if all(count(text[k : k + size]) <= budget for k in range(0, len(text), size)):
            return size
    return 0


def sign_test_p(differences: list[float]) -> float:
    """01b.1: the two-sided exact sign test over the decisive (non-zero) differences."""
    import math

    won, lost = sum(d > 0 for d in differences), sum(d < 0 for d in differences)
    tail = sum(math.comb(won + lost, k) for k in range(min(won, lost) + 1)) / 2 ** (won + lost)
    return min(1.0, 2 * tail)


def paired_interval(
    differences: list[float], draws: int, seed: int, level: float
) -> tuple[float, float]:
    """01b.3: resample the questions with replacement; the middle `level` percent of the means."""
    import numpy as np

    diffs = np.asarray(differences, dtype=float)
    picks = np.random.default_rng(seed).integers(0, len(diffs), size=(draws, len(diffs)))
    tail = (100 - level) / 2
    low, high = np.percentile(diffs[picks].mean(axis=1) * 100, [tail, 100 - tail])
    return float(low), float(high)


def repack_tokens(text: str, spans: list[tuple[int, int]], budget: int) -> list[tuple[int, int]]:
    """02.1: merge neighbouring spans while the merged slice has at most `budget` cl100k tokens."""
    from chunklab import cl100k

    out: list[tuple[int, int]] = []
    for a, b in spans:
        if out and cl100k(text[out[-1][0] : b]) <= budget:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def closes_fence(opening: str, line: str) -> bool:
    """02b.1: a run of the opening's character, at least as long, indented at most three spaces,
    followed by nothing but spaces or tabs."""
    fence = opening.lstrip(" ")
    char = fence[0]
    length = len(fence) - len(fence.lstrip(char))
    indent = len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip(" "))
    stripped = line.strip(" \t")
    return indent < 4 and len(stripped) >= length and stripped == char * len(stripped)


def blank_before_tables(text: str) -> str:
    """02d.1: one blank line just above each table's header row (a `|` line with a delimiter row
    right under it) whose line above holds text; nothing else changed."""
    delimiter_cell = re.compile(r"\s*:?-+:?\s*")

    def is_delimiter(line: str) -> bool:
        cells = line.strip().strip("|").split("|")
        return line.startswith("|") and all(delimiter_cell.fullmatch(c) for c in cells)

    lines, out = text.split("\n"), []
    for k, line in enumerate(lines):
        header = line.startswith("|") and k + 1 < len(lines) and is_delimiter(lines[k + 1])
        if header and k > 0 and lines[k - 1].strip():
            out.append("")
        out.append(line)
    return "\n".join(out)


def numbered_titles(text: str) -> list[int]:
    """02d.2: section 2's rule (first or after a blank line, text next that is not numbered),
    with each number at most two digits and no final period."""
    numbered = re.compile(r"(\d+(?:\.\d+)*)\.?[ \t]+(\S.*)")
    lines = text.split("\n")
    found = []
    for k, line in enumerate(lines):
        m = numbered.fullmatch(line.strip())
        after = lines[k + 1].strip() if k + 1 < len(lines) else ""
        if not m or (k > 0 and lines[k - 1].strip()) or not after or numbered.fullmatch(after):
            continue
        if max(len(n) for n in m[1].split(".")) <= 2 and not line.strip().endswith("."):
            found.append(k)
    return found


def lift(
    hits: list[tuple[str, float]], parent_of: dict[str, str], max_parents: int
) -> list[tuple[str, str, float]]:
    """03.2: each parent once, with its best child and that child's score, best first."""
    out: list[tuple[str, str, float]] = []
    seen: set[str] = set()
    for child, score in sorted(hits, key=lambda hit: hit[1], reverse=True):
        if parent_of[child] not in seen:
            seen.add(parent_of[child])
            out.append((parent_of[child], child, score))
    return out[:max_parents]


def parents_within(
    ranked_children: list[str],
    parent_of: dict[str, str],
    parent_tokens: dict[str, int],
    budget: int,
) -> list[str]:
    """03.3: parents of the ranked children, no repeats, in rank order, until the next would
    overflow."""
    chosen, spent = [], 0
    for child in ranked_children:
        parent = parent_of[child]
        if parent in chosen:
            continue
        if spent + parent_tokens[parent] > budget:
            break
        chosen.append(parent)
        spent += parent_tokens[parent]
    return chosen


def children_in_room(ranked, parent_of, sections, starts):
    """03g.1: the best child's section, and the children best first cut to its token count,
    the kept pieces then put in the document's order."""
    if not ranked:
        return "", ""
    section = sections[parent_of[ranked[0][0]]]
    budget, text = len(starts(section)), "\n".join(t for _, t in ranked)
    at = starts(text)
    cut = text[: at[budget]] if budget < len(at) else text
    kept = [(p, piece) for (p, _), piece in zip(ranked, cut.split("\n"), strict=False) if piece]
    return section, "\n".join(piece for _, piece in sorted(kept))


def split_gain(section, alone, direct):
    """03g.2: the children alone against the sections searched directly, then the section
    against the children alone: each the mean paired difference in points, and its untied count."""
    halves = []
    for x, y in ((alone, direct), (section, alone)):
        pairs = list(zip(x, y, strict=True))
        halves.append(
            (100 * sum(a - b for a, b in pairs) / len(pairs), sum(a != b for a, b in pairs))
        )
    return tuple(halves)


def repeated_tokens(children, count):
    """03h.1: per section, the tokens of each line an earlier child of it already holds."""
    seen, out = set(), {}
    for section, text in children:
        lines = text.split("\n")
        out[section] = out.get(section, 0) + sum(
            count(line) for line in lines if line.strip() and (section, line) in seen
        )
        seen |= {(section, line) for line in lines}
    return out


def merged_windows(windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """03b.2: sentence ranges (first, last), merged where they overlap or touch, in order."""
    out: list[tuple[int, int]] = []
    for first, last in sorted(windows):
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def current_top_k(
    scores: dict[str, float], versions: dict[str, tuple[str, int]], k: int
) -> list[str]:
    """03c.2: filter first, then rank: the k best ids among each document's newest version in
    the index (ties by id)."""
    newest: dict[str, int] = {}
    for doc, version in versions.values():
        newest[doc] = max(newest.get(doc, version), version)
    current = [i for i in scores if versions[i][1] == newest[versions[i][0]]]
    return sorted(current, key=lambda i: (-scores[i], i))[:k]


def chunk_again(stored: dict[str, str], now: dict[str, str]) -> list[str]:
    """03e.1: the documents in the folder now that are new or whose fingerprint changed."""
    return sorted(
        doc_id for doc_id, fingerprint in now.items() if stored.get(doc_id) != fingerprint
    )


def held_by_tenant(calls: list[tuple[str | None, str, list[str]]]) -> dict[str, list[str]]:
    """03f.1: each document under (tenant, doc_id), no tenant meaning "default", a document
    indexed again replacing all its chunks; each tenant's chunk ids sorted, a tenant holding
    nothing left out."""
    docs = {}
    for tenant, doc_id, chunk_ids in calls:
        docs["default" if tenant is None else tenant, doc_id] = chunk_ids
    held: dict[str, list[str]] = {}
    for (tenant, _), chunk_ids in docs.items():
        held.setdefault(tenant, []).extend(chunk_ids)
    return {tenant: sorted(ids) for tenant, ids in held.items() if ids}


def parent_block(child: tuple[int, int], blocks: list[tuple[str, int, int]]) -> str:
    """03d.2: the block sharing the most characters with the child; the earlier on a tie."""
    start, end = child
    return max(blocks, key=lambda b: (min(end, b[2]) - max(start, b[1]), -b[1]))[0]


def family_verdicts(rows):
    """03d.3: each row's verdict by compare's rule, read at 0.05 / m, m the rows in the family."""
    from chunklab.teaching.claims import sign_test

    alpha, out = 0.05 / len(rows), []
    for won, lost, low, high in rows:
        p = sign_test(won, lost)
        if low > 0 and won > lost and p < alpha:
            out.append("better")
        elif high < 0 and lost > won and p < alpha:
            out.append("worse")
        else:
            out.append("no difference shown")
    return out


def holding_block(excerpts, size, step):
    """03d.1: the first block (block i covers [i * step, i * step + size)) holding every excerpt."""
    lo, hi = min(a for a, _ in excerpts), max(b for _, b in excerpts)
    i = 0
    while i * step <= lo:
        if hi <= i * step + size:
            return i
        i += 1
    return None


def buffered(texts: list[str], buffer_size: int) -> list[str]:
    """04.3: each text with `buffer_size` neighbours on each side, joined by spaces."""
    return [
        " ".join(texts[max(0, i - buffer_size) : i + buffer_size + 1]) for i in range(len(texts))
    ]


def threshold_for(similarities, percentile: float) -> float:
    """04c.1: the fixed threshold that cuts where the percentile rule does: the smallest
    similarity the rule leaves uncut (a gap is cut when its similarity is below it). Not 1 minus
    the cut-off: when the percentile lands on a gap, 1 - (1 - s) need not round back to s."""
    import numpy as np

    sims = np.asarray(similarities)
    return float(sims[1 - sims <= np.percentile(1 - sims, percentile)].min())


def cuts_on_changes(similarities, percentile: float, topic_starts: list[int]) -> tuple[int, int]:
    """04c.2: the percentile rule's cuts (distances above the percentile), and how many open a
    topic start (a cut after gap i opens sentence i + 1)."""
    import numpy as np

    distances = 1 - np.asarray(similarities)
    cuts = [i for i, d in enumerate(distances) if d > np.percentile(distances, percentile)]
    return sum(i + 1 in topic_starts for i in cuts), len(cuts)


def chance_as_many(places: int, marked: int, cuts: int, hits: int) -> float:
    """04d.1: the chance that `cuts` distinct places drawn at random among `places`, `marked` of
    them marked, hit at least `hits` marked ones: the hypergeometric tail, counted exactly."""
    from math import comb

    top = min(marked, cuts)
    ways = sum(comb(marked, i) * comb(places - marked, cuts - i) for i in range(hits, top + 1))
    return ways / comb(places, cuts)


def fewest_one_way(questions: int, alpha: float) -> int | None:
    """04e.1: the fewest decisive questions, all won, whose two-sided sign test p = 2 * 0.5**n is
    under `alpha`, at most `questions`; None when no such count reaches it."""
    for n in range(1, questions + 1):
        if 2 * 0.5**n < alpha:
            return n
    return None


def piece_numbers(reply: str) -> list[int]:
    """04b.1: the numbers on a reply's `split_after:` line, strictly ascending, or ValueError."""
    line = next((ln for ln in reply.splitlines() if "split_after:" in ln), None)
    if line is None:
        raise ValueError(f"no split_after: line in {reply!r}")
    before, listed = (part.strip() for part in line.split("split_after:", 1))
    if before:  # "Answer: split_after: 3": the line must start with split_after:
        raise ValueError(f"words before split_after: on its line: {line!r}")
    if listed and not re.fullmatch(r"[0-9]+(\s*,\s*[0-9]+)*", listed):  # "3.5", "3, five", "\u0663"
        raise ValueError(f"not a list of whole numbers: {line!r}")
    numbers = [int(n) for n in listed.split(",")] if listed else []
    if numbers != sorted(set(numbers)):  # strictly: a repeated piece is out of order too
        raise ValueError(f"not in ascending order: {line!r}")
    return numbers


def pass_windows(piece_tokens: list[int], model, call_tokens: int) -> list[tuple[int, int]]:
    """04b.2: the pieces (first, last, numbered from 1) each call of a pass shows: a call takes
    pieces until they pass call_tokens; the next starts after the last cut the model names. A
    reply naming a piece outside the call, or not strictly ascending, is refused."""
    calls, first = [], 1
    while first <= len(piece_tokens):
        last, used = first - 1, 0
        while last < len(piece_tokens) and (last == first - 1 or used <= call_tokens):
            used += piece_tokens[last]
            last += 1
        calls.append((first, last))
        if last == len(piece_tokens):
            break
        named = model(first, last)
        if any(not first <= k <= last for k in named) or named != sorted(set(named)):
            raise ValueError(f"reply {named} to pieces {first}-{last}: outside them or unordered")
        first = named[-1] + 1 if named else last + 1
    return calls


def room_needed(text, count, rows_mode=False):
    """05b.1: the widest row written as its chunk would hold it: breadcrumb and blank line (when a
    heading stands above), the header line, in rows mode the delimiter line, the row."""
    import re

    lines = text.split("\n")
    widest, path, in_code = 0, {}, False
    for i, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            in_code = not in_code
        hashes = re.match(r"(#+) +(.+?) *$", line)
        if hashes and not in_code and len(hashes.group(1)) <= 6:
            level = len(hashes.group(1))
            path = {lv: t for lv, t in path.items() if lv < level}
            path[level] = hashes.group(2)
        if i == 0 or not re.fullmatch(r"\|?( *:?-+:? *\|?)+", line.strip()):
            continue
        if not lines[i - 1].lstrip().startswith("|"):
            continue
        crumb = " > ".join(path[lv] for lv in sorted(path))
        head = lines[i - 1] + "\n" + (line + "\n" if rows_mode else "")
        j = i + 1
        while j < len(lines) and lines[j].lstrip().startswith("|"):
            pair = (crumb + "\n\n" if crumb else "") + head + lines[j]
            widest = max(widest, count(pair))
            j += 1
    return widest


def column_value(header: str, row: str) -> str:
    """05.1: a table row as `column: value` pairs, read as GFM reads it."""
    import re

    def cells(line: str) -> list[str]:
        line = line.strip()
        line = line[1:] if line.startswith("|") else line
        line = line[:-1] if line.endswith("|") and not line.endswith("\\|") else line
        # An escaped pipe is text inside its cell; an empty cell is still a column.
        return [cell.strip() for cell in re.split(r"(?<!\\)\|", line)]

    return "; ".join(f"{h}: {v}" for h, v in zip(cells(header), cells(row), strict=False))


def linearize_any(text: str) -> str:
    """05.2: each table `find_tables` finds, outer pipes or not, as its header before each data
    row, the delimiter row dropped; a table with no rows keeps its header; other lines unchanged."""
    from chunklab.chunkers.tables import find_tables

    lines, out, k = text.split("\n"), [], 0
    tables = {t.header_line: t for t in find_tables(text)}
    while k < len(lines):
        t = tables.get(k)
        if t is None:
            out.append(lines[k])
            k += 1
            continue
        out += [x for row in t.rows for x in (t.header, row)] or [
            t.header
        ]  # as find_tables reads them
        k = (t.row_lines or (t.delimiter_line,))[-1] + 1
    return "\n".join(out)


def rows_lost(doc, size: int) -> int:
    """05c.1: the rows whose header + newline + row is longer than `size`, each row with its own
    table's header: such a pair is cut, a shorter one fits a chunk whole."""
    from chunklab.chunkers.tables import find_tables

    return sum(len(t.header) + 1 + len(row) > size for t in find_tables(doc.text) for row in t.rows)


def heading_paths(headings: list[str]) -> list[str]:
    """06.1: each heading's path from the top: a stack of (level, title), from which a heading
    drops those of its level or deeper (by level, not by place: levels may be skipped)."""
    import re

    stack: list[tuple[int, str]] = []
    out = []
    for heading in headings:
        level = len(heading) - len(heading.lstrip("#"))  # only the leading marks: "## C# notes"
        title = re.sub(r"\s+#+$", "", heading.lstrip("#").strip())  # "## B ##" is "B"
        stack = [(lv, t) for lv, t in stack if lv < level] + [(level, title)]
        out.append(" > ".join(t for _, t in stack))
    return out


def fixed_path_chunks(text: str) -> list[str]:
    """06.2: the article's path chunks with the level taken from the number's depth."""
    import re

    title, stack, out = text.splitlines()[0].strip(), [], []
    for paragraph in (p.strip() for p in text.split("\n\n")):
        if not paragraph:
            continue
        lines = paragraph.splitlines()
        # "2.", "2.1" and "2.1." are titles (at least one dot: "30 dias" is not one).
        heading = re.match(r"^(\d+\.(?:\d+\.)*(?:\d+)?)\s+(.*)$", lines[0])
        if heading and not paragraph.startswith("|"):
            number = heading.group(1)
            level = len(number.rstrip(".").split("."))  # the fix: depth, not value
            # cut by level, not by place: a depth can be skipped ("1." then "1.1.1")
            stack = [(lv, t) for lv, t in stack if lv < level] + [
                (level, f"{number} {heading.group(2)}")
            ]
            paragraph = "\n".join(lines[1:]).strip()
            if not paragraph:
                continue
        out.append(" > ".join([title, *(t for _, t in stack)]) + "\n" + paragraph)
    return out


def shown_ahead(scores: dict, a: str, baselines: list[str]) -> list[str]:
    """07.2: the baselines `a` is shown ahead of, paired by question id, each line read at
    0.05 / m with m = len(baselines)."""
    from chunklab.teaching.claims import compare

    level = 100 - 5 / len(baselines)
    return [
        b
        for b in baselines
        if compare(
            [scores[a][q] for q in scores[a]],
            [scores[b][q] for q in scores[a]],
            show=False,
            level=level,
        ).better
    ]


def reciprocal_rank(ranked_texts: list[str], facts: list[str]) -> float:
    """07.1: 1 / the rank of the first chunk holding every fact (ignoring case), 0 if none."""
    for rank, text in enumerate(ranked_texts, start=1):
        if all(fact.lower() in text.lower() for fact in facts):
            return 1 / rank
    return 0.0


def char_iou(retrieved: list[tuple[int, int]], gold: list[tuple[int, int]]) -> float:
    """07d.1: characters in both / characters in either, each character counted once: each
    side's spans sorted and merged, then the overlaps of the merged spans added up."""

    def merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        for a, b in sorted(spans):
            if out and a <= out[-1][1]:
                out[-1] = (out[-1][0], max(out[-1][1], b))
            else:
                out.append((a, b))
        return out

    r, g = merged(retrieved), merged(gold)
    both = sum(max(0, min(b, d) - max(a, c)) for a, b in r for c, d in g)
    either = sum(b - a for a, b in r) + sum(d - c for c, d in g) - both
    return both / either if either else 0.0


def complete_not_reached(rows, strategy: str, retriever: str, k: int) -> list[str]:
    """The old 07b.1 (a pandas filter on `rows`), kept so a test shows the new 07b.1 refuses it."""
    mine = rows[
        (rows["strategy"] == strategy) & (rows["retriever"] == retriever) & (rows["k"] == k)
    ]
    return sorted(set(mine[(mine["complete"] == 1) & (mine["reached"] == 0)]["question"]))


def lines_as_markdown(lines: list[tuple[float, str]]) -> str:
    """08.1: body = the most common size per character (a tie: the smaller); a size more than 5%
    larger is a heading, the largest level 1 (at most 6); body lines in a run are one paragraph."""
    from collections import Counter

    weight = Counter()
    for size, text in lines:
        weight[size] += len(text)
    body = min(weight, key=lambda size: (-weight[size], size))
    larger = sorted((s for s in weight if s > body * 1.05), reverse=True)
    level = {size: min(6, n) for n, size in enumerate(larger, start=1)}
    blocks, paragraph = [], []
    for size, text in lines:
        if size in level:
            if paragraph:
                blocks.append(" ".join(paragraph))
            paragraph = []
            blocks.append("#" * level[size] + " " + text)
        else:
            paragraph.append(text)
    if paragraph:
        blocks.append(" ".join(paragraph))
    return "\n\n".join(blocks)


def masked_mean(vectors, mask):
    """09.1: each text's mean over its real tokens (mask 1), before any scaling."""
    import numpy as np

    weights = np.asarray(mask, dtype=np.float64)[:, :, None]
    return (np.asarray(vectors, dtype=np.float64) * weights).sum(axis=1) / weights.sum(axis=1)


def never_read(text, offsets, limit):
    """09.2: the characters after the last piece of text read, the markers (0, 0) counted."""
    if len(offsets) <= limit:
        return 0
    pieces = [o for o in offsets if tuple(o) != (0, 0)]
    return len(text) - pieces[limit - (len(offsets) - len(pieces)) - 1][1]


def read_at_1(text, facts, read_until):
    """09d.1: 1 when the part of the chunk the model reads holds every fact, case ignored."""
    read = text[: read_until(text)].lower()
    return int(all(fact.lower() in read for fact in facts))


def pool_span(offsets, vectors, start, end):
    """09b.1: the mean of the tokens whose first character is in [start, end), length 1; zeros
    when none starts there."""
    import numpy as np

    inside = [i for i, (first, _) in enumerate(offsets) if start <= first < end]
    if not inside:
        return np.zeros(np.asarray(vectors).shape[1])
    mean = np.asarray(vectors, dtype=np.float64)[inside].mean(axis=0)
    return mean / np.linalg.norm(mean)


def late_vectors(text, spans):
    """09c.1: read the text in windows of 254 pieces overlapping by 64, keep each piece from the
    window where it sits furthest from an edge (a tie: the later), pool each span (09b.1).

    The prompt's question: on the work-schedules page, 12 chunks of 200 tokens, the mean cosine
    between two chunks is 0.58 alone and 0.67 late: it rises there too, by 0.09, against the
    policy's 0.36 (0.28 to 0.64); each piece kept from the first window that reads it instead
    (the test `here >= margin[piece]` made `margin[piece] < 0`), 0.67 late (+0.005)."""
    import numpy as np

    from chunklab.embeddings.minilm import MiniLMEmbedder

    minilm = MiniLMEmbedder()
    encoding = minilm.encoding(text)
    cls, pieces, sep = encoding.ids[0], encoding.ids[1:-1], encoding.ids[-1]
    offsets = encoding.offsets[1:-1]
    width, step = minilm.max_tokens - 2, minilm.max_tokens - 2 - 64
    starts = [*range(0, max(len(pieces) - width, 0), step), max(len(pieces) - width, 0)]
    vectors = np.zeros((len(pieces), minilm.dim))
    margin = np.full(len(pieces), -1)
    for first in starts:
        end = min(first + width, len(pieces))
        read = minilm.read([cls, *pieces[first:end], sep])[1:-1]
        for piece in range(first, end):
            here = min(piece - first, end - 1 - piece)
            if here >= margin[piece]:
                vectors[piece], margin[piece] = read[piece - first], here
    return np.array([pool_span(offsets, vectors, start, end) for start, end in spans])


def bold_table(words: list[dict]) -> list[list[str]]:
    """08.2: the header is the first line, all bold, of two cells or more (a cell ends at a gap of
    6 points); rows follow, each word in the column its x0 falls in (the columns part halfway
    between the header's cells), until a gap 1.4 times the first; a line whose first column is
    empty continues the row above."""
    lines: dict[float, list[dict]] = {}
    for w in words:
        lines.setdefault(w["top"], []).append(w)
    tops = sorted(lines)

    def cells(top):
        groups: list[list[dict]] = []
        for w in sorted(lines[top], key=lambda w: w["x0"]):
            if groups and w["x0"] - groups[-1][-1]["x1"] < 6:
                groups[-1].append(w)
            else:
                groups.append([w])
        return groups

    heads = [t for t in tops if len(cells(t)) > 1 and all(w["bold"] for w in lines[t])]
    if not heads:
        return []
    top = heads[0]
    at, groups = tops.index(top), cells(top)
    parts = [(a[-1]["x1"] + b[0]["x0"]) / 2 for a, b in zip(groups, groups[1:], strict=False)]
    table = [[" ".join(w["text"] for w in g) for g in groups]]
    rest = tops[at + 1 :]
    if not rest:
        return table
    step = rest[0] - top
    for above, below in zip(tops[at:], rest, strict=False):
        if below - above > 1.4 * step:
            break
        row: list[list[str]] = [[] for _ in groups]
        for w in sorted(lines[below], key=lambda w: w["x0"]):
            row[sum(w["x0"] >= x for x in parts)].append(w["text"])
        if len(table) > 1 and not row[0]:  # a wrapped cell: the line goes on in the row above
            table[-1] = [
                " ".join(filter(None, [a, " ".join(b)]))
                for a, b in zip(table[-1], row, strict=True)
            ]
        else:
            table.append([" ".join(cell) for cell in row])
    return table


def running_lines(pages):
    """08b.1: the running lines, page numbers looked past: a line's key is the line with each run
    of digits as `#`, then `#` and spaces dropped at both ends; the first page's lines whose key is
    on every page, in its order, one per key; none below two pages."""
    if len(pages) < 2:
        return []

    def key(line):
        return re.sub(r"\d+", "#", line).strip("# ")

    on_every_page = set(map(key, pages[0])).intersection(*(set(map(key, p)) for p in pages[1:]))
    out, seen = [], set()
    for line in pages[0]:
        if key(line) in on_every_page and key(line) not in seen:
            seen.add(key(line))
            out.append(line)
    return out


def window_omega(excerpts, size, length):
    """10.1: precision-Ω of one question over windows of `size` characters: the excerpt characters
    the windows cover, over the union of every window that meets (or touches) an excerpt and the
    excerpt characters no window covers."""
    windows = [(a, min(a + size, length)) for a in range(0, length, size)]
    meeting = [
        (a, b)
        for a, b in windows
        if any(a <= e_end and b >= e_start for e_start, e_end in excerpts)
    ]
    if not meeting:
        return 0.0
    wanted = {i for e_start, e_end in excerpts for i in range(e_start, e_end)}
    seen = {i for a, b in meeting for i in range(a, b)}
    return len(wanted & seen) / len(seen | wanted)


def paired_verdict(a, b, low, high, level):
    """10d.1: compare's rule: the exact two-sided sign test of won against lost (ties left out),
    and 'better' only when the interval lies above 0, a wins more and p < (100 - level) / 100."""
    won = sum(x > y for x, y in zip(a, b, strict=True))
    lost = sum(x < y for x, y in zip(a, b, strict=True))
    n = won + lost
    p = min(1.0, 2 * sum(math.comb(n, k) for k in range(min(won, lost) + 1)) / 2**n) if n else 1.0
    alpha = (100 - level) / 100
    if low > 0 and won > lost and p < alpha:
        return p, "better"
    if high < 0 and lost > won and p < alpha:
        return p, "worse"
    return p, "no difference shown"


def merge_siblings(sizes, budget):
    """11.1: cAST's merge: adjacent siblings grouped greedily, left to right, while the group's
    total stays within `budget` (`<=`); a unit over the budget alone is a group of its own."""
    groups, total = [], 0
    for i, size in enumerate(sizes):
        if groups and total + size <= budget:
            groups[-1].append(i)
            total += size
        else:
            groups.append([i])
            total = size
    return groups


def functions_cut(functions, chunks):
    """11.2: how many functions no single chunk holds whole (start <= its start, its end <= end)."""
    return sum(1 for a, b in functions if not any(s <= a and b <= e for s, e in chunks))


def tree_family(budget: int) -> tuple[int, list[str]]:
    """11c.1: at `budget`, the syntax tree paired with each other cut on complete@5 with BM25 (BM25
    only: seconds, no stored vectors needed). The six comparisons answer one question, so they are
    one family of m = 6, each read at 100 - 5/6 percent: (m, the cuts the tree is shown ahead of).

    At 500 tokens only lines packed (11 won, 1 lost, p = 0.0063 < 5/6 %). Against the fixed window
    (9 won, 1 lost, p = 0.0215) a comparison read at 95% alone says "better"; in the family it does
    not."""
    from chunklab.documents.series import data_dir
    from chunklab.retrieval.retrievers import BM25Retriever
    from chunklab.teaching.claims import compare
    from chunklab.teaching.code_search import corpus, cut_corpus, experiment_cuts, score_cut

    files, questions = corpus(data_dir() / "code" / "toolz")
    scored = {
        label: score_cut(files, cut_corpus(files, split), questions, BM25Retriever())["complete@5"]
        for label, split in experiment_cuts(budget).items()
    }
    others = [label for label in scored if label != "chunklab code"]
    m = len(others)
    shown = [
        other
        for other in others
        if compare(scored["chunklab code"], scored[other], level=100 - 5 / m, show=False).verdict
        == "better"
    ]
    return m, shown


def fuse(scored, k, depth):
    """10b.1: rank each retriever's scores best first, keep its top `depth`, and give each kept id
    the sum, over the rankings that keep it, of 1 / (k + its rank from 1)."""
    fused = {}
    for scores in scored:
        ranking = sorted(scores, key=scores.get, reverse=True)[:depth]
        for rank, item in enumerate(ranking, start=1):
            fused[item] = fused.get(item, 0.0) + 1.0 / (k + rank)
    return fused


def token_windows(offsets, size, overlap):
    """10c.1: windows of `size - 2` word pieces (the markers make up `size`), each starting
    `overlap` pieces before the previous one ended, stopping once one reaches the last piece; a
    window's span runs from its first piece's start to its last piece's end."""
    windows, start, width = [], 0, size - 2
    while start < len(offsets):
        end = min(start + width, len(offsets))
        windows.append((offsets[start][0], offsets[end - 1][1]))
        if end == len(offsets):
            break
        start += width - overlap
    return windows


def compare_cuts(text, cut_a, cut_b, questions):
    """01.1: per question, does one chunk of each cut, or one chunk read with the next one (one
    span, from the first's start to the second's end), hold all its facts, as whole words (no
    letter or digit just before or after); then won, lost, tied."""

    def holds(fact, chunk):
        return re.search(r"(?<!\w)" + re.escape(fact) + r"(?!\w)", chunk) is not None

    def answered(cut, facts):
        spans = cut + [
            (a, d) for (a, _), (_, d) in zip(cut, cut[1:], strict=False)
        ]  # each with the next one
        return any(all(holds(f, text[a:b]) for f in facts) for a, b in spans)

    pairs = [(answered(cut_a, q), answered(cut_b, q)) for q in questions]
    return (
        sum(x and not y for x, y in pairs),
        sum(y and not x for x, y in pairs),
        sum(x == y for x, y in pairs),
    )


def apart_headings(text, spans):
    """02c.1: the titles of the headings no span holds whole with the first line of text after
    them (the next non-blank line that is no heading)."""
    lines, pos = [], 0
    for line in text.split("\n"):
        lines.append((pos, pos + len(line), line))
        pos += len(line) + 1
    filled = [line for line in lines if line[2].strip()]
    apart = []
    for k, heading in enumerate(filled):
        if not re.match(r"#{1,6} ", heading[2]):
            continue
        after = next((x for x in filled[k + 1 :] if not re.match(r"#{1,6} ", x[2])), None)
        if after and not any(a <= heading[0] and after[1] <= b for a, b in spans):
            apart.append(heading[2].lstrip("#").strip())
    return apart


def glue_headings(text, spans, size):
    """02c.2: section 3's glue, fixed: a chunk whose every non-blank line is a heading takes the
    next chunk, again and again, while the joined span is at most `size` characters."""

    def headings_only(a, b):
        lines = [line for line in text[a:b].splitlines() if line.strip()]
        return bool(lines) and all(re.match(r"#{1,6} ", line) for line in lines)

    out = []
    for a, b in spans:
        if out and headings_only(*out[-1]) and b - out[-1][0] <= size:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def cannot_answer(chunks: list[str], facts: dict[str, list[str]]) -> list[str]:
    """07c.2: the ids of the questions no ONE chunk holds every fact of, ignoring case; sorted."""
    lowered = [c.lower() for c in chunks]
    return sorted(
        q for q, fs in facts.items() if not any(all(f.lower() in c for f in fs) for c in lowered)
    )


def standing(family: list[tuple[str, int, int, float]]) -> list[str]:
    """07b.1: a search of m = len(family): shown ahead when low > 0, won > lost and the two-sided
    sign test gives p < 0.05 / m."""
    out = []
    for name, won, lost, low in family:
        n = won + lost
        p = (
            min(1.0, 2 * sum(math.comb(n, i) for i in range(min(won, lost) + 1)) / 2**n)
            if n
            else 1.0
        )
        if low > 0 and won > lost and p < 0.05 / len(family):
            out.append(name)
    return out


def fingerprint(doc, settings) -> str:
    """03e.2: a hash of the title, the text and every setting, name with value, sorted by name."""
    made_from = json.dumps([doc.title, doc.text, sorted(settings.items())], default=str)
    return hashlib.sha256(made_from.encode("utf-8")).hexdigest()


def fetch_factor(passing: list[bool], k: int) -> int | None:
    """03c.1: the smallest factor whose top factor * k holds k passing ones; None if fewer pass."""
    positions = [i for i, p in enumerate(passing, start=1) if p]
    return math.ceil(positions[k - 1] / k) if len(positions) >= k else None


def paired_differences(rows: list[dict], a: str, b: str, measure: str) -> dict[str, float]:
    """06b.1: each question scored under both strategies, a's measure less b's, keyed by question
    id (the rows come in any order, and a question may be scored under one side only)."""
    ours = {r["question"]: r[measure] for r in rows if r["strategy"] == a}
    theirs = {r["question"]: r[measure] for r in rows if r["strategy"] == b}
    return {q: ours[q] - theirs[q] for q in ours if q in theirs}


def decided_by_size(splits: list[tuple[int, int]]) -> list[int]:
    """06b.2: the comparisons whose two-sided sign test passes read alone (p < 0.05) but not at
    the family's level (p < 0.05 / m, m the number of comparisons in the list)."""
    from math import comb

    def p(won: int, lost: int) -> float:
        n = won + lost
        return min(1.0, 2 * sum(comb(n, i) for i in range(min(won, lost) + 1)) / 2**n) if n else 1.0

    alpha = 0.05 / len(splits)
    return [i for i, (won, lost) in enumerate(splits) if 0.05 > p(won, lost) >= alpha]


def fit_sentence(sentence: str, room: int) -> str:
    """06c.1: the sentence whole if it fits `room` cl100k tokens; else its longest start of whole
    words that fits with " …" after it; a label ("begins:") left last gives way to the whole
    sentences before it; "" when no word fits."""
    from chunklab.tokens.counters import cl100k

    if cl100k(sentence) <= room:
        return sentence
    words = sentence.split(" ")
    for n in range(len(words) - 1, 0, -1):
        if cl100k(" ".join(words[:n]) + " …") <= room:
            if words[n - 1].endswith(":"):
                ends = [i + 1 for i in range(n - 1) if words[i].endswith(".")]
                return " ".join(words[: max(ends, default=0)])
            return " ".join(words[:n]) + " …"
    return ""


def wide_cuts(texts: list[str], buffer_size: int) -> list[int]:
    """04.3b: the percentile-80 rule on the cosines of the buffered texts, WordLlama's vectors,
    written from scratch (gap i lies after text i)."""
    import numpy as np

    from chunklab.embeddings.static import WordLlamaEmbedder

    vectors = WordLlamaEmbedder().embed_documents(buffered(texts, buffer_size))
    cosines = [
        float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))
        for u, v in zip(vectors, vectors[1:], strict=False)
    ]
    distances = np.array([1 - s for s in cosines])
    return [i for i, d in enumerate(distances) if d > np.percentile(distances, 80)]


def lead_without_flaws(questions, conversion, baseline, texts):
    """08c.1: won and lost ids, the questions whose facts are not all in their document's plain
    text (read word by word) left out first: the baseline loses those at every budget."""
    from chunklab.teaching.plain_text_baseline import plain

    won, lost = [], []
    for q in questions:
        text = plain(texts[q["document"]])
        if not all(plain(fact) in text for fact in q["facts"]):
            continue  # a flaw of the yardstick, not a loss of structure
        if conversion[q["id"]] and not baseline[q["id"]]:
            won.append(q["id"])
        elif baseline[q["id"]] and not conversion[q["id"]]:
            lost.append(q["id"])
    return won, lost


def level_of(size, bold, title, sized, body):
    """08d.1: a sized line keeps its level; a bold one goes under the deepest sized level, as deep
    as its section number says, else one level, two when more than 5% smaller than the body."""
    if size in sized:
        return sized[size]
    if not bold:
        return None
    deepest = max(sized.values(), default=0)
    number = re.match(r"\d+(\.\d+)*", title)
    if number:
        return deepest + len(number[0].split("."))
    return deepest + (2 if size < 0.95 * body else 1)


def split_lines(text: str, gold: tuple[int, int], top: list[tuple[int, int]]) -> list[int]:
    """11b.1: the function's non-blank lines no one top chunk holds whole (first to last non-blank
    character inside it) that the top chunks cover together (every non-blank character in one of
    them): the lines a cut loses only by splitting them, 1-based and sorted."""
    out, pos = [], 0
    for n, line in enumerate(text.split("\n"), 1):
        first, last = pos + len(line) - len(line.lstrip()), pos + len(line.rstrip())
        pos += len(line) + 1
        if not line.strip() or not (gold[0] <= first and last <= gold[1]):
            continue  # not a line of the function
        whole = any(a <= first and last <= b for a, b in top)
        together = all(
            any(a <= c < b for a, b in top) for c in range(first, last) if not text[c].isspace()
        )
        if together and not whole:
            out.append(n)
    return out
