"""A differential test of ``tribes show`` and ``log`` answered without click
(:mod:`tribes.cli.quick`): many argument lists (a hand list of nasty ones, and more that
hypothesis makes of the same pieces) run both ways, the ``tribes`` script and the click group
alone, over logs of every game, corpora, JSON logs and damaged files; the output, the messages
and the exit status must be the same to the byte. The environment (encodings, locale, what
standard output is) is varied too.

Each run is a real process, cheaply: a helper interpreter started once per environment (so its
standard streams are what that environment makes them) has tribes and click loaded, and forks
for each run a child that points its standard output and error at files and runs the script's
``run`` or the group's ``main`` on the arguments. A few runs of the real script in a fresh
process check that the helper answers as it does."""

from __future__ import annotations

import json
import os
import pty
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tribes.testing import cli as testing_cli

HELPER = r"""
import json, os, sys, traceback
sys.argv = ["tribes"]
from tribes.cli import run
from tribes.cli.main import main
import tribes.cli.quick, tribes.cli.reading  # loaded once, before the forks

requests, replies = os.fdopen(os.dup(0), "rb"), os.dup(1)
for line in requests:
    ask = json.loads(line)
    for name in ask["remove"]:
        if os.path.lexists(name):
            os.unlink(name)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            for fd, path in ((1, ask["out"]), (2, ask["err"])):
                opened = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(opened, fd)
                os.close(opened)
            sys.argv = ["tribes", *ask["args"]]
            try:
                (run if ask["way"] == "script" else main)()
                code = 0
            except SystemExit as exc:  # as the interpreter answers it
                if exc.code is None or isinstance(exc.code, int):
                    code = exc.code or 0
                else:
                    print(exc.code, file=sys.stderr)
            except BaseException:
                traceback.print_exc()
            for stream in (sys.stdout, sys.stderr):
                if stream is not None and not stream.closed:
                    stream.flush()
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    os.write(replies, (json.dumps(os.waitstatus_to_exitcode(status)) + "\n").encode())
"""
"""A process that runs ``tribes ARGS`` in a forked child, by the script or by click alone."""

CLICK_ONLY = "import sys; sys.argv[0] = 'tribes'; from tribes.cli.main import main; main()"
"""The click group itself, in a process of its own."""

ENV = {k: v for k, v in os.environ.items() if k != "TRIBES_DEBUG" and not k.endswith("_COMPLETE")}


class Helper:
    """The helper process of one environment."""

    def __init__(self, root: Path, env: dict[str, str]) -> None:
        self.root = root
        self.process = subprocess.Popen(
            [sys.executable, "-c", HELPER],
            cwd=root,
            env=ENV | env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def run(self, way: str, args: list[str]) -> tuple[int, bytes, bytes]:
        out, err = self.root.parent / "out", self.root.parent / "err"
        ask = {"way": way, "args": args, "out": str(out), "err": str(err), "remove": ["out.svg"]}
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(ask).encode() + b"\n")
        self.process.stdin.flush()
        status = json.loads(self.process.stdout.readline())
        return status, out.read_bytes(), err.read_bytes()

    def both(self, args: list[str]) -> tuple[tuple[int, bytes, bytes], tuple[int, bytes, bytes]]:
        return self.run("script", args), self.run("click", args)

    def close(self) -> None:
        self.process.communicate(timeout=60)


