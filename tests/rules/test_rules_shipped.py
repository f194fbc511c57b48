"""The rules ship with tribes: identical to the project's shared copy (when it is there), read by
id through ``tribes rules``, whole or one at a time."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tribes import games
from tribes.core import rulebook
from tribes.core.errors import UsageError

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
"""The project's shared folder (rules, data) beside the main clone: the source the shipped copies
are checked against. A clone elsewhere (a worktree, CI's clone) has none to compare with, and
these 4 tests then skip saying so; the shipped copies are still tested by everything else."""
NO_SHARED = (
    "no ../shared beside this clone: the project's shared rules and data, which the shipped "
    "copies must equal, are not here to compare with"
)
COUNTS = {"clans": 23, "hunters": 23, "iwari": 22}


VERSIONS = "\n## Rules versions\n"
"""The heading of the last section of a shipped rules file: the game's rules versions, what
changed in each. It is the project's own (the shared copy has none)."""


@pytest.mark.skipif(not (SHARED / "rules").is_dir(), reason=NO_SHARED)
@pytest.mark.parametrize("game", sorted(COUNTS))
def test_shipped_rules_are_the_shared_ones(game):
    """Everything before the shipped file's last section, its rules versions, is the shared
    copy byte for byte."""
    shipped = (ROOT / "games" / game / "rules.md").read_text(encoding="utf-8")
    before, heading, _ = shipped.rpartition(VERSIONS)
    assert heading, f"games/{game}/rules.md ends with no '## Rules versions' section"
    assert before.encode() == (SHARED / "rules" / f"{game}.md").read_bytes()


@pytest.mark.parametrize("game", sorted(COUNTS))
def test_the_rules_end_with_their_versions_the_running_one_last(game):
    text = rulebook.rulebook(games.get(game)).text
    versions = text.rpartition(VERSIONS)[2]
    listed = [line for line in versions.splitlines() if line.startswith("- ")]
    assert listed and listed[-1].startswith(f"- {games.get(game).rules_version}: ")


@pytest.mark.skipif(not (SHARED / "data").is_dir(), reason=NO_SHARED)
def test_packaged_data_files_are_the_shared_ones():
    for shared in sorted((SHARED / "data").glob("*/*.json")):
        packaged = ROOT / "games" / shared.parent.name / "data" / shared.name
        if not (ROOT / "games" / shared.parent.name).is_dir():
            continue  # a game not written yet has no package to hold its data
        assert json.loads(packaged.read_text()) == json.loads(shared.read_text()), packaged


@pytest.mark.parametrize(("game", "count"), sorted(COUNTS.items()))
def test_every_rule_is_numbered_in_order(game, count):
    letter = games.get(game).facts.rule_letter
    ids = [r.id for r in rulebook.rulebook(games.get(game)).rules]
    assert ids == [f"{letter}{n}" for n in range(1, count + 1)]


def test_every_registered_game_has_rules_of_a_letter_of_its_own():
    letters = [games.get(name).facts.rule_letter for name in games.names()]  # plugins too
    assert all(len(letter) == 1 and letter.isupper() for letter in letters), letters
    assert len(set(letters)) == len(letters), letters
    assert sorted(rulebook.with_rules(registered())) == sorted(COUNTS) == list(games.BUILT_IN)


def test_a_rule_is_found_by_its_id_with_its_rulings():
    rule = rulebook.find("c19", registered())
    assert rule.id == "C19" and rule.game == "clans"
    assert rule.text.startswith("C19. ")
    assert "**Ruling**" in rulebook.find("H13", registered()).text


def test_an_unknown_rule_names_the_range():
    with pytest.raises(UsageError, match=r"clans has no rule 'C99'; its rules are C1 to C23"):
        rulebook.rulebook(games.get("clans")).rule("C99")
    with pytest.raises(UsageError, match=r"is no rule id; .*: C1… \(Clans\), H1… .* I1… \(Iwari\)"):
        rulebook.find("Z4", registered())
    with pytest.raises(UsageError, match=r"no rules for 'chess'; rules: clans, hunters, iwari"):
        rulebook.named("Chess", registered())


def test_the_rules_text_is_read_from_the_package_of_the_game(tmp_path, monkeypatch):
    """A game defined anywhere (a plugin's package) has the rules of the ``rules.md`` beside
    the module that defines it; none there, or rules of another letter, is said in one line."""
    package = tmp_path / "somegame"
    package.mkdir()
    (package / "__init__.py").write_text(
        "import attrs\n"
        "from tribes.games.clans import GAME as _CLANS\n"
        "class Game:\n"
        "    name = 'some'\n"
        "    facts = attrs.evolve(_CLANS.facts, rule_letter='S')\n"
        "GAME = Game()\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import somegame

    monkeypatch.setitem(sys.modules, "somegame", somegame)  # forgotten after the test

    with pytest.raises(UsageError, match=r"some ships no rules: no rules.md in somegame"):
        rulebook.rulebook(somegame.GAME)
    (package / "rules.md").write_text("# Some game — rules\n\n## Start\n- S1. One rule.\n")
    rulebook._read.cache_clear()
    book = rulebook.rulebook(somegame.GAME)
    assert (book.title, [(r.id, r.section, r.text) for r in book.rules]) == (
        "Some game",
        [("S1", "Start", "S1. One rule.")],
    )
    (package / "rules.md").write_text("# Some game — rules\n- C1. Clans' rule.\n")
    rulebook._read.cache_clear()
    with pytest.raises(UsageError, match=r"some's rule letter is S, but its rules.md has C1"):
        rulebook.rulebook(somegame.GAME)
    rulebook._read.cache_clear()


def test_a_game_in_a_plain_module_ships_no_rules_in_one_line(tmp_path, monkeypatch):
    """A game defined in a module that is no package has no folder for a rules.md: said so,
    not a TypeError from importlib.resources."""
    (tmp_path / "lonegame.py").write_text(
        "import attrs\n"
        "from tribes.games.clans import GAME as _CLANS\n"
        "class Game:\n"
        "    name = 'lone'\n"
        "    facts = attrs.evolve(_CLANS.facts, rule_letter='L')\n"
        "GAME = Game()\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import lonegame

    monkeypatch.setitem(sys.modules, "lonegame", lonegame)  # forgotten after the test
    with pytest.raises(UsageError, match=r"^lone ships no rules: lonegame is a module, not a"):
        rulebook.rulebook(lonegame.GAME)


def registered():
    """The built-in games (a plugin installed beside them has rules of its own)."""
    return [games.get(name) for name in games.BUILT_IN]


def test_cli_prints_one_rule(cli):
    out = cli.ok("rules", "C18")
    assert out.splitlines()[0] == "Clans — Several villages from one move"
    assert out.splitlines()[1].startswith("C18. When they straddle an epoch boundary")
    assert "I11" not in out


def test_cli_prints_a_game_and_lists_all(cli):
    whole = cli.ok("rules", "iwari")
    assert whole == rulebook.rulebook(games.get("iwari")).text.rstrip() + "\n"
    listing = cli.ok("rules")
    assert "clans    Clans (23 rules, C1 to C23)" in listing
    assert "iwari    Iwari (22 rules, I1 to I22)" in listing
    assert cli.ok("rules", "clans", "c2").splitlines()[1].startswith("C2. 60 huts")


def test_cli_rules_as_json_and_bad_ids(cli):
    (rule,) = json.loads(cli.ok("rules", "I11", "--json"))
    assert rule["id"] == "I11" and rule["game"] == "iwari" and rule["text"].startswith("I11.")
    assert "iwari has no rule 'I40'" in cli.fails("rules", "iwari", "I40", code=2)
    assert "no rules for 'chess'" in cli.fails("rules", "chess", "C1", code=2)


def test_game_names_are_read_in_any_case(cli):
    assert cli.ok("rules", "Clans", "C2") == cli.ok("rules", "clans", "c2")
    assert cli.ok("rules", "IWARI").startswith("# Iwari")
