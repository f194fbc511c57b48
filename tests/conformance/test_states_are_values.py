"""Every registered game: a state is a value, never written after it is made.

Each state is fingerprinted the moment the reducer (or setup) makes it — everything reachable
from it, the caches the codec and ``==`` leave out included (Hunters' joined board, a tile set's
or a map's tables) — then every later event is applied and every read the engine and the tools
make of a state is made (legal moves, each one listed and built, checks, other branches applied,
documents, text, pictures, positions, bots' choices, hashes), and the fingerprints are taken
again. A cache filled in on a state, an attribute set on it with ``object.__setattr__`` or a
dict it shares changed in place shows as a different fingerprint."""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

from tribes import games
from tribes.core.datafiles import MEMO
from tribes.core.game import EVERYTHING, SPECTATOR, Game, Viewer
from tribes.core.header import Header
from tribes.core.prng import Stream
from tribes.events import codec

_PLAIN = (int, float, str, bytes, bool, type(None))
_MISSING = object()


def fingerprint(value: Any, memo: dict[int, int], out: Any) -> None:
    """Feed ``out`` (a hash) everything reachable from ``value``. ``memo`` numbers the objects
    already fed in this pass: a shared one (a tile set every state holds) is fed once, then
    named by its number, so the walk is linear and a change to it still shows where it is
    first reached."""
    kind = type(value)
    if kind in _PLAIN:
        out.update(b"%s:%r;" % (kind.__name__.encode(), value))
        return
    if isinstance(value, enum.Enum):
        out.update(f"{kind.__qualname__}.{value.name};".encode())
        return
    if id(value) in memo:
        out.update(b"@%d;" % memo[id(value)])
        return
    memo[id(value)] = len(memo)
    out.update(f"<{kind.__module__}.{kind.__qualname__}".encode())
    for part in _parts(value):
        fingerprint(part, memo, out)
    out.update(b">")


def _parts(value: Any) -> Iterator[Any]:
    """What ``value`` holds, in a stable order: items, keys and values, fields and slots, and
    the instance dict of an object that has one."""
    if isinstance(value, list | tuple):
        yield from value
        return
    if isinstance(value, dict):
        for key, item in value.items():  # insertion order: a reordered dict was written too
            yield key
            yield item
        return
    if isinstance(value, set | frozenset):
        yield from sorted(value, key=repr)
        return
    if callable(value) and not attrs.has(type(value)):
        yield repr(value)  # a function or an itemgetter held as a table: its identity
        return
    if attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            if not field.metadata.get(MEMO):  # a declared memo: filled in by reads, by design
                yield field.name
                yield getattr(value, field.name)
        return
    names: list[str] = []
    for cls in type(value).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        names.extend([slots] if isinstance(slots, str) else slots)
    for name in names:
        if not name.startswith("__"):
            yield name
            yield getattr(value, name, _MISSING)
    if hasattr(value, "__dict__"):
        for name, item in sorted(vars(value).items()):
            yield name
            yield item
    if not names and not hasattr(value, "__dict__"):
        yield repr(value)


def digests(states: list[Any]) -> list[str]:
    """Each state's fingerprint, in order, over one memo (as :func:`played` took them)."""
    memo: dict[int, int] = {}
    found = []
    for state in states:
        out = hashlib.blake2b(digest_size=16)
        fingerprint(state, memo, out)
        found.append(out.hexdigest())
    return found


def played(game: Game[Any], seed: int, seats: int) -> tuple[list[str], list[Any], list[str]]:
    """A random legal game; each state fingerprinted as soon as it is made (before any later
    event is applied or any tool reads it)."""
    names = [f"s{i}" for i in range(seats)]
    header = Header(game=game.name, rules_version=game.rules_version, seed=seed, seats=tuple(names))
    picks = Stream(seed, "states-are-values")
    memo: dict[int, int] = {}
    state = game.setup(header)
    states, made = [], []
    for _ in range(400):
        out = hashlib.blake2b(digest_size=16)
        fingerprint(state, memo, out)
        states.append(state)
        made.append(out.hexdigest())
        moves = game.legal_moves(state)
        if not moves:
            break
        state, _ = game.apply(state, picks.choice(moves))
    return names, states, made


def read_everything(game: Game[Any], state: Any, names: list[str], seed: int) -> None:
    """Every read of a state the engine, the replay tools, the CLI and the bots make."""
    viewers: list[Viewer] = [EVERYTHING, SPECTATOR, *range(len(names))]
    moves = game.legal_moves(state)
    listed = list(moves)
    assert [moves[i] for i in range(len(moves))] == listed
    for move in listed[:: max(1, len(listed) // 4)]:
        game.check(state, move)
        game.apply(state, move)
        game.parse_move(state, game.format_move(move))
    game.outcome(state)
    game.pending(state)
    game.to_move(state)
    game.is_over(state)
    for viewer in viewers:
        game.visible_scores(state, viewer)
        game.document(state, names, viewer)
        game.render(state, names, viewer)
    for viewer in viewers[:3]:  # the drawing is the costly read; every seat draws alike
        game.svg(state, names, viewer, last=listed[0] if listed else None)
    if getattr(game, "positions", None) is not None:
        game.position(state, names)
    codec.state_hash(state)
    codec.structure(codec.unstructure(state), type(state))
    if listed:
        for bot in game.bots.values():
            bot(game, seed, game.to_move(state) or 0).choose(state, moves)


def cases() -> Iterator[Any]:
    for name in games.names():
        seats = min(games.get(name).facts.max_seats, 3)
        yield pytest.param(name, 1, seats, id=f"{name}-{seats}p")


@pytest.mark.parametrize(("name", "seed", "seats"), list(cases()))
def test_no_state_is_written_after_it_is_made(name: str, seed: int, seats: int) -> None:
    game = games.get(name)
    names, states, made = played(game, seed, seats)
    assert digests(states) == made, "a state changed while later events were applied"
    for state in states:
        read_everything(game, state, names, seed)
    after = digests(states)
    changed = [i for i, (a, b) in enumerate(zip(made, after, strict=True)) if a != b]
    assert not changed, f"states {changed[:5]} changed when read by the tools"


def test_the_fingerprint_sees_a_write_into_a_cache() -> None:
    """The check can fail: a dict held by a state's cache, changed in place, changes its
    fingerprint although the state still compares and hashes equal."""

    @attrs.frozen
    class Held:
        plain: int
        cache: dict[str, int] = attrs.field(eq=False, metadata={codec.CACHE: True})

    state = Held(1, {"a": 1})
    before = digests([state])
    hashed = codec.state_hash(state)
    state.cache["a"] = 2
    assert codec.state_hash(state) == hashed
    assert digests([state]) != before
