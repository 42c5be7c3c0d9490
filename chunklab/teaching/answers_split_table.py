"""Exercise 08b.2's answer: the smallest budget at which the Word file's field table, its link
addresses removed, is one chunk again, and the wrong answers a refusal names.

Why a budget and not a token count: the chunk holds the table under its breadcrumb, so the
smallest budget that keeps it whole is found by cutting at each budget, not by adding up the
table's tokens. Each plausible slip (another format, the addresses kept, the underlines removed
too, the table alone, one off, a small budget where one chunk holds the header alone) gives
its own budget, computed here, never typed in.
Registered in `selfcheck` by `answers_experiments`. Reading this file gives the answer away.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.contracts import Document
from chunklab.documents.reading import read_document
from chunklab.documents.series import data_dir
from chunklab.tokens.counters import cl100k

PAGE = "gdsway-managing-sensitive-information"  # notebook 08's GDS Way page
HEADER = "| Field | Value |"
BUDGETS = range(120, 301)  # every budget tried; the formats' answers lie between
SECTION_BUDGET = 200  # the budget companion 08b's section 2 cuts at, where the table is in two
# a guess near the answer, either side, is told the same: a hint that said "cut in two" below it and
# "one chunk" above it let a learner bisect over the checker, with no sweep
NOT_THE_SMALLEST = (
    "that is not the smallest budget from which the table is one chunk at every budget up to 300; "
    "the check will not say which side of it you are: cut at each budget and look"
)


def without_address(doc: Document) -> Document:
    """Each table row's link written [text] instead of [text](https://…), as companion 08b does."""
    text = re.sub(r"(?m)^\|.*$", lambda row: re.sub(r"\]\(https://[^)]*\)", "]", row[0]), doc.text)
    return doc.model_copy(update={"text": text})


def without_setext(doc: Document) -> Document:
    """A line of dashes under a paragraph (not a table row) made blank: no underlined heading."""
    text = re.sub(r"(?m)^([^|\n].*)\n-{3,}[ \t]*$", r"\1\n", doc.text)
    return doc.model_copy(update={"text": text})


def _read(kind: str) -> Document:
    path = data_dir() / f"{PAGE}.md" if kind == "md" else data_dir() / "formats" / f"{PAGE}.{kind}"
    return read_document(path, doc_id="sensitive_code")


def pieces(doc: Document, budget: int) -> int:
    """How many chunks hold the table's header: the chunker repeats it in every piece."""
    return len(_pieces_at(doc, budget))


def _pieces_at(doc: Document, budget: int) -> list:
    """The chunks holding the table's header at one budget."""
    return [c for c in MarkdownChunker(max_tokens=budget).split(doc) if HEADER in c.text]


def smallest_whole(doc: Document) -> int:
    """The smallest budget from which on the table is one chunk (checked at every budget up)."""
    counts = [pieces(doc, b) for b in BUDGETS]
    return next(b for i, b in enumerate(BUDGETS) if all(n == 1 for n in counts[i:]))


def header_alone(doc: Document) -> list[int]:
    """The small budgets at which exactly one chunk holds the header while the rows, too long to
    sit beside it, lie in other chunks: counting header chunks alone says "one chunk" there."""
    found: list[int] = []
    for budget in range(1, BUDGETS.start):
        try:
            count = pieces(doc, budget)
        except ValueError:  # a budget smaller than the chunker accepts
            continue
        if count == 1 and not all(row in _pieces_at(doc, budget)[0].text for row in _rows(doc)):
            found.append(budget)
        elif found:
            break
    return found


def _rows(doc: Document) -> list[str]:
    """The table's body rows, as lines of the converted text."""
    table = doc.text[doc.text.index(HEADER) :].splitlines()
    return table[2 : next(i for i, line in enumerate(table) if not line.startswith("|"))]


@lru_cache(maxsize=None)
def word_table_whole() -> int:
    """08b.2: Word's file, its table's link addresses removed."""
    return smallest_whole(without_address(_read("docx")))


def split_table_misses() -> dict[Any, str]:
    """08b.2's known wrong budgets, each with why: a new dict each call, computed once a process
    (thirteen sweeps of every budget from 150 to 300; the checks and their tests ask again)."""
    return dict(_split_table_misses())


