"""The chunkers: one module per strategy the notebooks teach, and the registry that lists them.

- `registry`:   every strategy declared once (name, builder, options, help); the CLI, the
                experiment, the index and the tests read it.
- `fixed`:      fixed-size windows by characters or tokens (notebook 01).
- `structural`: the article's recursive separator split, with optional repack (notebook 02).
- `markdown`:   breadcrumb + whole blocks within a hard token budget, parents for small-to-big
                (notebooks 02 and 03).
- `emission`:   how `markdown` holds sections and merges pieces before it emits them as chunks.
- `semantic`:   cuts where neighbouring sentences stop resembling each other (notebook 04).
- `tables`:     tables found and linearized row by row (notebook 05).
- `prefixes`:   what a chunk carries before its text: heading path, title, context (notebook 06).
- `llm`:        cuts a language model chooses, through your `complete(prompt)`; none is
                called here (notebook 04).
- `recursive`:  Chroma's benchmark: LangChain's recursive splitter, lengths in tokens (notebook 10).
- `cluster`:    Chroma's benchmark: small pieces grouped by their similarities (notebook 10).
- `tokentext`:  Chroma's benchmark: windows of N tokens, decoded (notebook 10).
- `code`:       source code cut between syntax-tree nodes (cAST's split-then-merge), its scope
                path as breadcrumb (notebook 11).
- `syntax_windows`: how `code` walks a file's syntax tree into windows that fit the budget.
- `collector`:  machinery: the garbage collector paused while thousands of records are built.

May import: `chunklab.contracts`, `chunklab.parsing`, `chunklab.tokens`, `chunklab.documents`,
`chunklab.embeddings`.
"""
