"""Clans throughput: random full games per second (legal moves + apply, one core), replayed
events per second (apply only) and msgpack bytes per event. Prints figures; asserts nothing.

Run: ``make bench`` or ``.venv/bin/python bench/clans.py [--games N]``.
"""

from __future__ import annotations

import argparse
import time

from tribes import games
from tribes.core.prng import Stream
from tribes.events import logfile
from tribes.replay import logs


def random_games(game, count: int, seed: int) -> tuple[float, list]:  # type: ignore[no-untyped-def]
    """Play ``count`` random games; the picks come from a PRNG stream drawn before timing."""
    seeds = Stream(seed, "bench")
    heads = [logs.header(game, seats=["a", "b", "c"], seed=seeds.next_word()) for _ in range(count)]
    picks = Stream(seed, "bench-picks")
    choices = [picks.next_word() for _ in range(count * 80)]
    played = []
    began = time.perf_counter()
    k = 0
    for head in heads:
        state = game.setup(head)
        events = []
        while True:
            moves = game.legal_moves(state)
            if not moves:
                break
            move = moves[choices[k] % len(moves)]
            k += 1
            state, _ = game.apply(state, move)
            events.append(move)
        played.append((head, events))
    return time.perf_counter() - began, played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = games.get("clans")

    took, played = random_games(game, args.games, args.seed)
    events = sum(len(e) for _, e in played)
    print(
        f"clans random games:   {args.games / took:10,.0f} games/s   ({events / args.games:.1f} events a game)"
    )

    states = [game.setup(head) for head, _ in played]
    began = time.perf_counter()
    for state, (_, evs) in zip(states, played, strict=True):
        for event in evs:
            state, _ = game.apply(state, event)
    took = time.perf_counter() - began
    print(f"clans replay (apply): {events / took:10,.0f} events/s")

    sample = played[: min(200, len(played))]
    record_bytes = file_bytes = count = 0
    for head, evs in sample:
        log = logfile.GameLog(header=head, events=tuple(evs))
        log = logfile.GameLog(
            header=head, events=tuple(evs), checkpoints=logs.checkpoints(game, log, ())
        )
        whole = len(logfile.encode(log))
        bare = len(logfile.encode(logfile.GameLog(header=head)))
        record_bytes += whole - bare
        file_bytes += whole
        count += len(evs)
    print(
        f"clans log size:       {record_bytes / count:10.2f} bytes/event (records, checkpoints included)"
    )
    print(
        f"                      {file_bytes / count:10.2f} bytes/event (whole files, header included)"
    )


if __name__ == "__main__":
    main()
