"""Every number a notebook's prose states must come from that notebook's code or outputs.

The series promises that each claim is an output the library produced. This test keeps the promise
mechanical: a number in a markdown cell (before the Exercises, which set tasks, not claims; outside
headings, links and the References) must appear among the numbers of the notebook's code cells or
stored outputs. A number that cannot appear there (a figure the article printed and we correct, a
figure derived from two outputs) is listed in ALLOWED with a one-line reason saying where it comes
from. `test_the_check_catches_an_invented_number` proves the test can fail.
"""

import json
import re

import pytest
from conftest import NOTEBOOKS, prefix

NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?![A-Za-z])")  # not 18F, 3x or cl100k

# notebook prefix -> {number as written: why it is allowed without appearing in an output}
ALLOWED: dict[str, dict[str, str]] = {
    "01": {
        "15": "the article's rule of thumb (start at 10–15% overlap), quoted",
        "11": "the last item of the series' list of steps ('11. Code'), not a figure",
        "7": "an item of the series' list of steps ('7. The experiment'), not a figure",
        "8": "an item of the series' list of steps ('8. Before the cut'), not a figure",
    },
    "03h": {
        "40": "the fixed windows' overlap inside `small_to_big_table` (200/40, as in notebook 01)",
        "200": "the fixed windows' size inside `small_to_big_table`, a setting (as in notebook 01)",
    },
    "04b": {
        "4": "the step this companion belongs to ('Companion to step **4**'), not a figure",
        "91.9": "Chroma's published recall for its LLMSemanticChunker (research.trychroma.com)",
        "88.1": "Chroma's published recall for the recursive splitter at 200 tokens, same table",
        "83.6": "Chroma's published recall for Kamradt's semantic splitter, the same table",
    },
    "05b": {"5": "the step this companion belongs to ('Companion to step **5**'), not a figure"},
    "06": {"2.1": "an example of a section number (depth 2), not a measured figure"},
    "07": {
        "200": "the article's chunk size in characters (`ARTICLE_STRATEGIES`), a setting",
        "92": "a value of the manual's table, quoted from notebook 01",
        "100": "the token budget `real_strategies` uses (its default `max_tokens=100`), a setting",
    },
    "09": {
        "128": "the longest input all-MiniLM-L6-v2 was trained on, quoted from its model card",
    },
    "09b": {
        "9": "the step this companion belongs to ('Companion to step **9**'), not a figure",
        "128": "the longest input all-MiniLM-L6-v2 was trained on, quoted from its model card",
    },
    "09c": {
        "9": "the step this companion belongs to ('Companion to step **9**'), not a figure",
        "128": "the longest input all-MiniLM-L6-v2 was trained on, quoted from its model card",
        "8,192": "jina-embeddings-v2's input length, quoted from the late-chunking paper",
    },
}


def prose_numbers(markdown: str) -> list[str]:
    """Numbers in claim-bearing prose: headings, link targets, step counters and cell-label words
    ('cell 12', 'notebook 03', 'section 4', 'step 2') are structure, not claims."""
    markdown = markdown.split("## Exercises")[0]
    out = []
    for line in markdown.splitlines():
        if line.lstrip().startswith("#"):
            continue
        line = re.sub(r"\]\([^)]*\)", "]", line)  # link targets
        line = re.sub(r"https?://\S+", "", line)
        line = re.sub(r"\*\*\d+ of \d+\*\*", "", line)  # "Step **3 of 7**"
        line = re.sub(
            r"\b(?:notebooks?|sections?|steps?|cells?|exercises?|Step|Section|Notebook|§)\s+\d+(?:\s*(?:,|and|to|–|-)\s*\d+)*",
            "",
            line,
        )
        line = re.sub(
            r"(?<![\d.,])\b0\d\b(?![.,]\d)", "", line
        )  # notebook numbers: 01 … 08, not 0,08
        out += NUMBER.findall(line)
    return out


def produced_numbers(nb: dict) -> set[str]:
    found: set[str] = set()
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        texts = ["".join(cell["source"])]
        for output in cell.get("outputs", []):
            texts.append("".join(output.get("text", "")))
            texts += [
                "".join(v) for k, v in output.get("data", {}).items() if k.startswith("text/")
            ]
        for text in texts:
            found.update(NUMBER.findall(text))
    return found


def variants(number: str) -> set[str]:
    """The forms an output may print the same number in: 0.80 and 0.8, 1,2 and 1.2, 3 and 3.0."""
    out = {number, number.replace(",", ".")}
    for n in list(out):
        if "." in n:
            out.add(n.rstrip("0").rstrip("."))
        else:
            out.add(n + ".0")
    return out


def unexplained(path) -> list[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    markdown = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    markdown = markdown.split("## References")[0]
    produced = produced_numbers(nb)
    produced |= {v for n in produced for v in variants(n)}
    allowed = ALLOWED.get(prefix(path), {})
    return sorted(
        {n for n in prose_numbers(markdown) if n not in allowed and not (variants(n) & produced)},
        key=lambda n: (
            float(n.replace(",", "")) if n.replace(",", "").replace(".", "", 1).isdigit() else 0
        ),
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_number_in_the_prose_comes_from_an_output(path):
    missing = unexplained(path)
    assert not missing, (
        f"numbers in the prose that no code or output of {path.name} holds: {missing}"
    )


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_every_allowed_number_still_appears_in_its_notebook(name):
    (path,) = [p for p in NOTEBOOKS if prefix(p) == name]
    nb = json.loads(path.read_text(encoding="utf-8"))
    markdown = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    stale = [n for n in ALLOWED[name] if n not in prose_numbers(markdown.split("## References")[0])]
    assert not stale, f"listed in ALLOWED but no longer in the prose of {path.name}: {stale}"


def test_the_check_catches_an_invented_number(tmp_path):
    nb = json.loads(NOTEBOOKS[0].read_text(encoding="utf-8"))
    nb["cells"].insert(
        1,
        {
            "cell_type": "markdown",
            "id": "fake",
            "metadata": {},
            "source": ["The cut keeps 987.65 percent of the answers."],
        },
    )
    fake = tmp_path / NOTEBOOKS[0].name
    fake.write_text(json.dumps(nb), encoding="utf-8")
    assert "987.65" in unexplained(fake) and "987.65" not in unexplained(NOTEBOOKS[0])
