"""The lines repeated on every page, compared as given: exercise 08b.1's first slip.

A PDF's running head or foot (a title, an agency's name, "Sample agenda" at the bottom of every
page) is text like any other, and a converter that keeps it puts the same line into every chunk of
a page. chunklab drops it, as it drops page numbers. The exact rule: a line that appears on every
page, taken in the first page's order, each once. One page cannot tell a running line from the
text, so fewer than two pages give none. Exercise 08b.1 (`teaching.exercises_running_heads`) asks
for the rule that also survives a page number inside the line; this exact one is the slip its
hints name.
"""

from __future__ import annotations


def expected_running_lines(pages: list[list[str]]) -> list[str]:
    """The lines on every page, compared as given, in the first page's order, each once."""
    if len(pages) < 2:
        return []
    common = set(pages[0]).intersection(*(set(page) for page in pages[1:]))
    return list(dict.fromkeys(line for line in pages[0] if line in common))
