"""The helpers notebooks 04 and 04c lean on: the skeptic's blank-line cut and the headless pages.

`BlankLines` is the baseline a semantic cut is paired against; if it ever handed over a chunk past
its budget, or missed a paragraph start, the comparisons would measure chunk size, not cut places.
"""

import re

import pytest

from chunklab import list_documents, load_document
from chunklab.teaching.headless_pages import BlankLines, without_headings


# not under about 60: one URL of the 18F page is a single word longer than that
@pytest.mark.parametrize("budget", [100, 200])
def test_blank_lines_are_exact_slices_within_budget_opening_every_paragraph(budget):
    for name in list_documents():
        doc = load_document(name)
        chunks = BlankLines(max_tokens=budget).split(doc)
        assert all(c.text == doc.text[c.start : c.end] and c.token_count <= budget for c in chunks)
        starts = {c.start for c in chunks}
        assert {m.start() for m in re.finditer(r"[^\n]+(?:\n[^\n]+)*", doc.text)} <= starts


def test_blank_lines_with_room_are_the_paragraphs():
    topics = load_document("topics")
    paragraphs = [m.span() for m in re.finditer(r"[^\n]+(?:\n[^\n]+)*", topics.text)]
    assert [(c.start, c.end) for c in BlankLines(max_tokens=10_000).split(topics)] == paragraphs


def test_without_headings_starts_each_section_on_its_text():
    page, starts = without_headings("travel_policy")
    assert not re.search(r"^#{1,6} ", page.text, re.M)
    assert starts and all(not page.text[s].isspace() for s in starts)


def test_without_first_start_is_the_hypergeometric_chance_the_draws_estimate():
    """A page opening on a section start gives every cut that start: set aside, the exact chance
    of as many hits among the other sentence starts, close to what the seeded draws give."""
    from math import comb

    from chunklab.teaching.headless_pages import random_hits, without_first_start

    units = [(1, 5)] + [(10 * i, 10 * i + 5) for i in range(1, 16)]  # 15 other sentence starts
    starts = [1, 10, 40, 70, 100]  # the opening one and 4 among the others
    hit, made, chance = without_first_start(units, starts, cuts=8, hits=5)
    assert (hit, made) == (4, 7)
    assert chance == comb(11, 3) / comb(15, 7)  # all 4 marked starts among 7 of 15
    drawn = random_hits(units, starts, 8, draws=20_000)
    assert abs((drawn >= 5).mean() - chance) < 0.01
