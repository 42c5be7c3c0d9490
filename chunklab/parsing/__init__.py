"""Markdown parsing and the section tree: text in, blocks with exact spans, then headings as a
tree.

- `scanner`:  the line-level primitives: indentation, fences, list markers, headings, rules,
              table delimiter rows, HTML starts; what one line can start.
- `lists`:    how far a list runs (items, their content, nested lists, lazy lines).
- `blocks`:   a CommonMark block scanner (headings, paragraphs, lists, fences, tables, front
              matter), every block with the character span it came from.
- `sections`: the section tree built from the headings: heading paths and stable section ids.

May import: `chunklab.contracts`. Nothing here counts tokens or knows about chunks.
"""
