"""Help that keeps up with the code: every argument explains itself, and what a command reads is
named from the one declaration of the suffixes (issue 27: `experiment --help` still said "a folder
of Markdown files" after HTML, Word and PDF were read; `search`'s question had no help at all)."""

import argparse

import pytest

from chunklab.cli import build_parser
from chunklab.documents.files import DOCUMENT_SUFFIXES


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


@pytest.mark.parametrize("command", sorted(subcommands()))
def test_every_argument_of_every_command_has_help(command):
    parser = subcommands()[command]
    silent = [
        a.dest
        for a in parser._actions
        if not isinstance(a, argparse._HelpAction) and not (a.help or "").strip()
    ]
    assert silent == [], f"{command}: arguments without help: {silent}"


@pytest.mark.parametrize("command, dest", [("index", "paths"), ("experiment", "docs")])
def test_where_a_command_reads_documents_its_help_names_every_suffix(command, dest):
    action = next(a for a in subcommands()[command]._actions if a.dest == dest)
    assert all(suffix in action.help for suffix in DOCUMENT_SUFFIXES), action.help
    assert "Markdown files" not in action.help


@pytest.mark.parametrize("command", ["chunk", "index"])
def test_where_a_strategy_reads_source_files_the_help_names_every_code_suffix(command):
    from chunklab.parsing.languages import CODE_SUFFIXES

    action = next(a for a in subcommands()[command]._actions if a.dest == "paths")
    assert "--strategy code" in action.help
    assert all(suffix in action.help for suffix in CODE_SUFFIXES), action.help
