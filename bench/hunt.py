"""``tribes hunt`` against random play: for predicates random play reaches rarely or never, how
often random games show them (the games ``simulate`` plays, read as ``find`` reads them) and what
the hunt pays for its first hit (games and CPU seconds), over several seeds.

Run::

    nice -n 19 .venv/bin/python bench/hunt.py random --games 10000 -o rates.json [--only GAME]
    nice -n 19 .venv/bin/python bench/hunt.py hunt --rates rates.json [--seeds K] [--cap G]
        [--jobs N] [--only GAME]

``random`` plays ``--games`` random games of each setting (``simulate``'s games: the same seeds,
bots and header) and reads every step of each as ``find --first`` does, every predicate of the
setting against the same step document (one document a step, as one ``find`` a predicate would
build it once each); it writes the counts to ``-o`` after every thousand games, so a run cut
short still says how many it played. ``hunt`` hunts each predicate from seeds 1..K within
``--cap`` games and prints one Markdown row each. CPU seconds are ``time.process_time`` of this
process and of the hunt's workers (on a shared machine wall time says more about the others'
work than ours); random play's CPU seconds a hit are the whole pass's (every predicate of the
setting read) over the predicate's hits, an upper bound. Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time
from pathlib import Path

import attrs

from tribes import games
from tribes.replay.hunt import Budget, Tactics, hunt, prepare
from tribes.replay.parallel import Where
from tribes.replay.query import at_step, step_query
from tribes.replay.simulate import match, play_game, seed_of

LAKE = str(Path(__file__).resolve().parents[1] / "examples" / "boards" / "clans-one-more-lake.json")


@attrs.frozen
class Setting:
    """The games a predicate is looked for in."""

    game: str
    seats: int = 3
    options: tuple[tuple[str, str], ...] = ()

    @property
    def key(self) -> str:
        options = "".join(f", {k}: {Path(v).stem}" for k, v in self.options)
        return f"{self.game} {self.seats} seats{options}"


@attrs.frozen
class Case:
    setting: Setting
    until: str
    note: str = ""


CLANS = Setting("clans")
CLANS_LAKE = Setting("clans", options=(("board", LAKE),))
IWARI = Setting("iwari")
HUNTERS = Setting("hunters")

CASES = [
    Case(CLANS, "len(VillageFounded) >= 3", "three villages from one move (not rare: a yardstick)"),
    Case(CLANS, "over and max(scores) == min(scores)", "a three-way tie for the win"),
    Case(CLANS, "max(scores) >= 65", "a score of 65"),
    Case(CLANS, "max(scores) >= 75", "a score of 75"),
    Case(CLANS, "over and min(scores) >= 45", "every seat 45 or more at the end"),
    Case(CLANS, "len(VillageFounded) >= 4", "four villages from one move: impossible"),
    Case(CLANS_LAKE, "len(VillageFounded) >= 4", "four villages from one move"),
    Case(IWARI, "over and max(scores) == min(scores)", "a three-way tie for the win"),
    Case(IWARI, "max(scores) >= 55", "a score of 55"),
    Case(IWARI, "over and min(scores) >= 40", "every seat 40 or more at the end"),
    Case(IWARI, "over and max(scores) - min(scores) <= 1", "all within a point"),
    Case(IWARI, "max(scores) >= 70", "a score of 70"),
    Case(IWARI, "over and min(scores) >= 50", "every seat 50 or more at the end"),
    Case(HUNTERS, "TileRemoved", "a bonus tile that fits nowhere"),
    Case(HUNTERS, "over and max(scores) == min(scores)", "a three-way tie for the win"),
    Case(HUNTERS, "max(scores) >= 55", "a score of 55"),
    Case(HUNTERS, "max(scores) >= 70", "a score of 70"),
    Case(HUNTERS, "over and min(scores) >= 30", "every seat 30 or more at the end"),
]


def settings(only: list[str] | None) -> list[Setting]:
    return list(
        dict.fromkeys(c.setting for c in CASES if not only or c.setting.game in only).keys()
    )


def random_rates(setting: Setting, count: int, out: Path, rates: dict[str, object]) -> None:
    """Play ``count`` random games of ``setting``; count, for each of its predicates, the games
    where it holds at some event (written to ``out`` as it goes)."""
    game = games.get(setting.game)
    how = match(game, seats=setting.seats, options=game.check_options(dict(setting.options)))
    cases = [c for c in CASES if c.setting == setting]
    like = None
    queries = []
    hits = [0] * len(cases)
    began = time.process_time()
    record: dict[str, object] = {}
    rates[setting.key] = record
    for i in range(count):
        log = play_game(game, seed_of(1, i), how, like=like).log
        header = like = log.header
        if not queries:
            queries = [step_query(game, header, c.until) for c in cases]
        left = set(range(len(cases)))
        state = game.setup(header)
        for index, event in enumerate(log.events, start=1):
            state, effects = game.apply(state, event)
            doc = at_step(game, header, index, state, event, effects)
            for k in list(left):
                if queries[k].holds(doc):
                    hits[k] += 1
                    left.discard(k)
            if not left:
                break
        if (i + 1) % 1000 == 0 or i + 1 == count:
            record.update(
                games=i + 1,
                cpu=round(time.process_time() - began, 1),
                hits={c.until: h for c, h in zip(cases, hits, strict=True)},
            )
            out.write_text(json.dumps(rates, indent=1, sort_keys=True))


def cpu() -> float:
    """CPU seconds of this process and of its children that have ended."""
    own = time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own + children.ru_utime + children.ru_stime


def tactics_of(pairs: list[str]) -> Tactics:
    """``--tactic NAME=VALUE`` (a field of ``Tactics``; levels comma-separated) over the
    defaults."""
    changes: dict[str, object] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        default = getattr(Tactics(), name)
        if isinstance(default, tuple):
            changes[name] = tuple(int(v) for v in value.split(","))
        elif isinstance(default, bool):
            changes[name] = value in ("1", "true", "yes")
        else:
            changes[name] = type(default)(value)
    return attrs.evolve(Tactics(), **changes)


def hunt_cost(
    case: Case, seed: int, cap: int, jobs: int, tactics: Tactics | None = None
) -> tuple[bool, int, float]:
    """Whether the hunt of ``seed`` found within ``cap`` games, its games and CPU seconds."""
    setting = case.setting
    game = games.get(setting.game)
    how = match(game, seats=setting.seats, options=game.check_options(dict(setting.options)))
    began = cpu()
    header = prepare(game, how, case.until, seed=seed)
    outcome = hunt(
        game,
        header,
        case.until,
        budget=Budget(games=cap),
        where=Where(jobs),
        tactics=tactics or Tactics(),
    )
    return outcome.found, outcome.games, cpu() - began


def hunt_rows(args: argparse.Namespace) -> None:
    rates = json.loads(Path(args.rates).read_text()) if args.rates else {}
    print(
        "| setting | predicate | random: games with it | random: games, CPU s a hit "
        "| hunt: games to the first hit (seeds) | hunt: CPU s (seeds) | fewer games |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for case in CASES:
        if args.only and case.setting.game not in args.only:
            continue
        if args.match and args.match not in case.until:
            continue
        record = rates.get(case.setting.key, {})
        count = record.get("games", 0)
        hits = record.get("hits", {}).get(case.until)
        tactics = tactics_of(args.tactic)
        seeds = range(1, args.seeds + 1)
        runs = [hunt_cost(case, seed, args.cap, args.jobs, tactics) for seed in seeds]
        played = ", ".join(f"{g:,}" if found else f"> {g:,}" for found, g, _ in runs)
        seconds = ", ".join(f"{s:.1f}" for _, _, s in runs)
        found = [g for ok, g, _ in runs if ok]
        if hits is None:
            seen, per_hit, ratio = "-", "-", "-"
        else:
            seen = f"{hits} of {count:,}"
            cpu = record.get("cpu", 0.0)
            per_hit = f"{count / hits:,.0f}, {cpu / hits:.2f}" if hits else f"> {count:,}"
            ratio = "-"
            if hits and len(found) == len(runs):
                ratio = f"{count / hits / statistics.mean(found):,.1f}x"
            elif not hits and len(found) == len(runs):
                ratio = f"> {count / max(found):,.0f}x"
        print(
            f"| {case.setting.key} | `{case.until}` ({case.note}) | {seen} | {per_hit} "
            f"| {played} | {seconds} | {ratio} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="what", required=True)
    rand = sub.add_parser("random", help="random play's rate of each predicate")
    rand.add_argument("--games", type=int, default=10_000, help="random games a setting")
    rand.add_argument("-o", "--output", default="hunt-rates.json", help="the counts (JSON)")
    rand.add_argument("--only", nargs="*", default=None, help="these games only")
    hunted = sub.add_parser("hunt", help="hunt's cost to the first hit")
    hunted.add_argument("--rates", default=None, help="the counts of a random run")
    hunted.add_argument("--seeds", type=int, default=3, help="hunts a predicate (seeds 1..K)")
    hunted.add_argument("--cap", type=int, default=5000, help="at most this many hunt games")
    hunted.add_argument("--jobs", type=int, default=1, help="the hunt's --jobs")
    hunted.add_argument("--only", nargs="*", default=None, help="these games only")
    hunted.add_argument("--match", default=None, help="the predicates holding this text only")
    hunted.add_argument(
        "--tactic", action="append", default=[], help="NAME=VALUE: a field of the hunt's Tactics"
    )
    args = parser.parse_args()
    if args.what == "random":
        out = Path(args.output)
        rates: dict[str, object] = json.loads(out.read_text()) if out.exists() else {}
        for setting in settings(args.only):
            random_rates(setting, args.games, out, rates)
    else:
        hunt_rows(args)


if __name__ == "__main__":
    main()
