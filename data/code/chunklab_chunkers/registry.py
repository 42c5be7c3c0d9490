"""Every chunking strategy, declared once: its name, class, the options it reads, one line of help.

The CLI (`chunk --strategy`, `index --strategy`), the experiment, the index and the tests all read
`STRATEGIES`; none of them lists strategies of its own. A new chunker joins with one `Strategy(...)`
line below, and from then on the CLI offers it, the index can build with it, and the tests that run
over every strategy (contracts, determinism, same chunks) cover it.

An option is declared once too (`OPTIONS`): its default, its help, and how a command-line value
becomes the chunker's keyword (a counter's name becomes the counter, an embedder's name the
embedder). A strategy reads only the options it names; `Strategy.build` refuses any other, so a
flag the chosen strategy would ignore is an error, never silently dropped.

Why a plain table and not a decorator on each class: the registry then imports the chunkers, and
no chunker imports the registry, so the dependencies run one way and the list is complete as soon
as this module is imported.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from chunklab.chunkers.code import CodeChunker
from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.recursive import RecursiveChunker
from chunklab.chunkers.semantic import SemanticChunker
from chunklab.chunkers.structural import StructuralChunker
from chunklab.chunkers.tables import LinearizedChunker
from chunklab.chunkers.tokentext import TokenTextChunker
from chunklab.contracts import Chunker
from chunklab.embeddings.registry import EMBEDDERS
from chunklab.parsing.languages import BY_NAME
from chunklab.tokens.counters import COUNTERS, get_counter


@dataclass(frozen=True)
class Option:
    """One option a strategy may read, as the command line offers it."""

    default: Any  # None: the chunker's own default (the keyword is not passed)
    help: str
    type: Callable[[str], Any] | None = None  # how argparse reads the value
    choices: tuple[str, ...] | None = None
    keyword: str | None = None  # the chunker's keyword, when it is not the option's name
    make: Callable[[Any], Any] | None = None  # from the value given to what the chunker takes


OPTIONS: dict[str, Option] = {
    "max_tokens": Option(200, "hard token budget of a chunk", type=int),
    "size": Option(200, "window or piece size, in characters unless --unit tokens", type=int),
    "overlap": Option(40, "window overlap", type=int),
    "unit": Option("chars", "what --size and --overlap count", choices=("chars", "tokens")),
    "counter": Option(
        None,
        "token counter for token_count",
        choices=tuple(sorted(COUNTERS)),
        keyword="count_tokens",
        make=get_counter,
    ),
    "prefix": Option(
        "path", "what heads each chunk, inside the budget", choices=("path", "none", "context")
    ),
    "table_mode": Option(
        "rows", "how a table too big for the budget is cut", choices=("rows", "linearize", "whole")
    ),
    "embedder": Option(
        "wordllama",
        "sentence embedder",
        choices=tuple(sorted(EMBEDDERS)),
        make=lambda name: EMBEDDERS[name](),
    ),
    "semantic_unit": Option(
        "sentence", "what is embedded", choices=("sentence", "line"), keyword="unit"
    ),
    "breakpoint": Option(
        "percentile",
        "where similarity drops enough to cut",
        choices=("threshold", "percentile", "stdev"),
    ),
    "threshold": Option(
        0.6, "similarity below which to cut, with --breakpoint threshold", type=float
    ),
    "percentile": Option(
        80.0, "distances above this percentile are cuts, with --breakpoint percentile", type=float
    ),
    "length": Option(
        "cl100k",
        "what --size and --overlap count: cl100k tokens, MiniLM word pieces ([CLS] and [SEP] "
        "included) or GPT-2's r50k tokens (needs openai-whisper's copy of the vocabulary)",
        choices=("cl100k", "minilm", "r50k"),
    ),
    "language": Option(
        None,
        "the grammar source code is parsed with (default: from the file's suffix)",
        choices=tuple(BY_NAME),
    ),
    "partition": Option(
        "greedy",
        "greedy: cut gap by gap; optimal: the best split under the budget",
        choices=("greedy", "optimal"),
    ),
}


class UnknownOption(ValueError):
    """An option the chosen strategy does not read; the message names the strategies that do."""


@dataclass(frozen=True)
class Strategy:
    """A named way to cut: which class, which options it reads, and what it is for."""

    name: str
    chunker: type
    options: tuple[str, ...]
    help: str
    fixed: Mapping[str, Any] = field(default_factory=dict)  # keywords this name always passes

    def build(self, **given: Any) -> Chunker:
        """The chunker, from option values (the defaults of `OPTIONS` for those not given)."""
        unknown = [name for name in given if name not in self.options]
        if unknown:
            raise UnknownOption(
                f"--{unknown[0].replace('_', '-')} does not apply to --strategy {self.name} "
                f"(it applies to: {used_by(unknown[0])})"
            )
        keywords = dict(self.fixed)
        for name in self.options:
            option = OPTIONS[name]
            value = given.get(name, option.default)
            if value is not None:
                keywords[option.keyword or name] = option.make(value) if option.make else value
        return self.chunker(**keywords)


def declare(*strategies: Strategy) -> dict[str, Strategy]:
    """The registry from its declarations; a repeated name or an undeclared option is a bug here."""
    registry: dict[str, Strategy] = {}
    for strategy in strategies:
        if strategy.name in registry:
            raise ValueError(f"strategy {strategy.name!r} is declared twice")
        undeclared = [o for o in strategy.options if o not in OPTIONS]
        if undeclared:
            raise ValueError(
                f"strategy {strategy.name!r} reads undeclared options: {', '.join(undeclared)}"
            )
        registry[strategy.name] = strategy
    return registry


STRATEGIES: dict[str, Strategy] = declare(
    Strategy(
        "markdown",
        MarkdownChunker,
        ("max_tokens", "counter", "prefix", "table_mode"),
        "breadcrumb + whole Markdown blocks within a hard token budget (notebooks 02, 03)",
    ),
    Strategy(
        "fixed",
        FixedSizeChunker,
        ("size", "overlap", "unit", "counter"),
        "fixed-size windows by characters or tokens, with overlap (notebook 01)",
    ),
    Strategy(
        "structural",
        StructuralChunker,
        ("size", "counter"),
        "the article's recursive split at paragraphs, lines, sentences, words (notebook 02)",
        fixed={"repack": False},
    ),
    Strategy(
        "structural-repack",
        StructuralChunker,
        ("size", "counter"),
        "the recursive split, small neighbours packed back together up to the size (notebook 02)",
        fixed={"repack": True},
    ),
    Strategy(
        "semantic",
        SemanticChunker,
        (
            "max_tokens",
            "counter",
            "embedder",
            "semantic_unit",
            "breakpoint",
            "threshold",
            "percentile",
            "partition",
        ),
        "cuts where neighbouring sentences stop resembling each other (notebook 04)",
    ),
    Strategy(
        "linearized",
        LinearizedChunker,
        ("size", "counter"),
        "tables rewritten row by row as 'header: value' lines, then cut (notebook 05)",
    ),
    Strategy(
        "code",
        CodeChunker,
        ("max_tokens", "counter", "language"),
        "source code cut between syntax-tree nodes, scope path as breadcrumb (notebook 11)",
    ),
    Strategy(
        "recursive",
        RecursiveChunker,
        ("size", "overlap", "length"),
        "Chroma's benchmark: LangChain's recursive splitter, size and overlap in --length tokens",
    ),
    Strategy(
        "tokentext",
        TokenTextChunker,
        ("size", "overlap", "length"),
        "Chroma's benchmark: windows of --size tokens of --length, decoded (LangChain TokenText)",
    ),
)
"""Every strategy by its name, declared once: the CLI's `--strategy` and its options, the
experiment and the index all read this, so a strategy added here is everywhere at once."""
DEFAULT_STRATEGY = "markdown"  # the series' recommendation (notebook 07); fixed is one flag away


def used_by(option: str) -> str:
    """The strategies that read an option, for help texts and errors: "markdown, semantic"."""
    return ", ".join(s.name for s in STRATEGIES.values() if option in s.options)


def build(name: str, **options: Any) -> Chunker:
    """`STRATEGIES[name].build(**options)`, with a clear error for an unknown name."""
    if name not in STRATEGIES:
        raise KeyError(f"unknown strategy {name!r} (known: {', '.join(STRATEGIES)})")
    return STRATEGIES[name].build(**options)
