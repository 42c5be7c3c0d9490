"""Companion 03e's exercise 03e.2: write the fingerprint a refresh compares, one that takes in
everything a document's chunks are made from, and the slips it names.

Why a check of its own: a fingerprint is right when it changes on every change that moves the
chunks and on nothing else, and each plausible shortcut is right on most pairs: the text alone
(the content hash) misses a new setting, the two settings the notebook's `with_settings` reads
miss any third, `str(settings)` depends on the order the settings were written in, and gluing the
values together with no separator gives two different settings one fingerprint. The pairs below
are built here, none of them shown in the notebook, and each slip fails on one of them. Python's
built-in `hash()` passes every pair in one process but changes between runs, so a call to it is
refused by name, and so is a fingerprint that reads the settings in set order
(`str(frozenset(settings.items()))`): it is run twice with the setting names hashed two ways, as
two runs of Python with different PYTHONHASHSEED hash them, and must come out the same; strings
built inside the function (a set of ``f"{k}={v}"``) escape that, so a set built and never sorted
is refused from the function's code. A value
made once when Python starts (a random salt) is refused when the function reads it as a global.
"""

from __future__ import annotations

import dis
import hashlib
import re
import sys
import uuid
from collections.abc import Callable

from chunklab.contracts import Document
from chunklab.retrieval.ingest import document_fingerprint
from chunklab.teaching.checking import NotYet, run_without, short

Settings = dict[str, object]


def _doc(text: str, title: str = "Travel Policy") -> Document:
    return Document(doc_id="policy", uri="policy.md", title=title, text=text)


BASE = _doc("Per diem: Tokyo 95 USD.\n")
SET = {"strategy": "markdown", "max_tokens": 45, "counter": "approx_tokens", "prefix": True}

# (doc, settings, other doc, other settings, must the two fingerprints be equal?, hint when not so)
PAIRS: list[tuple[Document, Settings, Document, Settings, bool, str]] = [
    (
        BASE,
        SET,
        _doc(BASE.text),
        dict(SET),
        True,
        "the same document and settings gave two fingerprints: build it only from the text, the "
        "title and the settings (no clock, no random, no id())",
    ),
    (
        BASE,
        SET,
        BASE,
        dict(reversed(list(SET.items()))),
        True,
        "the same settings written in another order gave another fingerprint: sort the settings "
        "by name before you read them",
    ),
    (
        BASE,
        SET,
        BASE.model_copy(update={"metadata": {"owner": "finance"}}),
        SET,
        True,
        "a new metadata value gave another fingerprint: leave the metadata out; the prefix "
        '("prefix": True, 06\'s) writes the title into every chunk but no metadata, so a '
        "metadata change moves no chunk",
    ),
    (
        BASE,
        SET,
        _doc("Per diem: Tokyo 90 USD.\n"),
        SET,
        False,
        "a new text left it the same: the text (or its content_hash) must be in it",
    ),
    (
        BASE,
        SET,
        BASE,
        {**SET, "max_tokens": 60},
        False,
        "a new max_tokens left it the same: the settings are not in it",
    ),
    (
        BASE,
        SET,
        BASE,
        {**SET, "strategy": "fixed"},
        False,
        "a new strategy left it the same: read every setting, not only max_tokens and the counter "
        "(the two with_settings reads)",
    ),
    (
        BASE,
        SET,
        BASE,
        {**SET, "prefix": False},
        False,
        "a new prefix setting left it the same: read every setting, whatever its name",
    ),
    (
        BASE,
        SET,
        BASE,
        {**SET, "overlap": 5},
        False,
        "a setting added (overlap) left it the same: every setting must be in it",
    ),
    (
        BASE,
        SET,
        _doc(BASE.text, title="Travel Policy 2025"),
        SET,
        False,
        'a new title left it the same: the prefix ("prefix": True, 06\'s) writes the title '
        'into every chunk ("From Travel Policy, ..."), so it must be in it too',
    ),
    (
        BASE,
        {"max_tokens": 45, "overlap": 5},
        BASE,
        {"max_tokens": 4, "overlap": 55},
        False,
        "two different settings gave one fingerprint: keep each setting's name with its value and "
        "a separator between them (45 and 5 glued together read as 4 and 55)",
    ),
    (
        BASE,
        {"window": 0, "prefix": False},
        BASE,
        {},
        False,
        "settings whose values are 0 and False left it as if there were none: keep every setting, "
        "whatever its value (an `if v` drops 0, False and the empty string)",
    ),
    (
        BASE,
        {"window": 0},
        BASE,
        {"overlap": 0},
        False,
        "two settings with other names but the same value gave one fingerprint: put each "
        "setting's name in it, not its value alone",
    ),
    (
        _doc("Policy text", title="Travel"),
        SET,
        _doc(" text", title="TravelPolicy"),
        SET,
        False,
        "a title and text that differ gave one fingerprint: keep a separator between the title "
        "and the text (or hash each on its own)",
    ),
    (
        _doc("Per diem ", title="Travel Policy"),
        SET,
        _doc("Per diem Travel", title=" Policy"),
        SET,
        False,
        "a title and text that differ gave one fingerprint: keep a separator between the text "
        "and the title (or hash each on its own)",
    ),
    (
        BASE,
        {"window": 10},
        BASE,
        {"window1": 0},
        False,
        "two different settings gave one fingerprint: keep a separator between each setting's "
        "name and its value (window and 10 glued together read as window1 and 0)",
    ),
]

