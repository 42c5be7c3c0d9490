"""The answer exercises of notebooks 07, 08, 08b, 09 and 09b: each expected answer computed from the
library when asked, and the plausible wrong answers each refusal recognises (a pair in the wrong
order, the right count for the wrong setting, the reverse of what was asked), with why. Kept
apart from `teaching.selfcheck`, which registers them in its `SOLUTIONS` and `FORMS`. Reading this
file gives the answers away: try first.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.registry import build
from chunklab.chunkers.tables import orphans
from chunklab.documents.reading import read_document
from chunklab.documents.series import data_dir, load_document
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.teaching import answers_split_table as split
from chunklab.teaching.answers import Form
from chunklab.teaching.answers_paired import paired_hint, paired_in_family, paired_misses
from chunklab.tokens.counters import cl100k


def pdf_chunks_and_orphans(max_tokens: int, path: str) -> tuple[int, int]:
    doc = read_document(data_dir() / path)
    chunks = MarkdownChunker(max_tokens=max_tokens).split(doc)
    return len(chunks), orphans(chunks, doc)


GDS_PAGE = "gdsway-managing-sensitive-information"


def plain_text_cut() -> tuple[int, int]:
    """The GDS Way PDF's text as pdfplumber's extract_text gives it, cut at 60 tokens."""
    import pdfplumber  # only this hint reads the PDF a second way

    path = data_dir() / "formats" / f"{GDS_PAGE}.pdf"
    with pdfplumber.open(path) as pdf:
        text = "\n".join(page.extract_text() or "" for page in pdf.pages)
    doc = read_document(path).model_copy(update={"text": text})
    chunks = MarkdownChunker(max_tokens=60).split(doc)
    return len(chunks), orphans(chunks, doc)


def _pdf_misses() -> dict[Any, str]:
    """The travel policy's formats all cut alike, so a learner who cut its Markdown got the PDF's
    answer; the GDS Way page's PDF cuts differently from its source, so that slip is seen."""
    chunks, orphan_count = _pdf_chunks_and_orphans_at_60()
    misses = {
        (orphan_count, chunks): "the pair is (chunks, orphans), in that order",
        pdf_chunks_and_orphans(200, f"formats/{GDS_PAGE}.pdf"): "that is the cut at 200 tokens "
        "(section 3's chunker); the exercise asks max_tokens=60",
        pdf_chunks_and_orphans(50, f"formats/{GDS_PAGE}.pdf"): "that is another budget, 50 "
        "tokens; the exercise asks max_tokens=60",
        pdf_chunks_and_orphans(100, f"formats/{GDS_PAGE}.pdf"): "that is another budget, 100 "
        "tokens (section 3's smaller one); the exercise asks max_tokens=60",
        pdf_chunks_and_orphans(60, f"formats/{GDS_PAGE}.docx"): "that is the Word file's cut; the "
        "exercise asks the PDF's",
        pdf_chunks_and_orphans(60, "formats/travel_policy.pdf"): "that is the travel policy's PDF; "
        f"the exercise asks the GDS Way page's (data/formats/{GDS_PAGE}.pdf)",
        # the Markdown source and the HTML cut alike: one hint names both
        pdf_chunks_and_orphans(60, f"formats/{GDS_PAGE}.html"): "that is the HTML's cut",
        pdf_chunks_and_orphans(60, f"{GDS_PAGE}.md"): "that is the Markdown source's cut (the "
        "HTML's is the same); the exercise asks the PDF's: read_document converts it first",
    }
    series_doc = load_document("sensitive_code")  # the series' copy, not the PDF
    series_chunks = MarkdownChunker(max_tokens=60).split(series_doc)
    misses.setdefault(
        (len(series_chunks), orphans(series_chunks, series_doc)),
        "that is the series' own document, load_document('sensitive_code'); the exercise asks the "
        f"PDF, read with read_document('data/formats/{GDS_PAGE}.pdf')",
    )
    misses.setdefault(
        plain_text_cut(),
        "that is pdfplumber's plain text (section 3's baseline: no heading, no table); "
        "the exercise asks the PDF as read_document converts it",
    )
    for off in (-1, 1):  # a count off by one: say which of the two it is
        misses.setdefault(
            (chunks + off, orphan_count),
            f"the chunk count is {'one too few' if off < 0 else 'one too many'}: count every chunk "
            "MarkdownChunker(max_tokens=60).split returns for the PDF read by read_document, "
            "and check the budget is 60",
        )
        misses.setdefault(
            (chunks, orphan_count + off),
            f"the orphan count is {'one too few' if off < 0 else 'one too many'}: "
            "orphans(chunks, doc) counts them, with the same doc the chunks came from",
        )
    misses.pop((chunks, orphan_count), None)
    return misses


def _pdf_chunks_and_orphans_at_60() -> tuple[int, int]:

    return pdf_chunks_and_orphans(60, f"formats/{GDS_PAGE}.pdf")


# the GDS Way page on sensitive code: its longest windows near the limit run 254, 255 and 258
# positions at 206, 207 and 208 tokens, so the [CLS]/[SEP] slips give answers of their own
WINDOW_PAGE = "sensitive_code"


@lru_cache(maxsize=None)  # the answer and its refusals sweep the same sizes
def _longest_window(size: int, overlap: int | None = 0) -> int:
    """The positions, [CLS] and [SEP] included, of the page's longest window at `size`."""
    doc, minilm = load_document(WINDOW_PAGE), MiniLMEmbedder()
    options = {} if overlap is None else {"overlap": overlap}
    chunker = build("fixed", size=size, unit="tokens", **options)
    return max(len(minilm.encoding(c.text).ids) for c in chunker.split(doc))


