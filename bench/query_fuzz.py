"""Generated and mutated expressions against the evaluator of ``find``, ``bisect`` and ``shrink``,
at every step of games of every game: crashes, hangs and silent accepts.

    python bench/query_fuzz.py --inputs 10000

Expressions are generated from the grammar of ``replay/query.py`` over each game's own fields,
effect types and keys (paths with ``.key``, ``.3`` and ``[expr]``, every operator, the functions,
numbers small and huge, text with quotes, ``²``, ``١`` and ``--1``), and mutated (a character
inserted, deleted or changed — hostile ones among them: ``²``, ``١``, ``１``, U+202E, U+00A0, NUL —,
a cut, a token doubled, nesting past the limit, length past the limit). Each is parsed as
``find --where`` parses it (``query.step_query``) and, when accepted, evaluated at every step of
three seeded bot games of the game (as ``find`` evaluates it: ``query.at_step``), with a 10 s
alarm. Every hundredth also runs through ``tribes find`` and ``tribes bisect`` (click's runner,
in process: the exit status and one line).

Outcomes: *refused* (a UsageError: one line, exit 2); *ran* (accepted, and every step answered
true or false); *crash* (any other exception: an internal error, exit 70); *hang*. A **silent
accept** is an accepted expression that the language has no reading for: outside its text
literals it holds a character the grammar has no place for (anything but ASCII letters, digits,
``_``, the operators, brackets, quotes and ASCII white space: a ``²`` or ``١`` read as a digit, a
no-break space read as a space), or a top-level name that is no field, effect type, function or
keyword of the game (a typo read as null).
"""

from __future__ import annotations

import random
import re
import string
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import fuzzing
from click.testing import CliRunner

from tribes import games
from tribes.cli.main import main as cli_main
from tribes.core.errors import TribesError
from tribes.replay import logs, query, simulate

ALPHABET = set(string.ascii_letters + string.digits + "_ \t\r\n=!<>()[].+-\"'")
HOSTILE_CHARS = ["²", "١", "１", "\u202e", "\u00a0", "\x00", "\x1b", "=", "'", '"', "[", "]", "(",
                 ")", ".", "-", "+", "9", "é", "\u2028", " ", "#", "$", "\\"]  # fmt: skip
NUMBERS = ["0", "1", "2", "12", "-1", "0.5", "3.25", "9" * 30, "9" * 31, "9" * 400, "1" * 19]
TEXTS = ['"red"', "'blue'", '""', '"²"', '"١"', '"--1"', '"-1"', '"0"', '"\u202e"', "'a\"b'"]
OPS = ["==", "!=", "<", "<=", ">", ">=", "in", "+", "-", "and", "or"]


