"""Shared helpers of the CLI contract tests.

The contract: exit 0 when all is well; 1 for a rule or file error, with exactly one line on
stderr starting ``tribes: ``; 2 for a usage error; never a traceback, never 70 (the internal-error
status). Helpers reach the tests as fixtures: ``cli`` (an in-process runner rooted in a fresh
folder) and ``position`` (a Clans position document builder).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tribes.cli.main import main
from tribes.events import codec, logfile

INTERNAL_ERROR = 70
COLOURS = ("red", "yellow", "green", "blue", "black")


def tribes_script() -> list[str]:
    """The command that runs the installed CLI in a real process."""
    script = shutil.which("tribes", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "tribes.cli.main"]


def assert_no_crash(code: int, *texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text, text
        assert "internal error" not in text, text
    assert code != INTERNAL_ERROR, texts


class Cli:
    """Runs ``tribes`` in-process (click's CliRunner) inside ``root`` and checks the contract."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.runner = CliRunner(env={"TRIBES_DEBUG": None, "COLUMNS": "100"})

    # --- running ----------------------------------------------------------------------------

    def run(self, *args: Any) -> Result:
        """Any invocation; whatever its outcome, no traceback and no internal error."""
        old = Path.cwd()
        os.chdir(self.root)
        try:
            result = self.runner.invoke(main, [str(a) for a in args], catch_exceptions=False)
        finally:
            os.chdir(old)
        assert_no_crash(result.exit_code, result.stdout, result.stderr)
        return result

    def ok(self, *args: Any) -> str:
        """An invocation that must succeed; its standard output."""
        result = self.run(*args)
        assert result.exit_code == 0, (args, result.stdout, result.stderr)
        return result.stdout

    def fails(self, *args: Any, code: int = 1) -> str:
        """An invocation that must fail with ``code`` and one ``tribes: `` line on stderr; that
        line."""
        result = self.run(*args)
        assert result.exit_code == code, (args, result.exit_code, result.stdout, result.stderr)
        lines = result.stderr.splitlines()
        assert len(lines) == 1, (args, result.stderr)
        assert lines[0].startswith("tribes: "), lines[0]
        return lines[0]

    def usage(self, *args: Any) -> str:
        """A usage error that click reports itself (exit 2); all of stderr."""
        result = self.run(*args)
        assert result.exit_code == 2, (args, result.exit_code, result.stdout, result.stderr)
        assert result.stderr.strip()
        return result.stderr

    def fails_untouched(self, path: Path, *args: Any, code: int = 1) -> str:
        """Like :meth:`fails`, and the file at ``path`` is byte-identical afterwards."""
        before = path.read_bytes()
        line = self.fails(*args, code=code)
        assert path.read_bytes() == before, f"{path} changed by a failed {args}"
        return line

    # --- making logs ------------------------------------------------------------------------

    def path(self, name: str) -> Path:
        return self.root / name

    def new(
        self, name: str = "g.tribes", *extra: Any, names: str = "ann,bob,cy", seed: int = 7
    ) -> Path:
        path = self.path(name)
        self.ok("new", "clans", "--names", names, "--seed", seed, "-o", path, *extra)
        return path

    def from_position(self, doc: Any, name: str = "p.tribes") -> Path:
        pos = self.path(f"{name}.position.json")
        pos.write_text(json.dumps(doc))
        path = self.path(name)
        self.ok("new", "clans", "--position", pos, "--seed", 1, "-o", path)
        return path

    def moves(self, path: Path) -> list[str]:
        return self.ok("moves", path).splitlines()

    def play(self, path: Path, count: int) -> list[str]:
        """Append ``count`` moves, each the first legal one, one ``act`` at a time."""
        played = []
        for _ in range(count):
            move = self.moves(path)[0]
            self.ok("act", path, move)
            played.append(move)
        return played

    def show_json(self, path: Path, *extra: Any) -> dict[str, Any]:
        return json.loads(self.ok("show", path, "--json", *extra))


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path)


def make_position(
    huts: dict[int, dict[str, int]],
    *,
    seats: Sequence[str] = ("ann", "bob"),
    clans: dict[str, str] | None = None,
    to_move: str | None = None,
    chips: dict[str, int] | None = None,
    track: dict[str, int] | None = None,
) -> dict[str, Any]:
    """A Clans position document: ``huts`` maps territory -> {colour: count}."""
    default = dict(zip(seats, ("red", "blue", "green", "black"), strict=False))
    doc: dict[str, Any] = {
        "seats": list(seats),
        "clans": clans if clans is not None else default,
        "to_move": to_move if to_move is not None else seats[0],
        "huts": {str(t): dict(c) for t, c in huts.items()},
    }
    if chips is not None:
        doc["chips"] = chips
    if track is not None:
        doc["track"] = track
    return doc


@pytest.fixture
def position() -> Callable[..., dict[str, Any]]:
    return make_position


# --- the binary format, built by hand -----------------------------------------------------------


def uvarint(n: int) -> bytes:
    out = bytearray()
    while True:
        low, n = n & 0x7F, n >> 7
        out.append(low | (0x80 if n else 0))
        if not n:
            return bytes(out)


def frames(values_per_record: Sequence[Sequence[Any]]) -> bytes:
    """A .tribes file from msgpack values per record (the first record is the header), framed
    and chained as the format says: uvarint length, payload, CRC-8 over previous check + both."""
    out = [logfile.MAGIC]
    previous = 0
    for values in values_per_record:
        payload = b"".join(codec.pack(v) for v in values)
        head = uvarint(len(payload)) + payload
        previous = logfile.crc8(head, logfile.crc8(bytes([previous])))
        out.append(head + bytes([previous]))
    return b"".join(out)


def standard_header(**changes: Any) -> dict[str, Any]:
    header: dict[str, Any] = {
        "game": "clans",
        "rules_version": 1,
        "seed": 7,
        "seats": ["ann", "bob"],
        "schema": {"move": 1, "order": 1},
    }
    header.update(changes)
    return header


class Binary:
    frames = staticmethod(frames)
    header = staticmethod(standard_header)
    uvarint = staticmethod(uvarint)


@pytest.fixture
def binary() -> type[Binary]:
    """Helpers to build .tribes files by hand."""
    return Binary


@pytest.fixture
def run_process(tmp_path: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Runs the installed ``tribes`` in a real process in ``tmp_path``; checks no crash."""

    def run(*args: Any, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if k != "TRIBES_DEBUG"}
        done = subprocess.run(
            [*tribes_script(), *map(str, args)],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            check=False,
        )
        assert_no_crash(done.returncode, done.stdout, done.stderr)
        return done

    return run
