"""Embedders: text to unit-length vectors, behind one protocol (`Embedder`).

- `static`: the article's hashing embedder and WordLlama's static word vectors, offline.
- `transformer`: a BERT encoder in numpy (attention, GELU, layer norm, mean pooling).
- `two_cores`: that encoder's batches on two cores, each cut in halves run in two threads.
- `minilm`: all-MiniLM-L6-v2 on that encoder, with its read limit explicit and its cuts counted.
- `late`: late chunking: the whole text read once (in windows), token vectors pooled per chunk.
- `registry`: every embedder by the name the CLI uses.
- `stored`: vectors on disk, used only for the model hash and text hash they were made from.
- `memo`: `EmbedOnce`, an embedder that embeds a given list of texts once.

May import: `chunklab.contracts`, `chunklab.parsing`, `chunklab.tokens`, `chunklab.documents`.
"""
