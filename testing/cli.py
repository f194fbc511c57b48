"""The ``tribes`` command under test, in-process (click's CliRunner) or in a real process, with
its contract checked on every call: never a traceback, never the internal-error status 70.

:class:`Cli` runs ``tribes`` through click's CliRunner in a scratch folder; every call asserts that
nothing crashed (no traceback, no internal error, no exit 70). ``ok`` wants exit 0, ``fails``
exactly one ``tribes: `` line on stderr and the given status, ``fails_untouched`` that besides a
log stays byte-identical, ``usage`` a click usage error (exit 2).
"""

from __future__ import annotations

import contextlib
import json
import os
import pty
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from tribes.cli.main import main

INTERNAL_ERROR = 70
"""The status of an unexpected error: never acceptable."""


def tribes_command() -> list[str]:
    """The command that runs the installed CLI in a real process."""
    script = shutil.which("tribes", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "tribes.cli.main"]


def run_process(
    *args: Any,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    """``tribes ARGS...`` in a real process (without ``TRIBES_DEBUG``, plus ``env``), its output
    as text; whatever its outcome, no traceback and no internal error."""
    environ = {k: v for k, v in os.environ.items() if k != "TRIBES_DEBUG"} | dict(env or {})
    done = subprocess.run(
        [*tribes_command(), *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environ,
        check=False,
    )
    assert_no_crash(done.returncode, done.stdout, done.stderr)
    return done


def on_a_terminal(*args: Any, cwd: Path, timeout: float = 300) -> tuple[int, str, bytes]:
    """``tribes ARGS...`` in a real process whose stderr is a terminal (a pty; without
    ``TRIBES_DEBUG``): its exit status, its stdout, and all the terminal received."""
    main, secondary = pty.openpty()
    environ = {k: v for k, v in os.environ.items() if k != "TRIBES_DEBUG"}
    with subprocess.Popen(
        [*tribes_command(), *map(str, args)],
        cwd=cwd,
        env=environ,
        stdout=subprocess.PIPE,
        stderr=secondary,
        text=True,
    ) as process:
        os.close(secondary)
        out, _ = process.communicate(timeout=timeout)
    said = b""
    with contextlib.suppress(OSError):  # the terminal's other end closed: all is read
        while chunk := os.read(main, 4096):
            said += chunk
    os.close(main)
    return process.returncode, out, said


def assert_no_crash(code: int, *texts: str) -> None:
    """No traceback and no internal error in any of ``texts``, and not the status 70."""
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
        assert len(lines[0]) > len("tribes: ") + 10, lines[0]
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
        """A path in the scratch folder."""
        return self.root / name

    def new(
        self,
        name: str = "g.tribes",
        *extra: Any,
        game: str = "clans",
        names: str = "ann,bob,cy",
        seed: int = 7,
    ) -> Path:
        """``tribes new GAME --names NAMES --seed SEED -o NAME EXTRA...``; the log's path."""
        path = self.path(name)
        self.ok("new", game, "--names", names, "--seed", seed, "-o", path, *extra)
        return path

    def from_position(self, doc: Any, name: str = "p.tribes", *, game: str = "clans") -> Path:
        """A new log of ``game`` from the position document ``doc``; its path."""
        pos = self.path(f"{name}.position.json")
        pos.write_text(json.dumps(doc))
        path = self.path(name)
        self.ok("new", game, "--position", pos, "--seed", 1, "-o", path)
        return path

    def moves(self, path: Path) -> list[str]:
        """``tribes moves LOG``, one move a line."""
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
        """``tribes show LOG --json EXTRA...``, read."""
        shown: dict[str, Any] = json.loads(self.ok("show", path, "--json", *extra))
        return shown

    def json(self, *args: Any) -> Any:
        """An invocation that must succeed, its output read as JSON."""
        return json.loads(self.ok(*args))
