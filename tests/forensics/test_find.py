"""``tribes find``, from issue 17 §2: every game and event of logs, folders and corpora where an
expression of the bisect language holds, the expression naming what an event did too."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tribes.core.events import Effect
from tribes.core.game import EVERYTHING
from tribes.games.clans.events import VillageFounded
from tribes.replay import logs
from tribes.replay.query import at_step, step_query
from tribes.testing.cli import Cli

TWO = "len(VillageFounded) >= 2"


def steps_where(path: Path, holds: object) -> list[int]:
    """The events of a log (by the real rules, step by step) where ``holds(step)``."""
    opened = logs.open_log(path)
    return [s.index for s in logs.steps_of(opened.game, opened.log) if holds(s)]


def two_villages(step: object) -> bool:
    return sum(isinstance(e, VillageFounded) for e in step.effects) >= 2


def test_one_line_per_matching_event(cli: Cli, here: Path) -> None:
    demo = here / "demo.tribes"
    expected = steps_where(demo, two_villages)
    assert expected
    out = cli.ok("find", demo, "--where", TWO)
    assert out.splitlines() == [f"{demo} event {i}: {TWO}" for i in expected]


def test_every_game_of_a_corpus_and_its_games_by_number(cli: Cli, here: Path) -> None:
    runs = here / "runs.corpus"
    lines = cli.ok("find", runs, "--where", TWO).splitlines()
    expected = []
    for k in range(1, 41):
        expected += [
            f"{runs}#{k} event {i}: {TWO}" for i in steps_where(Path(f"{runs}#{k}"), two_villages)
        ]
    assert lines == expected and lines
    game = lines[0].split()[0]
    assert cli.ok("find", game, "--where", TWO).splitlines()[0] == lines[0]


def test_first_count_limit(cli: Cli, here: Path) -> None:
    runs = here / "runs.corpus"
    every = cli.ok("find", runs, "--where", "len(villages) >= 10").splitlines()
    first = cli.ok("find", runs, "--where", "len(villages) >= 10", "--first").splitlines()
    games = {line.split()[0] for line in every}
    assert [line.split()[0] for line in first] == sorted(games, key=lambda g: int(g.split("#")[1]))
    assert all(line in every for line in first)
    assert (
        cli.ok("find", runs, "--where", "len(villages) >= 10", "--limit", 3).splitlines()
        == every[:3]
    )
    counted = cli.ok("find", runs, "--where", "len(villages) >= 10", "--count").strip()
    assert counted == f"{len(every)} events in {len(games)} of 40 games match len(villages) >= 10"


def test_json(cli: Cli, here: Path) -> None:
    demo = here / "demo.tribes"
    report = cli.json("find", demo, "--where", TWO, "--json")
    expected = steps_where(demo, two_villages)
    assert [m["event"] for m in report["matches"]] == expected
    assert report["matches"][0]["game"] == str(demo) and report["matches"][0]["move"]
    assert (report["events"], report["games"], report["matched_games"]) == (len(expected), 1, 1)
    assert report["failed"] == []


def test_the_state_and_the_move_are_read_at_every_step(cli: Cli, here: Path) -> None:
    demo = here / "demo.tribes"
    out = cli.ok("find", demo, "--where", 'move == "order 19 35" and len(villages) == 13')
    assert out.splitlines() == [f'{demo} event 36: move == "order 19 35" and len(villages) == 13']
    assert cli.ok("find", demo, "--where", "events == 0").splitlines() == [
        f"{demo} event 0: events == 0"
    ]


def test_folders_are_read_for_their_logs_and_corpora(cli: Cli, here: Path) -> None:
    folder = here / "many"
    (folder / "deep").mkdir(parents=True)
    shutil.copy(here / "demo.tribes", folder / "deep" / "a.tribes")
    shutil.copy(here / "runs.corpus", folder / "b.corpus")
    (folder / "notes.txt").write_text("not a log")
    out = cli.ok("find", folder, "--where", "len(StrifeRemoved) > 0", "--first").splitlines()
    assert {line.split()[0].split("#")[0] for line in out} == {
        str(folder / "b.corpus"),
        str(folder / "deep" / "a.tribes"),
    }


def test_the_same_lines_on_two_processes(cli: Cli, here: Path) -> None:
    runs = here / "runs.corpus"
    alone = cli.ok("find", runs, here / "demo.tribes", "--where", "StrifeRemoved")
    assert (
        cli.ok("find", runs, here / "demo.tribes", "--where", "StrifeRemoved", "--jobs", 2) == alone
    )


def test_no_match_exits_1_without_a_word(cli: Cli, here: Path) -> None:
    result = cli.run("find", here / "demo.tribes", "--where", "len(villages) > 40")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", "")


@pytest.mark.parametrize("jobs", [1, 2])
def test_no_match_warns_of_a_path_in_no_step_of_any_game(cli: Cli, here: Path, jobs: int) -> None:
    """``scores.p9`` of games of three seats, ``track.pink``: read as null everywhere, so the
    expression could never hold; each such path is a line on stderr (find used to say nothing)."""
    where = "scores.p9 > 3 or track.pink > 2 or track.red > 900 or villages[-1].number > 99"
    result = cli.run("find", here / "runs.corpus", "--where", where, "--jobs", jobs)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [
        f"warning: '{path}' is in no state of the 40 games read; it reads as null"
        for path in ("scores.p9", "track.pink")
    ]  # villages[-1] is there once a village is founded, track.red from the start


def test_a_path_in_some_game_only_is_no_warning(cli: Cli, here: Path) -> None:
    """``villages[2]`` is in the games that found three villages, not in the rest: no warning."""
    result = cli.run("find", here / "runs.corpus", "--where", "villages[2].number > 99")
    assert (result.exit_code, result.stderr) == (1, "")


@pytest.mark.parametrize(
    ("where", "said"),
    [
        ("len(VillagesFounded) >= 2", "unknown field 'VillagesFounded'; fields: "),
        ("villages[", "it ends too soon"),
        ("over = true", "to compare, write '=='"),
    ],
)
def test_a_bad_expression_is_a_usage_error(cli: Cli, here: Path, where: str, said: str) -> None:
    line = cli.fails("find", here / "runs.corpus", "--where", where, code=2)
    assert said in line


def test_an_unknown_name_lists_the_effects(cli: Cli, here: Path) -> None:
    line = cli.fails("find", here / "demo.tribes", "--where", "Village", code=2)
    assert line.endswith(
        "effects: EpochBegan, GameEnded, OrderAwaited, StrifeRemoved, VillageDoomed, "
        "VillageFounded, VillageUnscored"
    )


def test_damaged_inputs_are_named_and_the_rest_read(cli: Cli, here: Path) -> None:
    (here / "bad.tribes").write_bytes(b"not a log at all")
    result = cli.run("find", here / "bad.tribes", here / "demo.tribes", "--where", TWO)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"tribes: {line}" for line in [result.stderr.splitlines()[0].removeprefix("tribes: ")]
    ]
    assert str(here / "bad.tribes") in result.stderr
    assert result.stdout.splitlines()[0].startswith(f"{here / 'demo.tribes'} event ")
    assert "no such file" in cli.fails("find", here / "none.tribes", "--where", TWO)
    (here / "empty").mkdir()
    assert "no log or corpus" in cli.fails("find", here / "empty", "--where", TWO, code=2)
    assert "--limit" in cli.fails(
        "find", here / "demo.tribes", "--where", TWO, "--limit", 0, code=2
    )


def test_no_progress_line_without_a_terminal(cli: Cli, here: Path) -> None:
    result = cli.run("find", here / "runs.corpus", "--where", TWO)
    assert result.exit_code == 0 and result.stderr == ""


def test_every_game_names_its_effects_through_the_contract() -> None:
    """Each registered game's table lists its effect types by class name; a step reads them."""
    from tribes import games

    for name in games.names():
        game = games.get(name)
        assert game.events.effects, name
        for kind_name, kind in game.events.effects.items():
            assert issubclass(kind, Effect) and kind.__name__ == kind_name


