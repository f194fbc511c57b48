"""``tribes undo LOG [--moves K]``: the last append (or the last K moves) taken back, the file as
it was kept as LOG.undone, what was removed said; refused — the log byte-identical — when a tag
or note came after those moves, when nothing would be left, for an interrupted append; under the
log's writers' lock, and a failed write leaves the log as it was."""

from __future__ import annotations

import threading
import time

import pytest

from tribes.core.errors import LogError
from tribes.events import files


def test_undo_takes_back_the_last_append_byte_for_byte(cli):
    log = cli.new(names="ann,bob", seed=3)
    cli.ok("act", log, cli.moves(log)[0])
    before = log.read_bytes()
    first = cli.moves(log)[0]
    cli.ok("act", log, first)
    second = cli.moves(log)[0]
    cli.ok("act", log, second)  # appended separately: two appends
    both = log.read_bytes()
    line = cli.ok("undo", log).strip()
    assert line.startswith(f"{log}: removed 1 move (event 3: {second}); 2 events kept; digest ")
    assert line.endswith(f"the log as it was is kept as {log}.undone")
    assert cli.path("g.tribes.undone").read_bytes() == both
    cli.ok("verify", log)
    assert len(cli.ok("log", log).splitlines()) == 2
    cli.ok("undo", log, "--force")
    assert log.read_bytes() == before  # exactly the file before that append


def test_undo_takes_back_an_act_of_several_moves_at_once(cli):
    log = cli.new(names="ann,bob", seed=3)
    start = log.read_bytes()
    for _ in range(3):  # find three moves in a row, then append them in one act
        cli.ok("act", log, cli.moves(log)[0])
    moves = [line.split()[2] for line in cli.ok("log", log).splitlines()]
    log.write_bytes(start)
    cli.ok("act", log, *moves)
    line = cli.ok("undo", log)
    assert f"removed 3 moves (events 1 to 3: {', '.join(moves)}); 0 events kept" in line
    assert log.read_bytes() == start


def test_moves_k_takes_back_the_last_k_moves_across_and_inside_appends(cli):
    log = cli.new(names="ann,bob", seed=3)
    cli.ok("act", log, cli.moves(log)[0])
    cli.ok("act", log, cli.moves(log)[0])  # four appends of a move each
    cli.ok("act", log, cli.moves(log)[0])
    cli.ok("act", log, cli.moves(log)[0])
    logged = [line.split()[2] for line in cli.ok("log", log).splitlines()]
    line = cli.ok("undo", log, "--moves", 3)
    assert f"removed 3 moves (events 2 to 4: {', '.join(logged[1:])}); 1 event kept" in line
    cli.ok("verify", log)
    assert [line.split()[2] for line in cli.ok("log", log).splitlines()] == logged[:1]
    turn = cli.json("moves", log, "--json")["to_move"]
    cli.ok("act", log, "--as", turn, cli.moves(log)[0])  # the log plays on


def test_the_digest_changes(cli):
    log = cli.new(names="ann,bob", seed=3)
    cli.ok("act", log, cli.moves(log)[0])
    cli.ok("act", log, cli.moves(log)[0])
    old = cli.ok("verify", log).split("digest ")[1].strip()
    line = cli.ok("undo", log)
    new = cli.ok("verify", log).split("digest ")[1].strip()
    assert old != new
    assert f"digest {new[:16]} (was {old[:16]})" in line


def test_undo_refuses_when_a_note_or_tag_came_after_the_moves(cli):
    log = cli.new(names="ann,bob", seed=3)
    cli.ok("act", log, cli.moves(log)[0])
    cli.ok("act", log, cli.moves(log)[0])
    cli.ok("note", log, 2, "a fine move")
    line = cli.fails_untouched(log, "undo", log)
    assert line == (
        f"tribes: {log}: the note on event 2 was appended after event 1, after the moves undo "
        "would take back; undo never removes tags or notes ('tribes fork' writes a new log "
        "without them)"
    )
    assert not cli.path("g.tribes.undone").exists()
    cli.ok("tag", log, "round=2")
    assert "the note on event 2 and 1 more was appended" in cli.fails_untouched(log, "undo", log)


def test_a_note_before_the_moves_stays(cli):
    log = cli.new(names="ann,bob", seed=3)
    cli.ok("act", log, cli.moves(log)[0])
    cli.ok("note", log, 1, "the opening")
    cli.ok("act", log, cli.moves(log)[0])
    cli.ok("undo", log)
    assert cli.ok("note", log, 1).strip() == "the opening"
    cli.ok("verify", log)


