"""The third answer in every command that reads a log (issue 27 §2): a plain log that is damaged
or tampered with is refused, whatever the command, in one line naming the log, the record and
what is wrong, exit status 1. Three kinds of damage to one simulated Clans log (``.tribes``): a
bit flipped in an event's record (its frame's check byte finds it), an event changed with the
frames re-chained as a careful forger would (only the commit digest finds it) and a commit's
digest changed (re-chained too). ``find``, ``coverage``, ``baseline`` and ``regress`` replay
logs through a sweep of their own: they are here with the commands that display a log, and so
are ``replay`` (on a pseudo-terminal) and the library's cursor."""

from __future__ import annotations

import json
import os
import pty
import subprocess

import mutants
import pytest

from tribes.core.errors import TribesError
from tribes.events import codec
from tribes.replay import logs
from tribes.replay.cursor import Cursor
from tribes.testing.cli import Cli, tribes_command

EXPR = "len(VillageFounded) >= 1"
SWEEPS = ("find", "coverage", "baseline", "regress")
"""The commands that read many games: with ``--json`` a game that cannot be read is in the
document's ``failed`` list, not on stderr."""

# every command that reads a log, with {log} where the log goes
COMMANDS = [
    ("show", "{log}"),
    ("show", "{log}", "--json"),
    ("log", "{log}"),
    ("log", "{log}", "--json"),
    ("moves", "{log}"),
    ("html", "{log}", "-o", "page.html"),
    ("export", "{log}", "-o", "out.json"),
    ("fork", "{log}", "--at", "1", "-o", "fork.tribes"),
    ("find", "{log}", "--where", EXPR),
    ("find", "{log}", "--where", EXPR, "--first", "--json"),
    ("coverage", "{log}"),
    ("coverage", "{log}", "--json"),
    ("stats", "{log}"),
    ("stats", "{log}", "--json"),
    ("position", "{log}"),
    ("bisect", "{log}", "--until", "events >= 2"),
    ("whatif", "{log}", "--at", "1", "{move}"),
    ("diff", "{log}", "--at", "1"),
    ("shrink", "{log}", "--until", EXPR),
    ("baseline", "{log}", "-o", "new.base"),
    ("regress", "--baseline", "good.base", "{log}"),
    ("act", "{log}", "1-2"),
    ("tag", "{log}", "seen=yes"),
]


def _flip(payloads: list[bytes], data: bytes, events: list[int]) -> bytes:
    start, _ = mutants.frames_of(data)[events[2]]
    damaged = bytearray(data)
    damaged[start + 2] ^= 0x01
    return bytes(damaged)


def _event(payloads: list[bytes], data: bytes, events: list[int]) -> bytes:
    changed = list(payloads)
    values = codec.unpack_all(changed[events[2]])
    values[-1] ^= 1
    changed[events[2]] = mutants.pack(*values)
    return mutants.reframed(changed)


def _commit(payloads: list[bytes], data: bytes, events: list[int]) -> bytes:
    changed = list(payloads)
    (at,) = [i for i, p in enumerate(payloads) if p[:1] == b"\xff"][-1:]
    kind, count, digest = codec.unpack_all(changed[at])
    changed[at] = mutants.pack(kind, count, bytes([digest[0] ^ 1]) + digest[1:])
    return mutants.reframed(changed)


DAMAGE = {
    "flipped-bit": (_flip, "is corrupt: its check byte does not match"),
    "changed-event": (_event, "the commit after event 48 does not match"),
    "changed-digest": (_commit, "the commit after event 48 does not match"),
}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """One simulated Clans game, its bytes intact and damaged each way."""
    cli = Cli(tmp_path_factory.mktemp("damage"))
    cli.ok("simulate", "clans", "--games", "1", "--seed", "5", "--save", "sim")
    (log,) = sorted(cli.path("sim").glob("*.tribes"))
    data = log.read_bytes()
    payloads = [p for _, p in mutants.frames_of(data)]
    events = [i for i, p in enumerate(payloads) if i and p[:1] not in (b"\x00", b"\xfe", b"\xff")]
    out = {"good": data}
    for kind, (damage, _) in DAMAGE.items():
        out[kind] = damage(payloads, data, events)
        assert out[kind] != data
    return out


