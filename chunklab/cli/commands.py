"""`main`: the parsed command run by its function, and a user's mistake (a `UsageError`, a file
that cannot be read, a missing tokenizer or embedder, a bad index or question file) turned into
one line on stderr and exit code 2; Ctrl-C into one line (what was finished) and exit code 130,
SIGTERM likewise with exit code 143."""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Callable, Sequence

from chunklab.cli.benchmarking import BenchmarkError, run_benchmark
from chunklab.cli.chunking import run_chunk
from chunklab.cli.experimenting import run_experiment_command
from chunklab.cli.indexing import run_index
from chunklab.cli.parser import USAGE_ERROR, UsageError, build_parser
from chunklab.cli.searching import run_search, run_tenants
from chunklab.cli.terminal import (
    Interrupted,
    exit_code_of,
    sigterm_as_ctrl_c,
    stopped_by,
    warn,
)
from chunklab.documents.files import DocumentError
from chunklab.embeddings.static import EmbedderUnavailable
from chunklab.evaluation.questions import QuestionFileError
from chunklab.retrieval.index_file import IndexFileError
from chunklab.tokens.counters import TokenizerUnavailable

COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "chunk": run_chunk,
    "index": run_index,
    "search": run_search,
    "tenants": run_tenants,
    "experiment": run_experiment_command,
    "benchmark": run_benchmark,
}

# What Ctrl-C leaves behind, per command that does not say it itself (`index` does).
INTERRUPTED_HOW = {
    "chunk": "the chunks printed so far are whole lines; run the same command again for all",
    "search": "nothing was changed",
    "tenants": "nothing was changed",
    "experiment": "the experiment keeps no partial results (nothing more was written); "
    "run the same command again to start it over",
    "benchmark": "nothing was written",
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = None
    try:
        args = parser.parse_args(argv)
        if args.command is None:  # bare `chunklab`: say what it can do
            parser.print_help()
            return 0
        with sigterm_as_ctrl_c():  # `kill`, a CI timeout: the same one line as Ctrl-C
            return COMMANDS[args.command](args)
    except (
        UsageError,
        DocumentError,
        TokenizerUnavailable,
        IndexFileError,
        EmbedderUnavailable,
        QuestionFileError,
        BenchmarkError,
    ) as exc:
        print(f"chunklab: error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    except sqlite3.Error as exc:  # the index file failed under us (locked, read-only, disk full)
        print(f"chunklab: error: {getattr(args, 'db', 'the index file')}: {exc}", file=sys.stderr)
        return USAGE_ERROR
    except Interrupted as exc:  # the command said what it had finished
        warn(str(exc))
        return exc.exit_code
    except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM (`Terminated`)
        command = str(getattr(args, "command", "") or "")
        warn(f"{stopped_by(stop)}: {INTERRUPTED_HOW.get(command, 'nothing done')}")
        return exit_code_of(stop)
    except BrokenPipeError:
        # `chunklab chunk big.md | head` closes the pipe early; that is not an error.
        sys.stderr.close()
        return 0
