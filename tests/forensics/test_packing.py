"""The results of a sweep and of a simulation travel from their workers packed, and wait their
turn in the main process packed (issue 31 §4: they were most of what a million games held above
a thousand)."""

from __future__ import annotations

import gc
import pickle
import tracemalloc
from pathlib import Path

import pytest

from tribes import games
from tribes.replay import baseline, packing, parallel, simulate, sweep
from tribes.replay.parallel import Where


def records(count: int) -> list[sweep.Visited[baseline.Record]]:
    game = games.get("clans")
    how = simulate.match(game, ("random",), seats=3)
    recorder = baseline.Recorder()
    out = []
    for k in range(1, count + 1):
        log = simulate.play_game(game, k, how).log
        out.append(sweep.Visited(f"runs.corpus#{k}", recorder(f"runs.corpus#{k}", game, log)))
    return out


def test_packed_results_unpack_to_the_same_and_count_them():
    found = records(12)
    packed = packing.pack(found, len(found))
    assert len(packed) == 12
    assert packed.unpack() == found
    assert packing.unpacked(packed) == found
    assert packing.unpacked(found) is found
    again = pickle.loads(pickle.dumps(packed))  # as it travels from a worker
    assert again.unpack() == found


def test_a_packed_task_travels_to_a_pool():
    task = packing.packed(_squares, len)
    out = list(parallel.execute(task, [2, 3, 4], Where(jobs=2)))
    assert [p.unpack() for p in out] == [[0, 1], [0, 1, 4], [0, 1, 4, 9]]


def _squares(n: int) -> list[int]:
    return [i * i for i in range(n)]


def test_a_packed_shard_of_records_holds_under_a_third_of_its_objects():
    found = records(40)
    gc.collect()
    tracemalloc.start()
    try:
        expanded = pickle.loads(pickle.dumps(found))
        as_objects = tracemalloc.get_traced_memory()[0]
        del expanded
        gc.collect()
        tracemalloc.reset_peak()
        start = tracemalloc.get_traced_memory()[0]
        packed = packing.pack(found, 40)
        as_packed = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert len(packed.data) < as_packed + 1000
    assert as_packed * 3 < as_objects, (as_packed, as_objects)


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[type]:
    """The type of each result ``parallel.execute`` yields, as the test's runs go."""
    found: list[type] = []
    execute = parallel.execute

    def spying(task, shards, where, done=lambda i, r: None):
        for result in execute(task, shards, where, done):
            found.append(type(result))
            yield result

    monkeypatch.setattr(parallel, "execute", spying)
    return found


def test_a_sweep_on_a_pool_packs_its_results_and_gives_the_same(here: Path, seen: list[type]):
    corpus = [here / "runs.corpus"]
    told: list[int] = []
    one = list(sweep.sweep(corpus, baseline.Recorder(), Where(1)))
    assert seen and set(seen) == {list}
    seen.clear()
    two = list(sweep.sweep(corpus, baseline.Recorder(), Where(jobs=2), told.append))
    assert seen and set(seen) == {packing.Packed}
    assert two == one and len(one) == 40
    assert sum(told) == 40  # progress counts the games a packed shard holds


def test_a_simulation_on_a_pool_packs_its_shards_and_saves_the_same(
    tmp_path: Path, seen: list[type]
):
    game = games.get("clans")
    how = simulate.match(game, ("random",), seats=3)
    told: list[int] = []
    runs = {}
    for jobs in (1, 2):
        save = tmp_path / f"j{jobs}.corpus"
        runs[jobs] = simulate.simulate(
            game, games=60, seed=5, how=how, save=save, where=Where(jobs=jobs), progress=told.append
        )
        assert seen and set(seen) == ({simulate.Played} if jobs == 1 else {packing.Packed})
        seen.clear()
    assert runs[1] == runs[2] and runs[1].games == 60
    assert sum(told) == 120  # each run's progress counts its games, packed or not
    assert (tmp_path / "j1.corpus").read_bytes() == (tmp_path / "j2.corpus").read_bytes()
