"""Damaged, tampered and foreign logs: every one refused with exit 1 and one line that names the
record or byte at fault; never a traceback; the file left as it was."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tribes.events import logfile

READERS = (["show"], ["moves"], ["log"], ["export", "--json"])
WHERE = re.compile(r"\(byte \d+\)|at byte \d+|the header|tribes mark")


@pytest.fixture
def small(cli):
    """A small log made by new and two appends: header, checkpoint 0, commit 0, event 1,
    checkpoint 1, commit 1, event 2, checkpoint 2, commit 2."""
    path = cli.new()
    cli.play(path, 2)
    return path


def record_starts(data: bytes) -> list[int]:
    """Where each frame of a .tribes file starts (the header's first)."""
    starts = []
    pos = len(logfile.MAGIC)
    while pos < len(data):
        starts.append(pos)
        length = shift = 0
        while True:
            byte = data[pos]
            pos += 1
            length |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        pos += length + 1
    assert pos == len(data)
    return starts


def refused_by_all(cli, path: Path, *fragments: str) -> list[str]:
    """Every reader and ``act`` refuse the file with one line holding ``fragments``; verify
    reports it as failed."""
    lines = []
    for reader in READERS:
        line = cli.fails_untouched(path, reader[0], path, *reader[1:])
        for fragment in fragments:
            assert fragment in line, (reader, line)
        lines.append(line)
    cli.fails_untouched(path, "act", path, "1-2")
    result = cli.run("verify", path)
    assert result.exit_code == 1
    assert "FAIL" in result.stdout
    return lines


# --- truncated ----------------------------------------------------------------------------------


def test_the_record_layout_is_as_documented(small):
    data = small.read_bytes()
    assert data.startswith(b"\x89TRB")
    # header, checkpoint 0 and commit 0 (of new), event 1, checkpoint 1, commit 1, event 2,
    # checkpoint 2, commit 2: a checkpoint and a commit end each append
    assert len(record_starts(data)) == 9
    assert data[record_starts(data)[1] + 1] == 0  # a checkpoint's tag: 0
    assert data[record_starts(data)[2] + 1] == 0xFF  # a commit's tag: -1


def test_a_log_cut_inside_a_record_is_truncated_and_the_record_named(cli, small):
    """Cut in the header or in the commit of ``new``: the record is named; cut later: what
    follows the last commit is named, from its first byte, as an interrupted append."""
    data = small.read_bytes()
    starts = record_starts(data)
    cut = cli.path("cut.tribes")
    for number, (start, end) in enumerate(zip(starts, [*starts[1:], len(data)], strict=True)):
        for offset in sorted({start + 1, (start + end) // 2, end - 1}):
            cut.write_bytes(data[:offset])
            line = cli.fails_untouched(cut, "show", cut)
            assert "truncated" in line, (offset, line)
            if number == 0:
                assert "the header" in line and f"(byte {start})" in line
            elif number in (1, 2):  # new's checkpoint and commit: no commit before them
                assert f"the record after event 0 (byte {start})" in line
            else:
                committed = starts[number - (number % 3)]  # after commit 0, 1 or 2
                assert f"after the last commit, at byte {committed}" in line, (offset, line)
                assert "interrupted append" in line and "tribes repair" in line


def test_a_log_cut_mid_header_says_so(cli, small):
    data = small.read_bytes()
    cut = cli.path("cut.tribes")
    cut.write_bytes(data[:20])
    refused_by_all(cli, cut, "cut.tribes", "the header", "truncated")


def test_a_log_cut_in_its_mark(cli, small):
    cut = cli.path("cut.tribes")
    for offset in (1, 2, 3):
        cut.write_bytes(small.read_bytes()[:offset])
        line = cli.fails_untouched(cut, "show", cut)
        assert "cut.tribes" in line


def test_a_log_of_only_its_mark(cli):
    path = cli.path("mark.tribes")
    path.write_bytes(b"\x89TRB")
    line = cli.fails_untouched(path, "show", path)
    assert "header" in line


def test_a_log_cut_at_every_byte_never_crashes(cli, small):
    data = small.read_bytes()
    starts = set(record_starts(data))
    cut = cli.path("cut.tribes")
    for offset in range(len(data)):
        cut.write_bytes(data[:offset])
        result = cli.run("show", cut)
        if offset in starts and offset > len(logfile.MAGIC) and data[offset - 17] == 0xFF:
            # a cut after a commit is a shorter, valid log (an append that never happened)
            assert result.exit_code == 0, (offset, result.stderr)
        else:
            assert result.exit_code == 1, (offset, result.stdout)
            assert len(result.stderr.splitlines()) == 1


def test_act_on_a_torn_log_leaves_it_alone(cli, small):
    data = small.read_bytes()
    torn = cli.path("torn.tribes")
    torn.write_bytes(data[:-3])
    line = cli.fails_untouched(torn, "act", torn, "1-2")
    assert "truncated" in line and "interrupted" in line and "tribes repair" in line


def test_a_truncated_json_log(cli, small):
    text = cli.ok("export", small, "--json")
    path = cli.path("cut.json")
    for offset in (1, len(text) // 3, len(text) // 2, len(text) - 3):
        path.write_text(text[:offset])
        line = cli.fails_untouched(path, "show", path)
        assert "cut.json" in line and "JSON" in line


# --- bit flips ----------------------------------------------------------------------------------


def test_every_single_bit_flip_is_refused_naming_where(cli, small):
    data = small.read_bytes()
    flipped = cli.path("flipped.tribes")
    problems = []
    for pos in range(len(data)):
        for bit in range(8):
            variant = bytearray(data)
            variant[pos] ^= 1 << bit
            flipped.write_bytes(bytes(variant))
            result = cli.run("show", flipped)
            lines = result.stderr.splitlines()
            if (
                result.exit_code != 1
                or len(lines) != 1
                or not lines[0].startswith("tribes: ")
                or not WHERE.search(lines[0])
            ):
                problems.append((pos, bit, result.exit_code, result.stderr))
    assert not problems, problems[:5]


def test_a_bit_flip_is_refused_by_act_and_verify(cli, small):
    data = bytearray(small.read_bytes())
    data[record_starts(bytes(data))[2] + 2] ^= 0x10
    path = cli.path("flipped.tribes")
    path.write_bytes(bytes(data))
    refused_by_all(cli, path, "flipped.tribes", "corrupt", "(byte ")


# --- tampered -----------------------------------------------------------------------------------


def test_an_event_changed_without_its_check_byte(cli):
    """Event 2 (2-3) becomes another legal move (2-8); nothing is recomputed: the check byte
    catches it."""
    original = cli.new()
    cli.ok("act", original, "1-2")
    cli.ok("act", original, "2-3")
    other = cli.new("other.tribes")
    cli.ok("act", other, "1-2")
    cli.ok("act", other, "2-8")
    a, b = original.read_bytes(), other.read_bytes()
    assert len(a) == len(b)
    first = next(i for i in range(len(a)) if a[i] != b[i])
    tampered = cli.path("tampered.tribes")
    tampered.write_bytes(a[:first] + b[first : first + 1] + a[first + 1 :])
    event_2 = record_starts(a)[6]  # header, checkpoint 0, commit 0, event 1, checkpoint 1, ...
    lines = refused_by_all(cli, tampered, "tampered.tribes", f"(byte {event_2})")
    assert "check byte" in lines[0]
    assert "the record after event 1" in lines[0]


def test_a_json_event_changed_fails_its_digest(cli):
    original = cli.new()
    cli.ok("act", original, "1-2")
    cli.ok("act", original, "2-3")
    text = cli.ok("export", original, "--json")
    assert '{"type": "move", "source": 2, "target": 3}' in text
    path = cli.path("tampered.json")
    path.write_text(
        text.replace(
            '{"type": "move", "source": 2, "target": 3}',
            '{"type": "move", "source": 2, "target": 8}',
        )
    )
    refused_by_all(cli, path, "tampered.json", "digest does not match its header and events")
    assert "digest" in cli.run("verify", path).stdout


def test_a_json_commit_changed(cli, small):
    doc = json.loads(cli.ok("export", small, "--json"))
    doc["commits"][1][1] = "00" * 12
    path = cli.path("tampered.json")
    path.write_text(json.dumps(doc))
    refused_by_all(cli, path, "tampered.json", "the commit after event 1", "does not match")


def test_a_json_checkpoint_beyond_the_last_event(cli, small):
    doc = json.loads(cli.ok("export", small, "--json"))
    doc["checkpoints"].append([9, "00" * 8])
    path = cli.path("tampered.json")
    path.write_text(json.dumps(doc))
    refused_by_all(cli, path, "tampered.json", "checkpoint", "9")


def test_a_json_event_that_is_illegal(cli, small):
    """An event changed in a sealed log is found by its bytes (the digest) before any rule
    reads it: the log was altered, whatever the rules say of the move."""
    doc = json.loads(cli.ok("export", small, "--json"))
    doc["events"][1] = {"type": "move", "source": 1, "target": 2}
    path = cli.path("illegal.json")
    path.write_text(json.dumps(doc))
    refused_by_all(cli, path, "illegal.json", "digest does not match its header and events")


# --- versions and foreign games -----------------------------------------------------------------


def test_a_json_log_of_an_unknown_format_version(cli, small):
    doc = json.loads(cli.ok("export", small, "--json"))
    doc["version"] = 99
    path = cli.path("future.json")
    path.write_text(json.dumps(doc))
    refused_by_all(cli, path, "future.json", "version 99", "reads versions 1, 2")


def test_a_binary_log_of_an_unknown_format_version(cli, binary):
    path = cli.path("future.tribes")
    path.write_bytes(binary.frames([("tribes-log", 99, binary.header())]))
    refused_by_all(cli, path, "future.tribes", "version 99", "reads versions 1, 2")


def test_the_hand_built_binary_header_is_read(cli, binary):
    """The format as documented (so the version test above tests the version, not the framing)."""
    path = cli.path("handmade.tribes")
    path.write_bytes(binary.frames([("tribes-log", 1, binary.header())]))
    doc = cli.show_json(path)
    assert doc["events"] == 0
    assert set(doc["chips"]) == {"ann", "bob"}


def test_a_log_of_newer_rules(cli, binary):
    path = cli.path("rules.tribes")
    path.write_bytes(binary.frames([("tribes-log", 1, binary.header(rules_version=9))]))
    refused_by_all(cli, path, "rules version 9")


def test_a_log_of_an_unknown_event_schema(cli, small):
    doc = json.loads(cli.ok("export", small, "--json"))
    doc["header"]["schema"]["move"] = 7
    path = cli.path("schema.json")
    path.write_text(json.dumps(doc))
    refused_by_all(cli, path, "event 1", "schema version 7")


def test_a_log_of_an_unknown_game(cli, binary):
    path = cli.path("chess.tribes")
    path.write_bytes(binary.frames([("tribes-log", 1, binary.header(game="chess"))]))
    refused_by_all(cli, path, "'chess'", "clans")


def test_an_unknown_event_tag(cli, binary):
    path = cli.path("tag.tribes")
    path.write_bytes(binary.frames([("tribes-log", 1, binary.header()), (42, 1, 2)]))
    refused_by_all(cli, path, "event 1", "tag 42")


def test_a_header_that_is_not_a_header(cli, binary):
    path = cli.path("odd.tribes")
    path.write_bytes(binary.frames([("something-else", 1, {})]))
    refused_by_all(cli, path, "header")


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"seats": "ann"}, "seats"),
        ({"seed": "seven"}, "seed"),
        ({"schema": {"move": "one"}}, "header"),
        ({"options": {"board": 3}}, "board"),
        ({"extra": 1}, "extra"),
    ],
    ids=["seats-a-string", "seed", "schema", "options", "extra"],
)
def test_a_malformed_binary_header(cli, binary, change, fragment):
    path = cli.path("bad.tribes")
    path.write_bytes(binary.frames([("tribes-log", 1, binary.header(**change))]))
    refused_by_all(cli, path, fragment)


