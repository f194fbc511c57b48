"""``tribes show`` and ``log`` answered without click (``tribes.cli.quick``) are click's
answers to the byte: the same output, messages and exit status as the click group's, for the
forms it takes and for those it leaves to click."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tribes.cli import quick
from tribes.testing import cli as testing_cli

CLICK_ONLY = "import sys; sys.argv[0] = 'tribes'; from tribes.cli.main import main; main()"
"""The click group itself, as the ``tribes`` script ran every command before."""


def _both(args: list[str], cwd: Path) -> tuple[subprocess.CompletedProcess[bytes], ...]:
    """``tribes ARGS`` run by the script (which may answer without click) and by click alone."""
    env = {k: v for k, v in os.environ.items() if k != "TRIBES_DEBUG"}
    commands = ([*testing_cli.tribes_command(), *args], [sys.executable, "-c", CLICK_ONLY, *args])
    done = []
    for command in commands:
        (cwd / "out.svg").unlink(missing_ok=True)  # what -o writes: each run makes it anew
        done.append(subprocess.run(command, cwd=cwd, env=env, capture_output=True, check=False))
    return tuple(done)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A log with a tag and notes (``g.tribes``), a damaged copy, and a folder."""
    root = tmp_path_factory.mktemp("quick")
    log = root / "g.tribes"
    testing_cli.run_process("new", "clans", "--names", "ann,bob,cy", "--seed", "7", "-o", log)
    for _ in range(3):
        move = testing_cli.run_process("moves", log).stdout.split()[0]
        testing_cli.run_process("act", log, move)
    testing_cli.run_process("tag", log, "event=Club night")
    testing_cli.run_process("note", log, "2", "a note\nof two lines")
    data = bytearray(log.read_bytes())
    data[len(data) // 2] ^= 0xFF
    (root / "bad.tribes").write_bytes(bytes(data))
    (root / "folder").mkdir()
    return root


SHOW_FORMS = [
    ["g.tribes"],
    ["g.tribes", "--at", "0"],
    ["g.tribes", "--at", "2"],
    ["--at", "2", "g.tribes"],
    ["g.tribes", "--at", " 3"],
    ["g.tribes", "--at", "+1"],
    ["g.tribes", "--at", "1_0"],
    ["g.tribes", "--at", "99"],
    ["g.tribes", "--at", "-1"],
    ["g.tribes", "--at", "x"],
    ["g.tribes", "--at"],
    ["g.tribes", "--at=2"],
    ["g.tribes", "--as", "ann"],
    ["g.tribes", "--as", "spectator", "--at", "1"],
    ["g.tribes", "--as", "nobody"],
    ["g.tribes", "--as", ""],
    ["g.tribes", "--json"],
    ["g.tribes", "--json", "--as", "bob", "--at", "2"],
    ["g.tribes", "--svg", "--as", "cy"],
    ["g.tribes", "--json", "--svg"],
    ["g.tribes", "--json", "--json"],
    ["g.tribes", "g.tribes"],
    ["g.tribes", "--help"],
    ["g.tribes", "--", "x"],
    ["g.tribes", "-o", "out.svg", "--svg"],
    ["missing.tribes"],
    ["bad.tribes"],
    ["folder"],
    [""],
    ["-"],
    [],
]


LOG_FORMS = [
    ["g.tribes"],
    ["g.tribes", "--json"],
    ["--json", "g.tribes", "--states"],
    ["g.tribes", "--states"],
    ["g.tribes", "--as", "ann"],
    ["g.tribes", "--as", "nobody"],
    ["g.tribes", "--json", "--as", "bob", "--states"],
    ["g.tribes", "--at", "1"],
    ["g.tribes", "--json", "--json"],
    ["g.tribes", "--help"],
    ["missing.tribes"],
    ["bad.tribes"],
    ["folder"],
    [],
]


IN_PROCESSES = [
    ["show", "g.tribes"],
    ["show", "g.tribes", "--json", "--as", "bob", "--at", "2"],
    ["show", "g.tribes", "-o", "out.svg", "--svg"],
    ["show", "g.tribes", "--at=2"],
    ["show", "bad.tribes"],
    ["log", "g.tribes"],
    ["log", "--json", "g.tribes", "--states"],
    ["log", "missing.tribes"],
]
"""Forms run as two fresh processes each (the script, click alone): the fast path, click's
after the fast path declined, and an error. Every form of SHOW_FORMS and LOG_FORMS, and many
more, run both ways in tests/cli/test_quick_differential.py, in processes forked from one
that has tribes loaded (a fresh process per form here cost ~25 s of CPU)."""


@pytest.mark.parametrize("args", IN_PROCESSES, ids=" ".join)
def test_show_and_log_answer_as_click_does(folder, args):
    fast, click_only = _both(args, folder)
    assert (fast.returncode, fast.stdout, fast.stderr) == (
        click_only.returncode,
        click_only.stdout,
        click_only.stderr,
    )


def test_the_plain_forms_are_answered_without_click_and_the_rest_by_it(folder, monkeypatch):
    monkeypatch.chdir(folder)
    for command, forms in (("show", SHOW_FORMS), ("log", LOG_FORMS)):
        taken = [f for f in forms if quick._parsed(command, f) is not None]
        assert [f for f in taken if f[0] == "g.tribes" and "--json" in f]  # the fast path's
    for form in (["g.tribes", "--at", "x"], ["g.tribes", "--help"], ["g.tribes", "--at=2"]):
        assert quick._parsed("show", form) is None
    assert quick._parsed("log", ["g.tribes", "--at", "1"]) is None
    assert quick._parsed("moves", ["g.tribes"]) is None
    assert not quick.answered("show", ["missing.tribes"])  # an error: left to click


class _Failing:
    """A standard output whose writes fail with ``error``."""

    encoding, errors = "utf-8", "strict"

    def __init__(self, error: OSError) -> None:
        self.error = error

    def write(self, text: str) -> int:
        raise self.error

    def flush(self) -> None:
        raise self.error


@pytest.mark.parametrize(
    ("error", "status", "said"),
    [
        (BrokenPipeError(32, "Broken pipe"), 1, ""),
        (OSError(5, "I/O error"), 70, "tribes: internal error: OSError: [Errno 5] I/O error"),
    ],
)
def test_a_failed_write_is_answered_as_the_click_group_answers_it(
    monkeypatch, capfd, error, status, said
):
    monkeypatch.delenv("TRIBES_DEBUG", raising=False)
    monkeypatch.setattr(sys, "stdout", _Failing(error))
    monkeypatch.setattr(sys, "stderr", sys.__stderr__)  # closed on a broken pipe: not pytest's
    monkeypatch.setattr(sys.__stderr__, "close", lambda: None)
    with pytest.raises(SystemExit) as exited:
        quick._write(["board\n"])
    assert exited.value.code == status
    assert capfd.readouterr().err.startswith(said)