def test_the_document_is_built_only_when_a_field_of_it_is_read(here: Path) -> None:
    opened = logs.open_log(here / "demo.tribes")
    game, header = opened.game, opened.log.header
    steps = logs.steps_of(game, opened.log)
    index = steps_where(here / "demo.tribes", two_villages)[0]
    step = steps[index]
    read = at_step(game, header, index, step.state, step.event, step.effects)
    assert step_query(game, header, TWO).holds(read)
    assert read.document is None
    assert step_query(game, header, f"events == {index} and max(scores) >= 0").holds(read)
    assert read.document is None  # the common keys alone
    assert step_query(game, header, "epoch >= 1").holds(read)
    assert read.document is not None
    founded = [e for e in step.effects if isinstance(e, VillageFounded)]
    assert read["VillageFounded"][0]["type"] == "VillageFounded"
    assert [v["number"] for v in read["VillageFounded"]] == [v.number for v in founded]
    assert dict(read)["villages"] == game.document(step.state, header.seats, EVERYTHING)["villages"]


def test_bisect_reads_what_an_event_did(cli: Cli, here: Path) -> None:
    demo = here / "demo.tribes"
    first = steps_where(demo, two_villages)[0]
    assert cli.ok("bisect", demo, "--until", TWO).startswith(f"{first}: ")