def _tribes(root: Path, *args: str) -> str:
    return testing_cli.run_process(*args, cwd=root).stdout


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Logs of the three games (notes, tags, a note on the start), a corpus, JSON logs, damaged
    and odd files, in a folder of their own (its parent holds the helper's output files)."""
    root = tmp_path_factory.mktemp("differential") / "logs"
    root.mkdir()
    _tribes(root, "new", "clans", "--names", "ann,bob,cy", "--seed", "7", "-o", "c.tribes")
    for _ in range(3):
        _tribes(root, "act", "c.tribes", _tribes(root, "moves", "c.tribes").split()[0])
    shutil.copy(root / "c.tribes", root / "plain.tribes")
    _tribes(root, "tag", "c.tribes", "event=Club night", "site=Bonn")
    _tribes(root, "note", "c.tribes", "0", "before it all")
    _tribes(root, "note", "c.tribes", "2", "a note\nof two lines")
    shutil.copy(root / "plain.tribes", root / "snow.tribes")  # not Latin-1 after its first line
    _tribes(root, "note", "snow.tribes", "2", "snow \N{SNOWMAN}")
    shutil.copy(root / "plain.tribes", root / "uni.tribes")
    _tribes(root, "tag", "uni.tribes", "event=Caf\N{LATIN SMALL LETTER E WITH ACUTE} \N{SNOWMAN}")
    _tribes(root, "simulate", "iwari", "--games", "1", "--seed", "3", "--save", "iw")
    (next((root / "iw").iterdir())).rename(root / "i.tribes")
    _tribes(root, "simulate", "hunters", "--games", "1", "--seed", "2", "--save", "hu")
    (next((root / "hu").iterdir())).rename(root / "h.tribes")
    _tribes(root, "simulate", "clans", "--games", "3", "--seed", "5", "--save", "g.corpus")
    _tribes(root, "export", "c.tribes", "-o", "c.json")
    _tribes(root, "export", "h.tribes", "-o", "h.json")
    data = (root / "c.tribes").read_bytes()
    (root / "torn.tribes").write_bytes(data[:-5])
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0xFF
    (root / "bad.tribes").write_bytes(bytes(flipped))
    (root / "empty.tribes").write_bytes(b"")
    (root / "junk.json").write_text('{"format": "tribes-log", "version": 2, "header": ')
    (root / "not-json.json").write_text("\N{SNOWMAN}")
    (root / "folder").mkdir()
    (root / "locked.tribes").write_bytes(data)
    (root / "locked.tribes").chmod(0)  # as root it is read all the same: both ways alike
    for name in ("with space.tribes", "ünï ☃.tribes", "-dash.tribes", "a=b.tribes", "x#1.tribes"):
        (root / name).write_bytes(data)
    (root / "--json").write_bytes(data)
    (root / os.fsdecode(b"\xff.tribes")).write_bytes(data)  # a name that is no UTF-8
    os.mkfifo(root / "fifo.tribes")
    (root / "loop.tribes").symlink_to("loop.tribes")
    (root / "dangling.tribes").symlink_to("nowhere.tribes")
    (root / "link.tribes").symlink_to("c.tribes")
    return root


LOGS = [
    "c.tribes",
    "plain.tribes",
    "snow.tribes",
    "uni.tribes",
    "i.tribes",
    "h.tribes",
    "c.json",
    "h.json",
    "g.corpus#1",
    "g.corpus#3",
    "g.corpus#0",
    "g.corpus#999",
    "g.corpus#x",
    "g.corpus",
    "torn.tribes",
    "bad.tribes",
    "empty.tribes",
    "junk.json",
    "not-json.json",
    "folder",
    "missing.tribes",
    "locked.tribes",
    "with space.tribes",
    "ünï ☃.tribes",
    "-dash.tribes",
    "a=b.tribes",
    "x#1.tribes",
    "./--json",
    os.fsdecode(b"\xff.tribes"),
    "fifo.tribes",
    "loop.tribes",
    "dangling.tribes",
    "link.tribes",
    "/dev/null",
    "./-dash.tribes",
    "folder/",
    "c.tribes/",
    "/",
    "-",
    "",
]

AT = ["0", "3", "4", "-1", "+3", " 3", "3 ", "\t3\n", "0x3", "０", "３", "1_000", "1__0", "9" * 40]
AS = ["ann", "bob", "cy", "spectator", "all", "1", "0", "nobody", "", "Ann", " ann", "p1", "a"]
OPTIONS = ["--json", "--svg", "--states", "--at", "--as", "-o", "--force", "--help", "-h", "--"]
ODD = ["--js", "--jso", "--json=1", "--at=3", "--as=ann", "--As", "—json", "--output", "--ver"]

HAND = [
    *([log] for log in LOGS),
    *(["c.tribes", "--at", at] for at in AT),
    *(["h.tribes", "--as", who] for who in AS),
    *(["c.tribes", *flags] for flags in (["--json"], ["--svg"], ["--json", "--svg"], ["--states"])),
    ["c.tribes", "--json", "--states"],
    ["--json", "--states", "c.tribes"],
    ["--states", "--json", "--as", "ann", "i.tribes"],
    ["--at", "2", "--as", "bob", "c.tribes"],
    ["c.tribes", "--at", "2", "--at", "2"],
    ["c.tribes", "--as", "ann", "--as", "bob"],
    ["c.tribes", "--as", "--json"],
    ["c.tribes", "--at", "--json"],
    ["c.tribes", "--as"],
    ["c.tribes", "--at"],
    ["--as", "c.tribes"],
    ["--", "c.tribes"],
    ["c.tribes", "--"],
    ["--", "-dash.tribes"],
    ["c.tribes", "c.tribes"],
    ["c.tribes", "h.tribes"],
    ["c.tribes", "-o", "out.svg"],
    ["c.tribes", "--svg", "-o", "out.svg", "--force"],
    *(["c.tribes", odd] for odd in ODD),
    *([option] for option in OPTIONS),
    ["--help", "c.tribes"],
    ["c.tribes", "-h"],
    [],
]
"""Argument lists after the command, each run as ``show`` and as ``log``."""

PIECES = st.sampled_from([*LOGS[:12], "missing.tribes", "folder", *OPTIONS[:5], *ODD[:3]])
VALUES = st.sampled_from(AT + AS)


@st.composite
def argument_lists(draw: st.DrawFn) -> list[str]:
    """Mostly a log and options, an option's value often where it goes."""
    args: list[str] = []
    for _ in range(draw(st.integers(0, 5))):
        piece = draw(PIECES)
        args.append(piece)
        if piece in ("--at", "--as") and draw(st.integers(0, 4)):
            args.append(draw(VALUES))
    return args


@pytest.fixture(scope="module")
def helper(root: Path) -> Iterator[Helper]:
    running = Helper(root, {})
    yield running
    running.close()


def _same(done: tuple[tuple[int, bytes, bytes], ...], args: list[str]) -> None:
    script, click_only = done
    assert script == click_only, args


@pytest.mark.parametrize("command", ["show", "log"])
def test_the_hand_list_is_answered_as_click_answers_it(helper, command):
    for args in HAND:
        _same(helper.both([command, *args]), [command, *args])


def test_the_forms_of_test_quick_are_answered_as_click_answers_them(helper):
    from test_quick import LOG_FORMS, SHOW_FORMS  # this folder is on sys.path (prepend mode)

    for command, forms in (("show", SHOW_FORMS), ("log", LOG_FORMS)):
        for form in forms:
            args = [command, *("c.tribes" if a == "g.tribes" else a for a in form)]
            _same(helper.both(args), args)


@settings(
    max_examples=40,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(command=st.sampled_from(["show", "log"]), args=argument_lists())
def test_generated_argument_lists_are_answered_as_click_answers_them(helper, command, args):
    _same(helper.both([command, *args]), [command, *args])


ENVIRONMENTS = [
    {"PYTHONIOENCODING": "latin-1"},
    {"PYTHONIOENCODING": "ascii"},
    {"PYTHONIOENCODING": "utf-8:strict"},
    {"PYTHONIOENCODING": "utf-16"},
    {"LC_ALL": "C", "LANG": "C"},
    {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"},
    {"LANG": "de_DE.UTF-8", "LANGUAGE": "de", "COLUMNS": "40"},
]
ENV_FORMS = [
    ["log", "snow.tribes"],
    ["log", "uni.tribes", "--json"],
    ["show", "snow.tribes"],
    ["show", "uni.tribes"],
    ["show", "h.tribes", "--svg"],
    ["log", "c.tribes"],
    ["show", "missing.tribes"],
    ["show", "c.tribes", "--help"],
]


@pytest.mark.parametrize(
    "env", ENVIRONMENTS, ids=lambda env: " ".join(f"{k}={v}" for k, v in env.items())
)
def test_every_environment_is_answered_as_click_answers_it(root, env):
    running = Helper(root, env)
    try:
        for args in ENV_FORMS:
            _same(running.both(args), args)
    finally:
        running.close()


def _process(
    root: Path,
    way: str,
    args: list[str],
    env: dict[str, str],
    stdout: int | None = None,
    before: Callable[[], None] | None = None,
) -> tuple[int, bytes | None, bytes]:
    """``tribes ARGS`` by the installed script or by click alone, in a process of its own;
    ``stdout``: a file descriptor for standard output instead of a pipe; ``before``: run in the
    process before it starts."""
    command = (
        testing_cli.tribes_command() if way == "script" else [sys.executable, "-c", CLICK_ONLY]
    )
    ran = subprocess.run(
        [*command, *args],
        cwd=root,
        env=ENV | env,
        stdout=subprocess.PIPE if stdout is None else stdout,
        stderr=subprocess.PIPE,
        check=False,
        timeout=60,
        preexec_fn=before,
    )
    return ran.returncode, ran.stdout, ran.stderr


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["log", "snow.tribes"], {"PYTHONIOENCODING": "latin-1"}),
        (["show", "uni.tribes"], {"PYTHONIOENCODING": "ascii"}),
        (
            ["show", "c.tribes"],
            {"_TRIBES_COMPLETE": "bash_complete", "COMP_WORDS": "tribes show c", "COMP_CWORD": "2"},
        ),
    ],
)
def test_the_script_itself_answers_as_click_does(root, args, env):
    assert _process(root, "script", args, env) == _process(root, "click", args, env)


