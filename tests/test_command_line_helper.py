"""`teaching.command_line.ScratchFolder`: the command run in its own process and in this one
prints the same, paths relative to the folder, and the folder is gone after `close()`."""

import pytest

from chunklab.cli import main
from chunklab.teaching.command_line import ScratchFolder


def _index_twice(folder: ScratchFolder) -> list[str]:
    folder.write("docs/note.md", "# Note\n\nThe daily limit is 90 USD.\n")
    args = ["index", "docs", "--db", "team.sqlite", "--counter", "approx"]
    return [folder.run(*args), folder.run(*args)]


def test_in_this_process_prints_what_its_own_process_prints(capsys):
    with ScratchFolder() as own, ScratchFolder(main) as here:
        assert _index_twice(own) == _index_twice(here)
        root = here.root
    printed = capsys.readouterr().out
    assert printed.count("$ chunklab index docs --db team.sqlite") == 4
    assert "indexed 1 document," in printed and "1 unchanged, skipped" in printed
    assert str(root) not in printed and not root.exists()


def test_a_failing_command_raises_in_both_ways():
    for command in (None, main):
        with ScratchFolder(command) as folder, pytest.raises((RuntimeError, SystemExit)):
            folder.run("search", "missing.sqlite", "anything")
