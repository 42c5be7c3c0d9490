"""The `chunklab` command: `chunk` (a file's chunks as JSON lines, CSV or Parquet), `index`,
`search` and `tenants` (small-to-big over SQLite), `experiment` (strategies x retrievers on your
questions), `benchmark` (a strategy on Chroma's chunking benchmark).

A user mistake (a missing file, bad UTF-8, an unknown strategy, a bad number, a flag the chosen
strategy would ignore) ends with exit code 2 and one line on stderr that names the problem.
Tracebacks are for bugs, not for typos. A file that cannot be converted or chunked is named in one
line and skipped, the run goes on, and the exit code is 2 at the end; Ctrl-C is one line (what was
finished) and exit code 130; SIGTERM likewise, exit code 143.

- `parser`: the argument parser, each command's arguments and example, the strategy options,
  `UsageError`
- `terminal`: what the commands say on stderr besides their output (warnings, a progress bar)
- `chunking`: `chunklab chunk`, the chunks of files, folders or standard input on stdout
- `formats`: the formats `chunk` writes: JSON lines, CSV, Parquet (pyarrow, the parquet extra)
- `indexing`: `chunklab index`, documents into an SQLite file (and `--prune`)
- `source_files`: which files a folder gives each strategy (source files to `--strategy code`),
  and the lines said about them
- `searching`: `chunklab search` and `chunklab tenants`, reading an index file
- `experimenting`: `chunklab experiment`, strategies x retrievers on a folder and its questions
- `benchmarking`: `chunklab benchmark`, a strategy on Chroma's chunking benchmark
- `commands`: `main`, which runs each command and turns a user's mistake into exit code 2

May import: every other folder of chunklab; nothing imports it.
"""

from chunklab.cli.commands import COMMANDS, main
from chunklab.cli.parser import USAGE_ERROR, UsageError, build_parser

__all__ = ["COMMANDS", "USAGE_ERROR", "UsageError", "build_parser", "main"]
