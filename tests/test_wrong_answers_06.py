"""Notebook 06's exercises refuse plausible wrong answers with a hint naming what is wrong, and
accept every correct form (issue 29, item 3). 06.2's unseen documents reach level 2.1 and deeper,
so a hard-coded level, the article's value rule, an off-by-one stack or a pattern that never
reads "2.1" all fail."""

import re

import pytest

from chunklab.teaching.exercises import verdict

ARTICLE_TITLE = r"^(\d+)\.\s+(.*)$"
ANY_TITLE = r"^(\d+\.(?:\d+\.)*(?:\d+)?)\s+(.*)$"


def path_chunks(text, pattern, level_of, keep=lambda level: level - 1, entry=None):
    title, stack, out = text.splitlines()[0].strip(), [], []
    for paragraph in (p.strip() for p in text.split("\n\n")):
        if not paragraph:
            continue
        lines = paragraph.splitlines()
        heading = re.match(pattern, lines[0])
        if heading and not paragraph.startswith("|"):
            number = heading.group(1)
            written = entry(number, heading.group(2)) if entry else f"{number} {heading.group(2)}"
            stack = stack[: keep(level_of(number))] + [written]
            paragraph = "\n".join(lines[1:]).strip()
            if not paragraph:
                continue
        out.append(" > ".join([title, *stack]) + "\n" + paragraph)
    return out


def depth(number):
    return number.rstrip(".").count(".") + 1


WRONG = {
    # the article's rule: the value of the number is the level
    "value": lambda t: path_chunks(
        t, ARTICLE_TITLE, lambda n: int(n), entry=lambda n, s: f"{n}. {s}"
    ),
    # the example: level = 1 always, with the article's pattern (passes on the manual)
    "hard-coded level 1": lambda t: path_chunks(
        t, ARTICLE_TITLE, lambda n: 1, entry=lambda n, s: f"{n}. {s}"
    ),
    # depth right, but the pattern never reads "2.1" as a title
    "depth, article's pattern": lambda t: path_chunks(
        t, ARTICLE_TITLE, lambda n: len(n.split(".")), entry=lambda n, s: f"{n}. {s}"
    ),
    # reads "2.1" but keeps level 1
    "hard-coded level 1, any title": lambda t: path_chunks(t, ANY_TITLE, lambda n: 1),
    # counts dots, so "2.1" (one dot) is level 1 and "2." level 1 too
    "dots counted": lambda t: path_chunks(t, ANY_TITLE, lambda n: n.count(".")),
    # keeps one level too many of the stack
    "off by one": lambda t: path_chunks(t, ANY_TITLE, depth, keep=lambda level: level),
}


@pytest.mark.parametrize("name", sorted(WRONG))
def test_06_2_refuses_each_plausible_wrong_answer_with_a_hint(name):
    result = verdict("06.2", WRONG[name])
    assert not result.passed, name
    assert re.search(
        r"parts: it sits at level \d|not its value|the path should be|stack\[: level - 1\]"
        r"|did not read",
        result.message,
    )


def test_06_2_tells_the_value_rule_from_a_stack_kept_one_level_too_long():
    """Both nest '2.' under '1.'; the hint names the slip each one made."""
    assert "not its value" in verdict("06.2", WRONG["value"]).message
    off = verdict("06.2", WRONG["off by one"]).message
    assert "stack[: level - 1]" in off and "not its value" not in off, off


def test_06_2_a_pattern_slip_with_a_trailing_dot_counted_is_not_named_a_stack_slip_alone():
    """A pattern that reads only '2.' (dot captured) with level len(n.split('.')) nests siblings
    just as a stack cut one level too long does; with '1.1' unread no probe tells them apart, so
    the hint names both."""

    def dot_counted(text):
        return path_chunks(text, r"^(\d+\.)\s+(.*)$", lambda n: len(n.split(".")))

    message = verdict("06.2", dot_counted).message
    assert "a trailing dot is counted as a part" in message, message


def test_06_2_a_title_rewritten_is_told_to_keep_its_number_as_written():
    def no_dot(text):
        return path_chunks(text, ANY_TITLE, depth, entry=lambda n, s: f"{n.rstrip('.')} {s}")

    assert "as it is numbered" in verdict("06.2", no_dot).message


