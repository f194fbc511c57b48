"""Iwari throughput: random full games per second (legal moves + apply, one core), replayed
events per second (apply only) and msgpack bytes per event. Prints figures; asserts nothing.

Run: ``make bench`` or ``.venv/bin/python bench/iwari.py [--games N] [--seats N]``.
"""

from __future__ import annotations

import argparse
import time

from tribes import games
from tribes.core.prng import Stream
from tribes.events import logfile
from tribes.replay import logs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = games.get("iwari")
    seeds = Stream(args.seed, "bench")
    names = [f"s{i}" for i in range(args.seats)]
    heads = [logs.header(game, seats=names, seed=seeds.next_word()) for _ in range(args.games)]
    picks = Stream(args.seed, "bench-picks")
    choices = [picks.next_word() for _ in range(args.games * 200)]

    began = time.perf_counter()
    played = []
    k = 0
    for head in heads:
        state = game.setup(head)
        events = []
        while moves := game.legal_moves(state):
            move = moves[choices[k] % len(moves)]
            k += 1
            state, _ = game.apply(state, move)
            events.append(move)
        played.append((head, events))
    took = time.perf_counter() - began
    count = sum(len(e) for _, e in played)
    print(
        f"iwari random games ({args.seats} seats): {args.games / took:8,.0f} games/s   ({count / args.games:.0f} events a game)"
    )

    states = [game.setup(head) for head, _ in played]
    began = time.perf_counter()
    for state, (_, evs) in zip(states, played, strict=True):
        for event in evs:
            state, _ = game.apply(state, event)
    print(f"iwari replay (apply):        {count / (time.perf_counter() - began):8,.0f} events/s")

    record_bytes = file_bytes = 0
    for head, evs in played[:100]:
        log = logfile.GameLog(header=head, events=tuple(evs))
        log = logfile.GameLog(
            header=head, events=tuple(evs), checkpoints=logs.checkpoints(game, log, ())
        )
        whole = len(logfile.encode(log))
        record_bytes += whole - len(logfile.encode(logfile.GameLog(header=head)))
        file_bytes += whole
    events = sum(len(e) for _, e in played[:100])
    print(
        f"iwari log size:              {record_bytes / events:8.2f} bytes/event (records, checkpoints included)"
    )
    print(
        f"                             {file_bytes / events:8.2f} bytes/event (whole files, header included)"
    )


if __name__ == "__main__":
    main()
