"""Writers of a corpus (issue 16 §1, §2, §9): ``--force`` never orphans a writer at work, no
temporary name is fixed or followed through a link, two new corpora at one name give one corpus
and one "exists", a second writer waits for the lock (with a bound and a message)."""

from __future__ import annotations

import fcntl
import multiprocessing
import os
import random
import threading
import time
from pathlib import Path

import pytest

from tribes import games
from tribes.core.errors import LogBusy, LogError, UsageError
from tribes.replay import corpus, simulate
from tribes.testing.cli import run_process

GAME = games.get("clans")
HOW = simulate.match(GAME, ("random",))


def played(seed: int) -> corpus.Encoded:
    return corpus.encode_game(GAME, simulate.play_game(GAME, seed, HOW).log)


def seeds_in(path: Path) -> list[int]:
    with corpus.Corpus(path) as read:
        return [read.log(k)[1].header.seed for k in range(len(read))]


def test_force_waits_for_a_writer_at_work_and_never_orphans_it(tmp_path):
    """§1: the replacement used to rename over the file while a writer held its lock; the
    writer went on into the unlinked file and reported success."""
    path = tmp_path / "x.corpus"
    writer = corpus.Writer(path, new=True)
    for seed in (1, 2, 3):
        writer.add_encoded(played(seed))
    writer.commit()
    told: list[str] = []
    with pytest.raises(LogBusy, match=r"another writer holds the corpus.*not replaced"):
        corpus.Writer(path, new=True, force=True, wait=0.3, on_wait=told.append)
    assert told and "waiting up to 0.3 s" in told[0]
    writer.add_encoded(played(4))
    writer.close()  # acknowledged: its four games are in the file the name leads to
    assert seeds_in(path) == [played(s).seed for s in (1, 2, 3, 4)]


def test_force_replaces_once_the_writer_is_done(tmp_path):
    path = tmp_path / "x.corpus"
    writer = corpus.Writer(path, new=True)
    writer.add_encoded(played(1))
    release = threading.Timer(0.3, writer.close)
    release.start()
    with corpus.Writer(path, new=True, force=True, wait=10) as second:  # waits for the first
        assert seeds_in(path) == []  # the first's game was committed, then replaced
        second.add_encoded(played(9))
    release.join()
    assert seeds_in(path) == [played(9).seed]