def test_06_2_the_hard_coded_level_is_told_about_the_subsection():
    result = verdict("06.2", WRONG["hard-coded level 1, any title"])
    assert "parts: it sits at level" in result.message, result.message


def test_06_2_accepts_the_depth_rule_written_another_way():
    assert verdict("06.2", _by_level).passed
    assert verdict("06.2", lambda t: tuple(_by_level(t))).passed


def _title(heading):
    """The title: the leading '#' marks and a closing run of '#' after a space dropped."""
    return re.sub(r"\s+#+$", "", heading.lstrip("#").strip())


def _title_by_words(heading):
    """The title another way: the words after the marks, a last word of only '#' dropped."""
    words = heading.split()[1:]
    return " ".join(words[:-1] if len(words) > 1 and set(words[-1]) == {"#"} else words)


def _paths(level_of, title_of=_title):
    """The rule: a stack of (level, title); a level-L heading drops those of level L or deeper."""

    def heading_paths(headings):
        stack, out = [], []
        for heading in headings:
            level = level_of(heading)
            stack = [(lv, t) for lv, t in stack if lv < level] + [(level, title_of(heading))]
            out.append(" > ".join(t for _, t in stack))
        return out

    return heading_paths


def _sliced(keep):
    """The path cut by position, path[: keep(level)]: wrong once a level is skipped."""

    def heading_paths(headings):
        path, out = [], []
        for heading in headings:
            path = path[: keep(_marks(heading))] + [heading.lstrip("#").strip()]
            out.append(" > ".join(path))
        return out

    return heading_paths


def _marks(heading):
    return len(heading) - len(heading.lstrip("#"))


def test_06_1_accepts_the_rule_and_names_each_slip():
    """The breadcrumb written by hand: any correct rule passes; a stack cut one level too long,
    a path that only grows, '#' counted anywhere in the line, and a title left with its '#'
    marks, and a title stripped of '#' at both ends, are each refused with the hint for
    that slip."""
    assert verdict("06.1", _paths(_marks)).passed
    by_split = _paths(lambda h: len(h.partition(" ")[0]), title_of=_title_by_words)
    assert verdict("06.1", by_split).passed
    message = verdict("06.1", _sliced(keep=lambda level: level)).message
    assert "drops every title of level L or deeper" in message, message
    grows = _sliced(keep=lambda level: None)
    assert "only grows" in verdict("06.1", grows).message
    assert "only the leading '#'" in verdict("06.1", _paths(lambda h: h.count("#"))).message
    raw = _paths(_marks, title_of=lambda h: h)
    assert "without its leading '#'" in verdict("06.1", raw).message
    both_ends = _paths(_marks, title_of=lambda h: h.strip("#").strip())  # 'C#' loses its '#'
    assert "strip('#') also eats a '#' that ends a title" in verdict("06.1", both_ends).message


def _per_level_dict(headings):  # each level's title kept in a dict, deeper levels never cleared
    titles, out = {}, []
    for heading in headings:
        titles[_marks(heading)] = heading.lstrip("#").strip()
        above = sorted(level for level in titles if level <= _marks(heading))
        out.append(" > ".join(titles[level] for level in above))
    return out


def test_06_1_refuses_the_path_cut_by_position_on_a_skipped_level():
    """path[: level - 1] cuts by a title's place, not its level: on ['# A', '### C', '### D'] it
    gives 'A > C > D' where MarkdownChunker(prefix='path') gives 'A > D'. The checker holds a
    sibling at a skipped level, and its hint names the place-for-level slip."""
    result = verdict("06.1", _sliced(keep=lambda level: level - 1))
    assert not result.passed, "path[: level - 1] passed: no case has a sibling at a skipped level"
    assert "cuts by place" in result.message and "'A > D'" in result.message, result.message


def test_06_1_reference_agrees_with_the_library_on_skipped_levels():
    from chunklab import load_document
    from chunklab.chunkers.markdown import MarkdownChunker
    from chunklab.teaching.exercises_prefixes import heading_paths_of

    marks = ["##", "####", "###", "####", "#", "###", "###"]
    text = "\n\n".join(f"{m} {t}\n\nbody" for m, t in zip(marks, "ABCDEFG", strict=True))
    doc = load_document("manual_md").model_copy(update={"text": text})
    chunks = MarkdownChunker(max_tokens=200, prefix="path").split(doc)
    library = [c.metadata["prefix"] for c in chunks]
    headings = [line for line in text.split("\n") if line.startswith("#")]
    assert heading_paths_of(headings) == library, library


