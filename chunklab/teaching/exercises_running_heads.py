"""Exercise 08b.1's check: running heads and feet that carry a page number.

A running head repeats on every page, but often with the page's number in it, at its start on a
left page and at its end on a right one (`47700 Federal Register`, `Federal Register 47701`).
Lines compared as given never match there. The rule the learner writes compares lines by a key:
each run of digits replaced by `#`, then any `#` and spaces at either end dropped. A line whose key
is on every page is running; it is returned as the first page gives it, in the first page's order,
one line per key; fewer than two pages give none. The check runs the learner's function on pages it
builds (none of the notebook's), refuses a call into the library's rules, and names each slip.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

import pdfplumber

from chunklab.documents.series import data_dir
from chunklab.teaching import running_lines as exact
from chunklab.teaching.checking import NotYet, run_without, short


def running_key(line: str) -> str:
    """`Page 3 of 12` -> `Page # of`; `47700 Federal Register` -> `Federal Register`; `7` -> the
    empty string."""
    return re.sub(r"\d+", "#", line).strip("# ")


def _by_key(pages: list[list[str]], key: Callable[[str], str], guard: bool = True) -> list[str]:
    if not pages or (guard and len(pages) < 2):
        return []
    common = set(map(key, pages[0])).intersection(*(set(map(key, page)) for page in pages[1:]))
    first: dict[str, str] = {}
    for line in pages[0]:
        if key(line) in common:
            first.setdefault(key(line), line)
    return list(first.values())


def running_heads(pages: list[list[str]]) -> list[str]:
    """The reference: the first page's lines whose key is on every page, one per key."""
    return _by_key(pages, running_key)


CASES: list[list[list[str]]] = [
    # a head whose number moves from the end (right page) to the start (left page)
    [["Field Notes / Spring Issue 211", "text a"], ["212 Field Notes / Spring Issue", "text b"]],
    # a foot `Page n of m`: the number inside the line too
    [["Memo", "a", "Page 9 of 12"], ["b", "Page 10 of 12"], ["c", "Page 11 of 12"]],
    # an inner number of one digit each page: stripping the ends alone leaves it
    [["Sheet 3 of 8", "a"], ["Sheet 4 of 8", "b"]],
    # a page number alone on its line, and a head without a number
    [["Minutes", "one", "4"], ["Minutes", "two", "5"]],
    # a number inside the text differs: `Vol3 notes` is not `Vol notes`
    [["Vol3 notes", "x", "Draft 1"], ["Vol notes", "y", "Draft 2"]],
    # on two pages of three only: not running
    [["Annex 1", "a"], ["Annex 2", "b"], ["c"]],
    # one page, and none
    [["Only page 1", "text"]],
    [],
    # the first page holds two lines with one key: the first of them, once
    [["Part 1", "Part 2", "body"], ["Part 3", "more"]],
    # two lines with one key on the first page and none on the second: two lines are not two pages
    [["Part 1", "Part 2", "a"], ["b"]],
    # order: the first page's, neither sorted nor the last page's
    [["Zed 1", "m", "Alp 1"], ["Alp 2", "n", "Zed 2"]],
    # case and inner spaces count: not the same key
    [["Report 7", "Field  Guide 1", "a", "Foot 1"], ["report 8", "Field Guide 2", "b", "Foot 2"]],
    # several numbers at the end: all dropped
    [["Guide 2.0 12", "a"], ["Guide 2.0 13", "b"]],
    # a running head under each page's own title, a foot above each page's own footnote: a
    # running line is not always a page's first or last
    [
        ["Appendix A", "Handbook 2024 5", "text a", "Draft 5", "* a note"],
        ["Handbook 2024 6", "text b", "Draft 6", "* another note"],
    ],
    # a running line in the middle of the page, three lines from either end: a rule that looks
    # only near the top and bottom of a list of lines misses it
    [
        ["Minutes", "of the board", "Ledger 2024 7", "item a", "item b", "item c"],
        ["Agenda", "for the week", "ahead", "Ledger 2024 8", "item d", "item e", "item f"],
    ],
]


def _on_most(pages: list[list[str]]) -> list[str]:
    """A slip: the first page's lines whose key is on more than half the pages."""
    if len(pages) < 2:
        return []
    counts = Counter(k for page in pages for k in set(map(running_key, page)))
    first: dict[str, str] = {}
    for line in pages[0]:
        if counts[running_key(line)] * 2 > len(pages):
            first.setdefault(running_key(line), line)
    return list(first.values())


def _lines_counted(pages: list[list[str]]) -> list[str]:
    """A slip: the first page's lines whose key has as many lines as there are pages, counted over
    every line, not once a page."""
    if len(pages) < 2:
        return []
    counts = Counter(running_key(line) for page in pages for line in page)
    first: dict[str, str] = {}
    for line in pages[0]:
        if counts[running_key(line)] >= len(pages):
            first.setdefault(running_key(line), line)
    return list(first.values())


def _edge_slips(pages: list[list[str]]) -> dict[str, list[str]]:
    """The slips that look only near the ends of each page's list of lines."""
    return {
        "you looked at each page's first and last lines only: a running line can stand under a "
        "page's own title or above its footnote; chunklab's own rule looks in a band at the top "
        "and bottom of the page, which a list of lines does not give, so compare every line": (
            _by_key([[page[0], page[-1]] if page else [] for page in pages], running_key)
        ),
        "you looked at each page's first two and last two lines only: a running line can stand "
        "anywhere in a list of lines (chunklab's own rule looks in a band at the top and bottom "
        "of the page, which a list of lines does not give), so compare every line": (
            _by_key([page[:2] + page[2:][-2:] for page in pages], running_key)
        ),
    }


