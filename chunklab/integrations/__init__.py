"""chunklab's chunkers inside the frameworks a team already runs: LangChain and LlamaIndex.

- `records`:     what both adapters share: a framework's text and metadata as a chunklab
  `Document`, a chunk's fields as the flat metadata the frameworks keep, the one-line error
  naming the extra when a framework is missing.
- `langchain`:   `ChunklabTextSplitter`, a LangChain `TextSplitter` around any chunklab chunker.
- `llama_index`: `ChunklabNodeParser`, a LlamaIndex `NodeParser` around any chunklab chunker,
  its nodes linked to their source document and, for small-to-big, to their parent sections.

Not imported by `import chunklab`: the frameworks are optional (`pip install -e '.[integrations]'`),
so each adapter is imported by its own module path, and says which extra is missing if it is.

May import every folder below it (chunkers, retrieval, ...); nothing in chunklab imports it but
`cli` could, which sits above it.
"""
