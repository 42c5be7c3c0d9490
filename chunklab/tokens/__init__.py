"""Token counting and budgets: the arithmetic every chunker's size limit rests on (machinery).

- `counters`: token counters (words, the design sketch's approximation, cl100k offline, MiniLM).
- `wordpiece`: all-MiniLM-L6-v2's word pieces, its model files found and checked (no import).
- `utf8`:     character <-> UTF-8 byte offsets, so one tokenizer pass can be sliced anywhere.
- `encoding`: the document encoded once (cl100k, part by part, in a thread); any span read off it.
- `budget`:   exact token counts of any span in linear time (the document encoded once).
- `packing`:  oversized text cut into pieces that fit (sentences, then words, then a prefix).
- `folding`:  case and accent folding, how words compare in search and fact checks.

May import: `chunklab.contracts`, `chunklab.parsing`.
"""