def test_06_1_refuses_a_per_level_dict_that_keeps_deeper_levels():
    """['# A', '## B', '### C', '## D', '#### F'] gives 'A > D > C > F' with a dict of titles by
    level that is never cleared: real Markdown skips levels, so the checker must hold one."""
    result = verdict("06.1", _per_level_dict)
    assert not result.passed and "clears every level below L" in result.message, result.message


def test_06_1_names_a_separator_slip():
    no_spaces = _paths(_marks)
    message = verdict("06.1", lambda hs: [p.replace(" > ", ">") for p in no_spaces(hs)]).message
    assert "a space either side" in message, message


def test_06_1_names_every_hash_removed():
    """replace('#', '') takes the '#' out of 'C# x' too: the hint names that slip, not only the
    path expected."""
    everywhere = _paths(_marks, title_of=lambda h: h.replace("#", "").strip())
    message = verdict("06.1", everywhere).message
    assert "replace('#', '') also removes a '#' inside a title" in message


def test_06_2_names_a_trailing_dot_counted_as_a_part():
    """split(".") keeps an empty part after "2.", so every section sits one level too deep."""
    trailing = verdict("06.2", lambda t: path_chunks(t, ANY_TITLE, lambda n: len(n.split("."))))
    assert "a trailing dot is not a part" in trailing.message, trailing.message
    off = verdict("06.2", WRONG["off by one"]).message
    assert "trailing dot" not in off, off


def test_06_2_names_a_number_without_a_dot_read_as_a_title():
    def no_dot(text):
        return path_chunks(
            text, r"^(\d+(?:\.\d+)*\.?)\s+(.*)$", lambda n: len([p for p in n.split(".") if p])
        )

    result = verdict("06.2", no_dot)
    assert "a title's number needs a dot" in result.message, result.message
    # the first wrong chunk is the one the dotless paragraph should have been: no other slip first
    assert "as it is numbered" not in result.message, result.message


def test_06_2_names_a_number_rewritten_with_a_dot():
    def with_dot(text):
        return path_chunks(text, ANY_TITLE, depth, entry=lambda n, s: f"{n.rstrip('.')}. {s}")

    result = verdict("06.2", with_dot)
    assert "keep the number as written" in result.message, result.message
    assert "sits at level" not in result.message


def test_06_2_names_a_subsection_title_left_in_the_body():
    for name in ("depth, article's pattern", "hard-coded level 1"):
        message = verdict("06.2", WRONG[name]).message
        shown = re.search(r"should be '[^']*?> ([0-9.]+ [^\\>]+?)\\n", message)
        assert shown, message
        assert f"did not read {shown.group(1)!r} as a title" in message, (name, message)


def test_06_1_refuses_cell_9s_stack_copied_and_names_the_closing_run():
    """Cell 9's two stack lines passed 06.1 copied: its lstrip('#') keeps a closing run, which
    CommonMark and MarkdownChunker's path drop ('## B ##' is 'B'). The checker holds one."""
    copied = _paths(_marks, title_of=lambda h: h.lstrip("#").strip())
    result = verdict("06.1", copied)
    assert not result.passed, "cell 9's stack, copied, passed: no heading has a closing run"
    assert "closing run of '#'" in result.message and "'## B ##'" in result.message, result.message
    by_regex = _paths(
        _marks, title_of=lambda h: re.fullmatch(r"#+\s*(.*?)(?:\s+#+)?\s*", h).group(1)
    )
    assert verdict("06.1", by_regex).passed


def test_06_1_reference_drops_a_closing_run_as_the_library_does():
    from chunklab import load_document
    from chunklab.chunkers.markdown import MarkdownChunker
    from chunklab.teaching.exercises_prefixes import heading_paths_of

    headings = ["# A", "## B ##", "### C# #", "## D ## x"]
    text = "\n\n".join(f"{h}\n\nbody" for h in headings)
    doc = load_document("manual_md").model_copy(update={"text": text})
    chunks = MarkdownChunker(max_tokens=200, prefix="path").split(doc)
    assert heading_paths_of(headings) == [c.metadata["prefix"] for c in chunks]


