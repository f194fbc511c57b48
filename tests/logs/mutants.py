"""Mutated logs, seeded: what the fuzz test of the suite and ``bench/logs_fuzz.py`` feed to
``verify``. Each mutant is (kind, bytes, suffix); :func:`judge` says what ``verify`` made of it:
``ok-same`` (the content is the original's, or a clean prefix of it ending at a commit),
``refused`` (a TribesError: one line), ``silent`` (verify said ok of different content: a bug),
``crash`` (any other exception: a bug).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tribes import games
from tribes.core.errors import TribesError
from tribes.events import codec, logfile
from tribes.events.framing import frame, read_uvarint
from tribes.events.logfile import GameLog
from tribes.replay import logs, verify

GAME = games.get("clans")


def played(seed: int, appends: list[int], folder: Path, name: str) -> Path:
    """A log made by ``new`` and one ``act`` of ``n`` moves for each ``n`` in ``appends``."""
    head = logs.header(GAME, seats=["ann", "bob", "cy"], seed=seed, meta={"by": "fuzz"})
    path = folder / name
    logs.create(path, GameLog(header=head), GAME, force=True)
    for n in appends:
        opened = logs.open_log(path)
        state = logs.steps_of(GAME, opened.log)[-1].state
        moves = []
        for _ in range(n):
            legal = GAME.legal_moves(state)
            if not legal:
                break
            move = legal[(seed + len(moves)) % len(legal)]
            moves.append(GAME.format_move(move))
            state, _ = GAME.apply(state, move)
        if moves:
            logs.act(opened, moves)
    return path


# --- the binary form ------------------------------------------------------------------------------


def frames_of(data: bytes) -> list[tuple[int, bytes]]:
    """(start, payload) of every frame."""
    out = []
    pos = len(logfile.MAGIC)
    while pos < len(data):
        length, body = read_uvarint(data, pos)
        out.append((pos, data[body : body + length]))
        pos = body + length + 1
    return out


def reframed(payloads: list[bytes]) -> bytes:
    """A file of these payloads, framed and chained correctly (a careful forger's bytes)."""
    parts = [logfile.MAGIC]
    check = 0
    for payload in payloads:
        framed, check = frame(payload, check)
        parts.append(framed)
    return b"".join(parts)


def pack(*values: Any) -> bytes:
    return b"".join(codec.pack(v) for v in values)


HOSTILE_MSGPACK = [
    b"\xc3",  # true
    b"\xa212",  # "12"
    b"\xcb\x40\x29\xcc\xcc\xcc\xcc\xcc\xcd",  # 12.9
    b"\xcb\x7f\xf8\x00\x00\x00\x00\x00\x00",  # NaN
    b"\xa3\xed\xa0\x80",  # a UTF-8-encoded surrogate
    b"\xdd\xff\xff\xff\xff",  # an array of 4 G items
    b"\xc6\xff\xff\xff\xff",  # bin of 4 GB
    b"\x91" * 2000 + b"\x00",  # deep nesting
    b"\xd4\x01\x00",  # an ext type
    b"\xc1",  # never used
    b"\xde\x00\x01\xc4\x01x\x00",  # a map with a bytes key
]


def binary_mutants(data: bytes, rng: random.Random, count: int) -> Iterator[tuple[str, bytes]]:
    frames = frames_of(data)
    payloads = [p for _, p in frames]
    for _ in range(count):
        kind = rng.choice(
            [
                "flip",
                "flips",
                "cut",
                "insert",
                "delete",
                "set",
                "hostile",
                "replace-event",
                "header",
                "swap",
                "duplicate",
                "drop",
                "garbage-tail",
                "downgrade",
            ]
        )
        b = bytearray(data)
        if kind == "flip":
            pos = rng.randrange(len(b))
            b[pos] ^= 1 << rng.randrange(8)
        elif kind == "flips":
            for _ in range(rng.randint(2, 6)):
                pos = rng.randrange(len(b))
                b[pos] ^= 1 << rng.randrange(8)
        elif kind == "cut":
            del b[rng.randrange(len(b)) :]
        elif kind == "insert":
            pos = rng.randrange(len(b) + 1)
            b[pos:pos] = rng.randbytes(rng.randint(1, 8))
        elif kind == "delete":
            pos = rng.randrange(len(b))
            del b[pos : pos + rng.randint(1, 8)]
        elif kind == "set":
            b[rng.randrange(len(b))] = rng.randrange(256)
        elif kind == "hostile":  # a well-framed record of hostile msgpack
            new = list(payloads)
            at = rng.randrange(1, len(new))
            junk = rng.choice(HOSTILE_MSGPACK)
            new[at] = rng.choice([junk, new[at][:1] + junk, pack(1) + junk, pack(0, 1) + junk])
            b = bytearray(reframed(new))
        elif kind == "replace-event":  # another legal move, re-framed; later records dropped
            yield kind, _replace_event(payloads, rng)
            continue
        elif kind == "header":
            yield kind, _tamper_header(payloads, rng)
            continue
        elif kind == "swap" and len(payloads) > 3:
            new = list(payloads)
            i, j = rng.sample(range(1, len(new)), 2)
            new[i], new[j] = new[j], new[i]
            b = bytearray(reframed(new))
        elif kind == "duplicate":
            new = list(payloads)
            i = rng.randrange(1, len(new))
            new.insert(rng.randrange(1, len(new) + 1), new[i])
            b = bytearray(reframed(new))
        elif kind == "drop" and len(payloads) > 2:
            new = list(payloads)
            del new[rng.randrange(1, len(new))]
            b = bytearray(reframed(new))
        elif kind == "garbage-tail":
            new = [*payloads, rng.choice(payloads[1:])]
            b = bytearray(reframed(new))
        elif kind == "downgrade":  # version 1 in the header, commits kept or dropped
            head = codec.unpack_all(payloads[0])
            new = [pack(head[0], 1, head[2])] + [
                p for p in payloads[1:] if rng.random() < 0.5 or p[:1] != b"\xff"
            ]
            b = bytearray(reframed(new))
        yield kind, bytes(b)


def _events_and_states(payloads: list[bytes]) -> tuple[list[int], list[Any]]:
    """Indexes of the event payloads, and the state before each event."""
    at = [i for i, p in enumerate(payloads) if i and p[:1] not in (b"\x00", b"\xff")]
    return at, []


def _replace_event(payloads: list[bytes], rng: random.Random) -> bytes:
    at, _ = _events_and_states(payloads)
    if not at:
        return reframed([*payloads, pack(1, 1, 2)])
    k = rng.randrange(len(at))
    head = codec.unpack_all(payloads[0])[2]
    header = logfile.header_from_data(head, None)
    state = GAME.setup(header)
    events = [codec.event_from_wire(GAME.events, codec.unpack_all(payloads[i]), {}) for i in at]
    for e in events[:k]:
        state, _ = GAME.apply(state, e)
    others = [m for m in GAME.legal_moves(state) if m != events[k]]
    if not others:
        return reframed(payloads[: at[k]])
    other = rng.choice(others)
    new = [*payloads[: at[k]], pack(*codec.event_to_wire(other))]
    keep = rng.choice(["none", "marks", "rest"])
    if keep == "marks":  # the old marks after it, but no later event
        new += [p for p in payloads[at[k] + 1 :] if p[:1] in (b"\x00", b"\xff")][:1]
    elif keep == "rest":
        new += payloads[at[k] + 1 :]
    return reframed(new)


def _tamper_header(payloads: list[bytes], rng: random.Random) -> bytes:
    name, version, head = codec.unpack_all(payloads[0])
    change = rng.choice(["rotate-seats", "meta", "parent", "seed", "options", "position", "rules"])
    if change == "rotate-seats":
        head["seats"] = head["seats"][1:] + head["seats"][:1]
    elif change == "meta":
        head["meta"] = {"by": "someone else"}
    elif change == "parent":
        head["meta"] = {**head.get("meta", {}), "parent": {"log": "00" * 16, "at": 3}}
    elif change == "seed":
        head["seed"] ^= 1
    elif change == "options":
        head["options"] = {"board": "standard"}
    elif change == "position":
        head["position"] = {"x": 1}
    else:
        head["rules_version"] = 1
        head["schema"] = {"move": 1, "order": 1, "x": 1}
    return reframed([pack(name, version, head), *payloads[1:]])


# --- the JSON form --------------------------------------------------------------------------------


def json_mutants(text: str, rng: random.Random, count: int) -> Iterator[tuple[str, bytes]]:
    for _ in range(count):
        kind = rng.choice(
            [
                "char",
                "cut",
                "insert",
                "value",
                "delete-key",
                "surrogate",
                "nan",
                "number",
                "replace-event",
                "replace-event-digest",
                "seats",
                "meta",
                "commit",
                "digest",
            ]
        )
        if kind == "char":
            pos = rng.randrange(len(text))
            out = text[:pos] + chr(rng.randrange(32, 127)) + text[pos + 1 :]
        elif kind == "cut":
            out = text[: rng.randrange(len(text))]
        elif kind == "insert":
            pos = rng.randrange(len(text))
            out = text[:pos] + rng.choice(['"', "[", "{", ",", "1", "\\ud800", "true"]) + text[pos:]
        elif kind == "surrogate":
            out = (
                text.replace('"ann"', '"\\ud800"', 1)
                if rng.random() < 0.5
                else text.replace('"fuzz"', '"\\udfff-1"')
            )
        elif kind == "nan":
            out = text.replace('"fuzz"', rng.choice(["NaN", "Infinity", "-Infinity", "1e999"]))
        else:
            d = json.loads(text)
            _change(d, kind, rng)
            out = json.dumps(d, ensure_ascii=rng.random() < 0.5)
        yield kind, out.encode("utf-8", "surrogatepass")


def _change(d: dict[str, Any], kind: str, rng: random.Random) -> None:
    if kind == "value":
        node, key = _random_slot(d, rng)
        node[key] = rng.choice([True, False, None, "12", 12.9, 2**70, -1, 0, [], {}, "x", 1])
    elif kind == "delete-key":
        node, key = _random_slot(d, rng)
        if isinstance(node, dict):
            del node[key]
        else:
            node.pop(key)
    elif kind == "number":
        if d["events"]:
            e = rng.choice(d["events"])
            e["source"] = rng.choice([True, "12", 12.9, 12.0, 2**64])
    elif kind in ("replace-event", "replace-event-digest"):
        if not d["events"]:
            return
        k = rng.randrange(len(d["events"]))
        header = logfile.header_from_data(d["header"], None)
        state = GAME.setup(header)
        events = [codec.event_from_dict(GAME.events, e, {}) for e in d["events"]]
        for e in events[:k]:
            state, _ = GAME.apply(state, e)
        others = [m for m in GAME.legal_moves(state) if m != events[k]]
        if others:
            d["events"][k] = codec.event_to_dict(rng.choice(others))
            d["events"] = d["events"][: k + 1]
            d["commits"] = [c for c in d["commits"] if c[0] <= k + 1]
            d["checkpoints"] = [c for c in d["checkpoints"] if c[0] <= k + 1]
            if kind == "replace-event-digest":  # a forger who recomputes the digest only
                log = GameLog(
                    header=header,
                    events=tuple(codec.event_from_dict(GAME.events, e, {}) for e in d["events"]),
                )
                d["digest"] = logfile.log_digest(log).hex()
    elif kind == "seats":
        d["header"]["seats"] = d["header"]["seats"][1:] + d["header"]["seats"][:1]
    elif kind == "meta":
        d["header"]["meta"] = {"parent": {"log": "ab" * 16, "at": 2}}
    elif kind == "commit":
        if d["commits"]:
            c = rng.choice(d["commits"])
            c[0] = rng.choice([True, c[0] + 1, c[0] - 1, "1"])
    elif kind == "digest":
        d["digest"] = rng.choice(["0" * 32, d["digest"][::-1], d["digest"].upper(), 5])


def _random_slot(d: Any, rng: random.Random) -> tuple[Any, Any]:
    node: Any = d
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return d, rng.choice(list(d))
        key = rng.choice(keys)
        child = node[key]
        if isinstance(child, dict | list) and child and rng.random() < 0.7:
            node = child
            continue
        return node, key


# --- judging --------------------------------------------------------------------------------------


def content(path: Path) -> tuple[Any, tuple[Any, ...]]:
    log = logs.open_log(path).log
    return logfile.header_data(log.header), log.events


def commit_prefixes(path: Path) -> set[tuple[Any, ...]]:
    """The contents the log had at each of its commits (clean prefixes, not mutants)."""
    log = logs.open_log(path).log
    head = repr(logfile.header_data(log.header))
    return {(head, log.events[: c.events]) for c in log.commits}


def judge(path: Path, prefixes: set[tuple[Any, ...]]) -> str:
    try:
        verify.verify(path)
    except TribesError as exc:
        if "\n" in exc.message:
            return "crash"
        return "refused"
    except RecursionError:
        return "crash"
    head, events = content(path)
    return "ok-same" if (repr(head), events) in prefixes else "silent"
