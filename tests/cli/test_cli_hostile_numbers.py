"""Issue 31, section 2: every input one line, never "internal error" (exit 70). Expressions that
once crashed the evaluator, numbers written in digits other than 0-9, file names too long for
the system: each is one ``tribes:`` line (or click's usage error) and a non-zero exit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tribes.core import digits
from tribes.testing.cli import Cli

NINES = "9" * 400
LONG = "a" * 300  # one name of 300 bytes: more than the 255 any file system takes


@pytest.fixture
def corpus(cli: Cli) -> Path:
    cli.ok("simulate", "clans", "--games", 2, "--seed", 1, "--save", "runs.corpus")
    return cli.path("runs.corpus")


@pytest.fixture
def played(cli: Cli) -> Path:
    path = cli.new()
    cli.play(path, 3)
    return path


# --- expressions ----------------------------------------------------------------------------------

CRASHED = [
    "villages in huts",  # a list looked up among an object's keys: unhashable
    'villages["--1"]',
    'villages["²"]',
    f"{NINES} + 0.5 > 1",  # an integer too large for a float, added to one
]


@pytest.mark.parametrize("expr", CRASHED)
def test_expressions_that_crashed_find_now_answer(cli: Cli, corpus: Path, expr: str) -> None:
    result = cli.run("find", corpus, "--where", expr)
    assert result.exit_code in (0, 1, 2), result.stderr
    assert len(result.stderr.splitlines()) <= 1


@pytest.mark.parametrize("expr", CRASHED)
def test_expressions_that_crashed_find_jobs_now_answer(cli: Cli, corpus: Path, expr: str) -> None:
    result = cli.run("find", corpus, "--where", expr, "--jobs", 2)
    assert result.exit_code in (0, 1, 2), result.stderr


@pytest.mark.parametrize("expr", CRASHED)
def test_expressions_that_crashed_bisect_and_shrink_now_answer(
    cli: Cli, played: Path, expr: str
) -> None:
    for command in ("bisect", "shrink"):
        result = cli.run(command, played, "--until", expr)
        assert result.exit_code in (0, 1, 2), (command, result.stderr)
        assert len(result.stderr.splitlines()) <= 1, result.stderr


def test_a_list_is_in_an_object_among_its_values_only(cli: Cli, corpus: Path) -> None:
    assert cli.run("find", corpus, "--where", "villages in huts").exit_code == 1  # no match
    assert cli.run("find", corpus, "--where", "huts in huts").exit_code == 1


def test_an_index_is_ascii_digits_with_one_minus(cli: Cli, corpus: Path) -> None:
    last = cli.ok("find", corpus, "--where", 'len(villages) > 0 and villages["-1"] == villages[-1]')
    assert "runs.corpus#1" in last
    for bad in ('villages["--1"]', 'villages["²"]', 'villages["١"]', 'villages["+1"]'):
        assert cli.run("find", corpus, "--where", f"{bad} != null").exit_code == 1, bad


def test_a_number_of_more_than_30_digits_is_refused(cli: Cli, corpus: Path) -> None:
    line = cli.fails("find", corpus, "--where", f"{NINES} + 0.5 > 1", code=2)
    assert "is longer than 30 characters" in line
    assert len(line) < 700


def test_an_expression_reads_only_ascii_digits(cli: Cli, corpus: Path) -> None:
    line = cli.fails("find", corpus, "--where", "len(villages) > ١", code=2)
    assert "unexpected character '١'" in line


# --- numbers in text ------------------------------------------------------------------------------


@pytest.mark.parametrize("k", ["²", "١", "１", "1" * 5000, "0", "-1", "1 "])
def test_a_game_of_a_corpus_is_numbered_in_ascii_digits(cli: Cli, corpus: Path, k: str) -> None:
    line = cli.fails("show", f"{corpus}#{k}", code=2)
    assert "CORPUS#K" in line
    assert len(line) < 300


def test_a_game_of_a_corpus_in_ascii_digits_opens(cli: Cli, corpus: Path) -> None:
    assert cli.ok("show", f"{corpus}#1")


@pytest.mark.parametrize("count", ["²", "١", "１", "0", "257", "1" * 5000])
def test_a_local_cluster_is_counted_in_ascii_digits(cli: Cli, corpus: Path, count: str) -> None:
    line = cli.fails("verify", corpus, "--cluster", f"local:{count}", code=2)
    assert "local:N" in line


@pytest.mark.parametrize("number", ["١", "１", "²"])
def test_options_that_are_numbers_take_ascii_digits_only(
    cli: Cli, played: Path, number: str
) -> None:
    for args in (
        ("show", played, "--at", number),
        ("moves", played, "--at", number),
        ("simulate", "clans", "--games", number),
        ("verify", played, "--jobs", number),
        ("fork", played, "--at", number, "-o", "f.tribes"),
    ):
        assert "digits 0-9" in cli.usage(*args), args


def test_no_option_of_any_command_reads_a_number_with_int() -> None:
    """click's ``int`` takes ``١`` and ``１`` as digits: every number is read as WHOLE."""
    import click

    from tribes.cli.main import main

    def commands(group: click.Group, prefix: str) -> list[tuple[str, click.Command]]:
        found = []
        for name in group.list_commands(click.Context(group)):
            command = group.get_command(click.Context(group), name)
            assert command is not None
            found.append((f"{prefix}{name}", command))
            if isinstance(command, click.Group):
                found += commands(command, f"{prefix}{name} ")
        return found

    with_int = [
        f"{name} {param.name}"
        for name, command in commands(main, "")
        for param in command.params
        if param.type is click.INT
    ]
    assert with_int == []