def test_06_2_refuses_the_library_wrapped():
    """article_path_chunks(doc, fixed=True) is the checker's own reference: an answer that wraps
    it passed without the level rule. It is refused with a hint naming the call."""
    from chunklab.chunkers.prefixes import article_path_chunks
    from chunklab.contracts import Document

    def wrapped(text):
        doc = Document(doc_id="x", uri="urn:x", title="", text=text)
        return [c.text for c in article_path_chunks(doc, fixed=True)]

    result = verdict("06.2", wrapped)
    assert not result.passed and "article_path_chunks" in result.message, result.message


def test_06_1_refuses_the_library_wrapped():
    """MarkdownChunker(prefix='path') writes the breadcrumb: an answer that gives each heading a
    body and reads the chunks' prefixes passed without the stack rule. It is refused."""
    from chunklab import load_document
    from chunklab.chunkers.markdown import MarkdownChunker

    def wrapped(headings):
        doc = load_document("manual_md").model_copy(
            update={"text": "\n\n".join(f"{h}\n\nx" for h in headings)}
        )
        return [c.metadata["prefix"] for c in MarkdownChunker(prefix="path").split(doc)]

    result = verdict("06.1", wrapped)
    assert not result.passed and "build_outline" in result.message, result.message


def test_06_2_names_a_trailing_dot_counted_not_the_stack_when_subsections_are_right():
    """A pattern that reads '2.1' and also '30' with depth len(n.split('.')): '2.' counts two
    parts, so siblings nest, yet '1.1' sits right. The old hint blamed the slice, stack[: level],
    which is right here."""
    pattern = r"^(\d+(?:\.\d+)*\.?)\s+(.*)$"
    slip = lambda t: path_chunks(t, pattern, lambda n: len(n.split(".")))  # noqa: E731
    message = verdict("06.2", slip).message
    assert "trailing dot is not a part" in message and "not stack[: level]" not in message, message


def test_06_1_names_rstrip_without_saying_only_the_leading_marks():
    """rstrip('#') takes the '#' of 'C#': the exercise asks to drop a closing run too, so the hint
    must not say to remove only the leading marks."""
    r = _paths(_marks, title_of=lambda h: h.lstrip("#").strip().rstrip("#").strip())
    message = verdict("06.1", r).message
    assert "rstrip('#') also eats a '#' that ends a title" in message, message
    assert "remove only the leading" not in message, message


def test_06_2_a_dot_dropped_from_the_number_is_named_before_the_dotless_probe():
    """A pattern with an optional dot, outside the number, reads '30 dias' as a title and writes
    '1. Ruído' as '1 Ruído': the chunk shown differs by the dropped dot, so that slip is named
    first, the dotless-title probe after it."""

    def dot_optional(text):
        return path_chunks(text, r"^(\d+(?:\.\d+)*)\.?\s+(.*)$", lambda n: n.count(".") + 1)

    message = verdict("06.2", dot_optional).message
    assert "keep the number as written" in message, message
    assert "and also: '30 dias. B.' is text" in message, message


def _by_level(text):
    """The depth rule with the stack cut by level: the entries of a lower level stay."""
    title, stack, out = text.splitlines()[0].strip(), [], []
    for paragraph in (p.strip() for p in text.split("\n\n")):
        if not paragraph:
            continue
        lines = paragraph.splitlines()
        heading = re.match(ANY_TITLE, lines[0])
        if heading and not paragraph.startswith("|"):
            level = depth(heading.group(1))
            stack = [(lv, t) for lv, t in stack if lv < level]
            stack.append((level, f"{heading.group(1)} {heading.group(2)}"))
            paragraph = "\n".join(lines[1:]).strip()
            if not paragraph:
                continue
        out.append(" > ".join([title, *(t for _, t in stack)]) + "\n" + paragraph)
    return out


def test_06_2_refuses_a_stack_cut_by_place_when_a_depth_is_skipped():
    """The depth right but the starter's stack[: level - 1] kept: '1.1.2' nests under its sibling
    '1.1.1' once '1.1' is skipped. It passed all 20 drawn documents; the skipped-depth case and
    its hint catch it."""
    message = verdict("06.2", lambda t: path_chunks(t, ANY_TITLE, depth)).message
    assert "a depth can be skipped" in message and "cuts by place" in message, message