def _slips(pages: list[list[str]]) -> dict[str, list[str]]:
    """What each predictable slip returns on one case -> the words that name it."""

    def digits_each(line: str) -> str:
        return re.sub(r"\d", "#", line).strip("# ")

    def ends_kept(line: str) -> str:
        return re.sub(r"\d+", "#", line)

    def deleted(line: str) -> str:
        return re.sub(r"\d+", "", line).strip()

    keys_back = [running_key(line) for line in running_heads(pages)]
    return {
        "you compared the lines as given: a page number changes from page to page, so compare "
        "keys built to meet the prompt's examples": exact.expected_running_lines(pages),
        "a page number moves between the line's start and its end: drop # and spaces at both "
        "ends of the key": _by_key(pages, ends_kept),
        "you replaced each digit with #: 9 and 10 are one number each, so each run of digits "
        "becomes one #": _by_key(pages, digits_each),
        "you deleted the digits: a number inside a line stays a # (Vol3 notes is not Vol notes)": (
            _by_key(pages, deleted)
        ),
        "you stripped digits at the ends only: a number inside the line changes too (Page 9 of 12, "
        "Page 10 of 12), so first replace each run of digits with #": _by_key(
            pages, lambda line: line.strip("0123456789 ")
        ),
        "you compared keys ignoring case: chunklab's own rule folds case, this exercise's key "
        "keeps it; compare the keys as built": _by_key(
            pages, lambda line: running_key(line).lower()
        ),
        "you collapsed the spaces inside the lines: chunklab's own rule does, this exercise's "
        "key keeps them; compare the keys as built": _by_key(
            pages, lambda line: re.sub(r"\s+", " ", running_key(line))
        ),
        "you skipped the empty key: a line that is only a page number has the key '' and runs "
        "on every page too, so return it": _by_key(pages, lambda line: running_key(line) or line),
        "you returned the keys: return each running line as the first page gives it": keys_back,
        "with one page every line is on every page: return [] below two pages": _by_key(
            pages, running_key, guard=False
        ),
        "one line per key: the first page's first line with that key, not every one": [
            line
            for line in (pages[0] if len(pages) >= 2 else [])
            if running_key(line) in set(keys_back)
        ],
        "your lines follow the last page's order: give them in the first page's order": (
            _by_key(pages[::-1], running_key) if len(pages) >= 2 else []
        ),
        **_edge_slips(pages),
        "a key on most pages is not enough: a running line's key is on every page": _on_most(pages),
        "you counted a key's lines over all pages: two lines on one page are not two pages; look "
        "for the key on each page": _lines_counted(pages),
    }


def _hint(pages: list[list[str]], got: object, expected: list[str], fn: Callable) -> str:
    named = [words for words, slip in _slips(pages).items() if slip != expected and slip == got]
    if len(named) > 1:  # several slips give this answer here: keep those that give fn's on all
        everywhere = [words for words in named if _same_everywhere(fn, words)]
        named = everywhere or named
    if named:
        return "; or ".join(named)
    if isinstance(got, (set, frozenset)):
        return "you returned a set, which has no order: return a list in the first page's order"
    try:
        if sorted(got) == sorted(expected):  # type: ignore[call-overload]
            return "the right lines in another order: give them in the first page's order"
    except TypeError:
        pass
    return "keep the first page's lines whose key is on every page, in its order, one per key"


def _same_everywhere(fn: Callable, words: str) -> bool:
    """Whether the slip named by `words` returns what `fn` returns on every case."""
    for pages in CASES:
        try:
            got = fn([list(page) for page in pages])
        except Exception:  # noqa: BLE001 - a learner's function may fail on another case
            return False
        if _slips(pages)[words] != got:
            return False
    return True


REFUSAL = (
    "your running_lines calls {name}, the library's rule; write the rule yourself: a key per "
    "line, built to meet the prompt's examples, kept when every page has it"
)


def check_running_heads(fn: Callable) -> int:
    watched: list[Callable] = [exact.expected_running_lines, running_heads, running_key]
    for pages in CASES:
        expected = running_heads(pages)
        got = run_without(fn, ([list(page) for page in pages],), watched, REFUSAL)
        try:
            ok = list(got) == expected
        except TypeError:
            ok = False
        if not ok:
            hint = _hint(pages, got, expected, fn)
            raise NotYet(f"pages {short(pages)}: expected {expected}, got {short(got)}: {hint}")
    return len(CASES)


CHECKS_RUNNING_HEADS: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "08b.1": ("running_lines(pages) -> list of str", check_running_heads),
}


PDFS = [
    "18f-work-schedules_register.pdf",
    "18f-sample-kickoff-agenda.pdf",
    "shared-mime-info-spec.pdf",
]


def try_on_pdfs(fn: Callable, names: list[str] = PDFS) -> None:
    """The learner's rule on real PDFs' pages, as `pdfplumber` reads them (a line a page) with a
    1-point gap read as a space (``x_tolerance=1``, as the notebook's section 1 reads the
    specification: its default glues the specification's running head into one word on every page
    but the first), with each line found and on how many pages a line of its key stands first or
    last; the starter, which only raises, is told so before any PDF is read."""
    try:
        fn([["a line"], ["a line"]])
    except NotImplementedError:
        print("waiting for your running_lines, to run it on:", ", ".join(names))
        return
    for name in names:
        with pdfplumber.open(data_dir() / "formats" / name) as pdf:
            pages = [(page.extract_text(x_tolerance=1) or "").splitlines() for page in pdf.pages]
        found = fn(pages)
        print(f"{name}, {len(pages)} pages; the lines found:")
        for line in found:
            ends = sum(
                any(running_key(kept) == running_key(line) for kept in (page[0], page[-1]))
                for page in pages
                if page
            )
            print(f"   {line[:60]!r}, a page's first or last line on {ends} of {len(pages)} pages")
