"""Seeded games between bots: for ``tribes simulate``, the demo and the benchmarks.

A :class:`Match` says who plays (a bot per seat), with which options and from which position; game
``i`` of a run has a seed drawn from stream ``simulate`` of the run's seed, so a run is the same
on every machine, and its logs record which bot played which seat (the tag ``bots``: one a seat, in seat order).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from tribes.core.errors import UsageError
from tribes.core.events import Event
from tribes.core.game import Bot, Game
from tribes.core.prng import Stream
from tribes.events.logfile import Annotation, GameLog
from tribes.replay import logs


@attrs.frozen
class Match:
    """Who plays a simulated game: ``bots`` names one bot per seat (in seat order), ``seats``
    the seat names; ``options`` and ``position`` as ``tribes new`` takes them."""

    bots: tuple[str, ...]
    seats: tuple[str, ...]
    options: Mapping[str, str] = attrs.field(factory=dict)
    position: Any = None


def match(
    game: Game,
    bots: Sequence[str] = ("random",),
    *,
    seats: int | None = None,
    options: Mapping[str, str] | None = None,
    position: Any = None,
) -> Match:
    """A checked Match: one bot name for every seat, or one per seat; the seats from the
    position when there is one, else ``seats`` (default: the game's smallest number plus one)."""
    for bot in bots:
        if bot not in game.bots:
            raise UsageError(f"unknown bot '{bot}'; bots: {', '.join(sorted(game.bots))}")
    if position is not None:
        names = tuple(game.seats_of_position(position))
        if seats is not None and seats != len(names):
            raise UsageError(f"--seats {seats} but the position names {len(names)} seats")
    else:
        count = seats if seats is not None else len(bots) if len(bots) > 1 else None
        count = count if count is not None else game.facts.min_seats + 1
        names = tuple(f"p{i + 1}" for i in range(count))
    if len(bots) not in (1, len(names)):
        raise UsageError(
            f"--bot names {len(bots)} bots for {len(names)} seats; give 1 or {len(names)}"
        )
    logs.check_seats(game, names)
    chosen = tuple(bots) * len(names) if len(bots) == 1 else tuple(bots)
    return Match(bots=chosen, seats=names, options=dict(options or {}), position=position)


@attrs.frozen
class Result:
    log: GameLog
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    moves: int


def play_game(game: Game, seed: int, seats: int | Match, bot: str = "random") -> Result:
    """One game from ``seed``: ``seats`` bots named ``bot``, or the bots of a Match; each bot
    draws from its own stream."""
    how = seats if isinstance(seats, Match) else match(game, (bot,), seats=seats)
    head = logs.header(game, seats=how.seats, seed=seed, options=how.options, position=how.position)
    players: list[Bot] = [game.bots[b](game, seed, s) for s, b in enumerate(how.bots)]
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
    bots = Annotation(0, "bots", ",".join(how.bots))  # in seat order
    log = GameLog(header=head, events=tuple(events), annotations=(bots,))
    return Result(log, outcome.scores, outcome.winners, len(events))


@attrs.frozen
class Summary:
    games: int
    match: Match
    wins: tuple[float, ...]
    mean_scores: tuple[float, ...]
    mean_moves: float
    best: int

    def lines(self) -> list[str]:
        mixed = len(set(self.match.bots)) > 1
        seat_lines = [
            f"  {name}{f' ({bot})' if mixed else ''}: wins {w:.1f} ({w / self.games:.0%}), "
            f"mean score {s:.1f}"
            for name, bot, w, s in zip(
                self.match.seats, self.match.bots, self.wins, self.mean_scores, strict=True
            )
        ]
        return [
            f"{self.games} game{'' if self.games == 1 else 's'}, {len(self.match.seats)} seats, "
            f"{self.mean_moves:.1f} events a game, best score {self.best}",
            *seat_lines,
        ]


def saved_name(game: Game, index: int, seed: int) -> str:
    """The file name of game ``index`` (from 1) of a run saved to a folder."""
    return f"{game.name}-{index:04d}-{seed}.tribes"


def seeds(seed: int, games: int) -> list[int]:
    """The seed of each game of a run."""
    stream = Stream(seed, "simulate")
    return [stream.next_word() for _ in range(games)]


def check_save(game: Game, save: Path, game_seeds: Sequence[int], *, force: bool) -> None:
    """UsageError unless a run may write its logs to ``save``: a folder, holding none of them
    (or ``force``)."""
    if save.exists() and not save.is_dir():
        raise UsageError(f"--save {save} is a file; it names a folder for the logs")
    if force:
        return
    taken = [
        name
        for i, s in enumerate(game_seeds, start=1)
        if (save / (name := saved_name(game, i, s))).exists()
    ]
    if taken:
        raise UsageError(
            f"{save / taken[0]} exists ({len(taken)} of the {len(game_seeds)} logs do); "
            "choose another folder or pass --force to replace them"
        )


def simulate(
    game: Game,
    *,
    games: int,
    seed: int,
    how: Match,
    save: Path | None = None,
    force: bool = False,
    progress: Callable[[int], None] = lambda n: None,
) -> Summary:
    """``games`` games of ``how``. A shared win counts as a fraction for each winner. With
    ``save``, each game's log is written there; a run never replaces logs without ``force``
    (checked before the first game is played)."""
    game_seeds = seeds(seed, games)
    if save is not None:
        check_save(game, save, game_seeds, force=force)
        save.mkdir(parents=True, exist_ok=True)
    seats = len(how.seats)
    wins = [0.0] * seats
    totals = [0] * seats
    moves = 0
    best = 0
    for i, game_seed in enumerate(game_seeds, start=1):
        result = play_game(game, game_seed, how)
        for w in result.winners:
            wins[w] += 1 / len(result.winners)
        for s, score in enumerate(result.scores):
            totals[s] += score
        best = max(best, *result.scores)
        moves += result.moves
        if save is not None:
            logs.create(save / saved_name(game, i, game_seed), result.log, game, force=True)
        progress(1)
    return Summary(
        games=games,
        match=how,
        wins=tuple(wins),
        mean_scores=tuple(t / games for t in totals),
        mean_moves=moves / games,
        best=best,
    )
