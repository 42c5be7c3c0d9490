"""Every public name of chunklab, and every public method of its classes, says what it is for;
the API pages show each once, under "Public API", and leave out frameworks' boilerplate.

The site's API reference is made from these docstrings by autodoc, which leaves out a member that
has none: `split`, the method every notebook calls, was missing from it. So a public name or method
without a docstring is a hole in the reference, and these tests name each one.

Public: the names of `chunklab.__all__`; a public method is a function, class or static method or
property whose name does not start with `_`, defined by a chunklab class (the class or one of its
chunklab bases), not one pydantic's `BaseModel` or `object` brings.
"""

import functools
import importlib.util
import inspect
import re
from collections.abc import Iterator

from conftest import ROOT

import chunklab

# The site's rules for the API pages, in plain Python (docs/_ext/public_api.py): loaded from its
# file, as Sphinx loads it, without Sphinx.
_spec = importlib.util.spec_from_file_location("public_api", ROOT / "docs/_ext/public_api.py")
assert _spec and _spec.loader
site_rules = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(site_rules)

METHODS = (staticmethod, classmethod, property, functools.cached_property)


def own_docstring(cls: type) -> str:
    """The class's own docstring; not the signature namedtuple and dataclass write in its place."""
    doc = (cls.__dict__.get("__doc__") or "").strip()
    return "" if doc.startswith(f"{cls.__name__}(") else doc


def public_methods(cls: type) -> Iterator[tuple[str, str]]:
    """(name, docstring) of each public method of `cls` that chunklab defines. An override with
    no docstring inherits its chunklab base's (autodoc shows that one), never pydantic's."""
    ours = [k for k in cls.__mro__ if k.__module__.split(".")[0] == "chunklab"]
    names = {n for k in ours for n, v in vars(k).items() if is_method(n, v)}
    for name in sorted(names):
        docs = [getattr(vars(k)[name], "__doc__", None) for k in ours if name in vars(k)]
        yield name, next((d.strip() for d in docs if d and d.strip()), "")


def is_method(name: str, value: object) -> bool:
    return not name.startswith("_") and (inspect.isfunction(value) or isinstance(value, METHODS))


def undocumented() -> list[str]:
    """Every public name and public method without a docstring, as `Name` or `Name.method`."""
    modules = site_rules.imported_from()
    missing = []
    for name in chunklab.__all__:
        value = getattr(chunklab, name)
        if inspect.isclass(value):
            doc = own_docstring(value)
            missing += [f"{name}.{m}" for m, d in public_methods(value) if not d]
        elif inspect.isfunction(value):
            doc = (value.__doc__ or "").strip()
        else:
            doc = site_rules.attribute_docstring(modules[name], name)
        missing += [] if doc else [name]
    return sorted(missing)


def test_every_public_name_and_public_method_has_a_docstring():
    missing = undocumented()
    assert missing == [], f"{len(missing)} without a docstring: {', '.join(missing)}"


def test_the_check_sees_a_missing_method_docstring_and_ignores_what_pydantic_brings():
    class Quiet(chunklab.Contract):
        """A record whose `split` says nothing."""

        def split(self) -> list[str]:
            return []

        @property
        def size(self) -> int:
            """How big."""
            return 0

    Quiet.__module__ = "chunklab.example"  # as if chunklab defined it
    assert dict(public_methods(Quiet)) == {
        "split": "",
        "size": "How big.",
        "trusted": own_docstring_of(chunklab.Contract.trusted),
    }


def own_docstring_of(function: object) -> str:
    return (getattr(function, "__doc__", "") or "").strip()


# --- the API pages (docs/api.md and docs/_ext/public_api.py), checked without building the site --

DIRECTIVE = re.compile(r"^\.\. auto(?:class|exception|function|data):: chunklab\.(\w+)$", re.M)


def test_the_api_page_documents_each_public_name_once_and_the_modules_only_under_internals():
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    public, internals = page.split("\n## Internals\n")
    assert "\n## Public API\n" in public
    documented = DIRECTIVE.findall(public)
    assert sorted(documented) == sorted(chunklab.__all__)  # each public name, once
    assert "autosummary" not in public and "automodule" not in public  # no module tree there
    assert DIRECTIVE.findall(internals) == []
    assert re.search(r"\.\. autosummary::\n(   :\S+:.*\n)*\n   chunklab\n", internals)


def test_boilerplate_and_public_names_are_left_out_of_the_module_pages_and_split_is_kept():
    from chunklab.chunkers.fixed import char_windows

    def skipped(what: str, name: str, obj: object) -> bool | None:
        return site_rules.skip_member(None, what, name, obj, False, None)

    assert skipped("class", "model_config", chunklab.Chunk.model_config)  # pydantic's
    assert skipped("class", "kind", chunklab.Block.kind)  # "Alias for field number 0"
    assert skipped("module", "FixedSizeChunker", chunklab.FixedSizeChunker)  # public: not twice
    assert skipped("module", "COUNTERS", chunklab.COUNTERS)
    assert skipped("class", "split", chunklab.FixedSizeChunker.split) is None  # autodoc keeps it
    assert skipped("module", "char_windows", char_windows) is None
    signature = site_rules.protocol_signature  # a protocol's (*args, **kwargs) is typing's
    assert signature(None, "class", "c", chunklab.Chunker, None, "(*args)", "") == ("", "")
    assert signature(None, "class", "x", chunklab.FixedSizeChunker, None, "(*, size)", "") is None


def test_a_public_constant_shows_its_own_docstring_and_a_module_page_links_its_public_names():
    lines = ["dict() -> new empty dictionary"]  # what a dict's __doc__ says
    site_rules.public_docstring(None, "data", "chunklab.COUNTERS", chunklab.COUNTERS, None, lines)
    assert lines and lines[0].startswith("The counters by the name")
    lines = ["Fixed-size chunking."]
    module = "chunklab.chunkers.fixed"
    site_rules.public_docstring(None, "module", module, None, None, lines)
    assert lines[-1].endswith("in the public API: :py:obj:`chunklab.FixedSizeChunker`.")
    # the link lands on the module that defines the name: the one chunklab imports it from
    for name, module in site_rules.imported_from().items():
        value = getattr(chunklab, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert value.__module__ == module, name