def test_a_binary_header_with_a_binary_key(cli, binary):
    """msgpack maps may have bytes keys; such a header is malformed, not a crash."""
    header = binary.header()
    header[b"rules_version"] = header.pop("rules_version")
    path = cli.path("bkey.tribes")
    path.write_bytes(binary.frames([("tribes-log", 1, header)]))
    refused_by_all(cli, path, "bkey.tribes", "header")


def test_a_checkpoint_record_that_is_malformed(cli, binary):
    path = cli.path("cp.tribes")
    path.write_bytes(binary.frames([("tribes-log", 1, binary.header()), (1, 59, 60), (0, 5, b"x")]))
    refused_by_all(cli, path, "checkpoint after event 1")


# --- malformed JSON logs ------------------------------------------------------------------------


def _json_variants():
    def set_(*path, value):
        def change(doc):
            node = doc
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value

        return change

    return {
        "events-not-a-list": set_("events", value={"a": 1}),
        "event-type-a-list": set_("events", 0, "type", value=[]),
        "event-type-a-map": set_("events", 0, "type", value={}),
        "event-a-number": set_("events", 0, value=5),
        "event-field-missing": lambda doc: doc["events"][0].pop("target"),
        "event-extra-field": set_("events", 0, "z", value=1),
        "checkpoints-a-number": set_("checkpoints", value=5),
        "checkpoints-a-string": set_("checkpoints", value="1,2"),
        "checkpoint-short": set_("checkpoints", value=[[1]]),
        "checkpoint-not-hex": set_("checkpoints", value=[[1, "zz"]]),
        "commit-short": set_("commits", 0, value=[1]),
        "commit-not-hex": set_("commits", 0, value=[1, "zz" * 12]),
        "commit-count-true": set_("commits", 1, 0, value=True),
        "commits-missing": lambda doc: doc.pop("commits"),
        "digest-missing": lambda doc: doc.pop("digest"),
        "digest-changed": set_("digest", value="0" * 32),
        "header-missing": lambda doc: doc.pop("header"),
        "header-null": set_("header", value=None),
        "header-seats-a-string": set_("header", "seats", value="ann"),
        "format-missing": lambda doc: doc.pop("format"),
        "version-a-string": set_("version", value="1"),
        "top-a-list": None,
    }