def _ids() -> list[str]:
    return ["-".join(a.lstrip("-") for a in args if a.lstrip("-").isalpha()) for args in COMMANDS]


@pytest.mark.parametrize("kind", DAMAGE)
@pytest.mark.parametrize("args", COMMANDS, ids=_ids())
def test_every_command_refuses_a_damaged_log_in_one_line(cli, made, args, kind):
    good = cli.path("good.tribes")
    good.write_bytes(made["good"])
    cli.ok("baseline", good, "-o", "good.base")
    opened = logs.open_log(good)
    move = opened.game.format_move(opened.log.events[0])
    path = cli.path(f"{kind}.tribes")
    path.write_bytes(made[kind])
    argv = [a.format(log=path.name, move=move) for a in args]
    result = cli.run(*argv)
    assert result.exit_code == 1, (argv, result.stdout, result.stderr)
    if result.stderr == "" and args[0] in SWEEPS and "--json" in args:
        (failed,) = json.loads(result.stdout)["failed"]  # the sweeps' JSON carries the line
        assert failed["path"] == path.name
        line = f"tribes: {failed['error']}"
    else:
        lines = result.stderr.splitlines()
        assert len(lines) == 1, (argv, result.stderr)
        (line,) = lines
    assert line.startswith(f"tribes: {path.name}: "), line
    assert DAMAGE[kind][1] in line, line
    assert "rules differ" not in line and "refuse" not in line, line
    assert path.read_bytes() == made[kind]
    for written in ("page.html", "out.json", "fork.tribes"):
        assert not cli.path(written).exists(), written  # (a baseline holds the games it read)


def test_verify_says_damaged_with_its_own_status(cli, made):
    for kind, (_, said) in DAMAGE.items():
        path = cli.path(f"{kind}.tribes")
        path.write_bytes(made[kind])
        result = cli.run("verify", path.name)
        assert result.exit_code == 1, result.stdout
        assert result.stdout.startswith(f"FAIL  {path.name}: "), result.stdout
        assert said in result.stdout


def test_an_intact_log_is_read_by_every_command(cli, made):
    """The same commands on the intact log succeed: the damage is what they refuse."""
    good = cli.path("good.tribes")
    good.write_bytes(made["good"])
    cli.ok("baseline", good, "-o", "good.base")
    copy = cli.path("copy.tribes")
    opened = logs.open_log(good)
    move = opened.game.format_move(opened.log.events[0])
    for args in COMMANDS:
        if args[0] in ("act", "tag"):
            continue  # they write: the simulated game is over, and tagging is tested elsewhere
        copy.write_bytes(made["good"])
        for written in ("page.html", "out.json", "fork.tribes", "new.base"):
            cli.path(written).unlink(missing_ok=True)
        argv = [a.format(log=copy.name, move=move) for a in args]
        result = cli.run(*argv)
        assert result.exit_code == 0, (argv, result.stderr)
        assert not result.stderr.startswith("tribes: "), (argv, result.stderr)


@pytest.mark.parametrize("kind", DAMAGE)
def test_replay_on_a_terminal_and_the_library_cursor_refuse_it(tmp_path, made, kind):
    """``replay`` needs a terminal: it is run on a pseudo-terminal, and says the one line before
    it takes the screen; the library's cursor raises the same error."""
    path = tmp_path / f"{kind}.tribes"
    path.write_bytes(made[kind])
    with pytest.raises(TribesError) as raised:
        Cursor.open(path)
    assert DAMAGE[kind][1] in str(raised.value)
    main, side = pty.openpty()
    try:
        done = subprocess.run(
            [*tribes_command(), "replay", path.name],
            cwd=tmp_path,
            stdin=side,
            stdout=side,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        os.close(side)
        os.close(main)
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"tribes: {path.name}: ") and DAMAGE[kind][1] in line, line
