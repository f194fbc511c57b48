"""``tribes hunt`` against random play: for predicates random play reaches rarely or never, how
often random games show them (the games ``simulate`` plays, read as ``find`` reads them) and what
the hunt pays for its first hit (games and CPU seconds), over several seeds.

Run: ``.venv/bin/python bench/hunt.py [--random N] [--seeds K] [--cap G] [--only GAME...]``.
CPU seconds are this process's (``time.process_time``): on a shared machine wall time says more
about the others' work than ours. Prints one Markdown row per predicate; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import attrs

from tribes import games
from tribes.replay.find import Finder
from tribes.replay.hunt import Budget, hunt, prepare
from tribes.replay.simulate import match, play_game, seed_of

LAKE = str(Path(__file__).resolve().parents[1] / "examples" / "boards" / "clans-one-more-lake.json")


@attrs.frozen
class Case:
    game: str
    until: str
    seats: int = 3
    options: tuple[tuple[str, str], ...] = ()
    note: str = ""


CASES = [
    Case("clans", "len(VillageFounded) >= 3", note="three villages from one move"),
    Case("clans", "over and max(scores) == min(scores)", note="a three-way tie for the win"),
    Case(
        "clans",
        "len(VillageFounded) >= 4",
        options=(("board", LAKE),),
        note="four, one-more-lake board",
    ),
    Case("clans", "len(VillageFounded) >= 4", note="four, standard board: impossible"),
    Case("iwari", "over and max(scores) == min(scores)", note="a three-way tie for the win"),
    Case("iwari", "max(scores) >= 55", note="a score of 55"),
    Case("iwari", "over and max(scores) - min(scores) <= 1", note="all within a point"),
    Case("hunters", "TileRemoved", note="a bonus tile that fits nowhere (H)"),
    Case("hunters", "over and max(scores) == min(scores)", note="a three-way tie for the win"),
    Case("hunters", "max(scores) >= 55", note="a score of 55"),
]


def random_rate(case: Case, count: int) -> tuple[int, float]:
    """Games of ``count`` random ones where the predicate holds at some event, and CPU seconds."""
    game = games.get(case.game)
    how = match(game, seats=case.seats, options=game.check_options(dict(case.options)))
    finder = Finder(case.until, first=True)
    began = time.process_time()
    hits = 0
    like = None
    for i in range(count):
        result = play_game(game, seed_of(1, i), how, like=like)
        like = result.log.header
        hits += bool(finder(case.game, game, result.log).matches)
    return hits, time.process_time() - began


def hunt_cost(case: Case, seed: int, cap: int) -> tuple[bool, int, float]:
    """Whether the hunt of ``seed`` found within ``cap`` games, its games and CPU seconds."""
    game = games.get(case.game)
    how = match(game, seats=case.seats, options=game.check_options(dict(case.options)))
    began = time.process_time()
    header = prepare(game, how, case.until, seed=seed)
    outcome = hunt(game, header, case.until, budget=Budget(games=cap))
    return outcome.found, outcome.games, time.process_time() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--random", type=int, default=10_000, help="random games a predicate")
    parser.add_argument("--seeds", type=int, default=3, help="hunts a predicate (seeds 1..K)")
    parser.add_argument("--cap", type=int, default=5000, help="at most this many hunt games")
    parser.add_argument("--only", nargs="*", default=None, help="these games only")
    args = parser.parse_args()
    print(
        "| game | predicate | random: games with it | random: games a hit, CPU s a hit "
        "| hunt: games to the first hit (seeds) | hunt: CPU s (seeds) | fewer games |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for case in CASES:
        if args.only and case.game not in args.only:
            continue
        hits, cpu = random_rate(case, args.random)
        per_hit = f"{args.random / hits:,.0f}, {cpu / hits:.2f}" if hits else f"> {args.random:,}"
        runs = [hunt_cost(case, seed, args.cap) for seed in range(1, args.seeds + 1)]
        played = ", ".join(f"{g:,}" if found else f"> {g:,}" for found, g, _ in runs)
        seconds = ", ".join(f"{s:.1f}" for _, _, s in runs)
        found = [g for ok, g, _ in runs if ok]
        ratio = "-"
        if hits and len(found) == len(runs):
            ratio = f"{args.random / hits / statistics.mean(found):.1f}x"
        elif not hits and found:
            ratio = "random: none"
        options = "".join(f" ({k}: {Path(v).stem})" for k, v in case.options)
        print(
            f"| {case.game} {case.seats} seats{options} | `{case.until}` ({case.note}) "
            f"| {hits} of {args.random:,} | {per_hit} | {played} | {seconds} | {ratio} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
