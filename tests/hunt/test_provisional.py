"""The Game contract's provisional scores (what each seat would score if the game ended now),
which ``hunt`` steers by for an expression that reads ``scores``: what each built-in game says,
the plain outcome for a game that says nothing more, and the finds they make cheap."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from tribes import games
from tribes.games.hunters import scoring as hunters_scoring
from tribes.games.iwari import scoring as iwari_scoring
from tribes.replay.distance import distance_of
from tribes.replay.simulate import match, play_game, seed_of


def states(name: str, seed: int = 3) -> list[Any]:
    """Every state of a seeded random game of three seats, the start first."""
    game = games.get(name)
    log = play_game(game, seed_of(seed, 0), match(game, seats=3)).log
    state = game.setup(log.header)
    out = [state]
    for event in log.events:
        state, _ = game.apply(state, event)
        out.append(state)
    return out


@pytest.mark.parametrize("name", ["clans", "hunters", "iwari", "dice"])
def test_provisional_scores_are_the_outcome_at_the_end_and_never_below_it(name: str) -> None:
    game = games.get(name)
    played = states(name)
    assert game.is_over(played[-1])
    assert game.provisional(played[-1]) == game.outcome(played[-1])
    for state in played:
        now, then = game.outcome(state), game.provisional(state)
        assert all(p >= s for p, s in zip(then.scores, now.scores, strict=True))
        assert dict(then.others).keys() == dict(now.others).keys()
    moved = [s for s in played if game.provisional(s).scores != game.outcome(s).scores]
    assert bool(moved) == (name != "dice")  # a plugin that says nothing: the outcome alone


def test_hunters_provisional_scores_are_what_the_end_would_add() -> None:
    game = games.get("hunters")
    for state in states("hunters")[:-1:7]:
        ended, _ = hunters_scoring.finish(state)
        assert game.provisional(state).scores == ended.scores


def test_iwari_provisional_scores_are_the_scorings_still_to_come() -> None:
    game = games.get("iwari")
    played = states("iwari")[:-1]
    before = [s for s in played if s.deck_outs == 0]
    after = [s for s in played if s.deck_outs >= 1 and not s.half_due]
    assert before and after
    for state in before[::9]:
        half, _ = iwari_scoring.half_journey(state)
        final, _ = iwari_scoring.final(attrs.evolve(state, scores=half))
        assert game.provisional(state).scores == final[: state.players]
    for state in after[::9]:
        assert game.provisional(state).scores == iwari_scoring.final(state)[0][: state.players]


def test_clans_provisional_scores_add_the_most_valuable_village_one_move_away() -> None:
    game = games.get("clans")
    for state in states("clans")[:-1]:
        gains = {
            p - s
            for p, s in zip(game.provisional(state).scores, game.outcome(state).scores, strict=True)
        }
        assert len(gains - {0}) <= 1  # one village: the same value to every colour in it
        chart = state.board.epochs[state.epoch - 1]
        assert max(gains) <= 7 * 5 + chart.bonus


def test_the_steered_distance_is_nought_exactly_where_the_expression_holds() -> None:
    tie = distance_of("over and max(scores) == min(scores)")
    end = {"over": True, "scores": {"a": 30, "b": 30}}
    assert tie.steered(end, {"a": 40, "b": 33}) == 0  # holds: the provisional scores aside
    going = {"over": False, "scores": {"a": 30, "b": 26}}
    assert tie.distance(going) == 5
    assert tie.steered(going, {"a": 38, "b": 38}) == 3  # (5 + 1) / 2
    assert tie.steered(going, {"a": 38, "b": 38}, weight=0) == 5


@pytest.mark.parametrize(
    ("name", "until"),
    [
        ("iwari", "max(scores) >= 55"),  # before provisional scores: 126 to > 500 games
        ("hunters", "over and max(scores) == min(scores)"),  # 60 to 555
    ],
)
def test_scores_that_move_only_at_scorings_are_found_in_a_few_games(
    cli, name: str, until: str
) -> None:
    report = cli.json("hunt", name, "--until", until, "--budget", "5g", "--no-shrink", "--json")
    assert report["found"] is True and report["games"] <= 5
    assert cli.ok("find", report["output"], "--where", until).strip()
