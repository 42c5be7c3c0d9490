"""Which files are documents, and turning a file's bytes into text.

The suffixes chunklab reads are declared here once: the CLI's help and errors, `find_documents` and
`read_document` all read them from this module. `DocumentError` is the one error for a file that
cannot become a `Document`; its message starts with the file's name.

Source files (`parsing.languages.CODE_SUFFIXES`, the one table of them) are plain UTF-8 text, read
as `.txt` is, but a folder's source files are documents only when the caller asks for them
(`find_documents(..., suffixes=SOURCE_SUFFIXES)`: the CLI does with `--strategy code`). Were they
documents always, `chunklab index docs/` would start indexing the scripts beside a team's pages,
cut as Markdown, with no flag changed: every existing index would change under its owners. And
the code strategy reads source files only, not the Markdown beside them: each strategy reads what
it is made for, and two runs into one index file (`docs/` by headings, `src/` by syntax tree) never
take each other's files. A file named on the command line is read whatever its suffix, as before.
"""

from __future__ import annotations

import codecs
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from chunklab.parsing.languages import CODE_SUFFIXES


class DocumentError(ValueError):
    """A file that cannot become a `Document`. The message starts with the file's name."""


TEXT_SUFFIXES = (".md", ".markdown", ".txt")  # read as they are
CONVERTED_SUFFIXES = (".html", ".htm", ".docx", ".pdf")  # converted to Markdown first
DOCUMENT_SUFFIXES = (*TEXT_SUFFIXES, *CONVERTED_SUFFIXES)
SOURCE_SUFFIXES = CODE_SUFFIXES  # source code, plain UTF-8 text: documents only when asked for
# Formats a user may reasonably try that are not converted: said at once, rather than read as
# text (a .pptx starts "PK", which is valid UTF-8) or skipped without a word.
REFUSED_SUFFIXES = (
    ".doc",
    ".rtf",
    ".odt",
    ".ppt",
    ".pptx",
    ".odp",
    ".xls",
    ".xlsx",
    ".ods",
    ".epub",
    ".zip",
    ".png",
    ".jpg",
    ".jpeg",
    ".gif",
    ".tif",
    ".tiff",
)


def readable_suffixes(suffixes: Sequence[str] = DOCUMENT_SUFFIXES) -> str:
    """The suffixes chunklab reads, for help texts and error messages: ".md, .markdown, ..."."""
    return ", ".join(suffixes)


# Byte-order marks: they say how the bytes are encoded, and are not part of the text.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def bom_encoding(raw: bytes) -> str | None:
    """The encoding a byte-order mark at the start of `raw` names; None when there is none."""
    return next((name for bom, name in _BOMS if raw.startswith(bom)), None)


def decode_text(raw: bytes, path: str | Path) -> str:
    """UTF-8 (a BOM dropped), or UTF-16/32 when a BOM says so; anything else is a `DocumentError`.

    Editors on Windows save "Unicode" text as UTF-16 with a BOM; it is read, not refused. Without
    a BOM there is no safe way to tell other encodings apart, so the error names the byte.
    """
    encoding = bom_encoding(raw) or "utf-8"
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        where = f"byte 0x{raw[exc.start]:02x} at offset {exc.start}"
        if encoding == "utf-8":
            raise DocumentError(f"{path}: not valid UTF-8 ({where})") from None
        raise DocumentError(
            f"{path}: starts with a {encoding.upper()} byte-order mark but is not valid "
            f"{encoding.upper()} ({where})"
        ) from None


class FoundDocuments(NamedTuple):
    documents: list[tuple[str, Path]]  # (doc_id, path), sorted
    other_types: dict[
        str, int
    ]  # suffix ("" for none) -> how many files of that type were passed over
    hidden: int  # files under a hidden folder (.git) or hidden themselves, passed over
    outside: int  # links inside a folder to files outside it, passed over (unless followed)


def _files_below(folder: Path) -> list[Path]:
    """Every file below `folder`, through symbolic links to folders too (each real folder once, so
    a link cycle ends), sorted. `Path.rglob` in Python 3.11 does not enter a linked folder at all,
    which would skip its files without a word."""
    files: list[Path] = []
    seen: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=True):
        real = os.path.realpath(dirpath)
        if real in seen:
            dirnames[:] = []
            continue
        seen.add(real)
        files.extend(
            Path(dirpath, name) for name in filenames if os.path.isfile(os.path.join(dirpath, name))
        )
    return sorted(files)


def _doc_id(relative: Path, suffixes: Sequence[str]) -> str:
    """`relative` without its suffix (`policies/travel`), but with it for a source file read as
    source code (`pkg/util.py`; see `find_documents`)."""
    code = relative.suffix.lower() in CODE_SUFFIXES and relative.suffix.lower() in suffixes
    return relative.as_posix() if code else relative.with_suffix("").as_posix()


def find_documents(
    paths: Sequence[str | Path],
    follow_links: bool = False,
    suffixes: Sequence[str] = DOCUMENT_SUFFIXES,
) -> FoundDocuments:
    """The documents named, or found below the named folders (the files whose suffix is one of
    `suffixes`: documents by default, `SOURCE_SUFFIXES` for source code), and a count of every
    other file passed over, so a caller can say what it did not index.

    A symbolic link inside a folder that leads out of it (to a file, or to a folder holding some)
    is not followed unless `follow_links`: indexing `docs/` should not quietly index `~/.ssh`.

    A file's doc_id is its path relative to the folder it was found in, without the extension
    (`policies/travel`), so two `README.md` in different folders do not collide and no absolute path
    reaches an id; files that differ only by extension (the same report as .docx and .pdf) keep it
    (`reports/q3.docx`, `reports/q3.pdf`). A path that does not exist is a `DocumentError` naming
    it. A source file read as code keeps its suffix in its id (`pkg/util.py`): a module beside
    its stub (`util.py`, `util.pyi`) or `index.js` beside `index.ts` is common, and without the
    suffix its id would be that of the page `util.md` which another run indexes by headings.
    """
    found: list[tuple[str, Path]] = []
    other_types: dict[str, int] = {}
    hidden = outside = 0
    for given in map(Path, paths):
        if given.is_dir():
            root = given.resolve()
            for path in _files_below(given):
                relative = path.relative_to(given)
                if any(part.startswith(".") for part in relative.parts):
                    hidden += 1
                elif not follow_links and not path.resolve().is_relative_to(root):
                    outside += 1
                elif path.suffix.lower() in suffixes:
                    found.append((_doc_id(relative, suffixes), path))
                else:
                    other_types[path.suffix.lower()] = other_types.get(path.suffix.lower(), 0) + 1
        elif given.is_file():
            found.append((_doc_id(Path(given.name), suffixes), given))
        else:
            raise DocumentError(f"{given}: no such file or folder")
    # The same document in two formats (report.docx beside report.pdf) keeps its extension in the
    # id.
    twins = {i for i, n in Counter(doc_id for doc_id, _ in found).items() if n > 1}
    found = [
        (f"{doc_id}{path.suffix.lower()}" if doc_id in twins else doc_id, path)
        for doc_id, path in found
    ]
    repeated = sorted(i for i, n in Counter(doc_id for doc_id, _ in found).items() if n > 1)
    if repeated:
        raise DocumentError(
            f"{', '.join(repeated)}: two files would get the same document id; "
            "index them separately"
        )
    return FoundDocuments(found, dict(sorted(other_types.items())), hidden, outside)
