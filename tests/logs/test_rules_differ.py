"""A rule change is not tampering: an intact log written under other rules is read by every
command with the answer "intact, rules differ" (or "a move the running rules refuse"), never
as damaged; a damaged one stays damaged. The rule change is a test double
(:mod:`tribes.testing.rulechange`): Clans' 12th-village bonus 5 -> 4, or a new rule refusing
moves from one territory."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

from tribes import games
from tribes.replay import logs
from tribes.replay.consistency import (
    VERIFY_RULES_DIFFER,
    MoveRefused,
    RulesDiffer,
    checkpoint_of,
    parts_compared,
)
from tribes.replay.cursor import Cursor
from tribes.testing import rulechange

pytestmark = pytest.mark.skipif(
    rulechange.compiled(), reason="a compiled build folds the constants a test double changes"
)


@pytest.fixture
def ended(cli) -> Path:
    """A simulated Clans game ended by its 12th village, as ``simulate --save`` writes it."""
    cli.ok("simulate", "clans", "--games", "1", "--seed", "5", "--save", "sim")
    (path,) = sorted(cli.path("sim").glob("*.tribes"))
    assert "village 12" in cli.ok("log", path).splitlines()[-1]
    return path


@pytest.fixture
def played(cli) -> Path:
    """A hand-played Clans log: new, then three appends of one move (a checkpoint each)."""
    path = cli.new()
    for _ in range(3):
        cli.ok("act", path, cli.moves(path)[0])
    return path


def warned(result, path: Path) -> str:
    """The one warning line on stderr of a command that still succeeded (``moves`` adds that
    the game is over)."""
    assert result.exit_code == 0, (result.stdout, result.stderr)
    lines = [line for line in result.stderr.splitlines() if "no move is legal" not in line]
    assert len(lines) == 1 and lines[0].startswith(f"warning: {path}: "), result.stderr
    return lines[0]


def test_intact_and_consistent_says_nothing(cli, ended):
    for args in (("show", ended), ("log", ended), ("html", ended)):
        assert cli.run(*args).stderr == ""
    assert cli.ok("verify", ended).startswith("ok    ")


def test_verify_says_intact_rules_differ_with_its_own_status(cli, ended):
    with rulechange.twelfth_bonus(4):
        result = cli.run("verify", ended)
    assert result.exit_code == VERIFY_RULES_DIFFER == 3
    line = result.stdout.splitlines()[0]
    assert line.startswith(f"RULES {ended}: ") and "intact, rules differ" in line
    assert "differ: scores, track, villages; agree: board_source, chips, clans, huts" in line
    assert "written under clans rules version 1, the running one" in line
    assert "repair" not in line and "restore" not in line and "altered" not in line
    with rulechange.twelfth_bonus(4, rules_version=2):
        line = cli.run("verify", ended).stdout
    assert "written under clans rules version 1, running version 2" in line


def test_verify_json_has_the_answer_as_a_field(cli, ended):
    with rulechange.twelfth_bonus(4):
        result = cli.run("verify", ended, "--json")
    assert result.exit_code == 3
    doc = json.loads(result.stdout)
    assert doc["failed"] == 0 and doc["rules_differ"] == 1
    (found,) = doc["logs"]
    rules = found["rules"]
    assert rules["answer"] == "rules differ" and rules["event"] == found["events"]
    assert rules["parts"] == ["scores", "track", "villages"] and "huts" in rules["agree"]
    assert (rules["written_under"], rules["running"]) == (1, 1)


def test_a_damaged_log_is_damaged_whatever_the_rules(cli, ended):
    data = bytearray(ended.read_bytes())
    data[len(data) // 2] ^= 0x01
    bad = cli.path("bad.tribes")
    bad.write_bytes(bytes(data))
    with rulechange.twelfth_bonus(4):
        assert cli.run("verify", bad, ended).exit_code == 1  # a failure outranks a difference
        assert cli.run("verify", bad).stdout.startswith("FAIL  ")


def test_a_changed_checkpoint_is_tampering_not_a_rule_change(cli, played):
    doc = json.loads(cli.ok("export", played, "--json"))
    digest = doc["checkpoints"][-1][2]
    doc["checkpoints"][-1][2] = f"{int(digest, 16) ^ 1:016x}"
    path = cli.path("forged.json")
    path.write_text(json.dumps(doc))
    line = cli.run("verify", path).stdout
    assert line.startswith("FAIL") and "the commit after event 3 does not match" in line


@pytest.mark.parametrize(
    "command", [("show",), ("show", "--svg"), ("log",), ("moves",), ("position",)]
)
def test_displays_still_display_with_one_warning(cli, ended, command):
    plain = cli.run(command[0], ended, *command[1:]).stdout
    with rulechange.twelfth_bonus(4):
        result = cli.run(command[0], ended, *command[1:])
    line = warned(result, ended)
    assert "intact, rules differ" in line and "shown under the running rules" in line
    assert "differ: scores, track, villages" in line
    if command[0] in ("show", "log", "position"):
        assert result.stdout != plain  # the scores under the running rules
    else:
        assert result.stdout == plain


def test_show_and_log_json_carry_the_answer(cli, ended):
    with rulechange.twelfth_bonus(4):
        shown = json.loads(cli.run("show", ended, "--json").stdout)
        records = [json.loads(r) for r in cli.run("log", ended, "--json").stdout.splitlines()]
    assert shown["rules"]["parts"] == ["scores", "track", "villages"]
    flagged = [r for r in records if "rules" in r]
    assert len(flagged) == 1 and flagged[0]["index"] == shown["rules"]["event"]
    assert "rules" not in json.loads(cli.ok("show", ended, "--json"))


def test_html_says_it_once_and_writes_the_page(cli, ended):
    with rulechange.twelfth_bonus(4):
        result = cli.run("html", ended, "-o", cli.path("g.html"))
    warned(result, ended)
    assert cli.path("g.html").read_text().startswith("<!DOCTYPE html>")


def test_a_hand_played_log_names_the_very_event(cli, played):
    """A checkpoint at every commit: a log played a move an append names the first event
    after which the states part (here the start itself, whose setup the double changes
    nothing of, agrees; the 12th village is never reached, so nothing differs)."""
    with rulechange.twelfth_bonus(4):
        assert cli.run("verify", played).exit_code == 0  # no village 12: the same states
    opened = logs.open_log(played)
    assert [c.events for c in opened.log.checkpoints] == [0, 1, 2, 3]
    assert all(c.names and len(c.parts) == 2 * len(c.names) for c in opened.log.checkpoints)


def test_act_refuses_to_append_under_other_rules(cli, ended, played):
    with rulechange.twelfth_bonus(4):
        line = cli.fails_untouched(ended, "act", ended, "1-2")
    assert "intact, rules differ" in line and f"tribes upgrade --rules {ended}" in line


def test_tag_and_note_still_append_under_other_rules(cli, ended):
    with rulechange.twelfth_bonus(4):
        cli.ok("tag", ended, "site=Bonn")
    assert cli.ok("verify", ended).startswith("ok    ")


def test_a_move_the_running_rules_refuse(cli, played):
    source = logs.open_log(played).log.events[1].source
    with rulechange.refused_source(source, rules_version=2):
        result = cli.run("verify", played)
        assert result.exit_code == 3
        assert "intact, but the running rules refuse event 2" in result.stdout
        assert "huts may no longer leave territory" in result.stdout and "(C99)" in result.stdout
        assert "written under clans rules version 1, running version 2" in result.stdout
        shown = cli.run("show", played, "--json")
        line = warned(shown, played)
        assert f"tribes fork {played} --at 2 -o NEW" in line
        assert json.loads(shown.stdout)["events"] == 1  # the game up to the refused event
        lines = cli.run("log", played).stdout.splitlines()
        assert lines[-1].lstrip().startswith("1 ")
        assert "--at is at most 1" in cli.fails("show", played, "--at", "3", code=2)
        line = cli.fails_untouched(played, "act", played, "1-2")
        assert "refuse event 2" in line
        fixed = cli.path("fixed.tribes")
        cli.ok("fork", played, "--at", "2", "-o", fixed)
        assert cli.ok("verify", fixed).startswith("ok")


def test_the_cursor_says_the_answer(cli, ended, played):
    with rulechange.twelfth_bonus(4):
        said: list[str] = []
        cursor = Cursor.open(ended, said.append)
    assert isinstance(cursor.rules, RulesDiffer) and cursor.rules.parts == (
        "scores",
        "track",
        "villages",
    )
    assert len(said) == 1 and said[0].startswith("warning: ")
    assert cursor.last().index == len(cursor.log.events)
    source = logs.open_log(played).log.events[1].source
    with rulechange.refused_source(source):
        cursor = Cursor.open(played)
    assert isinstance(cursor.rules, MoveRefused) and cursor.rules.event == 2
    assert len(cursor) == 1 and cursor.last().index == 1


def test_a_log_of_a_newer_rules_version_is_still_refused(cli, ended):
    doc = json.loads(cli.ok("export", ended, "--json"))
    doc["header"]["rules_version"] = 2
    for key in ("digest", "commits", "checkpoints"):
        del doc[key]
    newer = cli.path("newer.json")
    newer.write_text(json.dumps(doc))
    assert "rules version 2; this tribes plays version 1" in cli.fails("show", newer)
    with rulechange.twelfth_bonus(4, rules_version=2):
        assert cli.run("show", newer).exit_code == 0


def test_corpus_add_refuses_a_log_written_under_other_rules(cli, ended):
    with rulechange.twelfth_bonus(4):
        line = cli.fails("corpus", "add", "--new", "c.corpus", ended)
    assert "intact, rules differ" in line and f"tribes upgrade --rules {ended}" in line
    assert not cli.path("c.corpus").exists()


def test_shrink_and_find_read_a_log_under_other_rules(cli, ended):
    with rulechange.twelfth_bonus(4):
        found = cli.run("find", ended, "--where", "len(VillageFounded) >= 1", "--first")
        assert found.exit_code == 0 and "event" in found.stdout
        result = cli.run(
            "shrink", ended, "--until", "len(VillageFounded) >= 1", "-o", cli.path("s.json")
        )
    assert result.exit_code == 0, result.stderr
    assert "intact, rules differ" in result.stderr


def test_scores_and_winners_are_named_apart_from_the_state_parts(ended):
    """A checkpoint at the end of a game holds its outcome: the answer names ``scores`` and
    ``winners`` when the running rules end the game otherwise, each on its own."""
    game = games.get("clans")
    log = logs.open_log(ended).log
    state = logs.steps_of(game, log)[-1].state
    mark = checkpoint_of(game, len(log.events), state)
    assert parts_compared(game, mark, state) == (
        (),
        tuple(sorted((*mark.names, "scores", "winners"))),
    )
    scores, winners = mark.outcome
    other_winners = attrs.evolve(
        mark, outcome=(scores, tuple(s for s in range(3) if s not in winners))
    )
    assert parts_compared(game, other_winners, state)[0] == ("winners",)
    other_scores = attrs.evolve(mark, outcome=((scores[0] + 1, *scores[1:]), winners))
    assert parts_compared(game, other_scores, state)[0] == ("scores",)
    mid_game = attrs.evolve(mark, outcome=None)
    assert "scores" not in sum(parts_compared(game, mid_game, state), ())
