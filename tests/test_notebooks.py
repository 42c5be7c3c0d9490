"""Stored notebooks: the template's parts, and outputs a reader can trust.

nbval (run by `make test`) re-executes each notebook and compares outputs; a notebook with its
outputs stripped would pass nbval with nothing compared, so this file makes sure there is
something to compare and that little of it is exempt.
"""

import json
import re
from pathlib import Path

import pytest
from conftest import NOTEBOOKS, prefix

EXEMPT_MARKERS = ("NBVAL_IGNORE_OUTPUT", "NBVAL_SKIP")
MAX_EXEMPT = 3
TEMPLATE = ["## What you will learn", "## Where this step sits", "## Recap", "## Exercises"]
VOLATILE = [
    (re.compile(r"0x[0-9a-f]{6,}"), "a memory address"),
    (re.compile(r"(?<![\w.:/~])/(?:[\w.-]+/){2,}"), "an absolute path"),
    (re.compile(r"\b\d+(\.\d+)?\s?(s|ms|µs|us|ns)\b|Wall time|CPU times"), "a timing"),
]


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def source(cell: dict) -> str:
    return "".join(cell["source"])


def code_cells(nb: dict) -> list[dict]:
    return [c for c in nb["cells"] if c["cell_type"] == "code" and source(c).strip()]


def output_text(output: dict) -> str:
    if output["output_type"] == "stream":
        return "".join(output["text"])
    data = output.get("data", {})
    return "".join("".join(v) for k, v in data.items() if k.startswith("text/"))


def test_there_are_notebooks():
    assert NOTEBOOKS, "no numbered notebooks found in notebooks/"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_template_parts_in_order(path):
    nb = load(path)
    markdown = [source(c) for c in nb["cells"] if c["cell_type"] == "markdown"]
    number = prefix(path)
    assert markdown and re.match(rf"# {number} · \S", markdown[0]), "first cell must be the title"
    text = "\n".join(markdown)
    positions = [text.find(part) for part in TEMPLATE]
    assert all(p >= 0 for p in positions), (
        f"missing: {[t for t, p in zip(TEMPLATE, positions, strict=True) if p < 0]}"
    )
    assert positions == sorted(positions), "template parts out of order"
    exercises = text[positions[-1] :]
    assert re.search(r"\*\*\d\d[a-z]?\.\d( \(write code\))?\*\*", exercises), (
        "number exercises like **01.1**"
    )
    checks = [c for c in code_cells(nb) if "check(" in source(c)]
    assert 1 <= len(checks) <= 4, "1-4 exercises, each with a self-check cell"
    assert re.search(r"\*\*\d\d[a-z]?\.\d \(write code\)\*\*", exercises), (
        "at least one exercise that writes code"
    )
    assert "## References" in text and re.search(
        r"\]\(https://", text[text.find("## References") :]
    ), "a References section with links"
    assert "**Prerequisites.**" in markdown[0], "a prerequisites line in the first cell"
    assert re.search(r"## Recap.*?\]\((\d\d[a-z]?_\w+\.ipynb|\.\./README\.md)\)", text, re.S), (
        "the recap links onward"
    )


def heading_jumps(markdown_cells: list[str]) -> list[str]:
    """Headings that skip a level after the one before (## then ####), fenced code left out: the
    website's build (MyST under -W) refuses them, and only `make site-check` would say so."""
    jumps, previous, fenced = [], 0, False
    for line in "\n".join(markdown_cells).split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        heading = None if fenced else re.match(r"(#{1,6}) ", line)
        if heading:
            level = len(heading.group(1))
            if previous and level > previous + 1:
                jumps.append(line)
            previous = level
    return jumps


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_heading_skips_a_level(path):
    cells = [source(c) for c in load(path)["cells"] if c["cell_type"] == "markdown"]
    assert heading_jumps(cells) == [], f"headings that skip a level: {heading_jumps(cells)}"


def test_a_skipped_heading_level_is_found():
    assert heading_jumps(["## Section\n\ntext", "#### Deeper at once"]) == ["#### Deeper at once"]
    assert heading_jumps(["## Section", "```\n#### a comment in code\n```", "### Sub"]) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_links_resolve(path):
    text = "\n".join(source(c) for c in load(path)["cells"] if c["cell_type"] == "markdown")
    for target in re.findall(r"\]\(([^)#]+?)(?:#[^)]*)?\)", text):
        if target.startswith(("http://", "https://")):
            continue
        assert (path.parent / target).exists(), f"broken link to {target}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_outputs_are_stored_in_order_from_one_fresh_run(path):
    nb = load(path)
    cells = code_cells(nb)
    counts = [c["execution_count"] for c in cells]
    assert counts == list(range(1, len(cells) + 1)), "re-run with `make notebooks`"
    with_output = [c for c in cells if c["outputs"]]
    assert len(with_output) >= 0.75 * len(cells), "most code cells should show what they prove"
    for cell in cells:
        for output in cell["outputs"]:
            assert output["output_type"] != "error", f"stored error: {output.get('ename')}"
            assert output.get("name") != "stderr", f"stored stderr: {output_text(output)[:200]}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_few_exempt_cells_each_saying_why(path):
    exempt = [c for c in code_cells(load(path)) if any(m in source(c) for m in EXEMPT_MARKERS)]
    assert len(exempt) <= MAX_EXEMPT
    for cell in exempt:
        lines = [line.strip() for line in source(cell).splitlines()]
        marker = next(n for n, line in enumerate(lines) if "NBVAL_" in line)
        # nbval honours a marker only when the whole comment is the marker, nothing after it.
        assert lines[marker] in ("# NBVAL_IGNORE_OUTPUT", "# NBVAL_SKIP"), (
            f"nbval would not see {lines[marker]!r}"
        )
        reason = lines[marker + 1] if marker + 1 < len(lines) else ""
        assert re.match(r"# \(why: \S.+\)$", reason), "say why on the next line: # (why: ...)"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_compared_outputs_hold_nothing_volatile(path):
    for cell in code_cells(load(path)):
        if any(m in source(cell) for m in EXEMPT_MARKERS):
            continue
        for output in cell["outputs"]:
            text = output_text(output)
            for pattern, what in VOLATILE:
                found = pattern.search(text)
                assert not found, f"output holds {what}: {found.group(0)!r}"


