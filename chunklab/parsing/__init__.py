"""Markdown parsing and the section tree (and, for source code, which grammar reads it): text
in, blocks with exact spans, then headings as a tree.

- `scanner`:  the line-level primitives: indentation, fences, list markers, headings, rules,
              table delimiter rows, HTML starts; what one line can start.
- `lists`:    how far a list runs (items, their content, nested lists, lazy lines).
- `blocks`:   a CommonMark block scanner (headings, paragraphs, lists, fences, tables, front
              matter), every block with the character span it came from.
- `sections`: the section tree built from the headings: heading paths and stable section ids.
- `languages`: the programming languages read by their syntax tree: suffix -> tree-sitter grammar,
              and the node kinds that open a scope, hold a body, import, or attach to what follows.

May import: `chunklab.contracts`. Nothing here counts tokens or knows about chunks.
"""
