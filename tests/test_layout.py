"""The package's layout holds: dependencies run one way, nobody reaches into private names.

Read from the source with `ast`, imports inside functions included, so a local import cannot hide
a cycle. The order is the pipeline's (each folder's docstring says what it may import):

    contracts, version, memo  <  parsing  <  tokens  <  documents  <  embeddings  <  chunkers
    <  retrieval  <  evaluation  <  teaching  <  integrations  <  cli  <  the package itself
    (`chunklab`, which does not import `integrations`: the frameworks it wraps are optional)

A module may import its own layer and the layers below it, never one above. Inside a layer,
the modules' imports must form no cycle.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "chunklab"
LAYERS = [
    "contracts",
    "version",
    "memo",
    "parsing",
    "tokens",
    "documents",
    "embeddings",
    "chunkers",
    "retrieval",
    "evaluation",
    "teaching",
    "integrations",
    "cli",
    "__main__",
    "__init__",
]
RANK = {
    "contracts": 0,
    "version": 0,
    "memo": 0,
    **{name: n for n, name in enumerate(LAYERS[3:], start=1)},
}
# The one import left inside a function, and why: the charts of `chunklab experiment` need pandas
# and matplotlib (the `lab` extra), and the command must still print its table without them.
LOCAL_IMPORTS_ALLOWED = {("chunklab.cli.experimenting", "chunklab.teaching.report")}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> str:
    parts = module.split(".")
    return "__init__" if len(parts) == 1 else parts[1]


def chunklab_imports(tree: ast.AST, module: str):
    """(imported module, name or None, inside a function?) for every import of chunklab."""
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    local = {id(n) for f in functions for n in ast.walk(f)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "chunklab" or node.module.startswith("chunklab."):
                for alias in node.names:
                    target = f"{node.module}.{alias.name}"
                    is_module = (PACKAGE.parent / (target.replace(".", "/") + ".py")).exists() or (
                        PACKAGE.parent / target.replace(".", "/")
                    ).is_dir()
                    yield (target if is_module else node.module), alias.name, id(node) in local
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("chunklab"):
                    yield alias.name, None, id(node) in local


def graph() -> dict[str, list[tuple[str, str | None, bool]]]:
    return {
        module_name(p): list(
            chunklab_imports(ast.parse(p.read_text(encoding="utf-8")), module_name(p))
        )
        for p in sorted(PACKAGE.rglob("*.py"))
        if "series_data" not in p.parts
    }


def upward_imports(edges: dict[str, list[tuple[str, str | None, bool]]]) -> list[str]:
    return [
        f"{m} imports {t} ({layer(m)} is below {layer(t)})"
        for m, imports in edges.items()
        for t, _, _ in imports
        if RANK[layer(t)] > RANK[layer(m)]
    ]


def cycles(edges: dict[str, list[tuple[str, str | None, bool]]]) -> list[list[str]]:
    """Every cycle found by depth-first search over module -> imported module (own package roots
    excluded: importing `chunklab.chunkers` runs only its docstring)."""
    targets = {
        m: sorted({t for t, _, _ in imports if t in edges and t != m})
        for m, imports in edges.items()
    }
    found, state = [], {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = "open"
        for t in targets[m]:
            if state.get(t) == "open":
                found.append([*path[path.index(t) :], t])
            elif t not in state:
                visit(t, [*path, t])
        state[m] = "done"

    for m in targets:
        if m not in state:
            visit(m, [m])
    return found


def test_every_module_is_in_a_declared_layer():
    unknown = sorted({layer(m) for m in graph()} - set(RANK))
    assert not unknown, f"folders or modules not in the declared order: {unknown}"


def test_imports_run_one_way_down_the_pipeline():
    assert upward_imports(graph()) == []


def test_no_import_cycle():
    assert cycles(graph()) == []


def test_no_import_is_hidden_in_a_function():
    hidden = [
        f"{m} imports {t} inside a function"
        for m, imports in graph().items()
        for t, _, local in imports
        if local and (m, t) not in LOCAL_IMPORTS_ALLOWED
    ]
    assert hidden == []


def private_imports(edges) -> list[str]:
    return [
        f"{m} imports {t}.{name}" if not t.endswith(f".{name}") else f"{m} imports {t}"
        for m, imports in edges.items()
        for t, name, _ in imports
        if name and name.startswith("_") and not name.startswith("__")
    ]


def test_no_module_imports_another_modules_private_name():
    assert private_imports(graph()) == []


def test_tests_benches_and_notebooks_use_no_private_name_either():
    """What a reader copies from a test, a bench or a notebook should be public too."""
    root = PACKAGE.parent
    found = []
    for path in [*root.glob("tests/*.py"), *root.glob("bench/*.py"), *root.glob("scripts/*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports = list(chunklab_imports(tree, path.stem))
        found += [
            f"{path.name}: {t}.{n}"
            for t, n, _ in imports
            if n and n.startswith("_") and not n.startswith("__")
        ]
        # `from chunklab.teaching import selfcheck` then `selfcheck._key(...)`: private all the same
        modules = {n for _, n, _ in imports if n}
        found += [
            f"{path.name}: {node.value.id}.{node.attr}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ]
    assert found == []


def private_attributes(code: str) -> list[str]:
    """`obj._name` in a notebook cell: what a learner copies from a notebook should be public."""
    code = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith(("%", "!")))
    return [
        f"{ast.unparse(node.value)}.{node.attr}"
        for node in ast.walk(ast.parse(code))
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
    ]


def test_notebooks_read_no_private_attribute():
    found = []
    for path in sorted((PACKAGE.parent / "notebooks").glob("*.ipynb")):
        for n, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
            if cell["cell_type"] == "code":
                found += [
                    f"{path.name} cell {n}: {a}"
                    for a in private_attributes("".join(cell["source"]))
                ]
    assert found == []


# --- the checks can fail --------------------------------------------------------------------------


def test_the_checks_catch_an_upward_import_a_cycle_a_hidden_and_a_private_import():
    tree = ast.parse(
        "from chunklab.tokens.counters import _encoding\n"
        "def f():\n    from chunklab.chunkers.markdown import MarkdownChunker\n"
    )
    edges = {
        "chunklab.parsing.blocks": list(chunklab_imports(tree, "chunklab.parsing.blocks")),
        "chunklab.chunkers.markdown": [("chunklab.parsing.blocks", "blocks", False)],
    }
    assert upward_imports(edges) == [
        "chunklab.parsing.blocks imports chunklab.tokens.counters (parsing is below tokens)",
        "chunklab.parsing.blocks imports chunklab.chunkers.markdown (parsing is below chunkers)",
    ]
    assert cycles(edges) == [
        ["chunklab.parsing.blocks", "chunklab.chunkers.markdown", "chunklab.parsing.blocks"]
    ]
    assert [local for _, _, local in edges["chunklab.parsing.blocks"]] == [False, True]
    assert private_imports(edges) == [
        "chunklab.parsing.blocks imports chunklab.tokens.counters._encoding"
    ]


@pytest.mark.parametrize(
    "folder", sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists())
)
def test_each_folder_says_what_it_holds_and_what_it_may_import(folder):
    init = PACKAGE / folder / "__init__.py"
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
    if folder == "series_data":
        pytest.skip("data, not code")
    modules = sorted(p.stem for p in (PACKAGE / folder).glob("*.py") if p.stem != "__init__")
    assert "May import" in doc, f"{folder}/__init__.py does not say what it may import"
    missing = [m for m in modules if f"`{m}`" not in doc]
    assert not missing, f"{folder}/__init__.py does not describe {missing}"


def test_the_package_docstring_lists_every_module_and_all_is_complete():
    import chunklab

    modules = sorted(
        module_name(p)
        for p in PACKAGE.rglob("*.py")
        if p.stem not in ("__init__", "__main__") and "series_data" not in p.parts
    )
    listed = [m for m in modules if f"`{m.removeprefix('chunklab.')}`" in (chunklab.__doc__ or "")]
    assert sorted(set(modules) - set(listed)) == []
    public = sorted(
        n
        for n in vars(chunklab)
        if not n.startswith("_") and not isinstance(vars(chunklab)[n], type(chunklab))
    )
    assert sorted(set(chunklab.__all__) - {"__version__"}) == public


def test_the_readme_layout_table_names_every_module():
    """`README.md` "How the code is laid out": a row for every module, under its folder."""
    readme = (PACKAGE.parent / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("### How the code is laid out") :]
    table = table[: table.index("\n### ", 1)]
    rows, folder = [], ""
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 3 and cells[1].startswith("`"):
            folder = cells[0].strip("`") or folder
            rows.append(folder + cells[1].strip("`"))
    modules = sorted(
        p.relative_to(PACKAGE).as_posix()
        for p in PACKAGE.rglob("*.py")
        if p.name not in ("__init__.py", "__main__.py") and "series_data" not in p.parts
    )
    assert sorted(set(modules) - set(rows)) == []
    assert sorted(set(rows) - set(modules)) == []


def module_names_with_a_notebook_number(package: Path = PACKAGE) -> list[str]:
    """Modules whose name carries a notebook's number (`selfcheck_0406`, `exercises_10`): a name
    that says where the code is used, not what it holds, and goes stale when a notebook is split
    or renumbered."""
    return sorted(
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if re.search(r"_\d{2}[a-z]?(?:\d{2})?$", path.stem)
    )


def test_no_module_is_named_by_a_notebook_number(tmp_path):
    assert module_names_with_a_notebook_number() == []
    (tmp_path / "selfcheck_0406.py").write_text("")
    (tmp_path / "exercises_10.py").write_text("")
    (tmp_path / "late_chunking.py").write_text("")
    assert module_names_with_a_notebook_number(tmp_path) == ["exercises_10.py", "selfcheck_0406.py"]


def test_the_notebook_check_catches_a_private_attribute():
    assert private_attributes("print(list(shared.store._children))") == ["shared.store._children"]
    assert private_attributes("x.__class__\ny.public\n%time z._w") == []
