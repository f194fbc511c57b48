"""Issue 19's measurements as instruction counts: valgrind's callgrind on the installed CLI.

This machine is shared and its wall-clock speed drifts by ±30% from one minute to the next;
the instructions a command executes do not move with load, so before/after comparisons are made
with these. "A game" is ``simulate --games N2`` minus ``simulate --games N1``, divided by
``N2 - N1``: the start of the process and the first games' warm-up cancel out, and since the games
of a seed are the same whatever the count, the difference is exactly games N1+1…N2.

Also printed, by wall clock (it drifts; the load average is printed beside it): the greedy
Hunters bot's games per second, the best of three runs of ``simulate --bot greedy``.

What is measured is the CLI as a user installs it: by default this checkout is installed
(``pip install .``, not editable) into a throwaway virtual environment first, since an editable
install adds its own import hook to every start (``tribes --help`` ~1,090 M instead of ~620 M on
main). ``--compiled`` installs it as the compiled build (``TRIBES_COMPILE=1``, ``setup.py``: the
wheel built by this Python's pip, which needs mypy and a C compiler). ``--tribes PATH`` measures
another one.

Run: ``.venv/bin/python bench/instructions.py [--only NAME ...] [--compiled | --tribes PATH]``
(about ten minutes: callgrind runs a program ~50× slower). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import attrs


@attrs.frozen
class Measure:
    """One row of the table: a name, how to get its instructions, and issue 19's target."""

    name: str
    label: str
    count: Callable[[Path, Path], float]
    target: str


def callgrind(command: list[str], work: Path) -> int:
    """The instructions ``command`` executes (its whole process, start-up included)."""
    out = work / "callgrind.out"
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=work,
    )
    text = out.read_text()
    out.unlink()
    found = re.search(r"^summary: (\d+)$", text, re.MULTILINE)
    if not found:
        raise SystemExit(f"no summary line in callgrind's output of {command}")
    return int(found.group(1))


def per_game(game: str, seats: int, counts: tuple[int, int], bot: str = "random") -> Callable:
    """Instructions a game of ``simulate``: the difference of two runs over their games."""
    few, many = counts

    def count(tribes: Path, work: Path) -> float:
        def run(n: int) -> int:
            args = ["simulate", game, "--games", str(n), "--seats", str(seats), "--bot", bot]
            return callgrind([str(tribes), *args], work)

        return (run(many) - run(few)) / (many - few)

    return count


def whole(*args: str) -> Callable:
    """Instructions of one whole command (``SMALL`` in ``args`` is a 10-event Clans log)."""

    def count(tribes: Path, work: Path) -> float:
        small = str(small_log(tribes, work)) if "SMALL" in args else ""
        return callgrind([str(tribes), *(small if a == "SMALL" else a for a in args)], work)

    return count


def small_log(tribes: Path, work: Path) -> Path:
    """A 10-event Clans log, each move the first legal one (made once, not measured)."""
    path = work / "small.tribes"
    if path.exists():
        return path
    run = [str(tribes)]
    subprocess.run([*run, "new", "clans", "--seed", "7", "-o", str(path)], check=True, **QUIET)
    for _ in range(10):
        moves = subprocess.run([*run, "moves", str(path)], check=True, capture_output=True)
        first = moves.stdout.decode().split()[0]
        subprocess.run([*run, "act", str(path), first], check=True, **QUIET)
    return path


def act_on_a_copy(tribes: Path, work: Path) -> float:
    """Instructions of ``act`` appending the first legal move to a copy of the small log."""
    copy = work / "copy.tribes"
    shutil.copyfile(small_log(tribes, work), copy)
    moves = subprocess.run([str(tribes), "moves", str(copy)], check=True, capture_output=True)
    return callgrind([str(tribes), "act", str(copy), moves.stdout.decode().split()[0]], work)


QUIET: dict = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}

MEASURES = [
    Measure("clans", "Clans, 3 seats, random (a game)", per_game("clans", 3, (10, 110)), "≤ 4.8 M"),
    Measure("iwari", "Iwari, 3 seats, random (a game)", per_game("iwari", 3, (5, 35)), "≤ 20 M"),
    Measure(
        "hunters", "Hunters, 2 seats, random (a game)", per_game("hunters", 2, (5, 35)), "≤ 16 M"
    ),
    Measure(
        "hunters4", "Hunters, 4 seats, random (a game)", per_game("hunters", 4, (5, 25)), "≤ 24 M"
    ),
    Measure(
        "greedy",
        "Hunters, 2 seats, greedy (a game)",
        per_game("hunters", 2, (1, 4), bot="greedy"),
        "",
    ),
    Measure("help", "tribes --help", whole("--help"), "≤ 150 M"),
    Measure(
        "show", "tribes show SMALL.tribes (10 Clans events)", whole("show", "SMALL"), "≤ 250 M"
    ),
    Measure("log", "tribes log SMALL.tribes", whole("log", "SMALL"), ""),
    Measure("moves", "tribes moves SMALL.tribes", whole("moves", "SMALL"), ""),
    Measure("act", "tribes act (a copy of SMALL, its first move)", act_on_a_copy, ""),
]


def installed(work: Path, compiled: bool = False) -> Path:
    """This checkout installed as a user installs it, in a fresh virtual environment; with
    ``compiled``, its compiled build (a wheel built with this Python's mypy, no isolation)."""
    checkout = Path(__file__).resolve().parent.parent
    tracked = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=checkout,
        check=True,
        capture_output=True,
    ).stdout.decode()
    source = work / "source"  # a copy: building writes build/ into the tree it builds
    for name in filter(None, tracked.split("\0")):
        if (checkout / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(checkout / name, source / name)
    env = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True, **QUIET)
    pip = [str(env / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    if compiled:
        wheels = work / "wheels"
        build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
        building = {**os.environ, "TRIBES_COMPILE": "1"}
        subprocess.run([*build, "-w", str(wheels), str(source)], check=True, env=building, **QUIET)
        (source,) = wheels.glob("tribes-*.whl")
    subprocess.run([*pip, str(source)], check=True, **QUIET)
    return env / "bin" / "tribes"


def greedy_rate(tribes: Path, games: int = 30) -> float:
    """Greedy Hunters games a second by wall clock, the best of three runs."""
    best = 0.0
    for _ in range(3):
        began = time.perf_counter()
        command = [str(tribes), "simulate", "hunters", "--games", str(games), "--bot", "greedy"]
        subprocess.run(command, check=True, **QUIET)
        best = max(best, games / (time.perf_counter() - began))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", nargs="*", choices=[m.name for m in MEASURES] + ["wall"])
    parser.add_argument(
        "--tribes",
        type=Path,
        help="The CLI to measure (default: this checkout, installed into a fresh venv).",
    )
    parser.add_argument(
        "--compiled",
        action="store_true",
        help="Install this checkout's compiled build (TRIBES_COMPILE=1) into the fresh venv.",
    )
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    chosen = set(args.only or [m.name for m in MEASURES] + ["wall"])
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        tribes = args.tribes or installed(work, args.compiled)
        for measure in MEASURES:
            if measure.name in chosen:
                figure = measure.count(tribes, work)
                print(f"{measure.label:46} {figure / 1e6:9.2f} M   {measure.target}", flush=True)
        if "wall" in chosen:
            load = os.getloadavg()[0]
            rate = greedy_rate(tribes)
            print(f"{'Hunters greedy bot (wall clock)':46} {rate:9.1f} games/s (load {load:.2f})")


if __name__ == "__main__":
    main()
