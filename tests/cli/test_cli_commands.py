"""The command registry: every command has its one line in ``COMMANDS``, is loaded only when
run, and ``tribes --help`` (answered without click) reads exactly as click would write it."""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

import tribes.cli
from tribes import games
from tribes.cli import commands
from tribes.cli.main import main
from tribes.testing import cli as testing_cli


def _command_modules() -> list[str]:
    return [f"tribes.cli.{m.name}" for m in pkgutil.iter_modules(tribes.cli.__path__)]


def test_every_command_of_the_cli_has_its_line():
    defined: dict[int, tuple[str, click.Command]] = {}
    inside: set[int] = set()
    for name in _command_modules():
        module = importlib.import_module(name)
        for attribute, value in vars(module).items():
            if isinstance(value, click.Command) and value is not main:
                defined[id(value)] = (f"{name}:{attribute}", value)
                if isinstance(value, click.Group):
                    inside.update(id(c) for c in value.commands.values())
    top = {where for key, (where, _) in defined.items() if key not in inside}
    assert top == {where for where, _ in commands.COMMANDS.values()}
    for name, (where, short_help) in commands.COMMANDS.items():
        command = main.get_command(click.Context(main), name)
        assert command is not None and command.name == name, where
        assert command.get_short_help_str() == short_help