class World:
    """One game: the documents of its steps, its names and keys."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.game = games.get(name)
        self.docs: list[dict[str, Any]] = []
        self.logs: list[Any] = []
        for seed in (1, 2, 3):
            played = simulate.play_game(self.game, seed, self.game.facts.min_seats + seed % 2)
            self.logs.append(played.log)
            header = played.log.header
            history = logs.steps_of(self.game, played.log)
            for step in history[:: max(1, len(history) // 15)]:
                event = played.log.events[step.index - 1] if step.index else None
                doc = query.at_step(self.game, header, step.index, step.state, event, step.effects)
                self.docs.append(dict(doc))
        self.header = self.logs[0].header
        start = self.docs[0]
        self.fields = sorted(k for k in start if k not in self.game.events.effects)
        self.effects = sorted(self.game.events.effects)
        self.keys = sorted({k for d in self.docs for v in d.values() if isinstance(v, dict)
                            for k in v})  # fmt: skip


def generate(world: World, rng: random.Random, depth: int = 0) -> str:
    """An expression of the grammar (true to it, if not always meaningful)."""
    roll = rng.random()
    if depth > 4 or roll < 0.35:
        return _atom(world, rng, depth)
    if roll < 0.65:
        return (
            f"{generate(world, rng, depth + 1)} {rng.choice(OPS)} {generate(world, rng, depth + 1)}"
        )
    if roll < 0.75:
        return f"not {generate(world, rng, depth + 1)}"
    if roll < 0.85:
        return f"{rng.choice(list(query.FUNCTIONS))}({generate(world, rng, depth + 1)})"
    if roll < 0.92:
        return f"({generate(world, rng, depth + 1)})"
    return f"-{generate(world, rng, depth + 1)}"


def _atom(world: World, rng: random.Random, depth: int) -> str:
    roll = rng.random()
    if roll < 0.15:
        return rng.choice(NUMBERS)
    if roll < 0.25:
        return rng.choice(TEXTS)
    if roll < 0.3:
        return rng.choice(["true", "false", "null"])
    name = rng.choice(
        [*world.fields, *world.effects, "move", "zzz" if rng.random() < 0.1 else "over"]
    )
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        step = rng.random()
        if step < 0.4 and world.keys:
            name += f".{rng.choice(world.keys)}"
        elif step < 0.6:
            name += f".{rng.choice(['0', '1', '3', '12', '99'])}"
        elif depth < 4:
            inner = rng.choice([*TEXTS, *NUMBERS[:6], generate(world, rng, depth + 2)])
            name += f"[{inner}]"
    return name


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    kind = rng.choice(["insert", "delete", "change", "cut", "double", "deep", "long"])
    at = rng.randrange(len(text) + 1)
    if kind == "insert":
        return kind, text[:at] + rng.choice(HOSTILE_CHARS) + text[at:]
    if kind == "delete" and text:
        return kind, text[:at] + text[at + 1 :]
    if kind == "change" and text:
        return kind, text[:at] + rng.choice(HOSTILE_CHARS) + text[at + 1 :]
    if kind == "cut":
        return kind, text[:at]
    if kind == "double":
        return kind, text[:at] + text[at : at + rng.randrange(1, 6)] + text[at:]
    if kind == "deep":
        n = rng.choice([30, 33, 64, 200])
        return kind, "(" * n + text + ")" * n
    return "long", " or ".join([text] * rng.choice([2, 20, 100]))


_LITERAL = re.compile(r"\"[^\"]*\"|'[^']*'")
_NAME = re.compile(r"(?<![.\w])([A-Za-z_][A-Za-z0-9_]*)")


def unread(world: World, text: str) -> str | None:
    """What in ``text`` the language has no reading for (see the module's text), or None."""
    bare = _LITERAL.sub('""', text)
    odd = sorted({c for c in bare if c not in ALPHABET})
    if odd:
        return f"characters {odd!r}"
    known = {*world.fields, *world.effects, "move", *query.FUNCTIONS, *query.KEYWORDS}
    for match in _NAME.finditer(bare):
        start = match.start()
        before = bare[:start].rstrip(" \t\r\n")
        if before.endswith("."):
            continue  # a key after '.'
        if match[1] not in known and not re.fullmatch(r"[0-9.]*", bare[start - 1 : start] or ""):
            return f"name '{match[1]}'"
    return None


def judge(world: World, text: str) -> str:
    try:
        parsed = query.step_query(world.game, world.header, text)
    except TribesError:
        return "refused"
    except fuzzing.Hang:
        raise
    except Exception as exc:  # what the fuzzer looks for
        return f"crash: parse: {type(exc).__name__}: {exc}"[:200]
    try:
        for doc in world.docs:
            parsed.holds(doc)
    except fuzzing.Hang:
        raise
    except Exception as exc:  # what the fuzzer looks for
        return f"crash: evaluate: {type(exc).__name__}: {exc}"[:200]
    why = unread(world, text)
    return f"silent: {why}" if why else "ran"


def through_cli(world: World, text: str, folder: Path, runner: CliRunner) -> str | None:
    """``tribes find`` and ``tribes bisect`` of ``text``: a problem, or None."""
    corpus = folder / f"{world.name}.corpus"
    log = folder / f"{world.name}.tribes"
    if not corpus.exists():
        runner.invoke(cli_main, ["simulate", world.name, "--games", "2", "--save", str(corpus)])
        runner.invoke(cli_main, ["corpus", "get", f"{corpus}#1", "-o", str(log)])
    for args in (["find", str(corpus), "--where", text], ["bisect", str(log), "--until", text]):
        result = runner.invoke(cli_main, args, catch_exceptions=True)
        if result.exit_code == 70 or (
            result.exception and not isinstance(result.exception, SystemExit)
        ):
            return f"{args[0]}: exit {result.exit_code}: {result.stderr.strip()[-160:]}"
        said = [line for line in result.stderr.splitlines() if not line.startswith("warning: ")]
        if result.exit_code not in (0, 1, 2) or len(said) > 1:  # (bisect warns of paths too)
            return f"{args[0]}: exit {result.exit_code}: {result.stderr.strip()[-160:]}"
    return None


def run(count: int, seed: int, every: int) -> fuzzing.Results:
    with fuzzing.alarms():
        return _run(random.Random(seed), count, every)


def _run(rng: random.Random, count: int, every: int) -> fuzzing.Results:
    results: Counter[tuple[str, str, str]] = Counter()
    bad: list[str] = []
    worlds = [World(name) for name in games.names()]
    runner = CliRunner(env={"TRIBES_DEBUG": None})
    per = -(-count // len(worlds))
    with tempfile.TemporaryDirectory() as tmp:
        for world in worlds:
            for i in range(per):
                text = generate(world, rng)
                kind = "generated"
                if i % 2:
                    kind, text = mutate(text, rng)
                verdict = fuzzing.within(10, judge, world, text)
                if every and i % every == 0:
                    problem = through_cli(world, text, Path(tmp), runner)
                    if problem:
                        verdict = f"crash: cli: {problem}"
                short = verdict.split(":")[0]
                results[(world.name, kind, short)] += 1
                if short in ("silent", "crash", "hang"):
                    bad.append(f"{world.name} {kind}: {verdict} <- {text[:120]!r}")
    return results, bad


def main() -> None:
    assert __doc__ is not None
    fuzzing.main(
        __doc__,
        run,
        ("refused", "ran", "silent", "crash", "hang"),
        "expressions",
        "Every Nth through the CLI too.",
        (11, 9),
    )


if __name__ == "__main__":
    main()
