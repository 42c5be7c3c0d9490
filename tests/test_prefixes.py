import pytest
from conftest import run_cli

from chunklab import cl100k, load_document, word_count
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.prefixes import (
    LLMContext,
    article_path_chunks,
    fit_prefix,
    offline_context,
    prefix_tokens,
    with_context,
)
from chunklab.chunkers.structural import StructuralChunker
from chunklab.parsing.blocks import with_explicit_headings


def test_the_articles_path_prefix_nests_siblings_and_the_fix_does_not(manual):
    article = [c.metadata["path"] for c in article_path_chunks(manual)]
    fixed = [c.metadata["path"] for c in article_path_chunks(manual, fixed=True)]
    # The article's printed output, reproduced: "2." sits under "1.", and "3." under both.
    assert article[2] == "MANUAL DE OPERAÇÕES > 1. Escopo > 2. Frequência"
    assert article[3] == "MANUAL DE OPERAÇÕES > 1. Escopo > 2. Frequência > 3. Tabela de tolerância"
    assert fixed[1:] == [
        f"MANUAL DE OPERAÇÕES > {t}"
        for t in ("1. Escopo", "2. Frequência", "3. Tabela de tolerância", "4. Registro")
    ]
    for c in article_path_chunks(manual, fixed=True):
        body = c.text.split("\n", 1)[1]
        assert manual.text[c.start : c.end] == body


def test_the_fixed_path_cuts_by_level_when_a_depth_is_skipped():
    from chunklab.contracts import Document

    text = "GUIDE\n\n2. Start\nIntro.\n\n2.1.1 Deep\nOne.\n\n2.1.2 Deeper\nTwo.\n\n3. End\nBye."
    paths = [
        c.metadata["path"]
        for c in article_path_chunks(
            Document(doc_id="g", uri="g.txt", title="GUIDE", text=text), fixed=True
        )
    ]
    # 2.1.2 is 2.1.1's sibling under "2. Start", not its child (the stack cut by place nested it)
    assert paths == [
        "GUIDE",  # the title line is a paragraph of its own, as in the article
        "GUIDE > 2. Start",
        "GUIDE > 2. Start > 2.1.1 Deep",
        "GUIDE > 2. Start > 2.1.2 Deeper",
        "GUIDE > 3. End",
    ]


def test_the_markdown_chunkers_path_comes_from_the_section_tree(manual):
    chunks = MarkdownChunker(max_tokens=200).split(with_explicit_headings(manual))
    prefixes = [c.metadata["prefix"] for c in chunks]
    assert "MANUAL DE OPERAÇÕES > 2. Frequência" in prefixes
    assert not any("1. Escopo > 2." in p for p in prefixes)


@pytest.mark.parametrize("prefix", ["path", "none", "context"])
def test_every_prefix_counts_inside_the_budget(prefix):
    doc = load_document("work_schedules")
    for max_tokens in (8, 30, 120):
        chunks = MarkdownChunker(max_tokens=max_tokens, prefix=prefix).split(doc)
        assert all(c.token_count == cl100k(c.text) <= max_tokens for c in chunks)
        assert all(c.text.startswith(c.metadata["prefix"]) for c in chunks)


def test_no_prefix_keeps_heading_lines_as_written():
    doc = load_document("travel_policy")
    chunks = MarkdownChunker(max_tokens=200, prefix="none").split(doc)
    assert chunks[0].text.startswith("# Travel Policy\n\nApplies")
    assert all(c.metadata["prefix"] == "" for c in chunks)


def test_offline_context_says_title_path_and_lead():
    doc = load_document("travel_policy")
    table = next(c for c in MarkdownChunker(max_tokens=200).split(doc) if "| Tokyo |" in c.text)
    context = offline_context(doc, table)
    assert context.startswith("From Travel Policy, section International Travel > Per diem.")
    # The chunk already holds its section's lead, so it is not repeated.
    assert "Per diem covers meals" in table.text and "begins" not in context
    row_only = table.model_copy(
        update={"text": "| Tokyo | 90 | 280 |", "start": doc.text.index("| Tokyo |")}
    )
    assert "The section begins: Per diem covers meals and incidentals." in offline_context(
        doc, row_only
    )


def test_with_context_works_for_any_chunker_and_keeps_the_budget(manual):
    chunks = StructuralChunker(size=200, repack=True).split(manual)
    glued = with_context(chunks, manual, count_tokens=word_count, max_tokens=45)
    assert len(glued) == len(chunks)
    for before, after in zip(chunks, glued, strict=True):
        assert after.text.endswith(before.text) and (after.start, after.end) == (
            before.start,
            before.end,
        )
        assert after.token_count == word_count(after.text)
        assert after.token_count <= max(45, before.token_count)
    assert sum(prefix_tokens(glued, word_count)) > 0


def test_fit_prefix_cuts_at_a_word_and_says_so():
    assert fit_prefix("one two three", lambda p: True) == "one two three"
    assert fit_prefix("one two three four", lambda p: len(p.split()) <= 3) == "one two …"
    assert fit_prefix("one two", lambda p: False) == ""


def test_the_llm_hook_builds_a_prompt_and_uses_the_reply(manual):
    prompts = []

    def fake_model(prompt: str) -> str:  # stands in for a provider's SDK; no network here
        prompts.append(prompt)
        return "  The tolerance table\nof the maintenance manual. "

    chunks = MarkdownChunker(
        max_tokens=60, prefix="context", contextualize=LLMContext(fake_model)
    ).split(with_explicit_headings(manual))
    assert len(prompts) == len(chunks)
    assert manual.text.splitlines()[2] in prompts[0] and "<chunk>" in prompts[0]
    assert all(
        c.text.startswith("The tolerance table of the maintenance manual.")
        for c in chunks
        if c.token_count < 50
    )


def test_cli_prefix_option(tmp_path):
    done = run_cli(
        "chunk", "data/travel_policy.md", "--strategy", "markdown", "--prefix", "context"
    )
    assert done.returncode == 0, done.stderr
    assert b"From Travel Policy" in done.stdout
    done = run_cli("chunk", "data/manual.md", "--strategy", "fixed", "--prefix", "path")
    assert (
        done.returncode == 2
        and b"--prefix does not apply to --strategy fixed (it applies to: markdown)" in done.stderr
    )


def test_a_cut_prefix_never_ends_on_a_label_with_nothing_after_it():
    from chunklab.chunkers.prefixes import fit_prefix

    prefix = "From Travel Policy, section Per diem. The section begins: Per diem covers meals."
    assert fit_prefix(prefix, lambda p: len(p) <= 60) == "From Travel Policy, section Per diem."
    assert (
        fit_prefix(prefix, lambda p: len(p) <= 64)
        == "From Travel Policy, section Per diem. The section begins: Per …"
    )
    assert fit_prefix(prefix, lambda p: len(p) <= 90) == prefix


def test_the_fixed_path_warns_of_titles_alone_in_no_chunk():
    """One-line list items read as titles alone, each replaced by the next, are text in no
    chunk: the fixed rule says so instead of dropping them in silence."""
    import pytest

    from chunklab.contracts import Document

    text = "M\n\n1. Escopo\nTexto.\n\n2. Passos\nAntes:\n\n1. Desligue.\n\n2. Meça.\n\n3. Fim\nFim."
    doc = Document(doc_id="l", uri="l.txt", title="M", text=text)
    with pytest.warns(UserWarning, match=r"2 numbered lines .* \['1\. Desligue\.', '2\. Meça\.'\]"):
        chunks = article_path_chunks(doc, fixed=True)
    assert not any("Desligue" in c.text for c in chunks)
