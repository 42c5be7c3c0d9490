from chunklab import load_document
from chunklab.parsing.sections import build_outline


def paths(text):
    return [(s.heading_path, s.parent_id) for s in build_outline(text, "d").sections]


def test_skipped_levels_nest_under_the_last_open_heading():
    assert paths("# A\n\n### C\n\nx\n") == [(("A",), None), (("A", "C"), "d#a")]


def test_a_sibling_closes_deeper_sections():
    text = "# A\n\n## B\n\n### C\n\nx\n\n## D\n\ny\n"
    assert paths(text)[-1] == (("A", "D"), "d#a")


def test_text_before_the_first_heading_is_a_section_of_its_own():
    outline = build_outline("Intro.\n\n# A\n\nBody.\n", "d")
    assert [s.section_id for s in outline.sections] == ["d#preamble", "d#a"]
    assert outline.sections[0].heading_path == ()


def test_ids_come_from_the_path_and_survive_edits_elsewhere():
    before = build_outline("# A\n\n## B\n\nx\n", "d")
    after = build_outline("# New first\n\ntext\n\n# A\n\n## B\n\nx\n", "d")
    assert before.section("d#a/b").heading_path == after.section("d#a/b").heading_path


def test_duplicate_paths_get_distinct_ids():
    outline = build_outline("# A\n\nx\n\n# A\n\ny\n", "d")
    assert [s.section_id for s in outline.sections] == ["d#a", "d#a~2"]


def test_travel_policy_outline():
    doc = load_document("travel_policy")
    outline = build_outline(doc.text, doc.doc_id)
    assert outline.render().splitlines() == [
        "# Travel Policy   [paragraph]",
        "  ## Domestic Travel   [no content of its own]",
        "    ### Booking   [paragraph]",
        "  ## International Travel   [no content of its own]",
        "    ### Per diem   [paragraph, table, paragraph]",
        "    ### Visa and approvals   [paragraph, list]",
        "  ## Expense Reporting   [paragraph]",
    ]


def test_front_matter_is_metadata_not_a_section():
    outline = build_outline("---\ntitle: T\n---\n\n# Real\n\nBody\n", "d")
    assert outline.front_matter == "---\ntitle: T\n---"
    assert [s.heading_path for s in outline.sections] == [("Real",)]


# --- images in headings (issue 39) ------------------------------------------------------------

BADGES = (
    "# Node Version Manager [![Tests](https://x/t.svg)](https://x/actions) "
    "[![nvm version](https://img.shields.io/badge/v.svg)][4] "
    '[![CII Best Practices](https://b/1.svg "badge")](https://b)\n\n'
    "## Installing ![new](new.png)\n\nRun the script.\n\n"
    "## ![Logo](logo.png)\n\nOnly a picture names this one.\n\n[4]: https://x/releases\n"
)


def test_a_headings_images_stay_out_of_breadcrumbs_and_ids_in_every_format(tmp_path):
    from chunklab import MarkdownChunker, read_document

    readme = tmp_path / "README.md"
    readme.write_text(BADGES, encoding="utf-8")
    page = tmp_path / "readme.html"
    page.write_text(
        '<h1>Node Version Manager <a href="https://x"><img alt="Tests" src="t.svg"></a></h1>'
        '<h2>Installing <img alt="new" src="data:image/png;base64,iVBORw0KGgo="></h2>'
        "<p>Run the script.</p>",
        encoding="utf-8",
    )
    for path in (readme, page):
        doc = read_document(path)
        chunks = MarkdownChunker(max_tokens=200).split(doc)
        crumbs = {c.heading_path for c in chunks}
        assert ("Node Version Manager", "Installing") in crumbs, crumbs
        assert all("Tests" not in " ".join(p) and "new" not in p[-1] for p in crumbs), crumbs
        assert any(c.text.startswith("Node Version Manager > Installing\n") for c in chunks)
        assert "base64" not in doc.text, "a picture stored in the page leaves no blob in a heading"
    outline = build_outline(BADGES, "nvm")
    assert [s.section_id for s in outline.sections] == [
        "nvm#node-version-manager",
        "nvm#node-version-manager/installing",
        "nvm#node-version-manager/logo",
    ]
    assert read_document(readme).title == "Node Version Manager"