def _size_limit() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (60, 60))  # a write past it: EFBIG


@pytest.mark.parametrize("command", ["show", "log"])
def test_standard_output_a_file_a_size_limit_a_full_disk_a_closed_pipe(root, tmp_path, command):
    """Where output fails part way (the log's third line crosses the file size limit: click
    has written two lines, cut the third short and fails on the fourth), as where it fails."""
    for target in ("file", "size limit", "/dev/full", "closed pipe"):
        outs = []
        for way in ("script", "click"):
            if target in ("file", "size limit"):
                name = tmp_path / f"{way} {target}"
                fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            elif target == "closed pipe":
                read, fd = os.pipe()
                os.close(read)
            else:
                fd = os.open(target, os.O_WRONLY)
            limit = _size_limit if target == "size limit" else None
            try:
                outs.append(_process(root, way, [command, "c.tribes"], {}, fd, limit))
            finally:
                os.close(fd)
        assert outs[0] == outs[1], target
        if target in ("file", "size limit"):
            written = [(tmp_path / f"{way} {target}").read_bytes() for way in ("script", "click")]
            assert written[0] == written[1] != b"", target


def _on_a_terminal(root: Path, way: str, args: list[str]) -> tuple[int, bytes, bytes]:
    """``tribes ARGS`` with a terminal (a pseudo-terminal) for standard output."""
    main_end, terminal = pty.openpty()
    command = (
        testing_cli.tribes_command() if way == "script" else [sys.executable, "-c", CLICK_ONLY]
    )
    process = subprocess.Popen(
        [*command, *args], cwd=root, env=ENV, stdout=terminal, stderr=subprocess.PIPE
    )
    os.close(terminal)
    out = b""
    while True:
        try:
            chunk = os.read(main_end, 1 << 16)
        except OSError:  # EIO: the process closed its end
            break
        if not chunk:
            break
        out += chunk
    assert process.stderr is not None
    err = process.stderr.read()
    process.stderr.close()
    os.close(main_end)
    return process.wait(timeout=60), out, err


@pytest.mark.parametrize("args", [["show", "uni.tribes"], ["log", "c.tribes", "--as", "ann"]])
def test_a_terminal_is_answered_as_click_answers_it(root, args):
    assert _on_a_terminal(root, "script", args) == _on_a_terminal(root, "click", args)
