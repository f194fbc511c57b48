"""Seeded games between bots: for ``tribes simulate``, the demo and the benchmarks."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import attrs

from tribes.core.errors import UsageError
from tribes.core.events import Event
from tribes.core.game import Bot, Game
from tribes.core.prng import Stream
from tribes.events.logfile import GameLog
from tribes.replay import logs


@attrs.frozen
class Result:
    log: GameLog
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    moves: int


def play_game(game: Game, seed: int, seats: int, bot: str = "random") -> Result:
    """One game of ``seats`` bots from ``seed``; the bots draw from their own streams."""
    if bot not in game.bots:
        raise UsageError(f"unknown bot '{bot}'; bots: {', '.join(sorted(game.bots))}")
    head = logs.header(game, seats=[f"p{i + 1}" for i in range(seats)], seed=seed)
    players: list[Bot] = [game.bots[bot](game, seed, seat) for seat in range(seats)]
    state = game.setup(head)
    events: list[Event] = []
    while True:
        moves = game.legal_moves(state)
        if not moves:
            break
        seat = game.to_move(state)
        assert seat is not None
        move = players[seat].choose(state, moves)
        state, _ = game.apply(state, move)
        events.append(move)
    outcome = game.outcome(state)
    return Result(
        GameLog(header=head, events=tuple(events)), outcome.scores, outcome.winners, len(events)
    )


@attrs.frozen
class Summary:
    games: int
    seats: int
    wins: tuple[float, ...]
    mean_scores: tuple[float, ...]
    mean_moves: float
    best: int

    def lines(self) -> list[str]:
        seat_lines = [
            f"  p{i + 1}: wins {w:.1f} ({w / self.games:.0%}), mean score {s:.1f}"
            for i, (w, s) in enumerate(zip(self.wins, self.mean_scores, strict=True))
        ]
        return [
            f"{self.games} games, {self.seats} seats, {self.mean_moves:.1f} events a game, best score {self.best}",
            *seat_lines,
        ]


def simulate(
    game: Game,
    *,
    games: int,
    seed: int,
    seats: int,
    bot: str,
    save: Path | None = None,
    progress: Callable[[int], None] = lambda n: None,
) -> Summary:
    """``games`` games; game ``i`` has a seed drawn from stream ``simulate`` of ``seed``. A shared
    win counts as a fraction for each winner."""
    seeds = Stream(seed, "simulate")
    wins = [0.0] * seats
    totals = [0] * seats
    moves = 0
    best = 0
    if save is not None:
        save.mkdir(parents=True, exist_ok=True)
    for i in range(games):
        game_seed = seeds.next_word()
        result = play_game(game, game_seed, seats, bot)
        for w in result.winners:
            wins[w] += 1 / len(result.winners)
        for s, score in enumerate(result.scores):
            totals[s] += score
        best = max(best, *result.scores)
        moves += result.moves
        if save is not None:
            logs.create(
                save / f"{game.name}-{i + 1:04d}-{game_seed}.tribes", result.log, game, force=True
            )
        progress(1)
    return Summary(
        games=games,
        seats=seats,
        wins=tuple(wins),
        mean_scores=tuple(t / games for t in totals),
        mean_moves=moves / games,
        best=best,
    )
