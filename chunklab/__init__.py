"""chunklab: chunking documents for retrieval without losing the answer.

The library behind the notebook series. Its folders follow the design sketch's pipeline, and
each module is one idea. The ideas the notebooks teach are marked (NN: the notebook); the rest is
machinery they rest on. Dependencies run one way, down this list (`tests/test_layout.py`).

Records
- `contracts`: Document, Chunk, Scored, the Chunker protocol
- `version`: the version string
- `memo`: values computed once per process by key, in a bounded memory (`Memo`)

Markdown parsing and the section tree (`parsing/`)
- `parsing.scanner`: the block scanner's line-level tests (fences, list markers, headings)
- `parsing.lists`: how far a Markdown list runs (items, nested lists, lazy lines)
- `parsing.blocks`: a Markdown block scanner with exact spans (02)
- `parsing.sections`: the section tree: heading paths, stable section ids (02)
- `parsing.languages`: the languages chunklab parses as code: suffix -> tree-sitter grammar (11)

Token counting and budgets (`tokens/`, machinery)
- `tokens.counters`: token counters (words, the design sketch's approximation, cl100k, MiniLM)
- `tokens.wordpiece`: all-MiniLM-L6-v2's word pieces; its model files found and checked (09)
- `tokens.utf8`: character <-> UTF-8 byte offsets
- `tokens.encoding`: the document encoded once, in a thread; any span's count read off it
- `tokens.budget`: exact token counts of any span in linear time (the document encoded once)
- `tokens.packing`: oversized text cut into pieces that fit (sentences, words, prefixes)
- `tokens.folding`: case and accent folding, for search terms and fact checks

Documents in (`documents/`)
- `documents.files`: the suffixes chunklab reads, decoding, finding files, `DocumentError`
- `documents.charsets`: an HTML file's bytes to text as a browser decodes them
- `documents.signatures`: what a file is from its first bytes, when its suffix lies
- `documents.convert`: HTML, Word and PDF to Markdown (08): which converter a file goes to
- `documents.html`: HTML parsed as a browser does (html5lib), nesting bounded, to Markdown
- `documents.docx`: Word through mammoth's HTML, what it drops named in warnings
- `documents.pdf`: PDF to Markdown with pypdfium2: headings from font sizes, paragraphs, lists
- `documents.pdf_words`: PDFium's text layer as words and fragments (boxes, sizes, weights)
- `documents.pdf_layout`: a PDF page's reading order (columns, bands) and its running heads
- `documents.pdf_grid`: ruled tables in a PDF page, from the rules its paths draw
- `documents.reading`: any file as a `Document`
- `documents.series`: the series' documents by name

Embedders (`embeddings/`)
- `embeddings.static`: the article's hashing embedder and WordLlama's word vectors (04)
- `embeddings.transformer`: a BERT encoder in numpy: attention, GELU, layer norm, pooling (09)
- `embeddings.two_cores`: that encoder's batches in halves, two threads at once, on two cores
- `embeddings.minilm`: all-MiniLM-L6-v2 on that encoder; its read limit and what it cut (09)
- `embeddings.late`: late chunking: the text read once, token vectors pooled per chunk (09)
- `embeddings.registry`: every embedder by name
- `embeddings.stored`: vectors on disk, used only for their model and text hashes (10)
- `embeddings.memo`: `EmbedOnce`, an embedder that embeds a given list of texts once (04)

The chunkers (`chunkers/`)
- `chunkers.registry`: every strategy declared once, read by the CLI, the experiment and the index
- `chunkers.fixed`: fixed-size windows by characters or tokens (01)
- `chunkers.structural`: the article's recursive separator split, with optional repack (02)
- `chunkers.markdown`: breadcrumb + whole blocks within a hard token budget (02, 03)
- `chunkers.emission`: how `chunkers.markdown` holds and merges pieces before it emits them
- `chunkers.semantic`: cuts where neighbouring sentences stop resembling each other (04)
- `chunkers.tables`: tables found and linearized row by row (05)
- `chunkers.prefixes`: heading path, title or context before a chunk's text (06)
- `chunkers.llm`: cuts a language model chooses, through your `complete(prompt)` (04)
- `chunkers.recursive`: Chroma's benchmark: LangChain's recursive splitter, lengths in tokens (10)
- `chunkers.cluster`: Chroma's benchmark: pieces grouped by their similarities (10)
- `chunkers.tokentext`: Chroma's benchmark: windows of N tokens, decoded (10)
- `chunkers.code`: source code cut between syntax-tree nodes, scope path as breadcrumb (11)
- `chunkers.syntax_windows`: how `chunkers.code` walks a syntax tree into windows (machinery)
- `chunkers.collector`: the garbage collector paused while many records are built (machinery)

Retrieval and the index (`retrieval/`)
- `retrieval.retrievers`: BM25, dense, hybrid and the article's overlap retriever (03, 06)
- `retrieval.index`: search children, hand over parents; the `Store` protocol, in memory (03)
- `retrieval.late_chunking`: dense search over late-chunked MiniLM vectors (09)
- `retrieval.small_to_big`: parents for any strategy's chunks, so every strategy can be indexed (03)
- `retrieval.sentence_window`: sentences searched, each hit handed over with its neighbours (03b)
- `retrieval.sqlite_store`: the same index in one SQLite file: a transaction per document (03)
- `retrieval.index_file`: opening the file safely, its schema and format, its faults in words
- `retrieval.stored_ranking`: BM25 and vector ranking inside the SQLite file (machinery)
- `retrieval.scoreboard`: the exact top k without scoring every child (MaxScore; machinery)
- `retrieval.ingest`: read, chunk and embed on one process, several, or a Dask cluster (machinery)

Evaluation (`evaluation/`)
- `evaluation.questions`: question sets and question files, checked against their documents
- `evaluation.metrics`: what a cut did to a document; whether a ranking reached the evidence
  (01, 07)
- `evaluation.recall`: fact recall and what it costs in tokens (03, 06)
- `evaluation.experiment`: strategies x retrievers x questions, and their summaries (07)
- `evaluation.article`: the article's section 8 table, reproduced with its stub retriever (07)
- `evaluation.chroma`: Chroma's chunking benchmark: its data, chunk positions and metrics (10)
- `evaluation.benchmark`: any cut on that benchmark: top k over one collection, scores (10)
- `evaluation.benchmark_rows`: the cuts notebook 10 scores, and their stored vectors (10)
- `evaluation.stored_cuts`: notebook 10d's MarkdownChunker cuts, stored and checked (10d)
- `evaluation.benchmark_rankers`: BM25 and the hybrid on that benchmark, indexed once (10)
- `evaluation.bootstrap`: bootstrap intervals of a mean over questions (10)

The notebooks' helpers (`teaching/`)
- `teaching.report`: tables and plots (with `teaching.figures` and `teaching.block_figures`, the
  only modules that import pandas/matplotlib)
- `teaching.figures`: the experiment's figures (07), the pipeline map (01), legends beside panels
- `teaching.block_figures`: the block holding each line of a small input, two parsers side by side
- `teaching.cuts`: where the cuts fall, each chunk's span coloured (`report.show_cuts`)
- `teaching.selfcheck`: a notebook's claims re-computed from the library
- `teaching.fact_matching`: one chunk holding every fact a question needs (whole words)
- `teaching.claims`: `claim` (a conclusion printed with its verdict) and `compare` (paired)
- `teaching.rule_book`: rules stated as claims over paired comparisons, each comparison a row.
- `teaching.answers`: an answer judged on its value (list or tuple, rounding, order)
- `teaching.exercises`: the exercises' checks, which accept any correct answer
- `teaching.equal_count`: 02's equal-chunk-count baseline, a cut against as many fixed windows
- `teaching.exercises_structural`: notebook 02's checks, naming a plausible wrong answer's mistake
- `teaching.exercises_parent_budget`: exercise 03.2's check (parents within a token budget)
- `teaching.exercises_child_repeats`: exercise 03h.1's check (each section's repeated lines)
- `teaching.exercises_parents_windows`: the checks of 03b and 03c (merged windows, filter then rank)
- `teaching.excerpt_inside`: a benchmark answer whole inside one piece handed over, or not
- `teaching.parent_search`: a parent found directly or through its children; children alone
- `teaching.window_evidence`: 03b's tables of five ways on notebook 03's four questions
- `teaching.long_parents`: 03d's bookkeeping, answers across a block edge, a random block, the
  sweep against the block's length drawn, the per-corpus table
- `teaching.exercises_block_parent`: exercise 03d.2, the block holding most of a child, its slips
- `teaching.exercises_family_reading`: exercise 03d.3, a family of comparisons read at 0.05 / m
- `teaching.exercises_paired_interval`: exercise 01b.3, the paired interval by resampling
- `teaching.exercises_sign_test`: exercise 01b.1, the sign test from per-question differences
- `teaching.exercises_refresh`: exercise 03e.1, the documents a refresh chunks again, its slips
- `teaching.exercises_line_windows`: exercise 01d.2, windows that end at a line break, its slips
- `teaching.exercises_table_blank_line`: exercise 02d.1, a blank line above each table's header
  row that follows text, its slips
- `teaching.exercises_numbered_titles`: exercise 02d.2, numbered titles guarded, its slips
- `teaching.exercises_tenants`: exercise 03f.1, what each tenant holds after its calls, its slips
- `teaching.exercises_fetch_factor`: exercise 03c.1, the rule for the patch's smallest factor
- `teaching.exercises_fingerprint`: exercise 03e.2, a fingerprint of text, title, every setting
- `teaching.command_line`: the `chunklab` command run in a scratch folder, printed as typed (03e)
- `teaching.exercises_parent_lift`: exercise 03.1, child hits in any order lifted to their parents
- `teaching.exercises_measures`: the checks of notebooks 07 to 09, naming the mistake they recognise
- `teaching.conversion_measures`: what a conversion kept, as words, headings and table rows
- `teaching.exercises_yardstick_flaws`: exercise 08c.1, a lead over the plain text, flaws left out
- `teaching.plain_text_baseline`: 08's answers against a file's plain text, titled or not
- `teaching.exercises_table_room`: exercise 05b.1's check: the room a table's rows need
- `teaching.exercises_safe_size`: exercise 05c.1's check: rows lost at a size, predicted
- `teaching.exercises_bold_table`: exercise 08.2's check: a table without a grid, from a bold header
- `teaching.word_lines`: pdfplumber's words as the PDF converter's lines (08)
- `teaching.running_lines`: lines repeated on every page, compared as given (08b.1's first slip)
- `teaching.lines_pdf`: a PDF of lines placed by hand (08b's numbered label atop each page)
- `teaching.exercises_running_heads`: exercise 08b.1's check (running lines with a page number)
- `teaching.split_table_ranks`: 08b's printers of a split table's pieces and BM25's scores
- `teaching.column_lines`: 08d's PDF lines read one column at a time; a title's line
- `teaching.exercises_heading_levels`: exercise 08d.1, a heading's level, a smaller bold one deeper
- `teaching.retriever_checks`: exercise 10b.2 (BM25 against MiniLM, its interval), its hints
- `teaching.fusion_checks`: exercise 10b.1 (rank fusion from raw scores), its slips' hints
- `teaching.page_lines`: exercise 08.1's rule (a page's sized lines as Markdown), its slips' hints
- `teaching.read_fit`: the word pieces of every fixed-size chunk at every size, one encoding
  (notebook 09).
- `teaching.pooling_checks`: the checks of exercises 09.1 and 09b.1 (masked mean, span pooling)
- `teaching.answers_fixed_structural`: the answer exercises of 01 to 02d, with their known slips
- `teaching.answers_stdevs`: exercise 04.1's answer and the wrong answers it knows
- `teaching.semantic_retrieval`: 04's section 4 bookkeeping, equal tokens handed over and a
  family's verdict table (04)
- `teaching.headless_pages`: sectioned pages with their headings removed, and the chance floor of
  random cuts (04, 04c)
- `teaching.answers_small_to_big`: the answer exercises of 03 to 03c and the wrong answers they know
- `teaching.exercises_gain_split`: the check of 03g.2 (a gain split in two halves)
- `teaching.exercises_room_order`: the check of 03g.1 (children in a section's room, in order)
- `teaching.exercises_room_edges`: the check of 03d.1 (the first overlapping block that holds)
- `teaching.answers_semantic`: the answer exercises of 04, 04b and 04c, with their known slips
- `teaching.answers_tables_prefixes`: the answer exercises of 05c and 05b, the same way
- `teaching.prefix_baselines`: a path prefix's skeptic baselines: same cut, title at answer (06)
- `teaching.answers_experiments`: the answer exercises of 07 to 09 and the wrong answers they know
- `teaching.answers_late_chunking`: exercise 09c.1's answer and the wrong pairs it names
- `teaching.answers_paired`: exercise 07c.1's answer (a comparison read in its family), its slips
- `teaching.best_part`: a chunk longer than the embedder reads, scored by its best part (09)
- `teaching.answers_split_table`: exercise 08b.2's answer and the wrong budgets it names
- `teaching.exercises_benchmark`: notebook 10's exercise check (10)
- `teaching.exercises_verdict`: exercise 10d.1's check: compare's rule written by hand (10d)
- `teaching.exercises_reading`: exercises 07c.2 and 07b.1: the questions no one chunk answers, a
  family's verdicts read at 0.05 / m
- `teaching.exercises_windows`: companion 10c's checks: windows of word pieces with an overlap (10c)
- `teaching.exercises_code`: notebook 11's checks: cAST's merge of siblings, functions cut (11)
- `teaching.exercises_code_family`: 11c's BM25 family read as one, its compare calls watched
- `teaching.exercises_split_lines`: 11b's lines a cut holds only together, by hand
- `teaching.article_fixed`: the article's figures for its 200/40 cut, and our checks against them
- `teaching.exercises_budget_size`: 01c.1's check: the size in characters that fits a token budget
- `teaching.exercises_won_lost`: 01.1's check: won/lost/tied from two cuts' spans (01)
- `teaching.exercises_headings_apart`: 02c.1's check: headings no span keeps with their text (02c)
- `teaching.exercises_cut_tests`: the made-up pages the 01.1 and 02c.1 checks draw from
- `teaching.exercises_heading_glue`: 02c.2's check: the heading glue fixed for stacked headings
- `teaching.code_search`: code-search questions from docstrings, a cut scored by its lines (11)
- `teaching.code_peers`: the frameworks' code splitters at one token budget, located (11)
- `teaching.code_search_claims`: the code-search conclusions as conditions on comparisons (11)
- `teaching.code_cut_sizes`: the chunk sizes of each cut of the code, and chunks over budget (11)
- `teaching.code_sweep`: a cut of code with no parser; definitions sized as the tree counts (11)
- `teaching.checking`: what every exercise check shares (verdict, "not yet", short renderings)
- `teaching.exercises_llm_reply`: companion 04b's check: a model's `split_after` reply read
  into piece numbers
- `teaching.exercises_thresholds`: companion 04c's check: a percentile's cuts as a threshold
- `teaching.exercises_llm_pass`: companion 04b's check 04b.2: a first pass's calls
- `teaching.exercises_wide_buffer`: 04.3b's check: the buffered semantic cut written from scratch
- `teaching.exercises_cut_changes`: companion 04c's check 04c.2: the percentile rule scored
  against topic starts
- `teaching.exercises_chance_floor`: companion 04d's check 04d.1: the chance floor counted exactly
- `teaching.exercises_family_power`: companion 04e's check 04e.1: a family's fewest decisive
  questions
- `teaching.exercises_verdict_family`: notebook 07's check 07.2: a verdict family from raw scores
- `teaching.exercises_never_read`: exercise 09.2's check: the characters a model never reads
- `teaching.exercises_read_limit`: companion 09d's check 09d.1: the facts in what the model reads
- `teaching.table_cuts`: 04d's section 2: breakpoint rules on the series' tables
- `teaching.cut_agreement`: 04c's section 4: cuts shared by two models, and cuts on true changes
- `teaching.matched_windows`: token windows at every size, matched to a cut's tokens per query
- `teaching.exercises_tables`: notebook 05's check: table rows as GFM reads them
- `teaching.exercises_prefixes`: notebook 06's check: path prefixes on numbered subsections
- `teaching.exercises_paired_rows`: exercise 06b.1's check: rows paired by question id
- `teaching.exercises_family_size`: exercise 06b.2's check: the comparisons whose verdict a
  family's size decides (the sign test passes alone, not at 0.05 / m).
- `teaching.exercises_context_fit`: exercise 06c.1's check: a context sentence shortened to its
  room (a cut at a word, a label never left last).

LangChain and LlamaIndex (`integrations/`; not imported here: `pip install -e '.[integrations]'`)
- `integrations.records`: a framework's text as a `Document`; a chunk as flat framework metadata
- `integrations.langchain`: `ChunklabTextSplitter`, any chunker as a LangChain `TextSplitter`
- `integrations.llama_index`: `ChunklabNodeParser`, any chunker as a LlamaIndex `NodeParser`,
  parents linked for small-to-big

The `chunklab` command (`cli/`)
- `cli.parser`: the argument parser, each command's example, the strategy options, `UsageError`
- `cli.terminal`: warnings and a progress bar on stderr
- `cli.chunking`: `chunklab chunk`
- `cli.formats`: what `chunklab chunk --format` writes: JSON lines, CSV or Parquet, its columns
- `cli.indexing`: `chunklab index` in named steps (the flags, the write loop, the report)
- `cli.source_files`: which files a folder gives each strategy; what is said about source files
- `cli.searching`: `chunklab search` and `chunklab tenants`
- `cli.experimenting`: `chunklab experiment`
- `cli.benchmarking`: `chunklab benchmark`, a strategy on Chroma's chunking benchmark (10)
- `cli.commands`: `main`, each command run, a user's mistake turned into exit code 2
"""

