"""The section tree: which headings are open above each block.

A heading closes every open heading of the same or a deeper level, then opens its own. That is
all it takes to get heading paths right when levels are skipped (`#` then `###`: the `###` sits
under the `#`) and when a sibling closes deeper sections (`##` after `###` closes both the `###`
and the previous `##`). Each section owns the blocks between its heading and the next heading;
its id is built from its heading path, so it does not change when a section is added elsewhere.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, NamedTuple

from chunklab.parsing.blocks import Block, is_template_expression, parse_blocks


class Section(NamedTuple):
    """One heading and the blocks under it, up to the next heading (a named tuple, like Block)."""

    section_id: str
    heading_path: tuple[str, ...]  # titles from the top-level heading down to this one
    level: int  # 0 for the text before the first heading
    heading: Block | None
    blocks: tuple[Block, ...]  # the section's own content, without its heading or subsections
    parent_id: str | None
    children: tuple[str, ...] = ()

    @property
    def breadcrumb(self) -> str:
        """The heading path as one line, "Travel Policy > Per diem": what a chunk carries so it
        still says where it comes from when read alone."""
        return " > ".join(self.heading_path)

    @property
    def start(self) -> int:
        """Where the section starts in the text: its heading, else its first block (0 if it has
        neither)."""
        first = self.heading or (self.blocks[0] if self.blocks else None)
        return first.start if first else 0

    @property
    def end(self) -> int:
        """Where its own content ends (its subsections not included): its last block, else its
        heading (0 if it has neither)."""
        last = self.blocks[-1] if self.blocks else self.heading
        return last.end if last else 0


@dataclass(frozen=True)
class Outline:
    """A parsed document: its front matter (if any), its blocks, and its sections in order."""

    source: str
    front_matter: str
    blocks: tuple[Block, ...]
    sections: tuple[Section, ...]

    def section(self, section_id: str) -> Section:
        """The section with this id (a chunk's `parent_id`), or a `KeyError`."""
        for s in self.sections:
            if s.section_id == section_id:
                return s
        raise KeyError(section_id)

    def render(self) -> str:
        """The tree as an indented outline, one section per line, with its id and block kinds."""
        depth: dict[str | None, int] = {None: -1}
        lines = []
        for s in self.sections:
            depth[s.section_id] = depth[s.parent_id] + 1
            title = s.heading_path[-1] if s.heading_path else "(before the first heading)"
            kinds = ", ".join(b.kind for b in s.blocks) or "no content of its own"
            marker = "#" * s.level if s.level else "·"
            lines.append(f"{'  ' * depth[s.section_id]}{marker} {title}   [{kinds}]")
        return "\n".join(lines)


_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def slug(title: str) -> str:
    """A URL-style slug: lower case ASCII letters and digits, words joined by hyphens."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    return _NOT_SLUG.sub("-", ascii_title.lower()).strip("-") or "section"


# An inline link or image, innermost first: `[text](url "title")`, `![alt](src)`, `[text][ref]`.
_TARGET = r"(?:\((?:[^()\s]|\([^()\s]*\))*(?:\s+\"[^\"]*\")?\s*\)|\[[^\]]*\])"  # (url "t") or [ref]
_LINK = re.compile(r"!?\[([^\[\]]*)\]" + _TARGET)
_IMAGE = re.compile(r"!\[([^\[\]]*)\]" + _TARGET)


def plain_title(title: str) -> str:
    """A heading's title as a reader sees it: links replaced by their text, images left out.

    HTML headings that hold a link (`<h2><a href="https://x">Install</a></h2>`) convert to
    `## [Install](https://x)`; in a breadcrumb or a section id only the words belong. An image is
    not a word a reader sees: a README's badges (`# Node Version Manager [![Tests](t.svg)](u)
    [![nvm version](v.svg)](w)`) put their alt text into every breadcrumb of the file when it was
    kept. Only a heading that is nothing but images is named by their alt text (`# ![Logo](l.png)`
    is "Logo"). An image in a link (`[![logo](a.png)](b)`) leaves an empty link, which goes too.
    """
    if "[" not in title:
        return " ".join(title.split()) or title
    without_images = _LINK.sub(r"\1", _IMAGE.sub("", title))
    plain = " ".join(without_images.split())
    if not plain:  # only images: their alt text is all the heading says
        plain = " ".join(_LINK.sub(r"\1", _LINK.sub(r"\1", title)).split())
    return plain or title


def build_outline(source: str, doc_id: str, title: str = "") -> Outline:
    """Parse `source` and group its blocks under their headings.

    A heading that is only a template tag (`# <%= current_page.data.title %>`) names nothing a
    reader sees in the source: in heading paths the document's `title` (else its id) stands in.
    A heading's links and images stand for their text (`plain_title`).
    """
    blocks = parse_blocks(source)
    front_matter = ""
    if blocks and blocks[0].kind == "front_matter":
        front_matter = blocks[0].text(source)
        blocks = blocks[1:]

    drafts: list[dict] = []
    stack: list[dict] = []  # the open sections, outermost first
    used_ids: dict[str, int] = {}

    current = None
    for b in blocks:
        if b.kind == "heading":
            if is_template_expression(b.title):
                # title_at -1: the stand-in is not in the source, so its tokens are counted
                # directly.
                b = b._replace(title=title or doc_id, title_at=-1)
            elif (plain := plain_title(b.title)) != b.title:
                b = b._replace(title=plain, title_at=-1)  # not the source's text: counted directly
            current = _draft_section(b, doc_id, drafts, stack, used_ids)
        else:
            if current is None:
                current = _draft_section(None, doc_id, drafts, stack, used_ids)
            current["blocks"].append(b)

    sections = tuple(
        Section(
            d["id"],
            d["path"],
            d["level"],
            d["heading"],
            tuple(d["blocks"]),
            d["parent"],
            tuple(d["children"]),
        )
        for d in drafts
    )
    return Outline(source, front_matter, tuple(blocks), sections)


def _draft_section(
    heading: Block | None,
    doc_id: str,
    drafts: list[dict],
    stack: list[dict],
    used_ids: dict[str, int],
) -> dict:
    """A new section's draft under the open sections in `stack` (None: the text before the first
    heading), with an id not in `used_ids`; added to `drafts`, and to `stack` if it has a heading.
    """
    if heading is None:
        path, level, parent, title = (), 0, None, ""
    else:
        while stack and stack[-1]["level"] >= heading.level:
            stack.pop()
        parent = stack[-1] if stack else None
        title = heading.title
        path = (*(parent["path"] if parent else ()), title)
        level = heading.level
    # The slug path extends the parent's: each title is slugged once, not once per descendant.
    slugs = f"{parent['slugs']}/{slug(title)}" if parent else slug(title) if path else ""
    key = slugs or "preamble"
    used_ids[key] = used_ids.get(key, 0) + 1
    if used_ids[key] > 1:
        key = f"{key}~{used_ids[key]}"  # two sections with the same path
    draft: dict[str, Any] = {
        "id": f"{doc_id}#{key}",
        "path": path,
        "slugs": slugs,
        "level": level,
        "heading": heading,
        "blocks": [],
        "parent": parent["id"] if heading is not None and parent else None,
        "children": [],
    }
    if heading is not None and parent:
        parent["children"].append(draft["id"])
    drafts.append(draft)
    if heading is not None:
        stack.append(draft)
    return draft
