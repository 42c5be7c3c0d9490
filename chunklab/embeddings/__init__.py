"""Embedders: text to unit-length vectors, behind one protocol (`Embedder`).

- `static`: the article's hashing embedder and WordLlama's static word vectors, offline.

May import: `chunklab.contracts`, `chunklab.parsing`, `chunklab.tokens`, `chunklab.documents`.
"""
