"""Shared helpers of the replay-tooling tests (cursor, stepper, diff, fork, verify, bisect,
what-if, the terminal stepper and the pytest plugin), written from the issue's spec.

Everything reaches the tests as fixtures (this folder has no ``__init__.py``, so a ``conftest``
module cannot be imported by name):

- ``cli``: runs ``tribes`` in-process inside a fresh folder and checks the error contract
  (no traceback, never the internal-error status 70; a failure is one ``tribes: `` line);
- ``demo_log``: a fresh copy of ``tribes demo``'s 36-event log (made once per session);
- ``fixture_log``: a fresh copy of one of ``fixtures/clans/*.json``;
- ``random_logs``: seeded random games (``simulate.play_game``) written as ``.tribes`` files;
- ``damage``: ways to break a log (flip a byte, cut it, another format version, ...);
- ``tmux``: a real 80×24 (or other) terminal running a command, one server per test.

The ``pytester`` fixture is enabled from ``pytest_configure`` rather than with
``pytest_plugins = ["pytester"]``: pytest refuses ``pytest_plugins`` in a conftest that is not at
the root of the run, so that line would break ``pytest`` run from the project root (``make
test``), while this works both from the root and for ``pytest tests/replay``.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tribes import games
from tribes.cli.main import main
from tribes.events import codec, logfile
from tribes.replay import logs
from tribes.replay.simulate import play_game
from tribes.testing.cli import tribes_command

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "clans"
GAME = games.get("clans")


class DemoFacts:
    """Facts about the demo log (seeded, greedy bots) that the tests rely on; checked by
    ``test_the_demo_log_has_the_events_the_tests_rely_on``."""

    EVENTS = 36
    STRIFE = 31  # cy 14-15: "... strife at 15: lone yellow, blue removed; epoch 4 begins"
    PENDING = 35  # ann 27-19: "ann must choose the order of villages 19 35"
    EPOCH_3 = 25  # cy 60-54: "... epoch 3 begins"


def pytest_configure(config: pytest.Config) -> None:
    if not config.pluginmanager.has_plugin("pytester"):
        config.pluginmanager.import_plugin("pytester")


# --- the command line, in-process -----------------------------------------------------------------


@pytest.fixture
def tribes_argv() -> list[str]:
    """The command line that runs the installed ``tribes`` in a real process."""
    return tribes_command()


@pytest.fixture(scope="session")
def demo_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``tribes demo -o DIR`` once for the session; never handed out to be changed."""
    folder = tmp_path_factory.mktemp("demo")
    result = CliRunner().invoke(main, ["demo", "-o", str(folder)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    path = folder / "demo.tribes"
    assert path.is_file()
    return path


@pytest.fixture
def demo() -> type[DemoFacts]:
    return DemoFacts


@pytest.fixture
def demo_log(demo_source: Path, tmp_path: Path) -> Path:
    """A copy of the demo log that the test may change."""
    path = tmp_path / "demo.tribes"
    shutil.copyfile(demo_source, path)
    return path


@pytest.fixture
def fixture_log(tmp_path: Path) -> Callable[[str], Path]:
    """A copy of ``fixtures/clans/NAME.json``."""

    def copy(name: str) -> Path:
        path = tmp_path / f"{name}.json"
        shutil.copyfile(FIXTURES / f"{name}.json", path)
        return path

    return copy


RANDOM_GAMES = [(seed, seats) for seed in (1, 2, 3, 11, 19) for seats in (2, 3, 4)]
"""(seed, seats) of the random games the tests replay; (3, 3) has two distinct pending orders."""


def write_random_game(folder: Path, seed: int, seats: int) -> Path:
    result = play_game(GAME, seed, seats)
    path = folder / f"random-{seed}-{seats}.tribes"
    logs.create(path, result.log, GAME, force=True)
    return path


@pytest.fixture(scope="session")
def random_sources(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("random")
    return [write_random_game(folder, seed, seats) for seed, seats in RANDOM_GAMES]


@pytest.fixture
def random_logs(random_sources: list[Path], tmp_path: Path) -> list[Path]:
    """Copies of seeded random games (2, 3 and 4 seats), as .tribes files."""
    out = []
    for source in random_sources:
        path = tmp_path / source.name
        shutil.copyfile(source, path)
        out.append(path)
    return out


@pytest.fixture
def random_game(tmp_path: Path) -> Callable[[int, int], Path]:
    """Write the random game of (seed, seats) into the test's folder."""
    return lambda seed, seats: write_random_game(tmp_path, seed, seats)


# --- damaged logs -------------------------------------------------------------------------------


class Damage:
    """Ways to break a log, each writing a new file next to the original."""

    @staticmethod
    def flip(path: Path, offset: int, name: str = "flipped.tribes") -> Path:
        data = bytearray(path.read_bytes())
        data[offset % len(data)] ^= 0x5A
        out = path.with_name(name)
        out.write_bytes(bytes(data))
        return out

    @staticmethod
    def cut(path: Path, keep: int, name: str = "cut.tribes") -> Path:
        out = path.with_name(name)
        out.write_bytes(path.read_bytes()[:keep])
        return out

    @staticmethod
    def garbage(folder: Path, name: str = "garbage.tribes") -> Path:
        out = folder / name
        out.write_bytes(b"this is not a log at all\x00\xff" * 3)
        return out

    @staticmethod
    def empty(folder: Path, name: str = "empty.tribes") -> Path:
        out = folder / name
        out.write_bytes(b"")
        return out

    @staticmethod
    def bad_json(folder: Path, name: str = "bad.json") -> Path:
        out = folder / name
        out.write_text('{"format": "tribes-log", "version": 1, "header": ')
        return out

    @staticmethod
    def other_version(path: Path, version: int = 99, name: str = "v99.tribes") -> Path:
        """The same log's header written as format ``version`` (a properly framed file)."""
        opened = logs.open_log(path)
        payload = b"".join(
            codec.pack(v) for v in ("tribes-log", version, logfile.header_data(opened.log.header))
        )
        data = logfile.MAGIC + logfile._frame(payload, 0)[0]
        out = path.with_name(name)
        out.write_bytes(data)
        return out

    @staticmethod
    def other_version_json(path: Path, version: int = 99, name: str = "v99.json") -> Path:
        opened = logs.open_log(path)
        doc = json.loads(logs.to_json(opened.log))
        doc["version"] = version
        out = path.with_name(name)
        out.write_text(json.dumps(doc))
        return out

    @staticmethod
    def newer_rules(path: Path, name: str = "rules2.json") -> Path:
        opened = logs.open_log(path)
        doc = json.loads(logs.to_json(opened.log))
        doc["header"]["rules_version"] = 2
        out = path.with_name(name)
        out.write_text(json.dumps(doc))
        return out

    @staticmethod
    def bad_checkpoint(path: Path, name: str = "badcheck.json") -> Path:
        """The JSON form with the last checkpoint's digest changed (the events untouched, the
        commits not recomputed: the commit after it covers it)."""
        opened = logs.open_log(path)
        doc = json.loads(logs.to_json(opened.log))
        digest = doc["checkpoints"][-1][2]
        doc["checkpoints"][-1][2] = f"{int(digest, 16) ^ 1:0{len(digest)}x}"
        out = path.with_name(name)
        out.write_text(json.dumps(doc))
        return out

    @staticmethod
    def illegal_event(path: Path, index: int, name: str = "illegal.tribes") -> Path:
        """A properly framed .tribes log whose event ``index`` is replaced by an illegal move
        (the huts of event ``index``'s target moved onto a territory not adjacent to it)."""
        opened = logs.open_log(path)
        events = list(opened.log.events)
        before = logs.steps_of(opened.game, opened.log)[index - 1].state
        events[index - 1] = GAME.parse_move(before, "1-60")  # not neighbours on any board
        broken = logfile.GameLog(header=opened.log.header, events=tuple(events))
        out = path.with_name(name)
        out.write_bytes(logfile.encode(broken))
        return out


@pytest.fixture
def damage() -> type[Damage]:
    return Damage


# --- a real terminal ----------------------------------------------------------------------------


class Tmux:
    """A tmux server of its own (``-L``) with one session running ``command``."""

    def __init__(self, command: str, width: int = 80, height: int = 24) -> None:
        unique = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.socket = f"tribes-test-{unique}"
        self.name = f"replay-{unique}"
        self.width = width
        self.height = height
        env = "env -u COLUMNS -u LINES -u TRIBES_DEBUG "
        self._tmux(
            "new-session",
            "-d",
            "-s",
            self.name,
            "-x",
            str(width),
            "-y",
            str(height),
            env + command,
        )
        found = self._tmux("display-message", "-p", "#{socket_path}", check=False)
        self.socket_path = Path(found.stdout.strip()) if found.returncode == 0 else None

    def _tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            check=check,
            timeout=10,
        )

    def send(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", self.name, *keys)

    def capture(self, joined: bool = False) -> list[str]:
        """The pane's lines; ``joined``: lines the terminal wrapped are joined back."""
        flags = ["-p", "-J"] if joined else ["-p"]
        out = self._tmux("capture-pane", "-t", self.name, *flags, check=False)
        lines = out.stdout.splitlines() if out.returncode == 0 else []
        return [line.rstrip() for line in lines] if joined else lines

    def text(self) -> str:
        return "\n".join(self.capture())

    def wait_for(self, text: str, timeout: float = 8.0, joined: bool = False) -> list[str]:
        """Poll the pane until ``text`` shows; the lines then."""
        deadline = time.monotonic() + timeout
        lines: list[str] = []
        while time.monotonic() < deadline:
            lines = self.capture(joined)
            if text in "\n".join(lines):
                return lines
            time.sleep(0.05)
        raise AssertionError(
            f"{text!r} did not appear within {timeout}s; the pane:\n" + "\n".join(lines)
        )

    def settle(self, pause: float = 0.3) -> list[str]:
        """The pane once it has stopped changing (for checks that something does NOT appear)."""
        before = self.capture()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            time.sleep(pause)
            now = self.capture()
            if now == before:
                return now
            before = now
        return before

    def alive(self) -> bool:
        return self._tmux("has-session", "-t", self.name, check=False).returncode == 0

    def wait_gone(self, timeout: float = 8.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                return
            time.sleep(0.05)
        raise AssertionError("the session is still there:\n" + self.text())

    def kill(self) -> None:
        self._tmux("kill-server", check=False)
        if self.socket_path is not None and self.socket_path.name == self.socket:
            self.socket_path.unlink(missing_ok=True)  # tmux leaves the socket file behind


@pytest.fixture
def tmux() -> Iterator[Callable[..., Tmux]]:
    """Start ``tribes ARGS...`` (or, with ``shell=``, a shell line) in a terminal of its own;
    every server started is killed when the test ends."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed: the terminal tests of `tribes replay` need it")
    started: list[Tmux] = []

    def start(*args: Any, width: int = 80, height: int = 24, shell: str | None = None) -> Tmux:
        if shell is None:
            shell = shlex.join([*tribes_command(), *map(str, args)])
        session = Tmux(shell, width, height)
        started.append(session)
        return session

    try:
        yield start
    finally:
        for session in started:
            session.kill()