@pytest.mark.parametrize("number", ["١", "１", "²"])
def test_show_quick_path_refuses_other_digits_too(run_process, tmp_path: Path, number: str) -> None:
    run_process("new", "clans", "--seed", 1, "-o", "g.tribes")
    done = run_process("show", "g.tribes", "--at", number)
    assert done.returncode == 2
    assert "digits 0-9" in done.stderr


@pytest.mark.parametrize("move", ["١-٢", "１-２", "12-1３"])
def test_moves_are_read_in_ascii_digits(cli: Cli, played: Path, move: str) -> None:
    line = cli.fails_untouched(played, "act", played, move)
    assert "cannot read move" in line


def test_a_rule_id_is_read_in_ascii_digits(cli: Cli) -> None:
    assert "no rule id" in cli.fails("rules", "C١", code=2)


def test_ascii_digits_only() -> None:
    assert digits.natural("12") == 12
    assert digits.natural("012") == 12
    assert digits.integer("-3") == -3
    for text in ("", "²", "١", "１", "+1", " 1", "1_0", "-1", "1" * 19):
        assert digits.natural(text) is None, text
    assert digits.integer("--1") is None


# --- positions keyed by numbers -----------------------------------------------------------------


def _clans_position(cli: Cli) -> dict:
    path = cli.new("start.tribes")
    cli.ok("position", path, "-o", "start.json")
    doc: dict = json.loads(cli.path("start.json").read_text())
    return doc


def _new_from(cli: Cli, game: str, doc: dict) -> str:
    cli.path("pos.json").write_text(json.dumps(doc))
    return cli.fails("new", game, "--position", "pos.json", "-o", "x.tribes")


@pytest.mark.parametrize("key", ["²", "١", "１", "1" * 5000, "0", "61"])
def test_a_clans_territory_is_numbered_in_ascii_digits(cli: Cli, key: str) -> None:
    doc = _clans_position(cli)
    doc["huts"][key] = doc["huts"].pop("1")
    line = _new_from(cli, "clans", doc)
    assert "unknown territory" in line
    assert not cli.path("x.tribes").exists()


def test_a_clans_territory_named_twice_is_refused(cli: Cli) -> None:
    doc = _clans_position(cli)
    doc["huts"]["012"] = {"red": 1}
    line = _new_from(cli, "clans", doc)
    assert "territory 12 is named twice, as " in line
    assert "'12'" in line and "'012'" in line


def _iwari_position(cli: Cli) -> dict:
    cli.ok("simulate", "iwari", "--games", 1, "--seed", 3, "--save", "iw.corpus")
    cli.ok("position", "iw.corpus#1", "--at", 30, "-o", "iw.json")
    doc: dict = json.loads(cli.path("iw.json").read_text())
    assert doc["totems"]["p1"] == {"9": 1}
    return doc


@pytest.mark.parametrize("key", ["²", "١", "１", "1" * 5000])
def test_an_iwari_totem_territory_is_numbered_in_ascii_digits(cli: Cli, key: str) -> None:
    doc = _iwari_position(cli)
    doc["totems"]["p1"] = {key: 1}
    assert "unknown territory" in _new_from(cli, "iwari", doc)


def test_an_iwari_totem_territory_named_twice_is_refused(cli: Cli) -> None:
    doc = _iwari_position(cli)
    doc["totems"]["p1"] = {"9": 1, "09": 1}
    line = _new_from(cli, "iwari", doc)
    assert "territory 9 is named twice, as " in line
    assert "'9'" in line and "'09'" in line


# --- file names too long --------------------------------------------------------------------------


def _too_long(line: str) -> None:
    assert "file name too long" in line
    assert "bytes" in line
    assert len(line) < 200  # the name cut, not echoed whole


def test_file_names_too_long_are_one_line(cli: Cli, played: Path) -> None:
    _too_long(cli.fails("verify", f"{LONG}.tribes"))
    _too_long(cli.fails("new", "clans", "-o", f"{LONG}.tribes"))
    _too_long(cli.fails("find", f"{LONG}.tribes", "--where", "over"))
    _too_long(cli.fails("find", f"{LONG}/x.tribes", "--where", "over"))
    _too_long(cli.fails("show", played, "--svg", "-o", f"{LONG}.svg"))
    _too_long(cli.fails("html", played, "-o", f"{LONG}.html"))
    _too_long(cli.fails("export", played, "--json", "-o", f"{LONG}.json"))
    _too_long(cli.fails("corpus", "add", "--new", f"{LONG}.corpus", played))


def test_file_names_too_long_in_a_process(run_process) -> None:
    done = run_process("verify", f"{LONG}.tribes")
    assert done.returncode == 1
    assert len(done.stderr.splitlines()) == 1
    _too_long(done.stderr)
