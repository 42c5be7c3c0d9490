"""chunklab: chunking documents for retrieval without losing the answer.

The library behind the notebook series. Each module is one idea:

- `contracts`: Document, Chunk, Scored, the Chunker protocol
- `tokens`:    token counters (words, the design sketch's approximation, cl100k offline)
- `data`:      the series' documents and question sets, and reading any file
- `fixed`:     fixed-size windows by characters or tokens
- `structural`: the article's recursive separator split, with optional repack
- `markdown`:  a Markdown block scanner with exact spans
- `sections`:  the section tree (heading paths, stable section ids)
- `budget`:    exact token counts in linear time (the document encoded once)
- `packing`:   oversized text cut into pieces that fit (sentences, words, prefixes)
- `markdown_chunker`: breadcrumb + whole blocks within a hard token budget
- `metrics`:   what a cut did to a document
- `report`:    tables and plots for the notebooks (the only module that imports pandas/matplotlib)
"""

from chunklab.contracts import Chunk, Chunker, Contract, Document, Scored, ScoreSource
from chunklab.data import (
    DocumentError,
    Question,
    QuestionSet,
    list_documents,
    load_document,
    load_questions,
    read_document,
)
from chunklab.fixed import FixedSizeChunker
from chunklab.markdown import Block, explicit_headings, parse_blocks, with_explicit_headings
from chunklab.markdown_chunker import MarkdownChunker
from chunklab.sections import Outline, Section, build_outline
from chunklab.structural import StructuralChunker
from chunklab.tokens import (
    COUNTERS,
    TokenCounter,
    TokenizerUnavailable,
    approx_tokens,
    cl100k,
    get_counter,
    word_count,
)

__version__ = "0.1.0"

__all__ = [
    "Block",
    "MarkdownChunker",
    "Outline",
    "Section",
    "StructuralChunker",
    "build_outline",
    "explicit_headings",
    "with_explicit_headings",
    "parse_blocks",
    "COUNTERS",
    "Chunk",
    "Chunker",
    "Contract",
    "Document",
    "DocumentError",
    "FixedSizeChunker",
    "Question",
    "QuestionSet",
    "ScoreSource",
    "Scored",
    "TokenCounter",
    "TokenizerUnavailable",
    "approx_tokens",
    "cl100k",
    "get_counter",
    "list_documents",
    "load_document",
    "load_questions",
    "read_document",
    "word_count",
]