@lru_cache(maxsize=1)
def _split_table_misses() -> tuple[tuple[Any, str], ...]:
    right = word_table_whole()
    docx = without_address(_read("docx"))
    table = docx.text[docx.text.index(HEADER) :].splitlines()
    end = next(i for i, line in enumerate(table) if not line.startswith("|"))
    table_alone = "\n".join(table[:end])
    misses: dict[Any, str] = {
        smallest_whole(_read("docx")): "that is with the link addresses still in the rows; "
        "cut without_address(gds['docx'])",
        smallest_whole(without_setext(docx)): "that is with the underlined code headings blanked "
        "too (without_setext); the exercise removes only the addresses",
        smallest_whole(without_address(_read("html"))): "that is the HTML's file; the exercise "
        "asks for the Word file's",
        smallest_whole(_read("html")): "that is the HTML file with its link addresses; the "
        "exercise asks for the Word file's, its addresses removed",
        smallest_whole(_read("md")): "that is the Markdown source's; the exercise asks for the "
        "Word file's",
        smallest_whole(_read("pdf")): "that is the PDF's; the exercise asks for the Word file's",
        cl100k(table_alone): "that is the table's own tokens; each piece also carries its "
        "breadcrumb, so cut at each budget and look",
        _md_table_tokens(): "that is the Markdown source's table alone (the 'md' line section 2 "
        "printed); the exercise cuts the Word file's, and its chunk carries a breadcrumb too",
        SECTION_BUDGET: "that is section 2's budget, where the table is still cut in two; try "
        "larger budgets until it is one chunk",
        sum(cl100k(c.text) for c in _pieces_at(docx, SECTION_BUDGET)): "that adds up the two "
        "pieces' tokens, but each piece repeats the header and the breadcrumb, so their sum counts "
        "those twice; cut at each budget and look",
        SECTION_BUDGET + 1: "just above section 2's budget the table is still cut in two; try "
        "larger budgets until it is one chunk",
        max(cl100k(c.text) for c in _pieces_at(docx, SECTION_BUDGET))
        + cl100k(_pieces_at(docx, SECTION_BUDGET)[0].text.splitlines()[0]): "that adds a "
        "breadcrumb to the larger piece, which already holds one; cut at each budget and look",
        right - 1: NOT_THE_SMALLEST,
        right + 1: NOT_THE_SMALLEST,
    }
    misses[sum(map(cl100k, crumb_and_table()))] = (  # the prediction the prompt invites
        "that is the prediction from the printed parts, the breadcrumb's tokens and the table's; "
        "the answer is what the sweep finds: cut at each budget and look, then compare the two"
    )
    for budget in header_alone(docx):
        misses[budget] = (
            "at that budget one chunk holds the header, but the rows lie in other chunks without "
            "it: the table is one chunk when the header's chunk holds every row, at that budget "
            "and every one above it up to 300"
        )
    _sweep_misses(misses, right)
    misses.pop(right, None)
    return tuple(misses.items())


def _sweep_misses(misses: dict[Any, str], right: int) -> None:
    """A guess between section 2's budget and 300 (where the sweep stops), each told it is not
    the smallest, the same either side, unless a slip already names it."""
    for budget in range(SECTION_BUDGET + 1, right):  # a guess between 200 and the answer
        misses.setdefault(budget, NOT_THE_SMALLEST)
    misses.setdefault(
        BUDGETS.stop - 1,
        "300 is where the sweep stops, not the answer: the table "
        "is one chunk at every budget from the answer up to 300, so the answer is "
        "the smallest of them",
    )
    for budget in range(right + 1, BUDGETS.stop - 1):  # a guess above the answer
        misses.setdefault(budget, NOT_THE_SMALLEST)


def _md_table_tokens() -> int:
    """The Markdown source's table alone, header to last row, in cl100k tokens."""
    text = _read("md").text
    table = text[text.index(HEADER) :].splitlines()
    end = next(i for i, line in enumerate(table) if not line.startswith("|"))
    return cl100k("\n".join(table[:end]))


def crumb_and_table() -> tuple[str, str]:
    """08b.2's prediction from section 2's printed tokens: the breadcrumb, and the table alone."""
    docx = without_address(_read("docx"))
    table = docx.text[docx.text.index(HEADER) :].splitlines()
    table_alone = "\n".join(
        table[: next(i for i, line in enumerate(table) if not line.startswith("|"))]
    )
    return _pieces_at(docx, SECTION_BUDGET)[0].text.splitlines()[0], table_alone


def afterword() -> str:
    """08b.2, once right: the gap between the prediction from printed tokens and the sweep."""
    crumb, table_alone = crumb_and_table()
    return (
        f"The breadcrumb ({cl100k(crumb)} tokens) plus the table alone ({cl100k(table_alone)}) "
        f"make {cl100k(crumb) + cl100k(table_alone)}; the chunk is the two joined by a blank "
        f"line, {cl100k(crumb + chr(10) * 2 + table_alone)} tokens, and a budget counts the "
        "chunk as written, separators included."
    )
