"""Logs people can trust: hostile files and paths refused in one line, tampering and cuts found,
writes that survive a kill and a race, each a test named for what it checks (the findings of
issue 8's black-box test)."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from tribes import games
from tribes.core.errors import CorruptLog
from tribes.events import codec, files, logfile
from tribes.events.framing import frame
from tribes.events.logfile import GameLog
from tribes.replay import logs

BOARD = Path(__file__).parents[2] / "games" / "clans" / "data" / "board.json"


@pytest.fixture
def played(cli) -> Path:
    """A .tribes log of new and two acts (one move, then two)."""
    path = cli.new()
    cli.ok("act", path, "1-2")
    cli.ok("act", path, *cli.moves(path)[:1])
    return path


def verify_fails(cli, path: Path) -> str:
    """verify of one bad log: exit 1 and one FAIL line (on standard output); that line."""
    result = cli.run("verify", path)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("FAIL"), lines
    return lines[0]


def exported(cli, path: Path, name: str = "g.json") -> Path:
    out = cli.path(name)
    cli.ok("export", path, "-o", out, "--force")
    return out


# --- crashes -------------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["move", "meta"])
def test_a_lone_surrogate_in_move_text_or_meta_is_one_line_for_every_command(cli, played, where):
    doc = json.loads(exported(cli, played).read_text())
    if where == "move":  # a scenario (no digest) whose move text is "\ud800-1"
        for key in ("digest", "commits", "checkpoints"):
            del doc[key]
        doc["events"] = ["\ud800-1"]
    else:
        doc["header"]["meta"] = {"by": "\ud800"}
    bad = cli.path("surrogate.json")
    bad.write_text(json.dumps(doc))  # ensure_ascii: the file holds the escape \ud800
    for command in (
        ["verify"],
        ["show"],
        ["log"],
        ["diff", "--at", "1"],
        ["export"],
        ["import", "-o", cli.path("x.tribes")],
        ["fork", "--at", "1", "-o", cli.path("f.tribes")],
    ):
        result = cli.run(command[0], bad, *command[1:])
        assert result.exit_code == 1, (command, result.stdout, result.stderr)
        text = (result.stdout + result.stderr).strip()
        assert len(text.splitlines()) == 1 and "surrogate" in text, (command, text)


# --- hangs and blow-ups ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["dev-zero", "dev-urandom", "fifo", "folder", "too-big"])
def test_an_option_file_that_is_not_a_small_regular_file_is_refused_at_new(cli, kind):
    target = {"dev-zero": "/dev/zero", "dev-urandom": "/dev/urandom"}.get(kind, "")
    if kind == "fifo":
        target = str(cli.path("fifo"))
        os.mkfifo(target)
    elif kind == "folder":
        target = str(cli.root)
    elif kind == "too-big":
        target = str(cli.path("big.json"))
        Path(target).write_bytes(b" " * (logfile.MAX_FILE_BYTES + 1))
    line = cli.fails("new", "clans", "--option", f"board={target}", "-o", "g.tribes", code=2)
    assert "option board" in line
    assert not cli.path("g.tribes").exists()


@pytest.mark.parametrize("kind", ["dev-zero", "fifo"])
def test_a_log_path_that_is_a_device_or_a_fifo_is_refused_without_hanging(cli, kind):
    target = Path("/dev/zero")
    if kind == "fifo":
        target = cli.path("log.tribes")
        os.mkfifo(target)
    for command in ("show", "verify", "act"):
        result = cli.run(command, target, *(["1-2"] if command == "act" else []))
        assert result.exit_code == 1
        assert "not a regular file" in result.stdout + result.stderr


@pytest.mark.parametrize("target", ["/dev/zero", "fifo"])
def test_a_position_file_that_is_a_device_or_a_fifo_is_refused_without_hanging(cli, target):
    if target == "fifo":
        target = str(cli.path("pos"))
        os.mkfifo(target)
    line = cli.fails("new", "clans", "--position", target, "-o", "g.tribes")
    assert "cannot read position" in line and "not a regular file" in line


def test_reading_a_log_never_opens_a_path_its_header_names(cli, monkeypatch):
    board = cli.path("my-board.json")
    shutil.copy(BOARD, board)
    path = cli.new("g.tribes", "--option", f"board={board}")
    board.unlink()  # a friend's copy: the board file is not there
    opened_paths = []
    real_open = os.open

    def spy(p, *args, **kwargs):
        opened_paths.append(str(p))
        return real_open(p, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    cli.ok("act", path, "1-2")
    cli.ok("show", path)
    cli.ok("verify", path)
    assert not [p for p in opened_paths if "my-board" in p]
    assert logs.open_log(path).log.header.files["board"] == BOARD.read_text()


def test_a_header_naming_dev_zero_as_its_board_opens_nothing(cli):
    """A log whose option names /dev/zero but that carries its board: the path is a label."""
    head = logs.header(games.get("clans"), seats=["ann", "bob"], seed=1)
    doc = json.loads(logs.to_json(logs.seal(games.get("clans"), GameLog(header=head))))
    doc["header"]["options"] = {"board": "/dev/zero"}
    doc["header"]["files"] = {"board": BOARD.read_text()}
    for key in ("digest", "commits", "checkpoints"):
        del doc[key]
    path = cli.path("zero.json")
    path.write_text(json.dumps(doc))
    assert cli.ok("verify", path).startswith("ok")


def test_a_file_carried_for_no_file_option_is_refused(cli):
    doc = json.loads(exported(cli, cli.new("s.tribes")).read_text())
    for key in ("digest", "commits", "checkpoints"):  # a scenario: only the header is checked
        del doc[key]
    doc["header"]["files"] = {"feats": "x"}
    path = cli.path("stray.json")
    path.write_text(json.dumps(doc))
    assert "holds a file for no option that names one ('feats')" in cli.fails("show", path)


def test_sixteen_mib_of_one_byte_frames_is_refused_at_the_first_record(cli):
    head = cli.new().read_bytes()
    frames = []
    check = head[-1]
    for _ in range(1000):
        framed, check = frame(b"\x01", check)
        frames.append(framed)
    one_k = b"".join(frames)
    data = head + one_k * ((logfile.MAX_LOG_BYTES - len(head)) // len(one_k))
    path = cli.path("frames.tribes")
    path.write_bytes(data)
    line = verify_fails(cli, path)  # stops at the first: work and memory stay bounded
    assert f"(byte {len(head)})" in line


def test_a_log_holds_a_bounded_number_of_events():
    table = games.event_table
    head = logs.header(games.get("clans"), seats=["ann", "bob"], seed=1)
    parts = [logfile.MAGIC]
    payload = b"".join(codec.pack(v) for v in ("tribes-log", 1, logfile.header_data(head)))
    framed, check = frame(payload, 0)
    parts.append(framed)
    for _ in range(logfile.MAX_EVENTS + 1):
        framed, check = frame(codec.pack(1) + codec.pack(1) + codec.pack(2), check)
        parts.append(framed)
    with pytest.raises(CorruptLog, match=f"at most {logfile.MAX_EVENTS} events"):
        logfile.decode(b"".join(parts), table)


# --- silent accepts -------------------------------------------------------------------------------


def test_an_event_replaced_by_a_legal_one_with_later_checkpoints_dropped_is_refused(cli, played):
    """Event 2 becomes another legal move, the file re-framed with valid check bytes and cut
    after it: what follows the last commit is a tail, not the game."""
    data = played.read_bytes()
    opened = logs.open_log(played)
    starts = record_starts(data)
    event_2 = starts[6]  # header, checkpoint 0, commit 0, event 1, checkpoint 1, commit 1, event 2
    state = logs.steps_of(opened.game, opened.log)[1].state
    other = next(m for m in opened.game.legal_moves(state) if m != opened.log.events[1])
    wire = b"".join(codec.pack(v) for v in codec.event_to_wire(other))
    framed, _ = frame(wire, data[event_2 - 1])
    path = cli.path("replaced.tribes")
    path.write_bytes(data[:event_2] + framed)
    line = verify_fails(cli, path)
    assert "after the last commit" in line and "interrupted append" in line


@pytest.mark.parametrize("change", ["rotate-seats", "forge-parent", "options", "files"])
def test_a_changed_header_is_refused_by_its_commits(cli, played, change):
    data = played.read_bytes()
    starts = record_starts(data)
    values = codec.unpack_all(payloads_after(data, starts[:1])[0])
    head = values[2]
    if change == "rotate-seats":  # the state hash is the same; the winners are not
        head["seats"] = head["seats"][1:] + head["seats"][:1]
    elif change == "forge-parent":
        head["meta"] = {"parent": {"log": "00" * 16, "at": 2}}
    elif change == "options":
        head["options"] = {"board": "other.json"}
    else:
        head["options"] = {"board": "b.json"}
        head["files"] = {"board": BOARD.read_text()}
    payloads = [codec.pack(values[0]) + codec.pack(values[1]) + codec.pack(head)]
    payloads += payloads_after(data, starts[1:])
    path = cli.path("header.tribes")
    path.write_bytes(reframe(payloads))
    line = verify_fails(cli, path)
    if change == "options":  # a board named, none carried
        assert "without holding it" in line
    else:
        assert "the commit after event 0" in line and "does not match" in line


def test_a_json_header_change_is_refused_by_its_digest(cli, played):
    doc = json.loads(exported(cli, played).read_text())
    doc["header"]["seats"] = doc["header"]["seats"][::-1]
    path = cli.path("seats.json")
    path.write_text(json.dumps(doc))
    assert "digest does not match" in verify_fails(cli, path)


def test_a_log_cut_at_a_record_boundary_inside_an_append_is_an_uncommitted_tail(cli):
    path = cli.new()
    cli.ok("act", path, "1-2", "2-3")  # one append of two moves
    data = path.read_bytes()
    starts = record_starts(data)
    for cut in starts[4:]:  # after event 1, event 2, its checkpoint (before the commit)
        short = cli.path("short.tribes")
        short.write_bytes(data[:cut])
        line = verify_fails(cli, short)
        assert f"at byte {starts[3]}" in line and "interrupted append" in line
        for command in ("show", "log", "moves"):
            assert "after the last commit" in cli.fails_untouched(short, command, short)


# --- lost acknowledged moves, all or nothing -----------------------------------------------------


def test_a_multi_move_act_cut_anywhere_counts_none_of_its_moves(cli):
    path = cli.new()
    before = path.read_bytes()
    cli.ok("act", path, "1-2", "2-3", "3-4")
    after = path.read_bytes()
    for cut in range(len(before) + 1, len(after)):
        log, end = logfile.decode(after[:cut], games.event_table)
        assert log.events == () and end.tail is not None and end.size == len(before)


def test_repair_cuts_the_tail_and_keeps_a_backup(cli):
    path = cli.new()
    cli.ok("act", path, "1-2")
    good = path.read_bytes()
    cli.ok("act", path, "2-3", "3-4")
    torn = path.read_bytes()[:-5]
    path.write_bytes(torn)
    out = cli.ok("repair", path)
    assert "cut" in out and "kept" in out and ".torn" in out
    assert path.read_bytes() == good
    assert cli.path("g.tribes.torn").read_bytes() == torn
    assert cli.ok("verify", path).startswith("ok")
    assert "nothing to repair" in cli.ok("repair", path)
    path.write_bytes(torn)
    assert "--force" in cli.fails("repair", path, code=2)  # the backup exists
    cli.ok("repair", path, "--force")


def test_repair_never_cuts_committed_moves_that_a_damaged_length_hides(cli):
    """A flipped bit in a length makes the rest look torn; a commit lies beyond: not repaired."""
    path = cli.new()
    cli.ok("act", path, "1-2")
    cli.ok("act", path, "2-3")
    data = bytearray(path.read_bytes())
    event_1 = record_starts(bytes(data))[3]
    data[event_1] = 0x7F  # the length of event 1 now runs past the end of the file
    path.write_bytes(bytes(data))
    assert "after the last commit" in verify_fails(cli, path)
    line = cli.fails_untouched(path, "repair", path)
    assert "a commit lies in what follows" in line and "damaged" in line
    assert not cli.path("g.tribes.torn").exists()


# --- writes ---------------------------------------------------------------------------------------


def test_a_rewrite_removes_what_a_killed_write_left_and_nothing_else(cli):
    """A JSON log is rewritten whole through a temporary file; a process killed mid-write leaves
    that file behind. The next rewrite removes such files of the same log once they are old
    (a live write's file is milliseconds old), and no other file, nor a link's target."""
    cli.new("g.json")
    target = cli.path("precious.txt")
    target.write_text("keep me")
    stale = cli.path(".g.json.0123456789ab.tmp")
    fresh = cli.path(".g.json.ba9876543210.tmp")
    other_log = cli.path(".h.json.0123456789ab.tmp")
    not_ours = cli.path(".g.json.notes.tmp")
    for path in (stale, fresh, other_log, not_ours):
        path.write_text("{")
    link = cli.path(".g.json.aaaaaaaaaaaa.tmp")
    os.symlink(target, link)
    hour_ago = time.time() - 3600
    for path in (stale, other_log, not_ours):
        os.utime(path, (hour_ago, hour_ago))
    os.utime(link, (hour_ago, hour_ago), follow_symlinks=False)
    cli.ok("act", cli.path("g.json"), "1-2")
    assert not stale.exists() and not link.is_symlink()  # the link itself went, not its target
    assert target.read_text() == "keep me"
    assert fresh.exists() and other_log.exists() and not_ours.exists()


@pytest.mark.parametrize("replace", [False, True], ids=["new", "replace"])
def test_a_write_killed_mid_way_leaves_no_file_behind(tmp_path: Path, replace: bool):
    """A streamed write (a baseline: minutes) killed by SIGKILL, which nothing can catch, left
    its temporary file; the file is now nameless until whole (O_TMPFILE)."""
    import signal
    import subprocess
    import sys

    (tmp_path / "out.bin").write_bytes(b"old")
    script = (
        "import os, signal, sys\n"
        "from pathlib import Path\n"
        "from tribes.events import files\n"
        "def fill(fd):\n"
        "    os.write(fd, b'half of it')\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        f"files.write_atomic_from(Path(sys.argv[1]), fill, replace={replace})\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "out.bin")], check=False)
    assert done.returncode == -signal.SIGKILL
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]
    assert (tmp_path / "out.bin").read_bytes() == b"old"
    files.write_atomic_from(tmp_path / "out.bin", lambda fd: os.write(fd, b"new"), replace=True)
    assert (tmp_path / "out.bin").read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]


def test_a_planted_symlink_at_the_temp_name_is_never_followed(cli):
    target = cli.path("precious.txt")
    target.write_text("keep me")
    for name in (".g.tribes.tmp", ".g.json.tmp"):
        os.symlink(target, cli.path(name))
    cli.new("g.tribes")
    cli.new("g.json")
    cli.ok("act", cli.path("g.json"), "1-2")
    assert target.read_text() == "keep me"
    assert not [p for p in cli.root.iterdir() if p.name.endswith(".tmp") and not p.is_symlink()]


def test_writes_are_fsynced_file_and_folder(cli, monkeypatch):
    synced = []
    real = os.fsync

    def spy(fd):
        synced.append(os.fstat(fd).st_mode)
        return real(fd)

    monkeypatch.setattr(os, "fsync", spy)
    path = cli.new("g.json")
    cli.ok("act", path, "1-2")
    import stat

    assert sum(stat.S_ISDIR(m) for m in synced) >= 2  # the folder, after each rename
    assert sum(stat.S_ISREG(m) for m in synced) >= 2


def test_export_o_honours_force_and_its_suffix(cli, played):
    copy = cli.path("copy.tribes")
    cli.ok("export", played, "-o", copy)
    assert copy.read_bytes() == played.read_bytes()  # a .tribes log, not copy.json
    assert not cli.path("copy.json").exists()
    assert "--force" in cli.fails_untouched(copy, "export", played, "-o", copy, code=2)
    cli.ok("export", played, "-o", copy, "--force")
    as_json = cli.path("copy.json")
    cli.ok("export", played, "-o", as_json)
    assert json.loads(as_json.read_text())["version"] == 3


def test_import_refuses_a_header_the_binary_form_cannot_hold(cli):
    doc = {
        "format": "tribes-log",
        "version": 1,
        "header": {
            "game": "clans",
            "rules_version": 1,
            "seed": 1,
            "seats": ["ann", "bob"],
            "meta": {"note": "x" * (logfile.MAX_RECORD_BYTES + 10)},
        },
        "events": [],
    }
    source = cli.path("big.json")
    source.write_text(json.dumps(doc))
    out = cli.path("big.tribes")
    assert "at most" in cli.fails("import", source, "-o", out)
    assert not out.exists()


# --- strict decoding ------------------------------------------------------------------------------


def test_a_checkpoint_count_of_true_is_refused(cli, binary):
    path = cli.path("true.tribes")
    path.write_bytes(
        binary.frames([("tribes-log", 1, binary.header()), (1, 1, 2), (0, True, b"\x00" * 8)])
    )
    assert "checkpoint after event 1" in verify_fails(cli, path)
    line = cli.fails("show", path)
    assert "checkpoint" in line and "malformed" in line


@pytest.mark.parametrize("value", [True, "12", 12.9, 12.0], ids=["true", "text", "float", "12.0"])
def test_msgpack_values_that_are_not_integers_are_not_read_as_integers(cli, binary, value):
    path = cli.path("int.tribes")
    path.write_bytes(binary.frames([("tribes-log", 1, binary.header()), (1, value, 13)]))
    line = cli.fails("show", path)
    assert "event 1" in line and "malformed" in line


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused_in_json(cli, played, text):
    doc = exported(cli, played).read_text().replace('"case"', '"case"')
    doc = doc.replace('"header": {', f'"header": {{"meta": {{"x": {text}}},', 1)
    path = cli.path("nan.json")
    path.write_text(doc)
    assert "not a number JSON allows" in verify_fails(cli, path)
    line = cli.fails("show", path)
    assert text.lstrip("-") in line


def test_nan_in_a_binary_header_is_refused(cli, binary):
    path = cli.path("nan.tribes")
    path.write_bytes(binary.frames([("tribes-log", 1, binary.header(meta={"x": float("nan")}))]))
    assert "nan" in cli.fails("show", path).lower()


def test_a_seat_name_with_a_newline_is_one_line_and_jose_is_fine(cli):
    line = cli.fails("new", "clans", "--names", "a\nb,bob", "-o", "g.tribes", code=2)
    assert "a\\nb" in line
    cli.ok("new", "clans", "--names", "José,bob", "-o", "jose.tribes")
    assert cli.ok("verify", cli.path("jose.tribes")).startswith("ok")


def test_a_seat_name_with_a_control_character_in_a_log_is_refused(cli, binary):
    path = cli.path("ctl.tribes")
    path.write_bytes(binary.frames([("tribes-log", 1, binary.header(seats=["a\x1bb", "bob"]))]))
    line = cli.fails("show", path)
    assert "seat name" in line


# --- digests --------------------------------------------------------------------------------------


def test_verify_prints_one_digest_for_both_forms(cli, played):
    a = cli.ok("verify", played)
    b = cli.ok("verify", exported(cli, played))
    assert a.split("digest ")[1] == b.split("digest ")[1]
    assert len(a.split("digest ")[1].strip()) == 32


def test_every_writing_command_refuses_an_existing_output_without_force(cli, played):
    taken = cli.path("taken.tribes")
    taken.write_bytes(b"mine")
    json_log = exported(cli, played)
    for args in (
        ["new", "clans", "-o", taken],
        ["import", json_log, "-o", taken],
        ["export", played, "-o", taken],
        ["fork", played, "--at", "1", "-o", taken],
        ["upgrade", played, "-o", taken],
    ):
        line = cli.fails_untouched(taken, *args, code=2)
        assert "--force" in line, args
        cli.ok(*args, "--force")
        taken.write_bytes(b"mine")


def record_starts(data: bytes) -> list[int]:
    out = []
    pos = len(logfile.MAGIC)
    while pos < len(data):
        out.append(pos)
        length, body = logfile_uvarint(data, pos)
        pos = body + length + 1
    return out


def logfile_uvarint(data: bytes, pos: int) -> tuple[int, int]:
    from tribes.events.framing import read_uvarint

    return read_uvarint(data, pos)


def payloads_after(data: bytes, starts: list[int]) -> list[bytes]:
    out = []
    for start in starts:
        length, body = logfile_uvarint(data, start)
        out.append(data[body : body + length])
    return out


def reframe(payloads: list[bytes]) -> bytes:
    parts = [logfile.MAGIC]
    check = 0
    for payload in payloads:
        framed, check = frame(payload, check)
        parts.append(framed)
    return b"".join(parts)


def test_the_lock_is_exclusive(tmp_path):
    path = tmp_path / "g.tribes"
    path.write_bytes(b"x")
    with (
        files.locked(path),
        pytest.raises(Exception, match="locked by another writer"),
        files.locked(path, wait=0.05),
    ):
        pass
