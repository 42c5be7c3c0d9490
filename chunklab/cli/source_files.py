"""What `chunk` and `index` do with source files, and the lines they say about them.

Which files a folder gives depends on the strategy (`suffixes_for`): `--strategy code` reads source
files (`parsing.languages.CODE_SUFFIXES`) and every other strategy reads documents, as before
source files were readable at all, so a team's `chunklab index docs/` indexes what it always did
(`documents.files` says why). Files one strategy passes over that another reads are counted as
before, and the line says which flag reads them (`passed_over_hint`).

A file named on the command line is read whatever its suffix, and said once when it is not cut
the way its name suggests (`say_how_cut`): a Markdown page, a `.cfg` or standard input given to
`--strategy code` is cut between lines as text (`CodeChunker`'s fallback: nothing is lost, but
there is no syntax tree); a `.py` given to another strategy is cut as prose. A file with syntax
errors still chunks (tree-sitter recovers around them), so it is one line naming the file and the
lines, and the exit code stays 0 (`say_syntax_errors`): a tree with one half-edited or Python 2
file should index the rest and say so, not fail the run; the chunks that hold an error say
`syntax_errors`.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import PurePath

from chunklab.cli.parser import UsageError
from chunklab.cli.terminal import warn
from chunklab.contracts import Chunk
from chunklab.documents.files import (
    DOCUMENT_SUFFIXES,
    SOURCE_SUFFIXES,
    FoundDocuments,
    readable_suffixes,
)
from chunklab.parsing.languages import language_for

CODE_STRATEGY = "code"
STDIN = "-"
MAX_LINES_NAMED = 10  # a file broken everywhere: its first error lines, then how many more


def suffixes_for(strategy: str) -> tuple[str, ...]:
    """The suffixes of the files a folder gives to `strategy`: source files for code, else
    documents."""
    return SOURCE_SUFFIXES if strategy == CODE_STRATEGY else DOCUMENT_SUFFIXES


def passed_over(found: FoundDocuments, strategy: str) -> dict[str, str]:
    """`say_passed_over`'s words for `strategy`: what the files read are, and the hint."""
    kind = "source code chunklab parses" if strategy == CODE_STRATEGY else None
    return {"hint": passed_over_hint(found, strategy)} | ({"kind": kind} if kind else {})


def passed_over_hint(found: FoundDocuments, strategy: str) -> str:
    """The flag that reads files `strategy` passed over, when some of them are of that kind;
    "" when none is."""
    passed = set(found.other_types)
    if strategy == CODE_STRATEGY and passed & set(DOCUMENT_SUFFIXES):
        return "documents are read without --strategy code"
    if strategy != CODE_STRATEGY and passed & set(SOURCE_SUFFIXES):
        return "use --strategy code for source files"
    return ""


def no_documents(found: FoundDocuments, paths: Sequence[str], strategy: str) -> UsageError:
    """The one line for folders with nothing `strategy` reads, with the flag that reads what
    they hold."""
    hint = passed_over_hint(found, strategy)
    what = "source files" if strategy == CODE_STRATEGY else "documents"
    return UsageError(
        f"no {what} ({readable_suffixes(suffixes_for(strategy))}) found in {', '.join(paths)}"
        + (f"; {hint}" if hint else "")
    )


def _name(path: str) -> str:
    return "<stdin>" if path == STDIN else path


def _kind(path: str) -> str:
    if path == STDIN:
        return "standard input"
    return PurePath(path).suffix.lower() or "a file without a suffix"


def say_how_cut(documents: Iterable[tuple[str, str]], args: argparse.Namespace) -> None:
    """One line for the files named that the strategy does not cut as their name suggests (see
    the module docstring); nothing when every file is cut as it should be."""
    paths = [path for _, path in documents]
    if args.strategy == CODE_STRATEGY:
        if getattr(args, "language", None) is not None:  # every file parsed in that language
            return
        plain = [p for p in paths if p == STDIN or language_for(p) is None]
        if len(plain) == 1:
            name, kind = _name(plain[0]), _kind(plain[0])
            more = "; --language names its grammar" if plain[0] == STDIN else ""
            warn(f"{name}: no grammar for {kind}: cut between lines as text{more}")
        elif plain:
            kinds = ", ".join(
                f"{n} {kind}" for kind, n in sorted(Counter(map(_kind, plain)).items())
            )
            warn(f"{len(plain)} files with no grammar ({kinds}): cut between lines as text")
        return
    code = [p for p in paths if p != STDIN and language_for(p) is not None]
    if len(code) == 1:
        warn(f"{code[0]}: source code cut as prose; --strategy code cuts it between definitions")
    elif code:
        warn(
            f"{len(code)} source files cut as prose; --strategy code cuts them between definitions"
        )


def say_syntax_errors(path: str, chunks: Iterable[Chunk]) -> None:
    """One line when some of a file's chunks hold syntax errors: the file and the lines."""
    lines = sorted({line for c in chunks for line in c.metadata.get("syntax_errors", ())})
    if not lines:
        return
    shown = ", ".join(map(str, lines[:MAX_LINES_NAMED]))
    more = f" and {len(lines) - MAX_LINES_NAMED} more" if len(lines) > MAX_LINES_NAMED else ""
    word = "line" if len(lines) == 1 else "lines"
    warn(
        f"{_name(path)}: syntax errors on {word} {shown}{more}: chunked around them "
        "(their chunks say syntax_errors)"
    )


def saying_syntax_errors(path: str, chunks: Iterable[Chunk]) -> Iterator[Chunk]:
    """`chunks` as they come, then `say_syntax_errors` for them: for output written as it is
    cut."""
    seen: list[Chunk] = []
    for chunk in chunks:
        if chunk.metadata.get("syntax_errors"):
            seen.append(chunk)
        yield chunk
    say_syntax_errors(path, seen)