JSON_VARIANTS = _json_variants()


@pytest.mark.parametrize("name", sorted(JSON_VARIANTS))
def test_a_malformed_json_log(cli, small, name):
    doc = json.loads(cli.ok("export", small, "--json"))
    change = JSON_VARIANTS[name]
    if change is None:
        doc = [doc]
    else:
        change(doc)
    path = cli.path(f"{name}.json")
    path.write_text(json.dumps(doc))
    refused_by_all(cli, path, f"{name}.json")


@pytest.mark.parametrize("seats", [["solo"], [f"p{i}" for i in range(1, 10)]], ids=["1", "9"])
def test_a_json_log_with_a_seat_count_the_game_does_not_take(cli, seats):
    doc = {
        "format": "tribes-log",
        "version": 1,
        "header": {
            "game": "clans",
            "rules_version": 1,
            "seed": 1,
            "seats": seats,
            "schema": {"move": 1, "order": 1},
        },
        "events": [],
    }
    path = cli.path("seats.json")
    path.write_text(json.dumps(doc))
    refused_by_all(cli, path, "seats.json", "2 to 4")


def test_a_json_log_whose_numbers_do_not_fit_the_binary_form(cli, position):
    """A position with a huge track score: refused when read, rather than crashing when the
    state is hashed or the log converted."""
    pos = position({12: {"red": 1}, 13: {"blue": 1}, 59: {"red": 1}, 60: {"blue": 1}})
    pos["track"] = {"red": 2**70}
    doc = {
        "format": "tribes-log",
        "version": 1,
        "header": {
            "game": "clans",
            "rules_version": 1,
            "seed": 1,
            "seats": ["ann", "bob"],
            "position": pos,
            "schema": {"move": 1, "order": 1},
        },
        "events": ["59-60"],
    }
    path = cli.path("huge.json")
    path.write_text(json.dumps(doc))
    refused_by_all(cli, path, "huge.json")


