"""``tribes coverage``, from issue 17 §5, and its conformance test: every rule id of every
game is applied by some fixture or documented as not countable, with the reason."""

from __future__ import annotations

import shutil
from pathlib import Path

import attrs
import pytest

from tribes import games
from tribes.core import rulebook
from tribes.replay import sweep
from tribes.replay.coverage import Coverage, Coverer, rule_ids
from tribes.replay.parallel import Where
from tribes.replay.query import parse
from tribes.testing.cli import Cli

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def kinds(name: str) -> list[type]:
    """Every event and effect type of a game, through the contract."""
    table = games.get(name).events
    return [*table.by_tag.values(), *table.effects.values()]


@pytest.mark.parametrize("name", games.BUILT_IN)  # the games with fixtures
def test_every_rule_id_is_reached_by_a_fixture_or_documented_as_not_countable(name: str) -> None:
    game = games.get(name)
    found = Coverage(game)
    for visited in sweep.sweep([FIXTURES / name], Coverer(), Where()):
        assert visited.error is None, visited.error
        assert visited.result is not None
        found.add(visited.result)
    assert found.never() == [], f"{name}: no fixture applies {found.never()}"
    for rule in found.rules():
        assert rule.games or (rule.why_not and len(rule.why_not) > 20), rule


@pytest.mark.parametrize("name", games.names())
def test_the_tables_name_rules_of_the_game_only(name: str) -> None:
    ids = set(rule_ids(games.get(name)))
    uncounted = games.get(name).events.uncounted
    assert set(uncounted) <= ids
    named: set[str] = set()
    for kind in kinds(name):
        assert set(kind.RULES) <= ids, kind
        assert set(kind.WHEN) <= set(kind.RULES), kind
        fields = {a.name for a in attrs.fields(kind)}
        for condition in kind.WHEN.values():
            parse(condition, fields)  # a condition reads the type's own fields only
        named |= set(kind.RULES)
    assert not named & set(uncounted), "a rule is counted and said not countable"
    assert named | set(uncounted) == ids


def test_the_rule_ids_are_those_of_the_rules_shipped() -> None:
    assert rule_ids(games.get("clans")) == [f"C{i}" for i in range(1, 24)]
    iwari = games.get("iwari")
    assert [r.id for r in rulebook.rulebook(iwari).rules] == rule_ids(iwari)


def test_coverage_of_a_fixture_folder(cli: Cli, tmp_path: Path) -> None:
    out = cli.ok("coverage", FIXTURES / "clans").splitlines()
    assert out[0].startswith("clans: 13 games, ")
    assert out[0].endswith("12 of 12 countable rules happened")
    lines = {line.split()[0]: line for line in out[1:]}
    assert lines["C9"].startswith("  C9   not countable: ")
    assert lines["C13"].startswith("  C13  ") and "games, " in lines["C13"]
    assert len(lines) == 23


def test_rules_never_applied_are_named(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "few"
    folder.mkdir()
    shutil.copy(FIXTURES / "clans" / "strife-single-colour.json", folder)
    out = cli.ok("coverage", folder).splitlines()
    never = out[-1].removeprefix("never happened: ").split(", ")
    assert "C19" in never and "C13" not in never
    assert "  C19  never happened" in out


def test_coverage_json_of_several_games(cli: Cli) -> None:
    report = cli.json(
        "coverage", FIXTURES / "clans" / "twelfth-and-thirteenth.json", FIXTURES / "iwari", "--json"
    )
    assert [g["game"] for g in report["games"]] == ["clans", "iwari"]
    clans = report["games"][0]
    rules = {r["id"]: r for r in clans["rules"]}
    assert rules["C19"]["games"] == 1 and rules["C19"]["events"] >= 1
    assert rules["C1"] == {
        "id": "C1",
        "games": 0,
        "events": 0,
        "countable": False,
        "why": rules["C1"]["why"],
    }
    assert "C21" in clans["never"]


def test_coverage_of_a_corpus_on_two_processes(cli: Cli, here: Path) -> None:
    alone = cli.ok("coverage", here / "runs.corpus")
    assert cli.ok("coverage", here / "runs.corpus", "--jobs", 2) == alone
    assert alone.startswith("clans: 40 games, ")


def test_bad_input(cli: Cli, tmp_path: Path) -> None:
    assert "no such file" in cli.fails("coverage", tmp_path / "none.tribes")
    (tmp_path / "x.tribes").write_bytes(b"\x00" * 30)
    result = cli.run("coverage", tmp_path / "x.tribes", FIXTURES / "clans" / "two-players.json")
    assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1
    assert result.stdout.startswith("clans: 1 game, ")
