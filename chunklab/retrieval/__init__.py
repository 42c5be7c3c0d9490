"""Retrieval and the index: ranking chunks for a question, and small-to-big over a stored index.

- `retrievers`:     BM25, dense (embeddings), hybrid (reciprocal rank fusion), the
                    article's overlap.
- `index`:          search children, hand back parents; the `Store` protocol and `MemoryStore`.
- `index_file`:     the index file itself: opened safely (writers take turns), its schema and
                    format, and what its faults mean in words (`IndexFileError`).
- `sqlite_store`:   the same store in one SQLite file: a transaction per document, fingerprints,
                    the ranking chosen by what the retriever needs.
- `late_chunking`:  dense search over late-chunked vectors: each chunk pooled from its document
                    read whole by MiniLM.
- `small_to_big`:   parents for any strategy's chunks, so every strategy can be indexed.
- `sentence_window`: LlamaIndex's sentence window: single sentences searched, each hit handed
                    over with its neighbouring sentences.
- `stored_ranking`: machinery: BM25 and vector ranking computed inside the SQLite file.
- `scoreboard`:     machinery: the exact top k without scoring every child (MaxScore).
- `ingest`:         machinery: read, chunk and embed documents on one process, several, or a
                    cluster.

May import: `chunklab.contracts`, `chunklab.parsing`, `chunklab.tokens`, `chunklab.documents`,
`chunklab.embeddings`, `chunklab.chunkers`.
"""