SALTED = (
    "your function calls Python's built-in hash(): for a str it changes from one run of Python "
    "to the next (PYTHONHASHSEED), so the fingerprint stored in the file never matches on the "
    "next run and every document is chunked again; use hashlib (e.g. sha256) or the joined text"
)


def _calls_builtin_hash(fn: Callable) -> bool:
    """Whether `fn(BASE, SET)` calls the built-in hash(), seen as a C call by the profiler."""
    seen: list[bool] = []
    previous = sys.getprofile()

    def profile(frame: object, event: str, arg: object) -> None:
        if event == "c_call" and arg is hash:
            seen.append(True)

    sys.setprofile(profile)
    try:
        fn(BASE, dict(SET))
    except Exception:  # a function that raises is refused by the pairs below, with their hint
        pass
    finally:
        sys.setprofile(previous)
    return bool(seen)


class _Name(str):
    """A setting name hashed with a salt, as another run of Python (PYTHONHASHSEED) hashes it."""

    salt = b""

    def __hash__(self) -> int:
        return int.from_bytes(hashlib.blake2b(self.salt + self.encode(), digest_size=8).digest())


def _named(salt: bytes) -> Settings:
    name = type("Name", (_Name,), {"salt": salt})
    return {name(key): name(v) if isinstance(v, str) else v for key, v in SET.items()}


UNSTABLE = (
    "your fingerprint changed when the setting names were hashed another way, as the next run of "
    "Python hashes them (PYTHONHASHSEED): a set or frozenset (e.g. str(frozenset(settings."
    "items()))) lists its items in hash order; sort the settings by name instead"
)
SALT = (
    "your function reads {name} = {value}, made once when this Python started (a random salt, "
    "uuid4(), the time): on the next run it differs, and so does every stored fingerprint; "
    "build it from the document and the settings alone"
)
# uuid4() and its .hex, token_hex(8) or longer, token_urlsafe(12) or longer (mixed case with
# digits); a date such as "2024-06-01", a version tag or a readable name is a constant a correct
# answer may keep, and passes
_UUID_OR_HEX = re.compile(r"[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}|[0-9a-fA-F]{16,}")
_URLSAFE = re.compile(r"[A-Za-z0-9_-]{16,}")


def _random_looking(text: str) -> bool:
    if _UUID_OR_HEX.fullmatch(text):
        return any(map(str.isdigit, text))
    mixed = any(map(str.islower, text)) and any(map(str.isupper, text))
    return bool(_URLSAFE.fullmatch(text)) and mixed and sum(map(str.isdigit, text)) >= 3


