"""An HTML file's bytes to text, as a browser decodes them.

A page on disk has no HTTP header, so a browser goes by the bytes (the WHATWG encoding sniffing
algorithm): a byte-order mark first; then a `<meta charset="...">` or `<meta http-equiv=
"Content-Type" content="text/html; charset=...">` in the first 1024 bytes, its label read through
the WHATWG table (`iso-8859-1` and `latin1` mean windows-1252, as every browser reads them;
`webencodings`, html5lib's own dependency, holds the table); then a guess. Refusing anything but
UTF-8 turned away pages a browser shows: "not valid UTF-8" for a page that says it is ISO-8859-1.

The guess: UTF-8 when the bytes are valid UTF-8, else what `charset-normalizer` (MIT, pinned in
pyproject.toml and environment.yml; it reads the bytes only, never the network) finds, else
windows-1252, a browser's default for Western pages. A guess is never silent: it is a line of the
document's `conversion_warnings`, and so is every byte the encoding has no character for (shown as
U+FFFD, as a browser shows it).
"""

from __future__ import annotations

import re
from pathlib import Path

from chunklab.documents.files import bom_encoding, decode_text

PRESCAN_BYTES = 1024  # where a browser looks for `<meta charset>`
_COMMENT = re.compile(rb"<!--.*?(?:-->|$)", re.S)  # a <meta> inside a comment declares nothing
_META = re.compile(rb"<meta[\s/]([^>]*)", re.I)
_ATTRIBUTE = re.compile(rb"""([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?""")
_CHARSET_IN_CONTENT = re.compile(rb"""charset\s*=\s*["']?([^\s;"']+)""", re.I)
FALLBACK = "windows-1252"


def _attributes(meta: bytes) -> dict[bytes, bytes]:
    """A `<meta>` tag's attributes, names lower-cased; the first of a repeated name wins."""
    found: dict[bytes, bytes] = {}
    for match in _ATTRIBUTE.finditer(meta):
        value = next((v for v in match.groups()[1:] if v is not None), b"")
        found.setdefault(match.group(1).lower(), value)
    return found


def declared_encoding(raw: bytes) -> tuple[str, str] | None:
    """(the Python codec of the encoding a `<meta>` in the first 1024 bytes declares, its label
    as written); None when none declares a label the WHATWG table knows."""
    import webencodings

    head = _COMMENT.sub(b"", raw[:PRESCAN_BYTES])
    for meta in _META.finditer(head):
        attributes = _attributes(meta.group(1))
        label = attributes.get(b"charset")
        if label is None and attributes.get(b"http-equiv", b"").lower() == b"content-type":
            in_content = _CHARSET_IN_CONTENT.search(attributes.get(b"content", b""))
            label = in_content.group(1) if in_content else None
        if label is None:
            continue
        written = label.decode("ascii", "replace").strip()
        encoding = webencodings.lookup(written)
        if encoding is None:  # an unknown label: a browser goes on looking
            continue
        name = encoding.name
        if name in ("utf-16be", "utf-16le"):  # bytes read as ASCII cannot be UTF-16
            name = "utf-8"
        elif name == "x-user-defined":
            name = FALLBACK
        return webencodings.lookup(name).codec_info.name, written
    return None


def _decoded(raw: bytes, encoding: str, why: str) -> tuple[str, list[str]]:
    """`raw` in `encoding`; bytes it has no character for become U+FFFD, counted in a warning."""
    try:
        return raw.decode(encoding), []
    except UnicodeDecodeError:
        text = raw.decode(encoding, errors="replace")
        bad = text.count("\ufffd") - raw.decode(encoding, errors="ignore").count("\ufffd")
        return text, [
            f"{bad} byte sequence(s) not valid {encoding} ({why}), shown as U+FFFD as a "
            "browser shows them"
        ]


def decode_html(raw: bytes, path: str | Path) -> tuple[str, list[str]]:
    """(the page's text, warnings): decoded by its byte-order mark, its `<meta>` declaration, or
    a guess (see the module docstring); a guess and any undecodable byte are warnings."""
    if bom_encoding(raw):
        return decode_text(raw, path), []
    declared = declared_encoding(raw)
    if declared is not None:
        codec, label = declared
        return _decoded(raw, codec, f'declared by <meta> as "{label}"')
    try:
        return raw.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(raw).best()
    guess = best.encoding if best is not None else FALLBACK
    text, warnings = _decoded(raw, guess, "guessed")
    how = "as charset-normalizer detected" if best is not None else "a browser's default"
    return text, [
        f"no charset declared and not UTF-8: decoded as {guess} ({how})",
        *warnings,
    ]