def test_the_simulate_race_of_the_issue_loses_no_acknowledged_game(tmp_path):
    """`simulate --games 2000 --save X.corpus & ...; simulate --games 5 --save X.corpus --force`:
    the second waits for the first, so the first's success is true when it is said."""
    import subprocess

    from tribes.testing.cli import tribes_command

    first = subprocess.Popen(
        [
            *tribes_command(),
            "simulate",
            "clans",
            "--games",
            "2000",
            "--seed",
            "3",
            "--save",
            "X.corpus",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    path = tmp_path / "X.corpus"
    deadline = time.monotonic() + 30
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    running = first.poll() is None
    second = run_process(
        "simulate",
        "clans",
        "--games",
        "5",
        "--seed",
        "4",
        "--save",
        "X.corpus",
        "--force",
        cwd=tmp_path,
    )
    _, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    assert second.returncode == 0, second.stderr
    if running:  # it was at work when the second began: the second waited for it
        assert "another writer holds the corpus; waiting" in second.stderr
    assert len(seeds_in(path)) == 5  # the second ran after the first had finished


def test_a_planted_link_at_a_temporary_name_is_never_followed(tmp_path):
    """§2: `ln -s victim .Z.corpus.tmp; simulate --save Z.corpus` wrote the corpus into victim."""
    victim = tmp_path / "victim"
    victim.write_text("data\n")
    (tmp_path / ".Z.corpus.tmp").symlink_to(victim)
    done = run_process("simulate", "clans", "--games", "3", "--save", "Z.corpus", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert victim.read_text() == "data\n"
    assert not (tmp_path / "Z.corpus").is_symlink() and len(seeds_in(tmp_path / "Z.corpus")) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == [".Z.corpus.tmp", "Z.corpus", "victim"]


def test_a_link_at_the_corpus_name_is_replaced_with_force_never_written_through(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("data\n")
    link = tmp_path / "L.corpus"
    link.symlink_to(victim)
    with pytest.raises(UsageError, match="exists"):
        corpus.Writer(link, new=True)
    with pytest.raises(LogError, match="symbolic link"):
        corpus.Writer(link, new=False)
    corpus.Writer(link, new=True, force=True).close()
    assert victim.read_text() == "data\n" and not link.is_symlink()


def _make(path: str, barrier: object, out: object) -> None:
    barrier.wait()
    try:
        with corpus.Writer(Path(path), new=True) as writer:
            writer.add_encoded(played(os.getpid() % 1000))
        out.put("made")
    except UsageError as exc:
        out.put("exists" if "exists" in exc.message else exc.message)
    except Exception as exc:
        out.put(f"{type(exc).__name__}: {exc}")


def test_two_new_corpora_at_one_name_give_one_corpus_and_one_exists(tmp_path):
    """§2: both passed the exists check and one failed with 'cannot write: No such file'."""
    context = multiprocessing.get_context("fork")
    for trial in range(8):
        path = tmp_path / f"y{trial}.corpus"
        barrier, out = context.Barrier(2), context.Queue()
        procs = [context.Process(target=_make, args=(str(path), barrier, out)) for _ in range(2)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(30)
        assert sorted(out.get(timeout=5) for _ in procs) == ["exists", "made"]
        assert len(seeds_in(path)) == 1
        assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_a_second_corpus_add_waits_for_the_lock_with_a_bound_and_a_message(cli, tmp_path):
    """§9: a second `corpus add` failed at once."""
    cli.ok("simulate", "clans", "--games", "2", "--save", "r.corpus")
    cli.ok("corpus", "get", "r.corpus#1", "-o", "one.tribes")
    held = open(tmp_path / "r.corpus", "rb")  # noqa: SIM115 - closed by the timer or below
    try:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)  # another writer at work
        done = cli.run("corpus", "add", "r.corpus", "one.tribes", "--wait", "0.3")
        assert done.exit_code == 1
        assert "waiting up to 0.3 s" in done.stderr
        assert "another writer holds the corpus (waited 0.3 s)" in done.stderr
        threading.Timer(0.3, held.close).start()  # it finishes soon
        started = time.monotonic()
        assert cli.ok("corpus", "add", "r.corpus", "one.tribes") == "r.corpus: 1 added, 3 games\n"
        assert time.monotonic() - started >= 0.25
    finally:
        held.close()


def _append_many(path: str, record: corpus.Encoded, count: int) -> None:
    with corpus.Writer(Path(path), new=False) as writer:
        for _ in range(count):
            writer.add_encoded(record)


def test_a_writer_killed_at_any_moment_leaves_every_commit_and_at_most_a_tail(tmp_path):
    """Kept from before: kill -9 of a writer leaves the corpus as it was at a commit, plus at
    most an interrupted append that `corpus repair` cuts."""
    import signal

    record = played(5)
    path = tmp_path / "k.corpus"
    with corpus.Writer(path, new=True) as writer:
        writer.add_encoded(record)
    context = multiprocessing.get_context("fork")
    rng = random.Random(16)
    for _ in range(6):
        before = len(seeds_in(path))
        child = context.Process(target=_append_many, args=(str(path), record, 2500))
        child.start()
        time.sleep(rng.uniform(0.05, 0.6))
        os.kill(child.pid, signal.SIGKILL)
        child.join()
        with corpus.Corpus(path) as read:
            added = len(read) - before
            assert added in (0, 1000, 2000, 2500), added
            assert read.whole_problem() is None
            torn = read.layout.tail is not None
        if torn:
            assert corpus.repair(path).cut > 0
            (tmp_path / "k.corpus.torn").unlink()
        with corpus.Corpus(path) as read:
            assert read.layout.tail is None and next(read.problems(), None) is None
