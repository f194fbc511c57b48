"""``regress`` through the Game contract alone (issue 27 §8): for Iwari, Hunters and the example
plugin game (``examples/dice``) as for Clans, a rule change (a test double that scores one point
more for the first seat at every scoring event, and says so) is shown per game in the game's own
words, before and now, and summed up by seat; a field added to the game's state at its default
(issue 27 §4) changes no game of a baseline made before it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

from tribes import games
from tribes.core.game import Game
from tribes.testing.cli import Cli
from tribes.testing.identity import GameWithField

GAMES = ["iwari", "hunters", "dice"]


@attrs.frozen
class _Said:
    """An effect that says one word more than it did."""

    effect: Any

    def describe(self, seats: Any) -> str:
        return f"{self.effect.describe(seats)} (one more)"

    def __getattr__(self, name: str) -> Any:
        return getattr(self.effect, name)


class OneMore:
    """``game`` with one point more for the first seat at every event that moves a score (its
    effects then say "(one more)"): a rule change made through the Game contract alone."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def apply(self, state: Any, event: Any) -> tuple[Any, tuple[Any, ...]]:
        after, effects = self.game.apply(state, event)
        if self.game.outcome(after).scores != self.game.outcome(state).scores:
            return after, tuple(_Said(e) for e in effects)
        return after, effects

    def outcome(self, state: Any) -> Any:
        real = self.game.outcome(state)
        return attrs.evolve(real, scores=(real.scores[0] + 1, *real.scores[1:]))


@pytest.fixture
def corpus_of(cli: Cli) -> Callable[[str], Path]:
    def make(game: str) -> Path:
        cli.ok("simulate", game, "--games", 3, "--seed", 4, "--save", f"{game}.corpus")
        return cli.path(f"{game}.corpus")

    return make


@pytest.mark.parametrize("game", GAMES)
def test_a_rule_change_is_said_in_the_games_words(
    cli: Cli,
    corpus_of: Callable[[str], Path],
    replace_game: Callable[[Game], None],
    game: str,
) -> None:
    runs = corpus_of(game)
    cli.ok("baseline", runs, "-o", "b.baseline")
    assert cli.ok("regress", runs, "--baseline", "b.baseline").strip() == "0 of 3 games changed"
    replace_game(OneMore(games.get(game)))  # type: ignore[arg-type]  # a Game by delegation
    result = cli.run("regress", runs, "--baseline", "b.baseline", "--json")
    assert result.exit_code == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["summary"]["changed"] == 3 and report["failed"] == []
    for found in report["games"]:
        before, now = found["difference"]["before"], found["difference"]["now"]
        assert before and now == [f"{text} (one more)" for text in before]
    first = [s for s in report["summary"]["scores"] if s["seat"] == 1]
    assert [(s["game"], s["games"], s["mean"], s["largest"]) for s in first] == [(game, 3, 1.0, 1)]
    lines = cli.run("regress", runs, "--baseline", "b.baseline").stdout.splitlines()
    assert all(" (one more)" in line for line in lines[:3]), lines
    said = f"scores of {game} seat 1: mean +1.00 over 3 games, largest +1 ("
    assert any(line.startswith(said) for line in lines), lines


@pytest.mark.parametrize("game", GAMES)
def test_a_field_added_at_its_default_changes_no_game(
    cli: Cli,
    corpus_of: Callable[[str], Path],
    replace_game: Callable[[Game], None],
    game: str,
) -> None:
    runs = corpus_of(game)
    cli.ok("baseline", runs, "-o", "b.baseline")
    replace_game(GameWithField(games.get(game)))  # type: ignore[arg-type]  # (above)
    assert cli.ok("regress", runs, "--baseline", "b.baseline").strip() == "0 of 3 games changed"
    replace_game(GameWithField(games.get(game), 1))  # type: ignore[arg-type]  # (above)
    result = cli.run("regress", runs, "--baseline", "b.baseline")
    assert result.exit_code == 1
    assert result.stdout.count("the start differs (the setup changed)") == 3