def test_every_command_has_its_row_in_docs_commands_md():
    """docs/commands.md lists every command ``tribes --help`` does, by name and in its words,
    each once, in name order: a new command (one line in ``COMMANDS``) needs its row there."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "commands.md"
    head = "| command | what it does | read more |"
    lines = docs.read_text().splitlines()
    rows = lines[lines.index(head) + 2 :]
    rows = rows[: next((i for i, line in enumerate(rows) if not line.startswith("|")), len(rows))]
    listed = [tuple(cell.strip() for cell in row.strip("|").split("|")[:2]) for row in rows]
    assert listed == [
        (f"`{name}`", commands.COMMANDS[name][1]) for name in sorted(commands.COMMANDS)
    ]


def _loaded_after(*args: str) -> list[str]:
    code = (
        "import json, sys\n"
        f"sys.argv = ['tribes', *{list(args)!r}]\n"
        "from tribes.cli import run\n"
        "try:\n    run()\nexcept SystemExit:\n    pass\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def test_help_loads_neither_click_nor_a_command_nor_a_game():
    loaded = _loaded_after("--help")
    assert not {"click", "attrs", "typing"} & set(loaded)  # typing alone costs ~40 M instructions
    assert [m for m in loaded if m.startswith("tribes.")] == [
        "tribes.cli",
        "tribes.cli.commands",
        "tribes.core",
        "tribes.core.errors",
        "tribes.games",
    ]


def test_help_names_every_registered_game():
    text = commands.help_text(78)
    assert text is not None
    named = " ".join(text.split("Options:")[0].split())
    assert named.endswith(f"Games: {', '.join(games.names())}.")
    assert "three" not in named


def test_a_command_loads_its_own_module_and_no_other_command():
    loaded = set(_loaded_after("rules", "--help"))
    assert "tribes.cli.rules" in loaded
    others = set(_command_modules()) - {
        "tribes.cli.rules",
        "tribes.cli.main",
        "tribes.cli.commands",
        "tribes.cli.failures",
    }
    assert not loaded & others, sorted(loaded & others)


SHOW_NEVER = (
    "tribes.replay.corpus",
    "tribes.replay.batch",
    "tribes.replay.parallel",
    "tribes.replay.simulate",
    "tribes.replay.stats",
    "tribes.replay.sweep",
    "tribes.replay.appending",
)
"""What ``show`` of one log must not load (docs/performance.md): the corpus, batch, simulation
and parallel machinery, and appending (a path with ``#`` loads the corpus reader, only then)."""


def test_show_loads_its_own_module_and_no_machinery_of_many_games(cli):
    path = cli.new()
    cli.play(path, 3)
    loaded = set(_loaded_after("show", str(path)))
    assert "tribes.cli.quick" in loaded
    shared = {"tribes.cli.quick", "tribes.cli.commands"}
    others = set(_command_modules()) - shared
    wrong = sorted(m for m in loaded if m.startswith(SHOW_NEVER) or m in others)
    assert not wrong, wrong


def test_act_on_a_log_loads_no_corpus_machinery(cli):
    """``act`` on a log appends to it (a path with ``#`` loads the corpus machinery, to refuse
    a game of a corpus, only then): its ~40 M instructions are not paid by every move."""
    path = cli.new()
    first = testing_cli.run_process("moves", str(path)).stdout.split()[0]
    loaded = set(_loaded_after("act", str(path), first))
    assert "tribes.replay.appending" in loaded
    assert not {m for m in loaded if m.startswith(("tribes.events.corpus", "tribes.replay.corpus"))}


@pytest.mark.parametrize("command", ["show", "moves"])
def test_the_script_loads_a_commands_modules_then_freezes_them_and_collects_as_ever(cli, command):
    """``tribes.cli.run`` loads a command's modules with the collector off, then freezes what
    is alive (start-up: ~34 M instructions of ``show``); the command runs with it on."""
    path = cli.new()
    code = (
        "import gc, sys\n"
        f"sys.argv = ['tribes', {command!r}, {str(path)!r}]\n"
        "from tribes.cli import run\n"
        "try:\n    run()\nexcept SystemExit:\n    pass\n"
        "print(gc.isenabled(), gc.get_freeze_count() > 1000, 'tribes.cli.play' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == f"True True {command == 'moves'}"


@pytest.mark.parametrize("width", [50, 52, 60, 64, 70, 77, 78, 100])
def test_help_without_click_is_clicks_to_the_byte(width):
    ours = commands.help_text(width)
    ctx = click.Context(main, info_name="tribes", terminal_width=width)
    assert ours is None or ours == main.get_help(ctx) + "\n"
    if width == 78:  # the width of any terminal of 80 columns or more, and of no terminal
        assert ours is not None


def test_help_in_a_process_is_the_same_as_clicks():
    fast = testing_cli.run_process("--help", env={"COLUMNS": "120"}).stdout
    ctx = click.Context(main, info_name="tribes", terminal_width=78)
    assert fast == main.get_help(ctx) + "\n"


@pytest.mark.parametrize("game", games.BUILT_IN)
def test_show_of_a_log_loads_no_corpus_machinery_and_no_other_game(tmp_path, game):
    """What ``show`` loads is its start-up time (issue 19): a log of one game is read without
    the corpus, batch, simulation and parallel modules, without ``secrets`` (and what it
    imports: a temporary name is ``os.urandom``'s), without ``importlib.resources`` (a game's
    data files are read by ``pkgutil.get_data``), without the games the log is not of, without
    cattrs (the codec's plain path reads a well-formed log) and without hashlib (BLAKE2b is
    ``_blake2``'s)."""
    log = tmp_path / "small.tribes"
    testing_cli.run_process("new", game, "--seed", "7", "-o", str(log))
    loaded = set(_loaded_after("show", str(log)))
    assert "tribes.cli.quick" in loaded and f"tribes.games.{game}.rules" in loaded
    others = tuple(f"tribes.games.{g}" for g in games.BUILT_IN if g != game)
    unwanted = {
        m
        for m in loaded
        if m.startswith(("tribes.events.corpus", "tribes.replay.corpus", *others))
        or m in {"tribes.replay.batch", "tribes.replay.simulate", "tribes.replay.parallel"}
        or m in {"secrets", "importlib.resources", "tempfile", "zipfile"}
        or m in {"cattrs", "hashlib"}  # a plain log is read by the codec's plain path; _blake2
    }
    assert not unwanted, sorted(unwanted)


def test_a_plain_show_or_log_loads_no_click_and_any_other_form_loads_it(tmp_path):
    """``show LOG`` with ``--at``, ``--as``, ``--json`` or ``--svg``, and ``log LOG`` with
    ``--as``, ``--json`` or ``--states``, are answered without click (``tribes.cli.quick``:
    ~46 M instructions less); any other form, and any error, by click (tests/cli/test_quick.py:
    the same answers, to the byte)."""
    log = tmp_path / "small.tribes"
    testing_cli.run_process("new", "clans", "--seed", "7", "-o", str(log))
    plain = set(_loaded_after("show", str(log), "--at", "0", "--as", "spectator", "--json"))
    assert not {"click", "tribes.cli.main", "tribes.cli.common", "tribes.cli.reading"} & plain
    for other in (["--at=0"], ["--at", "x"], ["-o", str(tmp_path / "x.svg"), "--svg"]):
        assert "tribes.cli.reading" in _loaded_after("show", str(log), *other), other
    assert "click" in _loaded_after("show", str(tmp_path / "missing.tribes"))
    plain = set(_loaded_after("log", str(log), "--json", "--states", "--as", "spectator"))
    assert not {"click", "tribes.cli.main", "tribes.cli.common", "tribes.cli.reading"} & plain
    assert "click" in _loaded_after("log", str(log), "--at", "1")