def echoed_claims(nb: dict) -> list[str]:
    """Each code cell whose last line's value is a `Claim`, shown as its repr: `claim(...)` has
    already printed the one line a reader should see, so the repr below it is the same words
    again as a record (bind the result: `_ = claim(...)`)."""
    return [
        f"cell {i}: {text[:60]!r}"
        for i, cell in enumerate(nb["cells"])
        if cell["cell_type"] == "code"
        for output in cell.get("outputs", [])
        if output["output_type"] == "execute_result"
        and (text := output_text(output)).startswith("Claim(")
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_claim_echoed_as_a_record(path):
    assert echoed_claims(load(path)) == []


def test_an_echoed_claim_is_found():
    record = ["Claim(name='x', holds=True)"]
    echo = {"output_type": "execute_result", "data": {"text/plain": record}}
    printed = {"output_type": "stream", "name": "stdout", "text": ["claim x: HOLDS.\n"]}
    cells = [{"cell_type": "code", "source": "claim(...)", "outputs": [printed, echo]}]
    assert echoed_claims({"cells": cells}) == ["cell 0: \"Claim(name='x', holds=True)\""]
    assert echoed_claims({"cells": [{**cells[0], "outputs": [printed]}]}) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_kernel_is_the_projects(path):
    assert load(path)["metadata"]["kernelspec"]["name"] == "chunklab"


def from_scratch_sections(cells: list) -> list[tuple[int, list]]:
    """Each '### From scratch' heading and the code cells of its section: up to the next heading
    of any level (a markdown cell whose first line starts with '#')."""
    sections = []
    for n, c in enumerate(cells):
        if c["cell_type"] == "markdown" and "### From scratch" in source(c):
            codes = []
            for later in cells[n + 1 :]:
                if later["cell_type"] == "markdown" and source(later).lstrip().startswith("#"):
                    break
                if later["cell_type"] == "code":
                    codes.append(later)
            sections.append((n, codes))
    return sections


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_core_idea_is_built_from_scratch_and_checked_against_the_library(path):
    """A '### From scratch' section whose code prints at least one 'same …: True', or a claim
    that held (`claim NAME: HOLDS.`, chunklab.teaching.claims): a check the cells computed, in the
    section itself (the build and its check may be two cells, so neither is too long to read)."""
    sections = from_scratch_sections(load(path)["cells"])
    assert sections, "no '### From scratch' section"
    for n, codes in sections:
        assert codes, f"the from-scratch section at cell {n} has no code"
        printed = "".join(output_text(o) for c in codes for o in c["outputs"])
        assert re.search(r"same[^\n]*: True|^claim [a-z0-9-]+: HOLDS\.", printed, re.M), (
            f"the from-scratch section at cell {n} checks nothing"
        )


def test_a_from_scratch_section_without_a_check_is_refused():
    heading = {"cell_type": "markdown", "source": "### From scratch: the loop"}
    build = {"cell_type": "code", "source": "x = 1", "outputs": []}
    check = {
        "cell_type": "code",
        "source": "print(...)",
        "outputs": [{"output_type": "stream", "name": "stdout", "text": "same chunks: True\n"}],
    }
    next_heading = {"cell_type": "markdown", "source": "## 2. Next"}
    ((_, codes),) = from_scratch_sections([heading, build, check, next_heading])
    assert len(codes) == 2
    ((_, codes),) = from_scratch_sections([heading, build, next_heading, check])
    assert codes == [build]  # a check after the next heading is not the section's


PICTURES = {"01", "02", "04", "05"}


@pytest.mark.parametrize(
    "path", [p for p in NOTEBOOKS if prefix(p) in PICTURES], ids=lambda p: p.name
)
def test_the_cut_picture_is_shown(path):
    shown = [
        o
        for c in code_cells(load(path))
        if "show_cuts(" in source(c)
        for o in c["outputs"]
        if "text/html" in o.get("data", {})
    ]
    assert shown, "no report.show_cuts picture with an HTML output"
