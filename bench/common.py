"""What every game's benchmark measures: random full games per second (legal moves + apply, one
core, picks drawn before timing), replayed events per second (apply only) and log bytes per event.
Each timing is the best of ``--repeat`` runs, since a shared machine only ever adds time; the
random-game runs play different games (seeds ``seed``, ``seed + 1``, …), so that caches a game
keeps across games (Iwari's placements) help a run no more than they help any long simulation.
Prints figures; asserts nothing."""

from __future__ import annotations

import argparse
import time
from typing import Any

from tribes import games
from tribes.core.events import Event
from tribes.core.game import Game
from tribes.core.header import Header
from tribes.core.prng import Stream
from tribes.events import logfile
from tribes.replay import logs

Played = list[tuple[Header, list[Event]]]


def random_games(game: Game, count: int, seats: int, seed: int) -> tuple[float, Played]:
    seeds = Stream(seed, "bench")
    names = [f"s{i}" for i in range(seats)]
    heads = [logs.header(game, seats=names, seed=seeds.next_word()) for _ in range(count)]
    picks = Stream(seed, "bench-picks")
    choices = [picks.next_word() for _ in range(count * 250)]
    played: Played = []
    k = 0
    began = time.perf_counter()
    for head in heads:
        state = game.setup(head)
        events = []
        while moves := game.legal_moves(state):
            move = moves[choices[k] % len(moves)]
            k += 1
            state, _ = game.apply(state, move)
            events.append(move)
        played.append((head, events))
    return time.perf_counter() - began, played


def replay_seconds(game: Game, played: Played) -> float:
    states: list[Any] = [game.setup(head) for head, _ in played]
    began = time.perf_counter()
    for state, (_, events) in zip(states, played, strict=True):
        for event in events:
            state, _ = game.apply(state, event)
    return time.perf_counter() - began


def log_sizes(game: Game, played: Played) -> tuple[float, float]:
    """Bytes per event: of the event records (checkpoints included), and of whole files."""
    records = files = events = 0
    for head, evs in played[:200]:
        log = logfile.GameLog(header=head, events=tuple(evs))
        log = logfile.GameLog(
            header=head, events=tuple(evs), checkpoints=logs.checkpoints(game, log, ())
        )
        whole = len(logfile.encode(log))
        records += whole - len(logfile.encode(logfile.GameLog(header=head)))
        files += whole
        events += len(evs)
    return records / events, files / events


BESIDE = ("clans", 3, 1000)
"""The yardstick (game, seats, games a run) another game's figure is printed beside: this
machine's speed drifts by ±15% from one minute to the next, so a figure alone says little."""


def run(name: str, games_default: int, seats_default: int) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=games_default)
    parser.add_argument("--seats", type=int, default=seats_default)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--repeat", type=int, default=3, help="Runs of each timing; the best counts."
    )
    parser.add_argument(
        "--beside",
        action=argparse.BooleanOptionalAction,
        default=name != BESIDE[0],
        help=f"Time {BESIDE[0]} in turn with each run and print both (default for other games).",
    )
    args = parser.parse_args()
    game = games.get(name)
    runs, yardstick = [], []
    for i in range(args.repeat):  # interleaved: a drifting machine slows both alike
        runs.append(random_games(game, args.games, args.seats, args.seed + i))
        if args.beside:
            other, seats, count = BESIDE
            yardstick.append(random_games(games.get(other), count, seats, args.seed + i)[0] / count)
    took, played = min(runs, key=lambda run: run[0])
    count = sum(len(e) for _, e in played)
    print(
        f"{name} random games ({args.seats} seats): {args.games / took:10,.0f} games/s   ({count / args.games:.1f} events a game)"
    )
    if yardstick:
        other, seats, _ = BESIDE
        rate = 1 / min(yardstick)
        print(
            f"{' ' * len(name)} beside {other} ({seats} seats) in the same runs: {rate:,.0f} "
            f"games/s ({args.games / took / rate:.3f} of it)"
        )
    replayed = min(replay_seconds(game, played) for _ in range(args.repeat))
    print(f"{name} replay (apply only):   {count / replayed:10,.0f} events/s")
    records, files = log_sizes(game, played)
    print(
        f"{name} log size:              {records:10.2f} bytes/event (records, checkpoints included)"
    )
    print(
        f"{' ' * len(name)}                        {files:10.2f} bytes/event (whole files, header included)"
    )
