"""The three answers in every command that reads logs or corpora (issue 27 §2): a log or corpus
written before a rule change is read intact, with one warning line on stderr naming the first
differing event, the parts that differ and both rules versions, and the command goes on under
the running rules; a move the running rules refuse names the event, the rule and both versions.
The rule change is a test double (:mod:`tribes.testing.rulechange`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tribes.replay import logs
from tribes.testing import rulechange

pytestmark = pytest.mark.skipif(
    rulechange.compiled(), reason="a compiled build folds the constants a test double changes"
)

EXPR = "len(VillageFounded) >= 1"


@pytest.fixture
def sources(cli) -> dict[str, str]:
    """One simulated Clans game ended by its 12th village, as a log and in a corpus."""
    cli.ok("simulate", "clans", "--games", "1", "--seed", "5", "--save", "sim")
    (log,) = sorted(cli.path("sim").glob("*.tribes"))
    cli.ok("simulate", "clans", "--games", "1", "--seed", "5", "--save", "r.corpus")
    first = logs.open_log(log).log.events[0]
    move = logs.open_log(log).game.format_move(first)
    return {
        "log": str(log),
        "game": f"{cli.path('r.corpus')}#1",
        "corpus": str(cli.path("r.corpus")),
        "move": move,
    }


# (command, what it reads: a log, a game of a corpus or a corpus)
COMMANDS = [
    (("show", "{game}"), "game"),
    (("find", "{log}", "--where", EXPR, "--first"), "log"),
    (("find", "{corpus}", "--where", EXPR, "--first"), "corpus"),
    (("stats", "{log}"), "log"),
    (("stats", "{corpus}"), "corpus"),
    (("diff", "{log}", "--at", "1"), "log"),
    (("diff", "{game}", "--at", "1"), "game"),
    (("bisect", "{log}", "--until", "events >= 2"), "log"),
    (("bisect", "{game}", "--until", "events >= 2"), "game"),
    (("whatif", "{log}", "--at", "1", "{move}"), "log"),
    (("whatif", "{game}", "--at", "1", "{move}"), "game"),
    (("coverage", "{log}"), "log"),
    (("coverage", "{corpus}"), "corpus"),
    (("position", "{log}"), "log"),
    (("position", "{game}"), "game"),
]


def _ids() -> list[str]:
    return [f"{args[0]}-{kind}" for args, kind in COMMANDS]


@pytest.mark.parametrize(("args", "kind"), COMMANDS, ids=_ids())
def test_each_command_warns_once_and_goes_on(cli, sources, args, kind):
    argv = [a.format(**sources) for a in args]
    plain = cli.run(*argv)
    assert plain.exit_code == 0, plain.stderr
    assert plain.stderr == ""
    with rulechange.twelfth_bonus(4, rules_version=2):
        result = cli.run(*argv)
    assert result.exit_code == 0, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    (line,) = lines
    named = sources["game"] if kind != "log" else sources["log"]
    assert line.startswith(f"warning: {named}: intact, rules differ: "), line
    assert "differ: scores, track, villages" in line
    assert "written under clans rules version 1, running version 2" in line
    assert result.stdout


JSON_COMMANDS = [
    (("find", "{corpus}", "--where", EXPR, "--first", "--json"), "corpus"),
    (("stats", "{corpus}", "--json"), "corpus"),
    (("diff", "{game}", "--at", "1", "--json"), "game"),
    (("whatif", "{log}", "--at", "1", "{move}", "--json"), "log"),
    (("coverage", "{corpus}", "--json"), "corpus"),
    (("position", "{game}", "--json"), "game"),
    (("show", "{game}", "--json"), "game"),
]


@pytest.mark.parametrize(("args", "kind"), JSON_COMMANDS, ids=[a[0] for a, _ in JSON_COMMANDS])
def test_json_carries_the_answer_as_a_field(cli, sources, args, kind):
    argv = [a.format(**sources) for a in args]
    with rulechange.twelfth_bonus(4, rules_version=2):
        result = cli.run(*argv)
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    docs = (
        [json.loads(text)]
        if text.lstrip().startswith("{") and "\n{" not in text
        else [json.loads(line) for line in text.splitlines() if line.strip()]
    )
    found = json.dumps(docs)
    assert '"answer": "rules differ"' in found, found[:400]
    assert '"written_under": 1' in found and '"running": 2' in found


@pytest.mark.parametrize(
    "args",
    [
        ("show", "{game}"),
        ("find", "{corpus}", "--where", EXPR),
        ("stats", "{corpus}"),
        ("coverage", "{corpus}"),
        ("position", "{game}", "--at", "0"),
        ("diff", "{game}", "--at", "1"),
    ],
    ids=lambda a: a[0] if isinstance(a, tuple) else str(a),
)
def test_a_move_the_running_rules_refuse_is_named(cli, sources, args):
    argv = [a.format(**sources) for a in args]
    source = logs.open_log(Path(sources["log"])).log.events[1].source
    with rulechange.refused_source(source, rules_version=2):
        result = cli.run(*argv)
    said = result.stderr + result.stdout
    assert "refuse event" in said, said
    assert "(C99)" in said
    assert "written under clans rules version 1, running version 2" in said


def test_many_games_say_ten_lines_then_the_count(cli):
    cli.ok("simulate", "clans", "--games", "14", "--seed", "5", "--save", "many.corpus")
    with rulechange.twelfth_bonus(4):
        result = cli.run("coverage", "many.corpus")
        doc = json.loads(cli.run("coverage", "many.corpus", "--json").stdout)
    assert result.exit_code == 0
    lines = result.stderr.splitlines()
    differ = len(doc["rules"])
    assert differ > 10 and len(lines) == 11
    assert all(line.startswith("warning: many.corpus#") for line in lines[:10])
    assert lines[-1] == (
        f"warning: {differ - 10} more game{'s' if differ != 11 else ''} intact, the running "
        "rules replaying them otherwise ('tribes verify' names each)"
    )
