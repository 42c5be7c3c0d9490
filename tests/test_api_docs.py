"""Every public name of chunklab, and every public method of its classes, says what it is for.

The site's API reference is made from these docstrings by autodoc, which leaves out a member that
has none: `split`, the method every notebook calls, was missing from it. So a public name or method
without a docstring is a hole in the reference, and these tests name each one.

Public: the names of `chunklab.__all__`; a public method is a function, class or static method or
property whose name does not start with `_`, defined by a chunklab class (the class or one of its
chunklab bases), not one pydantic's `BaseModel` or `object` brings.
"""

import ast
import functools
import inspect
from collections.abc import Iterator

from conftest import ROOT

import chunklab

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


def attribute_docstring(module: str, name: str) -> str:
    """The string right under `name = ...` in `module`'s source: how autodoc documents a constant
    or a type alias (a dict's or a str's own `__doc__` is its type's, not the constant's)."""
    path = ROOT.joinpath(*module.split(".")).with_suffix(".py")
    body = ast.parse(path.read_text(encoding="utf-8")).body
    for statement, following in zip(body, body[1:], strict=False):
        targets = getattr(statement, "targets", None) or [getattr(statement, "target", None)]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            if isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant):
                return str(following.value.value).strip()
    return ""


def imported_from() -> dict[str, str]:
    """Each public name -> the module `chunklab/__init__.py` imports it from."""
    tree = ast.parse((ROOT / "chunklab" / "__init__.py").read_text(encoding="utf-8"))
    return {
        alias.asname or alias.name: node.module or ""
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def undocumented() -> list[str]:
    """Every public name and public method without a docstring, as `Name` or `Name.method`."""
    modules = imported_from()
    missing = []
    for name in chunklab.__all__:
        value = getattr(chunklab, name)
        if inspect.isclass(value):
            doc = own_docstring(value)
            missing += [f"{name}.{m}" for m, d in public_methods(value) if not d]
        elif inspect.isfunction(value):
            doc = (value.__doc__ or "").strip()
        else:
            doc = attribute_docstring(modules[name], name)
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
