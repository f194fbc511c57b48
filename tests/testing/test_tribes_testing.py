"""``tribes.testing`` itself: what it promises its users (people writing games, bots or test
suites over logs), checked against the library and the CLI, for every registered game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tribes import games
from tribes.core.engine import steps
from tribes.core.errors import IllegalMove
from tribes.events import codec
from tribes.replay import logs
from tribes.testing import Harness, document, effects_of, replay_log
from tribes.testing.cli import Cli, run_process

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=games.names())
def harness(request: pytest.FixtureRequest) -> Harness:
    return Harness(request.param)


def test_a_harness_by_name_or_by_game_object() -> None:
    game = games.get("clans")
    assert Harness("clans").game is game
    assert Harness(game).game is game


def test_random_games_are_legal_reproducible_and_end(harness: Harness) -> None:
    game = harness.game
    played = harness.random_game(11, game.facts.min_seats)
    again = harness.random_game(11, game.facts.min_seats)
    assert played.log == again.log
    assert game.is_over(played.steps[-1].state)
    replayed = [s.state for s in steps(game, played.log.header, played.log.events)]
    assert replayed == played.states
    other = harness.random_game(12, game.facts.min_seats)
    assert other.log.events != played.log.events


def test_picks_choose_the_moves_and_stop_the_game(harness: Harness) -> None:
    played = harness.random_game(3, harness.game.facts.min_seats, picks=[0, 1, 2])
    assert len(played.log.events) == 3
    state = played.steps[0].state
    for pick, step in zip([0, 1, 2], played.steps[1:], strict=True):
        moves = harness.game.legal_moves(state)
        assert step.event == moves[pick % len(moves)]
        state = step.state


def test_play_parses_each_move_against_the_state_just_before_it(harness: Harness) -> None:
    """Moves of a whole game given in notation, each read where it is played (an Iwari draw or a
    Clans order means something only there), give the game's states and effects."""
    played = harness.random_game(5, harness.game.facts.min_seats)
    texts = [harness.game.format_move(e) for e in played.log.events]
    state, effects = harness.play(played.steps[0].state, *texts)
    assert state == played.steps[-1].state
    assert effects == tuple(e for s in played.steps for e in s.effects)
    # one at a time, the same
    state = played.steps[0].state
    for text, step in zip(texts, played.steps[1:], strict=True):
        state, more = harness.play(state, text)
        assert (state, more) == (step.state, step.effects)


def test_play_refuses_an_illegal_move_before_applying_it() -> None:
    clans = Harness("clans")
    state = clans.from_seed(7, ("ann", "bob", "cy"))
    with pytest.raises(IllegalMove) as refused:
        clans.play(state, clans.moves(state)[0], "1-60")
    assert refused.value.rule == "C8"


def test_refused_names_the_rule_and_fails_for_a_legal_move_or_another_rule() -> None:
    clans = Harness("clans")
    state = clans.from_seed(7, ("ann", "bob", "cy"))
    exc = clans.refused(state, "1-60", rule="C8")
    assert (exc.rule, exc.reason) == ("C8", "territory 60 is not adjacent to 1")
    legal = clans.moves(state)[0]
    with pytest.raises(AssertionError, match=f"check accepted '{legal}'"):
        clans.refused(state, legal)
    with pytest.raises(AssertionError, match="refused by C8, not C9"):
        clans.refused(state, "1-60", rule="C9")


def test_effects_of_a_type_among_effects_or_steps() -> None:
    opened, replayed = replay_log(ROOT / "fixtures" / "clans" / "doomed-with-strife.json")
    kind = type(replayed[1].effects[-1])
    every = [e for s in replayed for e in s.effects]
    assert effects_of(replayed, kind) == [e for e in every if isinstance(e, kind)] != []
    assert effects_of(every, kind) == effects_of(replayed, kind)
    assert effects_of(replayed, int) == []
    assert opened.log.header.game == "clans"


def test_from_position_takes_the_seats_of_the_position() -> None:
    clans = Harness("clans")
    doc = {
        "seats": ["x", "y"],
        "clans": {"x": "red", "y": "blue"},
        "to_move": "y",
        "huts": {"12": {"red": 1}, "13": {"blue": 1}},
    }
    state = clans.from_position(doc)
    assert clans.header(position=doc).seats == ("x", "y")
    assert clans.document(state, ("x", "y"))["to_move"] == "y"
    assert clans.moves(state) == ["12-13", "13-12"]


def test_the_document_is_what_show_json_prints(cli: Cli, harness: Harness) -> None:
    """The same document as ``tribes show --json --at N``, at every step of a game."""
    game = harness.game
    played = harness.random_game(2, game.facts.min_seats)
    path = cli.path("g.tribes")
    logs.create(path, played.log, game)
    seats = played.log.header.seats
    for step in played.steps[:: max(1, len(played.steps) // 6)]:
        shown = cli.show_json(path, "--at", step.index)
        assert shown == harness.document(step.state, seats, events=step.index)
        assert shown == document(game, step.state, seats, events=step.index)
        as_first = cli.show_json(path, "--at", step.index, "--as", seats[0])
        assert as_first == harness.document(step.state, seats, 0, events=step.index)


def test_the_cli_harness_checks_the_contract(cli: Cli) -> None:
    path = cli.new("g.tribes", seed=3)
    assert cli.moves(path) == Harness("clans").moves(
        Harness("clans").from_seed(3, ("ann", "bob", "cy"))
    )
    line = cli.fails_untouched(path, "act", path, "1-60")
    assert line.startswith("tribes: illegal move '1-60' at event 1: ")
    with pytest.raises(AssertionError):
        cli.fails("moves", path)  # it succeeds: not a failure
    with pytest.raises(AssertionError):
        cli.ok("act", path, "1-60")  # it fails: not ok
    assert "Usage" in cli.usage("show")


def test_a_real_process(tmp_path: Path) -> None:
    done = run_process("new", "clans", "--seats", 2, "--seed", 1, "-o", "g.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    doc = json.loads((tmp_path / "g.json").read_text())
    assert doc["header"]["seats"] == ["p1", "p2"]
    refused = run_process("act", "g.json", "1-60", cwd=tmp_path)
    assert refused.returncode == 1
    assert refused.stderr.startswith("tribes: illegal move '1-60' at event 1: ")
    assert codec.from_json(refused.stdout or "null") is None