from chunklab.chunkers.code import CodeChunker
from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.registry import STRATEGIES, Strategy
from chunklab.chunkers.semantic import SemanticChunker
from chunklab.chunkers.structural import StructuralChunker
from chunklab.chunkers.tables import LinearizedChunker
from chunklab.contracts import Chunk, Chunker, Contract, Document, Scored, ScoreSource
from chunklab.documents.files import DocumentError
from chunklab.documents.reading import read_document
from chunklab.documents.series import list_documents, load_document
from chunklab.embeddings.static import Embedder, HashingEmbedder, WordLlamaEmbedder
from chunklab.evaluation.questions import Question, QuestionSet, load_questions
from chunklab.parsing.blocks import Block, explicit_headings, parse_blocks, with_explicit_headings
from chunklab.parsing.sections import Outline, Section, build_outline
from chunklab.retrieval.index import MemoryStore, ParentChildIndex
from chunklab.retrieval.retrievers import (
    RETRIEVERS,
    BM25Retriever,
    DenseRetriever,
    HybridRetriever,
    LogCountRetriever,
    OverlapRetriever,
    Retriever,
)
from chunklab.retrieval.sqlite_store import SQLiteStore
from chunklab.tokens.counters import (
    COUNTERS,
    TokenCounter,
    TokenizerUnavailable,
    approx_tokens,
    cl100k,
    get_counter,
    word_count,
)
from chunklab.version import __version__

__all__ = [
    "BM25Retriever",
    "Block",
    "COUNTERS",
    "Chunk",
    "Chunker",
    "CodeChunker",
    "Contract",
    "DenseRetriever",
    "Document",
    "DocumentError",
    "Embedder",
    "FixedSizeChunker",
    "HashingEmbedder",
    "HybridRetriever",
    "LinearizedChunker",
    "LogCountRetriever",
    "MarkdownChunker",
    "MemoryStore",
    "Outline",
    "OverlapRetriever",
    "ParentChildIndex",
    "Question",
    "QuestionSet",
    "RETRIEVERS",
    "Retriever",
    "SQLiteStore",
    "STRATEGIES",
    "ScoreSource",
    "Scored",
    "Section",
    "SemanticChunker",
    "Strategy",
    "StructuralChunker",
    "TokenCounter",
    "TokenizerUnavailable",
    "WordLlamaEmbedder",
    "__version__",
    "approx_tokens",
    "build_outline",
    "cl100k",
    "explicit_headings",
    "get_counter",
    "list_documents",
    "load_document",
    "load_questions",
    "parse_blocks",
    "read_document",
    "with_explicit_headings",
    "word_count",
]
