"""Mutated position files of every game against ``new --position``: crashes, hangs and silent
accepts.

    python bench/positions_fuzz.py --inputs 10000

The positions of states of seeded bot games of every game with a position form (``tribes
position`` writes them) are mutated: a value replaced by a hostile one (huge and negative
integers, floats, text, ``"²"``, lists, objects, null, booleans), a key dropped, renamed (``"12"``
as ``"012"``, ``"²"``, ``"١"``, ``" 12"``) or written twice, an unknown key added, two values
swapped, and the JSON text itself cut, a character changed, a byte inserted. Each mutant is read
as ``tribes new GAME --position FILE`` reads it (the text as JSON, the seats, the header, the
state set up), in process, with a 10 s alarm. Every hundredth also runs ``tribes new`` in a
process (exit status, one line).

Outcomes: *refused* (one TribesError: a line and exit 1 or 2); *accepted* (a game starts from
it); *crash* (any other exception: an internal error, exit 70); *hang*. A **silent accept** is
an accepted mutant that the game does not start from as written: the position the started state
gives back (``tribes position``) lacks or changes a value the mutant states (a territory named
``"012"`` that vanished, a count that was read as another) — a value it leaves out at its
default (0, null, empty) is no silent accept, since a position may leave defaults out; nor is
the Hunters stack of a position without ``drawn``, whose turn starts by drawing from it.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fuzzing

from tribes import games
from tribes.core import digits
from tribes.core.errors import TribesError
from tribes.events import codec
from tribes.replay import logs, simulate

HOSTILE: list[Any] = [
    -1, 0, 1, 2, 7, 99, 10**6, 2**63, -(2**63), 10**400, 1.5, 1e308, "", "1", "²", "١", "red",
    "\u202e", [], [1], [[]], {}, {"x": 1}, None, True, False,
]  # fmt: skip
KEY_SPELLINGS = ["0{k}", "²", "١", "１", " {k}", "{k} ", "+{k}", "-{k}", "{k}.0", "", "__class__"]


def originals(name: str, games_count: int = 3) -> list[dict[str, Any]]:
    """Positions of states of seeded bot games of ``name``: a dozen points of each game."""
    game = games.get(name)
    out = []
    for seed in range(1, games_count + 1):
        played = simulate.play_game(game, seed, game.facts.min_seats + seed % 2)
        history = logs.steps_of(game, played.log)
        for step in history[:: max(1, len(history) // 12)]:
            out.append(game.position(step.state, played.log.header.seats))
    return out


def read(name: str, text: str) -> tuple[Any, Any]:
    """``text`` read as ``tribes new NAME --position FILE`` reads it: the position, the state."""
    game = games.get(name)
    try:
        position = codec.from_json(text)
    except (ValueError, RecursionError) as exc:
        raise TribesError(f"not valid JSON: {exc}") from None
    if not isinstance(position, dict):
        raise TribesError("not an object")
    seats = list(game.seats_of_position(position))
    head = logs.header(game, seats=seats, seed=1, position=position)
    return position, (game.setup(head), seats)


def normal(value: Any) -> Any:
    """``value`` as two spellings of one position compare: a key of digits as its number
    (``"012"`` is territory 12), a list of numbers as a set (tents, covered spaces)."""
    if isinstance(value, dict):
        return {_key(k): normal(v) for k, v in value.items()}
    if isinstance(value, list):
        items = [normal(v) for v in value]
        if all(isinstance(v, int) and not isinstance(v, bool) for v in items):
            return sorted(items)
        return items
    return value


def _key(key: str) -> str:
    number = digits.natural(key)
    return key if number is None else str(number)


def leaves(value: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*path, str(key)))
    else:
        yield path, value


def lookup(doc: Any, path: tuple[str, ...]) -> tuple[bool, Any]:
    for key in path:
        if not isinstance(doc, dict) or key not in doc:
            return False, None
        doc = doc[key]
    return True, doc


DEFAULTS: list[Any] = [0, None, [], {}, False, ""]


def silently_changed(name: str, mutant: Any, state: Any, seats: list[str]) -> str | None:
    """The first value ``mutant`` states that the started game does not hold, or None."""
    back = normal(codec.canonical(games.get(name).position(state, seats)))
    for path, value in leaves(normal(codec.canonical(mutant))):
        if name == "hunters" and path[:1] == ("stack",) and "drawn" not in mutant:
            continue  # no tile drawn yet: the turn starts, its tile drawn from the stack
        there, now = lookup(back, path)
        if there and now == value:
            continue
        if not there and any(value == d and type(value) is type(d) for d in DEFAULTS):
            continue
        return f"{'.'.join(path)}: {json.dumps(value)[:200]} became {json.dumps(now)[:200]}"
    return None


# --- mutants ---------------------------------------------------------------------------------------


def _paths(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(doc, dict):
        for key, item in doc.items():
            out += _paths(item, (*path, key))
    elif isinstance(doc, list):
        for i, item in enumerate(doc):
            out += _paths(item, (*path, i))
    return out


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        doc = doc[key]
    return doc


def mutant(original: dict[str, Any], rng: random.Random) -> tuple[str, str]:
    """A kind and the text of a mutant of ``original`` (another text than its own)."""
    same = json.dumps(original, sort_keys=True)
    for _ in range(50):
        kind, text = _edit(original, rng)
        if text != same:
            break
    return kind, text


def _edit(original: dict[str, Any], rng: random.Random) -> tuple[str, str]:
    doc = copy.deepcopy(original)
    paths = [p for p in _paths(doc) if p]
    path = rng.choice(paths)
    parent, key = _parent(doc, path), path[-1]
    kind = rng.choice(
        ["value", "value", "drop", "rename", "twice", "unknown", "swap", "cut", "char", "insert"]
    )
    if kind == "value":
        parent[key] = rng.choice(HOSTILE)
    elif kind == "drop":
        del parent[key]
    elif kind == "rename" and isinstance(parent, dict):
        spelled = rng.choice(KEY_SPELLINGS).format(k=key)
        parent[spelled] = parent.pop(key)
    elif kind == "unknown" and isinstance(parent, dict):
        parent[rng.choice(["zzz", "__class__", "12", "0", "p9"])] = rng.choice(HOSTILE)
    elif kind == "swap":
        other = rng.choice(paths)
        if other[: len(path)] != path and path[: len(other)] != other:
            p2 = _parent(doc, other)
            parent[key], p2[other[-1]] = p2[other[-1]], parent[key]
    text = json.dumps(doc, sort_keys=True)
    if kind == "twice" and isinstance(parent, dict):
        text = _twice(text, str(key), json.dumps(rng.choice(HOSTILE)))
    elif kind == "cut":
        text = text[: rng.randrange(len(text))]
    elif kind == "char":
        at = rng.randrange(len(text))
        text = text[:at] + rng.choice('0123456789{}[]",:-.e²١ \x00\\') + text[at + 1 :]
    elif kind == "insert":
        at = rng.randrange(len(text))
        text = (
            text[:at] + rng.choice(["0", "9" * 30, ",", '"a":1,', "[", "}", "\ufeff"]) + text[at:]
        )
    return kind, text


def _twice(text: str, key: str, value: str) -> str:
    at = text.find(json.dumps(key) + ": ")
    if at < 0:
        return text
    return text[:at] + f"{json.dumps(key)}: {value}, " + text[at:]


# --- the run ---------------------------------------------------------------------------------------


def judge(name: str, text: str) -> str:
    try:
        position, (state, seats) = read(name, text)
    except TribesError:
        return "refused"
    except fuzzing.Hang:
        raise
    except Exception as exc:  # what the fuzzer looks for
        return f"crash: {type(exc).__name__}: {exc}"[:200]
    why = silently_changed(name, position, state, seats)
    return f"silent: {why}" if why else "accepted"


def in_process(name: str, text: str, folder: Path) -> str:
    """``tribes new NAME --position FILE`` in a real process: its outcome."""
    (folder / "p.json").write_text(text, encoding="utf-8", errors="surrogatepass")
    done = subprocess.run(
        [sys.executable, "-m", "tribes.cli.main", "new", name, "--position", "p.json", "-o",
         "x.tribes", "--force"],
        cwd=folder, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    lines = done.stderr.splitlines()
    if done.returncode == 70 or "Traceback" in done.stderr:
        return f"crash: {done.stderr.strip()[-200:]}"
    if done.returncode != 0 and len(lines) != 1:
        return f"crash: {len(lines)} lines: {done.stderr[:200]}"
    return "refused" if done.returncode else "accepted"


def run(count: int, seed: int, every: int) -> fuzzing.Results:
    with fuzzing.alarms():
        return _run(random.Random(seed), count, every)


def _run(rng: random.Random, count: int, every: int) -> fuzzing.Results:
    results: Counter[tuple[str, str, str]] = Counter()
    bad: list[str] = []
    names = [n for n in games.names() if games.get(n).positions is not None]
    sources = {name: originals(name) for name in names}
    for name, docs in sources.items():  # every original is read back as it is
        for doc in docs:
            assert judge(name, json.dumps(doc)) == "accepted", (name, doc)
    per = -(-count // len(names))
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            for i in range(per):
                kind, text = mutant(rng.choice(sources[name]), rng)
                verdict = fuzzing.within(10, judge, name, text)
                if every and i % every == 0:
                    outside = in_process(name, text, Path(tmp))
                    if outside.startswith("crash"):
                        verdict = f"crash (process): {outside}"
                short = verdict.split(":")[0].split(" ")[0]
                results[(name, kind, short)] += 1
                if short in ("silent", "crash", "hang"):
                    bad.append(f"{name} {kind}: {verdict} <- {text[:160]!r}")
    return results, bad


def main() -> None:
    assert __doc__ is not None
    fuzzing.main(
        __doc__,
        run,
        ("refused", "accepted", "silent", "crash", "hang"),
        "mutants",
        "Run every Nth in a process too (0: none).",
        (10, 10),
    )


if __name__ == "__main__":
    main()
