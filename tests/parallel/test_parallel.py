"""Work in shards: the same results with 1 process, a pool of 2, or a Dask cluster of two worker
processes; in input order; no game lost or counted twice when a worker is killed mid-run."""

from __future__ import annotations

import os
import signal

import pytest

from tribes import games
from tribes.core.errors import UsageError
from tribes.replay import batch, parallel, simulate
from tribes.replay.parallel import Where

distributed = pytest.importorskip("distributed")


def run_of(count: int, where: Where, **extra: object) -> simulate.Summary:
    game = games.get("clans")
    how = simulate.match(game, ("greedy", "random", "random"))
    return simulate.simulate(game, games=count, seed=3, how=how, where=where, **extra)


def test_game_i_has_its_seed_from_the_run_and_i():
    assert [simulate.seed_of(9, i) for i in range(5)] == list(simulate.seeds(9, 5))


def test_a_pool_of_two_gives_the_same_run():
    one = run_of(24, Where(1))
    two = run_of(24, Where(jobs=2))
    assert one == two and one.games == 24


def test_a_pool_reports_in_input_order(tmp_path):
    game = games.get("clans")
    how = simulate.match(game)
    plans = [
        simulate.Plan("clans", how, 1, start, count) for start, count in [(0, 6), (6, 1), (7, 1)]
    ]
    finished: list[int] = []
    results = list(
        parallel.execute(simulate.play_shard, plans, Where(jobs=2), lambda i, r: finished.append(i))
    )
    assert [len(r.rows) for r in results] == [6, 1, 1]
    assert sorted(finished) == [0, 1, 2]
    assert results == [simulate.play_shard(p) for p in plans]


def test_bad_places_to_work_are_usage_errors():
    with pytest.raises(UsageError, match="from 1 to"):
        Where(jobs=0)
    with pytest.raises(UsageError, match="do not mix"):
        Where(jobs=2, cluster="local:2")
    with pytest.raises(UsageError, match="local:N"):
        Where(cluster="local:lots")


@pytest.fixture(scope="module")
def cluster():
    """A local Dask cluster of two single-threaded worker processes (with nannies)."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as local:
        yield local


def test_a_dask_cluster_gives_the_same_run(cluster):
    assert run_of(24, Where(cluster=cluster.scheduler_address)) == run_of(24, Where(1))


def test_verify_on_a_dask_cluster(cluster, tmp_path):
    save = tmp_path / "r.corpus"
    run_of(30, Where(1), save=save)
    lines: list[str] = []
    totals = batch.verify([save], Where(cluster=cluster.scheduler_address), lines.append)
    serial: list[str] = []
    batch.verify([save], Where(1), serial.append)
    assert lines == serial  # its digest too
    assert lines[0].startswith(f"ok    {save}: 30 games, 30 verified, 0 failed, digest ")
    assert totals.ok == 30 and totals.tally.games == 30


def test_a_worker_killed_mid_run_loses_and_double_counts_no_game(cluster):
    game = games.get("clans")
    how = simulate.match(game, ("random",))
    plans = [simulate.Plan("clans", how, 7, start, 4) for start in range(0, 160, 4)]
    with distributed.Client(cluster.scheduler_address) as client:
        pids = client.run(os.getpid)
    killed: list[int] = []

    def kill_one(index: int, result: object) -> None:
        if not killed:  # the first shard is in: kill a worker while the rest run
            victim = min(pids.values())
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    results = list(
        parallel.execute(
            simulate.play_shard, plans, Where(cluster=cluster.scheduler_address), kill_one
        )
    )
    assert killed
    rows = [row for played in results for row in played.rows]
    assert len(rows) == 160
    serial = [row for plan in plans for row in simulate.play_shard(plan).rows]
    assert rows == serial  # every game once, in order, the same games


def test_the_command_line_gives_one_summary_however_the_work_runs(cli):
    args = ("simulate", "clans", "--games", "12", "--seed", "4", "--bot", "greedy,random")
    alone = cli.ok(*args).splitlines()[:-1]  # the last line is the speed
    assert cli.ok(*args, "--jobs", "2").splitlines()[:-1] == alone
    assert cli.ok(*args, "--cluster", "local:2").splitlines()[:-1] == alone
    assert "do not mix" in cli.fails(*args, "--jobs", "2", "--cluster", "local:2", code=2)
    line = cli.fails(*args, "--cluster", "local:2", "--save", "runs", code=2)
    assert "saves to a corpus" in line


def test_a_dask_cluster_takes_shards_as_the_work_needs_them(cluster):
    from test_pool import Counted  # this folder is on sys.path (pytest's prepend import mode)

    shards = Counted(200)
    results = parallel.execute(str, shards, Where(cluster=cluster.scheduler_address))
    assert next(results) == "0"
    assert shards.taken <= 2 + parallel.WINDOW * 2
    assert list(results) == [str(i) for i in range(1, 200)]
    assert shards.taken == 200
