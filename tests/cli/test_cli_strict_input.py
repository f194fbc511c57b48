"""Issue 31, section 3: strict input, no silent choices. A key twice in any JSON tribes reads; one
rule for every writer of a log reached through a symbolic link (refused, as corpora do); text a
user typed echoed escaped; a failed ``simulate --save`` leaves no empty corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from tribes.games.clans import board as clans_board
from tribes.testing.cli import Cli

# --- a key twice ----------------------------------------------------------------------------------


@pytest.fixture
def json_log(cli: Cli) -> Path:
    path = cli.new("g.json")
    cli.play(path, 2)
    return path


def _twice(path: Path, key: str, first: str) -> Path:
    """``path`` with ``"key": first`` written before the first ``"key": `` of it."""
    text = path.read_text()
    at = text.index(f'"{key}": ')
    doubled = path.with_name(f"twice-{path.name}")
    doubled.write_text(text[:at] + f'"{key}": {first}, ' + text[at:])
    return doubled


def test_a_json_log_with_a_key_twice_is_refused_naming_it(cli: Cli, json_log: Path) -> None:
    doubled = _twice(json_log, "seed", "5")
    for args in (("show", doubled), ("log", doubled), ("import", doubled, "-o", "x.tribes")):
        line = cli.fails(*args)
        assert "key 'seed' appears twice in one object" in line, args
    assert "key 'seed' appears twice" in cli.run("verify", doubled).stdout
    assert not cli.path("x.tribes").exists()


def test_a_json_log_of_the_same_key_in_two_objects_is_read(cli: Cli, json_log: Path) -> None:
    assert cli.ok("verify", json_log).startswith("ok")  # "move" in every event, once each


def test_a_position_with_a_key_twice_is_refused_naming_it(cli: Cli) -> None:
    cli.new("start.tribes")
    cli.ok("position", "start.tribes", "-o", "start.json")
    doubled = _twice(cli.path("start.json"), "chips", '{"p1": 5}')
    line = cli.fails("new", "clans", "--position", doubled, "-o", "x.tribes")
    assert "key 'chips' appears twice in one object" in line
    assert not cli.path("x.tribes").exists()


def test_an_option_file_with_a_key_twice_is_refused_naming_it(cli: Cli) -> None:
    board = cli.path("board.json")
    board.write_text((Path(clans_board.__file__).parent / "data" / "board.json").read_text())
    doubled = _twice(board, "name", '"x"')
    line = cli.fails("new", "clans", "--option", f"board={doubled}", "-o", "x.tribes", code=2)
    assert "key 'name' appears twice in one object" in line


# --- logs reached through a symbolic link ---------------------------------------------------------


@pytest.fixture(params=["g.tribes", "g.json"])
def linked(cli: Cli, request: pytest.FixtureRequest) -> tuple[Path, Path]:
    """A log of 2 moves (appended one at a time) and a link to it."""
    real = cli.new(request.param)
    cli.play(real, 2)
    link = cli.path(f"link{real.suffix}")
    link.symlink_to(real.name)
    return real, link


def _refused_through(cli: Cli, real: Path, link: Path, *args: object) -> None:
    before = real.read_bytes()
    line = cli.fails(*args)
    assert "is a symbolic link" in line and "never through a link" in line, line
    assert link.is_symlink() and link.readlink() == Path(real.name)
    assert real.read_bytes() == before


def test_every_writer_of_a_log_in_place_refuses_a_link(cli: Cli, linked: tuple[Path, Path]):
    real, link = linked
    move = cli.moves(real)[0]
    _refused_through(cli, real, link, "act", link, move)
    _refused_through(cli, real, link, "tag", link, "event=club")
    _refused_through(cli, real, link, "tag", link, "--remove", "event")
    _refused_through(cli, real, link, "note", link, 1, "a note")
    _refused_through(cli, real, link, "undo", link)
    _refused_through(cli, real, link, "undo", link, "--moves", 1)
    if real.suffix == ".tribes":
        _refused_through(cli, real, link, "repair", link)
    assert not list(cli.root.glob("*.undone*")) and not list(cli.root.glob("*.torn*"))
    cli.ok("act", real, move)  # the file itself, by its own name, takes them
    cli.ok("undo", real)


def test_a_link_at_a_new_file_s_name_is_refused_or_replaced_itself(cli: Cli) -> None:
    real = cli.new("g.tribes")
    cli.play(real, 2)
    before = real.read_bytes()
    cli.ok("export", real, "--json", "-o", "e.json")
    writers = [
        ("import", "e.json", "-o", "out.tribes"),
        ("export", real, "--json", "-o", "out.json"),
        ("fork", real, "--at", 1, "-o", "out.tribes"),
        ("new", "clans", "-o", "out.tribes"),
        ("upgrade", "e.json", "-o", "out.tribes"),
        ("position", real, "-o", "out.json"),
    ]
    for *args, name in writers:
        link = cli.path(name)
        link.symlink_to(real.name)
        assert "exists" in cli.fails(*args, name, code=2), args
        assert link.is_symlink() and real.read_bytes() == before
        cli.ok(*args, name, "--force")
        assert not link.is_symlink(), args  # the link itself replaced ...
        assert real.read_bytes() == before, args  # ... never written through
        link.unlink()


# --- what a user typed, echoed ----------------------------------------------------------------------

HOSTILE = "e\x1b[31mvil\u202e"


def test_a_path_echoed_is_escaped(cli: Cli) -> None:
    out = cli.ok("new", "clans", "-o", f"{HOSTILE}.tribes")
    assert "\x1b" not in out and "\u202e" not in out
    assert "e\\x1b[31mvil\\u202e.tribes" in out
    out = cli.ok("verify", f"{HOSTILE}.tribes")
    assert out.startswith("ok    e\\x1b[31mvil\\u202e.tribes: ")
    out = cli.ok("export", f"{HOSTILE}.tribes", "--json", "-o", f"{HOSTILE}.json")
    assert "\x1b" not in out and "\u202e" not in out


def test_an_expression_echoed_is_escaped(cli: Cli) -> None:
    cli.ok("simulate", "clans", "--games", 1, "--seed", 1, "--save", "runs.corpus")
    out = cli.ok("find", "runs.corpus", "--where", f'over and move != "{HOSTILE}"')
    assert "\x1b" not in out and "\u202e" not in out
    assert 'move != "e\\x1b[31mvil\\u202e"' in out


@pytest.mark.parametrize(
    ("command", "holds", "code"),
    [
        (["hunt", "clans", "--budget", "40g", "-o", "found.tribes", "--until"], True, 0),
        (["shrink", "runs.corpus#1", "-o", "small.json", "--until"], True, 0),
        (["bisect", "runs.corpus#1", "--until"], False, 1),  # "never holds": the expression
    ],
    ids=["hunt", "shrink", "bisect"],
)
def test_an_expression_echoed_by_hunt_shrink_bisect_is_escaped(
    cli: Cli, command: list[str], holds: bool, code: int
) -> None:
    cli.ok("simulate", "clans", "--games", 1, "--seed", 1, "--save", "runs.corpus")
    until = f'len(VillageFounded) >= 1 and move {"!=" if holds else "=="} "{HOSTILE}"'
    result = cli.run(*command, until)
    assert result.exit_code == code, result.output
    out = result.stdout + result.stderr
    assert "\x1b" not in out and "\u202e" not in out
    assert ' "e\\x1b[31mvil\\u202e"' in out


def test_a_bad_expression_echoed_is_escaped(cli: Cli) -> None:
    cli.ok("simulate", "clans", "--games", 1, "--seed", 1, "--save", "runs.corpus")
    result = cli.run("find", "runs.corpus", "--where", f"over ={HOSTILE}")
    assert result.exit_code == 2
    assert "\x1b" not in result.stderr and "\u202e" not in result.stderr


# --- simulate --save that fails ----------------------------------------------------------------------


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failed_simulate_leaves_no_empty_corpus(cli: Cli, jobs: int) -> None:
    line = cli.fails(
        "simulate", "clans", "--games", 4, "--option", "board=nofile", "--save", "x.corpus",
        "--jobs", jobs, code=2,
    )  # fmt: skip
    assert "nofile" in line
    assert not cli.path("x.corpus").exists()
    assert not list(cli.root.glob(".x.corpus.*"))


def test_a_failed_simulate_keeps_the_corpus_it_was_not_to_replace(cli: Cli) -> None:
    cli.ok("simulate", "clans", "--games", 2, "--save", "x.corpus")
    before = cli.path("x.corpus").read_bytes()
    cli.fails("simulate", "clans", "--games", 2, "--save", "x.corpus", code=2)  # no --force
    assert cli.path("x.corpus").read_bytes() == before
