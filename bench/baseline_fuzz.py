"""Mutated baselines against ``regress``: crashes, hangs and silent accepts.

    python bench/baseline_fuzz.py --mutants 10000

A baseline of a few games (5 Clans, 1 of the example plugin's dice; effects blocks of 2 games) is mutated
(``tests/forensics/baseline_mutants.py``): raw bytes flipped, cut, inserted (the digest refuses
them), then values changed and the file sealed again so that every field's check is what stands
— hostile values in every field of a record (another game, ``__class__``, winners -20 and -1,
too many seats, bad types), a digest byte flipped or cut, a score or the winners moved, header
fields, the words of events changed or damaged (a bz2 bomb too), records dropped, swapped,
duplicated, an effects block dropped, the end count moved — each run through ``tribes regress``
in process with a limit of 10 s of CPU (and 120 s of wall time). A *crash* is exit 70 (or any
exception); a *hang* a limit reached; a *silent accept* a mutant whose content differs that
regress passes (exit 0) with the very output of the original (a game's number K changed is only
a name: such mutants may pass). A refusal must be one ``tribes: baseline ...`` line on stderr. Prints counts by kind and outcome.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "forensics"))

import baseline_mutants as mutants
from click.testing import CliRunner

from tribes.cli.main import main
from tribes.replay import baseline

CPU_SECONDS = 10.0
"""A mutant's run that takes more CPU than this is a hang."""
WALL_SECONDS = 120
"""And one that takes longer than this at all (blocked: no CPU spent). Wall time alone made
runs on a machine shared by many (a load of 20) hangs that took 0.5 s of CPU."""


class Hang(BaseException):
    """The alarm (a BaseException, so that tribes' own handler of bugs does not take it)."""


def _alarm(signum: int, frame: object) -> None:
    raise Hang


def setup(folder: Path, runner: CliRunner) -> list[str]:
    """The games of the fuzz (their inputs) and a baseline of them, b.baseline."""
    for game, count in (("clans", 5), ("dice", 1)):
        result = runner.invoke(
            main,
            ["simulate", game, "--games", str(count), "--seed", "5", "--save", f"{game}.corpus"],
        )
        assert result.exit_code == 0, result.output
    inputs = ["clans.corpus", "dice.corpus"]
    block, baseline.BLOCK = baseline.BLOCK, 2  # several effects blocks of a few games
    try:
        result = runner.invoke(main, ["baseline", *inputs, "-o", "b.baseline"])
    finally:
        baseline.BLOCK = block  # (a test runs this in its own process)
    assert result.exit_code == 0, result.output
    return inputs


def run(count: int, seed: int) -> tuple[Counter[tuple[str, str]], list[str]]:
    rng = random.Random(seed)
    signal.signal(signal.SIGALRM, _alarm)
    signal.signal(signal.SIGPROF, _alarm)
    results: Counter[tuple[str, str]] = Counter()
    bad: list[str] = []
    runner = CliRunner(env={"TRIBES_DEBUG": None})
    old = Path.cwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            inputs = setup(Path(tmp), runner)
            original = Path("b.baseline").read_bytes()
            clean = runner.invoke(main, ["regress", *inputs, "--baseline", "b.baseline"])
            assert clean.exit_code == 0, clean.output
            for n in range(count):
                kind = mutants.KINDS[n % len(mutants.KINDS)]
                mutant = original
                for _ in range(20):
                    mutant = mutants.mutate(original, kind, rng)
                    if mutant != original:
                        break
                if mutant == original:
                    results[kind, "same bytes"] += 1
                    continue
                Path("m.baseline").write_bytes(mutant)
                signal.setitimer(signal.ITIMER_PROF, CPU_SECONDS)  # CPU: a loaded machine
                signal.alarm(WALL_SECONDS)  # waits no CPU timer sees (a blocked read)
                try:
                    result = runner.invoke(
                        main,
                        ["regress", *inputs, "--baseline", "m.baseline"],
                        catch_exceptions=False,
                    )
                    outcome = classify(result, clean.stdout, kind, mutant, original)
                except Hang:
                    outcome = "HANG"
                except BaseException as exc:
                    outcome = f"CRASH {type(exc).__name__}"
                finally:
                    signal.alarm(0)
                    signal.setitimer(signal.ITIMER_PROF, 0)
                results[kind, outcome] += 1
                if outcome.isupper() or outcome.startswith(("CRASH", "SILENT")):
                    Path(f"{old}/baseline-fuzz-{n}.baseline").write_bytes(mutant)
                    bad.append(f"{n} {kind}: {outcome}")
        finally:
            os.chdir(old)
    return results, bad


def classify(result: object, clean: str, kind: str, mutant: bytes, original: bytes) -> str:
    code = result.exit_code
    stdout, stderr = result.stdout, result.stderr
    if code == 70 or (result.exception and not isinstance(result.exception, SystemExit)):
        return f"CRASH exit {code} {stderr.strip()[-150:]!r} {result.exception!r}"[:300]
    if code == 1 and not stdout:
        lines = stderr.splitlines()
        if len(lines) != 1 or not lines[0].startswith("tribes: baseline "):
            return "BAD REFUSAL " + repr(stderr[:200])
        return "refused"
    if code == 1:
        return "changes shown"
    if code == 0 and stdout == clean:
        if kind == "field" and _only_numbers_moved(mutant, original):
            return "passed (a name only)"
        return "SILENT ACCEPT"
    if code == 0:
        return "passed with a note"
    return f"EXIT {code}"


def _only_numbers_moved(mutant: bytes, original: bytes) -> bool:
    """Whether the mutant differs from the original only in one game's number K (a name)."""
    try:
        now, before = mutants.values(mutant), mutants.values(original)
    except Exception:
        return False
    differ = [(a, b) for a, b in zip(now, before, strict=False) if a != b]
    return (
        len(now) == len(before)
        and len(differ) == 1
        and isinstance(differ[0][0], list)
        and differ[0][0][1:] == differ[0][1][1:]
    )


def main_() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    results, bad = run(args.mutants, args.seed)
    seconds = time.perf_counter() - start
    for (kind, outcome), n in sorted(results.items()):
        print(f"{kind:18} {outcome:24} {n:6}")
    total = sum(results.values())
    crashes = sum(n for (_, o), n in results.items() if o.startswith("CRASH"))
    hangs = sum(n for (_, o), n in results.items() if o == "HANG")
    silent = sum(n for (_, o), n in results.items() if o == "SILENT ACCEPT")
    print(
        f"{total} mutants in {seconds:.0f} s: {crashes} exit 70, {hangs} hangs, "
        f"{silent} silent accepts, {len(bad)} findings"
    )
    for line in bad[:20]:
        print(line)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main_()
