"""Seeded mutants of a corpus of every kind ``bench/corpus_fuzz.py`` makes (it runs 20,000 and
more): never a traceback, never a hang, never a silent accept."""

from __future__ import annotations

import random
import signal

import corpus_mutants as mutants
import pytest

GROUPS = (2, 3, 1)


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang


@pytest.mark.parametrize("kind", mutants.KINDS)
def test_mutants_are_refused_or_read_back_the_same(tmp_path, kind):
    path = tmp_path / "o.corpus"
    expected = mutants.original(path, GROUPS)
    data = path.read_bytes()
    rng = random.Random(kind)
    old = signal.signal(signal.SIGALRM, _alarm)
    found = {}
    try:
        for _ in range(25):
            mutant = mutants.edited(data, kind, rng, tmp_path / "s.corpus")
            (tmp_path / "m.corpus").write_bytes(mutant)
            signal.alarm(10)
            verdict = mutants.judge(tmp_path / "m.corpus", expected, mutants.commits_of(GROUPS))
            signal.alarm(0)
            found.setdefault(verdict.split(":")[0], verdict)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert set(found) <= {"refused", "same", "prefix"}, found