def test_import_of_a_json_log_with_a_seed_too_large(cli, small):
    doc = json.loads(cli.ok("export", small, "--json"))
    doc["header"]["seed"] = 2**70
    doc["events"] = []
    del doc["checkpoints"]
    path = cli.path("seed.json")
    path.write_text(json.dumps(doc))
    out = cli.path("seed.tribes")
    line = cli.fails("import", path, "-o", out)
    assert "seed" in line
    assert not out.exists()


def test_verify_goes_on_after_a_log_it_cannot_read(cli, small):
    """One bad file among many: its FAIL line, the others checked, the summary."""
    doc = json.loads(cli.ok("export", small, "--json"))
    doc["checkpoints"] = 5
    bad = cli.path("bad.json")
    bad.write_text(json.dumps(doc))
    result = cli.run("verify", small, bad, small)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == "2 ok, 1 failed"


# --- size ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["huge.tribes", "huge.json"])
def test_an_enormous_file_is_refused_without_reading_it(cli, monkeypatch, name):
    path = cli.path(name)
    with open(path, "wb") as f:
        f.write(logfile.MAGIC if name.endswith(".tribes") else b"{")
    os.truncate(path, logfile.MAX_LOG_BYTES + 1)  # sparse: 16 MiB + 1 that take no disk
    assert path.stat().st_size > 16 << 20
    reads = []
    real_read_bytes = Path.read_bytes
    real_read_text = Path.read_text

    def read_bytes(self):
        if self == path:
            reads.append(self)
        return real_read_bytes(self)

    def read_text(self, *args, **kwargs):
        if self == path:
            reads.append(self)
        return real_read_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    monkeypatch.setattr(Path, "read_text", read_text)
    for command in (["show"], ["verify"], ["moves"]):
        result = cli.run(command[0], path)
        assert result.exit_code == 1
    line = cli.fails("act", path, "1-2")
    assert name in line and str(logfile.MAX_LOG_BYTES) in line
    assert not reads, "the file was read"
    assert path.stat().st_size == logfile.MAX_LOG_BYTES + 1
