"""chunklab's docstrings read as they are written: plain text for `help()`, in Markdown's habits.

Why: autodoc parses a docstring as reStructuredText, which differs from how the project writes
them in three ways that are not mistakes in plain text, so they are bridged here instead of
silencing docutils' warnings (any other markup problem still fails the `-W` build):

- a list follows its heading line directly ("Records" then "- `contracts`: ..."): RST wants a blank
  line before the list and after it, or reads the lines as one paragraph, then "Unexpected
  indentation" at the first continuation line;
- an example is an indented block after a line ending in ":" (Markdown's indented code): RST reads
  it as a block quote and parses `|x|` or YAML's nesting in it; "::" makes it a literal block;
- `name` in single backticks means code (Markdown): `default_role = "code"` in conf.py says so.
"""

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported by tests/test_site.py where Sphinx is not installed
    from sphinx.application import Sphinx

ITEM = re.compile(r"^(\s*)- ")


def indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def bridge(lines: list[str]) -> list[str]:
    """The same text with blank lines around lists and "::" before indented examples."""
    out: list[str] = []
    list_indent: int | None = None  # the indentation of the list's markers while in a list
    literal: int | None = None  # the indentation of the line that opened a literal block
    for number, line in enumerate(lines):
        if literal is not None and (not line.strip() or indent(line) > literal):
            out.append(line)  # inside an example: as written
            continue
        literal = None
        item = ITEM.match(line)
        previous = out[-1] if out else ""
        if item and list_indent is None and previous.strip():
            out.append("")  # a list right under its heading line
        if item:
            list_indent = len(item.group(1))
        elif list_indent is not None and line.strip() and indent(line) <= list_indent:
            out.append("")  # a paragraph right after the list
            list_indent = None
        elif not line.strip() and list_indent is not None:
            following = next((ln for ln in lines[number + 1 :] if ln.strip()), "")
            if not ITEM.match(following) and indent(following) <= list_indent:
                list_indent = None
        out.append(line)
        if list_indent is None and line.rstrip().endswith(":") and not item:
            following = next((ln for ln in lines[number + 1 :] if ln.strip()), "")
            opens = number + 1 < len(lines) and not lines[number + 1].strip()
            if opens and indent(following) > indent(line):
                if not line.rstrip().endswith("::"):
                    out[-1] = line.rstrip() + ":"  # "Example:" then an indented block
                literal = indent(line)
    return out


def on_docstring(
    app: "Sphinx", what: str, name: str, obj: object, options: object, lines: list[str]
):
    lines[:] = bridge(lines)


def setup(app: "Sphinx") -> dict[str, object]:
    app.connect("autodoc-process-docstring", on_docstring)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