@lru_cache(maxsize=None)
def _largest_window_read_whole(overlap: int | None = 0, limit: int = 256) -> int:
    """09.2: the largest fixed window, in cl100k tokens, at which MiniLM cuts none of the
    sensitive-code page's windows (`overlap=None`: build's default overlap, a slip; `limit`: the
    positions allowed, 256 with [CLS] and [SEP], another number a slip about the markers)."""
    return max(size for size in range(150, 300) if _longest_window(size, overlap) <= limit)


def _first_stop() -> int:
    """The size a search that grows the window until one is cut stops at: the size before the
    first that cuts one. On this page larger sizes cut none again (a slip, not the answer)."""
    return next(size for size in range(150, 300) if _longest_window(size) > 256) - 1


def _largest_window_misses() -> dict[Any, str]:
    right = _largest_window_read_whole()
    pieces = (
        "that is MiniLM's limit in word pieces{}; the windows count cl100k tokens, "
        "and this page has more word pieces than cl100k tokens"
    )
    misses: dict[Any, str] = {
        right + 1: "at that size a window is already cut; the answer is the largest size with "
        "none cut",
        right - 1: "no window is cut there either; the answer is the largest such size",
    }
    # the markers forgotten (256 pieces of text allowed) or counted twice (254 positions allowed)
    misses[_largest_window_read_whole(limit=258)] = (
        "at that size the longest window is 256 word pieces of text or fewer, but with [CLS] and "
        "[SEP] it runs past the 256 positions the model reads: count the two markers"
    )
    misses[_largest_window_read_whole(limit=254)] = (
        "no window is cut there, but it is not the largest such size: [CLS] and [SEP] are 2 "
        "of the 256 positions, so a window may hold 254 pieces of text; count the markers once, "
        "not twice"
    )
    misses |= {
        # section 4's table: its 200 column cuts one chunk, so 199 read off it, not off this page
        199: "that is from section 4's table, with overlap and every document; cut only this "
        "page, overlap=0",
        # the round guess: section 4's table has no column between 200 and 256
        200: "section 4's 200 column cuts one chunk over every document, not this page's; "
        "cut this page alone at every size and count",
        254: pieces.format(" of text"),
        256: pieces.format(", [CLS] and [SEP] included"),
    }
    misses.setdefault(
        _largest_window_read_whole(None),
        "that is with build's default overlap; the exercise asks overlap=0",
    )
    doc = load_document(WINDOW_PAGE)
    ratio = (len(MiniLMEmbedder().encoding(doc.text).ids) - 2) / cl100k(doc.text)
    average = (
        "MiniLM's limit divided by the page's average ratio of word pieces to cl100k tokens; a "
        "window's own ratio can be higher than the page's, so cut the page at each size and count"
    )
    # the average-ratio slip, rounded either way, with the ratio as computed or as printed (1.12)
    for limit in (254, 256):
        for ratio_used in (ratio, round(ratio, 2)):
            misses.setdefault(int(limit / ratio_used), average)
            misses.setdefault(round(limit / ratio_used), average)
    misses.setdefault(
        _first_stop(),
        "no window is cut there, and one is cut a size up, but larger sizes cut none again: "
        "a window's own ratio of pieces to tokens moves as the cuts move, so a size that cuts "
        "none can sit above one that cuts some; test every size, do not stop at the first cut",
    )
    misses.pop(right, None)
    return misses


def _pdf_afterword() -> str:
    """08.2, once right: the question the prompt asks (is it cut as its source is?), answered."""
    pdf = read_document(data_dir() / f"formats/{GDS_PAGE}.pdf")
    source = read_document(data_dir() / f"{GDS_PAGE}.md")
    header = pdf.text[pdf.text.index("| Field | Value |") :].splitlines()[:2]
    lone = next(  # the orphan: a piece of the field table (its section) without the header
        c.text
        for c in MarkdownChunker(max_tokens=60).split(pdf)
        if c.text.split("\n\n")[0].endswith("Field reference") and header[0] not in c.text
    )
    crumb, row = lone.split("\n\n", 1)
    with_header = cl100k("\n".join([crumb + "\n", *header, row]))
    return (
        f"Not as its source is: the Markdown, cut the same way, gives "
        f"{pdf_chunks_and_orphans(60, f'{GDS_PAGE}.md')}, from {cl100k(source.text):,} tokens "
        f"against the PDF's {cl100k(pdf.text):,}: its front matter, link addresses and markup "
        "are not on the printed page. The PDF's one orphan is a long row: under its breadcrumb "
        f"and the repeated header it would take {with_header} tokens, over the 60, so the "
        f"budget wins and it goes alone ({cl100k(lone)} tokens)."
    )


# exercise -> what a right answer is told besides "correct": the prompt's own question, answered
AFTERWORDS_EXPERIMENTS: dict[str, Callable] = {"08.2": _pdf_afterword, "08b.2": split.afterword}


SOLUTIONS_EXPERIMENTS: dict[str, tuple[str, Callable[[], Any]]] = {
    "07.3": ("a tuple (won, lost, low, verdict)", paired_in_family),
    "08.2": ("a pair (chunks, orphans)", _pdf_chunks_and_orphans_at_60),
    "09.2": ("an integer, a size in cl100k tokens", _largest_window_read_whole),
    "08b.2": ("an integer, a budget in cl100k tokens", split.word_table_whole),
}

FORMS_EXPERIMENTS: dict[str, Form] = {
    "07.3": Form(decimals=1, misses=paired_misses),
    "08.2": Form(misses=_pdf_misses),
    "09.2": Form(misses=_largest_window_misses),
    "08b.2": Form(misses=split.split_table_misses),
}


HINTS_EXPERIMENTS: dict[str, Callable[[Any, Any], str]] = {
    "07.3": paired_hint,
}
