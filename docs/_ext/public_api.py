"""What the API reference shows: the public names once, the modules as internals, no boilerplate.

Why: `api.md` documents the names of `chunklab.__all__` under "Public API" (as `chunklab.Chunk`),
and the module tree under "Internals". Left to itself, autodoc would

- document each public class a second time on its module's page, among the internals; so there it
  is skipped, and the module's docstring ends with a link to it in the public API (a type hint
  that names it, `chunklab.contracts.Chunk`, links there too);
- show framework boilerplate as if it were chunklab's: pydantic's `model_config` ("Configuration
  for the model, should be a dictionary conforming to [ConfigDict]...") on every record, a named
  tuple's "Alias for field number 0" under each field, a protocol's `(*args, **kwargs)`;
- document a public constant (`chunklab.COUNTERS`) with its type's docstring (dict's), because its
  own docstring is under its assignment in the module that defines it, not in `chunklab`.

Plain Python apart from `setup`, so the tests check these rules without building the site.
"""

import ast
import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported by tests/test_api_docs.py where Sphinx is not installed
    from sphinx.application import Sphinx

ROOT = Path(__file__).resolve().parents[2]  # the repository: docs/_ext/ -> docs/ -> root
PACKAGE = "chunklab"


@functools.cache
def imported_from() -> dict[str, str]:
    """Each public name -> the module `chunklab/__init__.py` imports it from (its home)."""
    tree = ast.parse((ROOT / PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    return {
        alias.asname or alias.name: node.module or ""
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def attribute_docstring(module: str, name: str) -> str:
    """The string right under `name = ...` in `module`'s source: a constant's or a type alias's
    docstring (its value's own `__doc__` is its type's: dict's, str's)."""
    path = ROOT.joinpath(*module.split(".")).with_suffix(".py")
    body = ast.parse(path.read_text(encoding="utf-8")).body
    for statement, following in zip(body, body[1:], strict=False):
        targets = getattr(statement, "targets", None) or [getattr(statement, "target", None)]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            if isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant):
                return str(following.value.value).strip()
    return ""


@functools.cache
def public_objects() -> dict[int, str]:
    """id(object) -> its public name, for every name of `chunklab.__all__`."""
    import chunklab

    return {id(getattr(chunklab, name)): name for name in chunklab.__all__}


@functools.cache
def public_by_module() -> dict[str, list[str]]:
    """Module -> the public names defined there, in `__all__`'s order."""
    import chunklab

    where = imported_from()
    found: dict[str, list[str]] = {}
    for name in chunklab.__all__:
        found.setdefault(where[name], []).append(name)
    return found


def is_boilerplate(name: str, obj: object) -> bool:
    """A member a framework adds to every class of a kind, saying nothing about this one."""
    if name == "model_config" and isinstance(obj, dict):
        return True  # pydantic's ConfigDict
    return (getattr(obj, "__doc__", None) or "").startswith("Alias for field number")  # namedtuple


def skip_member(app: object, what: str, name: str, obj: object, skip: bool, options: object):
    """True: left out. On a module's page a public object is left out: the public API has it."""
    if is_boilerplate(name, obj) or (what == "module" and id(obj) in public_objects()):
        return True
    return None  # autodoc decides, as without this extension


def public_docstring(
    app: object, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    """A public constant's own docstring; a module's docstring ending with its public names."""
    public = name.removeprefix(PACKAGE + ".")
    if what == "data" and name == f"{PACKAGE}.{public}" and id(obj) in public_objects():
        lines[:] = attribute_docstring(imported_from()[public], public).splitlines()
    elif what == "module" and public_by_module().get(name):
        links = ", ".join(f":py:obj:`{PACKAGE}.{n}`" for n in public_by_module()[name])
        lines += ["", f"Public names defined here, documented in the public API: {links}."]


def protocol_signature(
    app: object, what: str, name: str, obj: Any, options: object, signature: str, annotation: str
):
    """No signature for a protocol: `(*args, **kwargs)` is typing.Protocol's, and it is never
    instantiated."""
    if what == "class" and getattr(obj, "_is_protocol", False):
        return "", annotation
    return None


def public_target(app: "Sphinx", env: Any, node: Any, contnode: Any):
    """A reference to a public object by its module's path (a type hint: `chunklab.contracts.Chunk`)
    resolved to where it is documented: `chunklab.Chunk`."""
    target = node.get("reftarget", "")
    module, _, name = target.rpartition(".")
    if node.get("refdomain") != "py" or name not in public_by_module().get(module, []):
        return None
    python = env.get_domain("py")
    return python.resolve_xref(
        env, node["refdoc"], app.builder, node["reftype"], f"{PACKAGE}.{name}", node, contnode
    )


def setup(app: "Sphinx") -> dict[str, object]:
    app.connect("autodoc-skip-member", skip_member)
    app.connect("autodoc-process-docstring", public_docstring)
    app.connect("autodoc-process-signature", protocol_signature)
    app.connect("missing-reference", public_target)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
