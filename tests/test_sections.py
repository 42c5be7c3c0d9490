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