def _salt_read(fn: Callable) -> str | None:
    """A global or closure value `fn` reads that looks made at start-up: a number with a fraction,
    a UUID, 8 bytes or more (``os.urandom``), or a long random-looking token. A short separator
    (``"|"``, ``b"\\0"``) or a date kept as a format version passes: a correct answer may
    read one."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    names, stack = set(), [code]
    while stack:  # names read by fn and by any function or comprehension inside it
        one = stack.pop()
        names |= set(one.co_names)
        stack += [c for c in one.co_consts if hasattr(c, "co_names")]
    seen = {n: fn.__globals__[n] for n in names if n in getattr(fn, "__globals__", {})}
    for name, cell in zip(code.co_freevars, fn.__closure__ or (), strict=False):
        seen[name] = cell.cell_contents
    for name, value in seen.items():
        looks = (
            isinstance(value, float | uuid.UUID)
            or (isinstance(value, bytes) and len(value) >= 8)
            or (isinstance(value, str) and _random_looking(value))
        )
        if looks:
            return SALT.format(name=name, value=short(value))
    return None


SET_ORDER = (
    'your function builds a set (e.g. set(f"{k}={v}" for k, v in settings.items())) and reads '
    "it without sorted(): a set of strings lists them in hash order, which changes from one run "
    "of Python to the next (PYTHONHASHSEED), so the stored fingerprint stops matching; read the "
    "settings through sorted(...)"
)


def _codes(fn: Callable) -> list:
    """`fn`'s code and the code of every function or comprehension inside it."""
    code = getattr(fn, "__code__", None)
    found, stack = [], [code] if code is not None else []
    while stack:
        one = stack.pop()
        found.append(one)
        stack += [c for c in one.co_consts if hasattr(c, "co_names")]
    return found


def _reads_set_order(fn: Callable) -> bool:
    """Whether `fn` builds a set or frozenset (a call to either, a set display or comprehension)
    and never sorts (no ``sorted``, ``.sort`` or ``sort_keys=``). Strings built inside `fn` from
    the settings carry none of the check's salted hashes, so the two salted runs cannot see their
    order move; this reads the code instead. A constant set (``k in {"a", "b"}``) is a frozenset
    constant, not built, and passes; so does anything read through ``sorted``."""
    codes = _codes(fn)
    names = {n for c in codes for n in c.co_names}
    built = {"BUILD_SET", "SET_ADD", "SET_UPDATE"}
    makes = bool(names & {"set", "frozenset"}) or any(
        i.opname in built for c in codes for i in dis.get_instructions(c)
    )
    keywords = {k for c in codes for t in c.co_consts if isinstance(t, tuple) for k in t}
    sorts = names & {"sorted", "sort"} or "sort_keys" in keywords
    return makes and not sorts


REFUSAL = (
    "your function calls the library's {name}: write the fingerprint yourself from the "
    "document's text and title and every setting"
)


def check_fingerprint(fn: Callable) -> int:
    """Run the learner's `fingerprint(doc, settings)` on every pair; each miss names its slip."""
    if _calls_builtin_hash(fn):
        raise NotYet(SALTED)
    salt = _salt_read(fn)
    if salt:
        raise NotYet(salt)
    try:  # a lookup by a plain name misses the salted keys: the pairs below then judge it
        first, again = (
            run_without(fn, (BASE, _named(seed)), document_fingerprint, REFUSAL)
            for seed in (b"1", b"2")
        )
    except Exception:
        first = again = None
    if first != again:
        raise NotYet(UNSTABLE)
    if _reads_set_order(fn):
        raise NotYet(SET_ORDER)
    for doc, settings, other, other_settings, equal, hint in PAIRS:
        one = run_without(fn, (doc, dict(settings)), document_fingerprint, REFUSAL)
        two = run_without(fn, (other, dict(other_settings)), document_fingerprint, REFUSAL)
        for got in (one, two):
            if not isinstance(got, str):
                raise NotYet(f"return a str, got {type(got).__name__} {short(got)}")
        if (one == two) != equal:
            meta = doc.metadata != other.metadata  # shown only where it is what differs
            raise NotYet(
                f"{hint}. Case: title {doc.title!r}, text {doc.text!r}, settings {settings}"
                + (f", metadata {doc.metadata}" if meta else "")
                + f" against title {other.title!r}, text {other.text!r}, settings {other_settings}"
                + (f", metadata {other.metadata}" if meta else "")
            )
    return len(PAIRS) + 1


CHECKS_FINGERPRINT: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "03e.2": ("fingerprint(doc, settings) -> str", check_fingerprint),
}
