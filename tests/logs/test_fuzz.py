"""Seeded mutation of both forms of a log: no traceback, no hang, no silent accept.

A mutant ``verify`` calls ok must hold the original's content or the log as it was at one of
its commits (a clean prefix); anything else is a silent accept. ``bench/logs_fuzz.py`` runs the
same mutators over 20,000 mutants and more logs."""

from __future__ import annotations

import random
import signal
from pathlib import Path

import mutants
import pytest


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang


@pytest.fixture
def alarm():
    old = signal.signal(signal.SIGALRM, _alarm)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def verdicts(path: Path, made, target: Path) -> dict[str, list[str]]:
    prefixes = mutants.commit_prefixes(path)
    out: dict[str, list[str]] = {}
    for kind, data in made:
        target.write_bytes(data)
        signal.alarm(10)
        try:
            verdict = mutants.judge(target, prefixes)
        except Hang:
            verdict = "hang"
        finally:
            signal.alarm(0)
        out.setdefault(verdict, []).append(kind)
    return out


@pytest.mark.parametrize("suffix", [".tribes", ".json"])
def test_mutants_of_a_log_are_refused_or_are_the_log_as_it_was(tmp_path, alarm, suffix):
    rng = random.Random(8)
    path = mutants.played(3, [1, 3, 2], tmp_path, f"orig{suffix}")
    data = path.read_bytes()
    if suffix == ".json":
        made = list(mutants.json_mutants(data.decode(), rng, 400))
    else:
        made = list(mutants.binary_mutants(data, rng, 400))
    found = verdicts(path, made, tmp_path / f"mutant{suffix}")
    assert set(found) <= {"refused", "ok-same"}, {k: v[:5] for k, v in found.items()}
    assert len(found["refused"]) > 300


@pytest.mark.parametrize("suffix", [".tribes", ".json"])
def test_a_log_cut_at_every_offset_is_refused_or_is_the_log_at_a_commit(tmp_path, alarm, suffix):
    path = mutants.played(5, [1, 2], tmp_path, f"orig{suffix}")
    data = path.read_bytes()
    made = [("cut", data[:n]) for n in range(len(data))]
    found = verdicts(path, made, tmp_path / f"cut{suffix}")
    assert set(found) <= {"refused", "ok-same"}, found.keys()
    if suffix == ".tribes":  # the three commits: of new, and of each act
        assert len(found.get("ok-same", [])) == 2  # the whole file is not a cut