def test_undo_refuses_when_nothing_would_be_left(cli):
    log = cli.new(names="ann,bob", seed=3)
    line = cli.fails_untouched(log, "undo", log)
    assert line == f"tribes: {log}: has no moves: there is nothing to undo"
    cli.ok("act", log, cli.moves(log)[0])
    line = cli.fails_untouched(log, "undo", log, "--moves", 2)
    assert line == f"tribes: {log}: holds 1 move: undoing 2 would leave nothing"
    forked = cli.path("f.tribes")  # made with its moves in one append
    cli.ok("act", log, cli.moves(log)[0])
    cli.ok("fork", log, "--at", 3, "-o", forked)
    line = cli.fails_untouched(forked, "undo", forked)
    assert "was made with its 2 moves in one append" in line and "would leave nothing" in line
    cli.ok("undo", forked, "--moves", 1)
    assert len(cli.ok("log", forked).splitlines()) == 1


def test_undo_refuses_a_bad_k_and_an_interrupted_append(cli):
    log = cli.new(names="ann,bob", seed=3)
    cli.ok("act", log, cli.moves(log)[0])
    cli.ok("act", log, cli.moves(log)[0])
    assert "undo takes back 1 move or more" in cli.fails_untouched(
        log, "undo", log, "--moves", 0, code=2
    )
    with log.open("ab") as f:
        f.write(b"\x05\x01\x02")  # an append that never finished
    assert "interrupted append" in cli.fails_untouched(log, "undo", log, "--force")


def test_undoing_again_keeps_each_backup_beside_the_older_ones(cli):
    """A second undo needs no flag: the file as it was goes to the next free LOG.undone.N, an
    older backup (or a symlink planted there) is never overwritten or followed."""
    log = cli.new(names="ann,bob", seed=3)
    states = [log.read_bytes()]
    for _ in range(3):
        cli.ok("act", log, cli.moves(log)[0])
        states.append(log.read_bytes())
    victim = cli.path("victim")
    victim.write_bytes(b"mine")
    cli.path("g.tribes.undone.2").symlink_to(victim)
    first = cli.ok("undo", log).strip()
    assert first.endswith(f"kept as {log}.undone")
    second = cli.ok("undo", log).strip()
    assert second.endswith(f"kept as {log}.undone.3")
    assert cli.path("g.tribes.undone").read_bytes() == states[3]
    assert cli.path("g.tribes.undone.3").read_bytes() == states[2]
    assert log.read_bytes() == states[1]
    assert victim.read_bytes() == b"mine"
    cli.ok("undo", log, "--force")  # replaces LOG.undone, keeps the numbered ones
    assert cli.path("g.tribes.undone").read_bytes() == states[1]
    assert cli.path("g.tribes.undone.3").read_bytes() == states[2]
    assert log.read_bytes() == states[0]


def test_a_json_log_is_undone_in_its_form(cli):
    log = cli.new("g.json", names="ann,bob", seed=3)
    cli.ok("act", log, cli.moves(log)[0])
    before = log.read_bytes()
    cli.ok("act", log, cli.moves(log)[0])
    cli.ok("undo", log)
    assert log.read_bytes() == before


def test_a_failed_write_leaves_the_log_byte_identical(cli, monkeypatch):
    log = cli.new(names="ann,bob", seed=3)
    cli.ok("act", log, cli.moves(log)[0])
    cli.ok("act", log, cli.moves(log)[0])
    real = files.write_atomic

    def failing(path, data, *, replace):
        if path == log:
            raise LogError("cannot write: No space left on device", path=str(path))
        real(path, data, replace=replace)

    monkeypatch.setattr(files, "write_atomic", failing)
    line = cli.fails_untouched(log, "undo", log)
    assert "No space left on device" in line


def test_undo_waits_for_another_writer_s_lock(cli):
    log = cli.new(names="ann,bob", seed=3)
    cli.ok("act", log, cli.moves(log)[0])
    cli.ok("act", log, cli.moves(log)[0])
    held = threading.Event()
    released = []

    def hold():
        with files.locked(log):
            held.set()
            time.sleep(0.3)
            released.append(time.monotonic())

    writer = threading.Thread(target=hold)
    writer.start()
    held.wait()
    cli.ok("undo", log)
    done = time.monotonic()
    writer.join()
    assert released and done >= released[0]  # undo ran only once the lock was free
    assert len(cli.ok("log", log).splitlines()) == 1


def test_a_game_of_a_corpus_is_never_undone(cli):
    cli.ok("simulate", "clans", "--games", 2, "--save", cli.path("r.corpus"))
    line = cli.fails("undo", cli.path("r.corpus#1"), code=2)
    assert "is a game of a corpus, which never changes" in line


@pytest.mark.parametrize("game", ["iwari", "hunters"])
def test_every_game_undoes(cli, game):
    log = cli.new(f"{game}.tribes", game=game, names="ann,bob", seed=5)
    cli.ok("act", log, cli.moves(log)[0])
    before = log.read_bytes()
    cli.ok("act", log, cli.moves(log)[0])
    cli.ok("undo", log)
    assert log.read_bytes() == before
