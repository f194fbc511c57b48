"""Tags and notes (issue 10), as a user drives them: ``new --tag``, ``tag``, ``note``; shown by
``log``, ``show``, ``replay`` and the page; appended, committed, covered by the digest, carried
losslessly by both forms, kept by ``fork`` and ``whatif -o``; refused when bad, the log then
byte-identical."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tribes.events import codec, framing, logfile
from tribes.events.annotation import ANNOTATION_TAG
from tribes.replay import logs
from tribes.replay.cursor import Cursor
from tribes.replay.stepper import Stepper
from tribes.testing.cli import tribes_command


def tagged(cli, name="g.tribes"):
    path = cli.new(name, "--tag", "event=Club night", "--tag", "round=2")
    cli.play(path, 3)
    return path


def state_of(cli, path):
    doc = cli.show_json(path)
    doc.pop("tags"), doc.pop("note")
    return doc


# --- tags ----------------------------------------------------------------------------------------


def test_new_sets_tags_and_tag_lists_changes_and_removes_them(cli):
    path = tagged(cli)
    assert cli.ok("tag", path) == "event=Club night\nround=2\n"
    cli.ok("tag", path, "site=Bonn", "date=2026-12-01", "--remove", "round")
    assert cli.ok("tag", path).splitlines() == ["date=2026-12-01", "event=Club night", "site=Bonn"]
    assert cli.json("tag", path, "--json") == {
        "date": "2026-12-01",
        "event": "Club night",
        "site": "Bonn",
    }
    cli.ok("tag", path, "event=Final")  # changed later
    assert cli.json("tag", path, "--json")["event"] == "Final"


def test_a_tag_or_a_note_never_changes_a_state_and_only_appends(cli):
    path = tagged(cli)
    before_state, before_bytes = state_of(cli, path), path.read_bytes()
    before_verify = cli.ok("verify", path).split("state ")[1].split(",")[0]
    cli.ok("tag", path, "result=1-0")
    cli.ok("note", path, "2", "a fine move")
    after = path.read_bytes()
    assert after.startswith(before_bytes)  # never a rewrite of earlier bytes
    assert state_of(cli, path) == before_state
    assert cli.ok("verify", path).split("state ")[1].split(",")[0] == before_verify
    assert cli.ok("moves", path) == cli.ok("moves", path)


def test_tags_and_notes_are_shown_by_log_and_show(cli):
    path = tagged(cli)
    cli.ok("note", path, "0", "a club game")
    cli.ok("note", path, "2", "why not 5-4?\nbob thought long")
    text = cli.ok("log", path)
    lines = text.splitlines()
    assert lines[:2] == ['[event "Club night"]', '[round "2"]']
    assert lines[3] == "      # a club game"
    two = next(i for i, line in enumerate(lines) if line.startswith("   2 "))
    assert lines[two + 1 : two + 3] == ["      # why not 5-4?", "      # bob thought long"]
    records = [json.loads(line) for line in cli.ok("log", path, "--json").splitlines()]
    assert [r["note"] for r in records] == [None, "why not 5-4?\nbob thought long", None]
    states = [json.loads(line) for line in cli.ok("log", path, "--json", "--states").splitlines()]
    assert states[0]["note"] == "a club game"
    board = cli.ok("show", path, "--at", "2")
    assert board.startswith('[event "Club night"]\n[round "2"]\n\n')
    assert board.rstrip().endswith("note on event 2: why not 5-4?\nbob thought long")
    assert "note on" not in cli.ok("show", path)
    doc = cli.show_json(path, "--at", "2")
    assert doc["tags"] == {"event": "Club night", "round": "2"}
    assert doc["note"] == "why not 5-4?\nbob thought long"
    assert cli.show_json(path)["note"] is None
    assert cli.ok("note", path, "2") == "why not 5-4?\nbob thought long\n"


def test_a_note_can_be_removed_and_replaced(cli):
    path = tagged(cli)
    cli.ok("note", path, "1", "first")
    cli.ok("note", path, "1", "second")
    assert cli.show_json(path, "--at", "1")["note"] == "second"
    cli.ok("note", path, "1", "--remove")
    assert cli.show_json(path, "--at", "1")["note"] is None
    assert "#" not in cli.ok("log", path)


def test_the_replay_screen_shows_the_note_of_the_current_event(cli):
    path = tagged(cli)
    cli.ok("note", path, "2", "the turning point")
    model = Stepper(Cursor.open(path), name=path.name)
    model.press("l")
    assert not any("turning point" in line for line in model.screen(80, 24))
    model.press("l")
    screen = model.screen(80, 24)
    assert screen[2] == "# the turning point", screen[:4]
    assert len(screen) <= 24


def test_the_page_shows_tags_and_notes_escaped(cli):
    path = tagged(cli)
    cli.ok("tag", path, "site=<b>Bonn</b>")
    cli.ok("note", path, "1", "<script>alert(1)</script> & more")
    page = cli.path("g.html")
    cli.ok("html", path, "-o", page)
    text = page.read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in text
    assert "<script>alert(1)" not in text
    assert "&lt;b&gt;Bonn&lt;/b&gt;" in text and "Club night" in text


# --- the format ----------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".tribes", ".json"])
def test_both_forms_carry_annotations_losslessly(cli, suffix):
    path = tagged(cli, f"g{suffix}")
    cli.ok("note", path, "3", "end of the opening")
    cli.ok("tag", path, "--remove", "round")
    first = cli.ok("export", path)
    assert '"annotations": [' in first
    copy = cli.path("copy.tribes")
    cli.path("e.json").write_text(first)
    cli.ok("import", cli.path("e.json"), "-o", copy)
    assert cli.ok("export", copy) == first  # export, import, export: byte-identical
    if suffix == ".tribes":
        assert copy.read_bytes() == path.read_bytes()
    digests = {cli.ok("verify", p).split("digest ")[1] for p in (path, copy, cli.path("e.json"))}
    assert len(digests) == 1
    assert logs.open_log(copy).log.notes == {3: "end of the opening"}


def test_a_log_without_annotations_reads_and_exports_as_before(cli):
    path = cli.new()
    cli.play(path, 2)
    text = cli.ok("export", path)
    assert "annotations" not in text
    assert '"commits": [[0, "' in text and '", 1]' not in text


def _frames(data):
    return list(framing.frames(data, len(logfile.MAGIC), logfile.MAX_RECORD_BYTES, ["x"]))


def _rebuilt(data, payloads):
    """The file with these payloads, every check byte chained again (a careful tamperer)."""
    out = bytearray(logfile.MAGIC)
    check = 0
    for payload in payloads:
        framed, check = framing.frame(payload, check)
        out += framed
    return bytes(out)


def _payloads(data):
    return [data[f.body : f.end] for f in _frames(data)]


def test_a_tampered_note_is_refused_by_verify_naming_the_record(cli):
    path = tagged(cli)
    cli.ok("note", path, "2", "a quiet move")
    payloads = _payloads(path.read_bytes())
    at = next(
        i
        for i, p in enumerate(payloads)
        if codec.unpack_all(p)[0] == ANNOTATION_TAG and codec.unpack_all(p)[2] == 2
    )
    payloads[at] = payloads[at].replace(b"quiet", b"loud!")
    path.write_bytes(_rebuilt(path.read_bytes(), payloads))
    result = cli.run("verify", path)
    out = result.stdout
    assert result.exit_code == 1 and out.startswith("FAIL"), out
    assert "annotation 3 (the note on event 2)" in out, out
    assert "does not match" in out
    for command in ("log", "show", "tag"):
        assert "annotation 3" in cli.fails(command, path)


def test_a_tampered_tag_in_the_json_form_is_refused(cli):
    path = tagged(cli, "g.json")
    path.write_text(path.read_text().replace("Club night", "Club knight"))
    assert "FAIL" in cli.run("verify", path).stdout
    assert "digest does not match its header and events and annotations" in cli.fails("log", path)


def test_an_annotation_record_of_the_wrong_shape_is_refused(cli):
    path = tagged(cli)
    payloads = _payloads(path.read_bytes())
    at = next(i for i, p in enumerate(payloads) if codec.unpack_all(p)[0] == ANNOTATION_TAG)
    bad = b"".join(codec.pack(v) for v in (ANNOTATION_TAG, 0, "event", 12))
    payloads[at] = bad
    path.write_bytes(_rebuilt(path.read_bytes(), payloads))
    line = cli.fails("log", path)
    assert "annotation 1 (after event 0)" in line and "a tag's value is text" in line


def test_an_annotation_needs_its_commit(cli):
    path = tagged(cli)
    data = path.read_bytes()
    last = _frames(data)[-1]
    check = data[last.end]
    extra, _ = framing.frame(
        b"".join(codec.pack(v) for v in (ANNOTATION_TAG, 3, "site", "Bonn")), check
    )
    path.write_bytes(data + extra)  # an interrupted tag: its commit never written
    assert "interrupted append" in cli.fails("tag", path)
    cli.ok("repair", path)
    assert "site" not in cli.ok("tag", path)


# --- fork, whatif, simulate ----------------------------------------------------------------------


def test_fork_and_whatif_keep_tags_and_the_notes_of_kept_events(cli):
    path = tagged(cli)
    cli.ok("note", path, "0", "start")
    cli.ok("note", path, "1", "one")
    cli.ok("note", path, "3", "three")
    fork = cli.path("f.tribes")
    cli.ok("fork", path, "--at", "3", "-o", fork)
    opened = logs.open_log(fork).log
    assert opened.tags == {"event": "Club night", "round": "2"}
    assert opened.notes == {0: "start", 1: "one"}
    cli.ok("verify", fork)
    move = cli.ok("moves", path, "--at", "1").splitlines()[-1]
    what = cli.path("w.tribes")
    cli.run("whatif", path, "--at", "2", move, "-o", what)
    kept = logs.open_log(what).log
    assert kept.tags == {"event": "Club night", "round": "2"}
    assert 0 in kept.notes and 1 in kept.notes and 2 not in kept.notes
    assert (3 in kept.notes) == (len(kept.events) >= 3)


def test_simulate_records_the_bots_as_a_tag(cli):
    cli.ok(
        "simulate",
        "clans",
        "--games",
        "1",
        "--seats",
        "2",
        "--bot",
        "greedy,random",
        "--save",
        "runs",
    )
    (log,) = cli.path("runs").iterdir()
    assert cli.ok("tag", log) == "bots=greedy,random\n"
    # and in meta.bots, which a corpus (no tags) and tribes stats read
    assert logs.open_log(log).log.header.meta["bots"] == {"p1": "greedy", "p2": "random"}


# --- bad input: one line, the log untouched ------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("tag", "{log}", "event"), "must be KEY=VALUE"),
        (("tag", "{log}", "=x"), "a tag name is"),
        (("tag", "{log}", "bad key=x"), "a tag name is"),
        (("tag", "{log}", "event="), "not empty"),
        (("tag", "{log}", "event=a\tb"), "printable"),
        (("tag", "{log}", "event=a\nb"), "one line"),
        (("tag", "{log}", "event=" + "x" * 1025), "at most 1024"),
        (("tag", "{log}", "--remove", "site"), "no tag 'site' to remove"),
        (("tag", "{log}", "--json", "a=b"), "--json lists"),
        (("note", "{log}", "4", "later"), "no event 4"),
        (("note", "{log}", "--", "-1", "before"), "no event -1"),
        (("note", "{log}", "2", "  "), "not empty"),
        (("note", "{log}", "2", "bell\x07"), "printable"),
        (("note", "{log}", "2", "x" * 4097), "at most 4096"),
        (("note", "{log}", "2", "--remove"), "no note on event 2"),
        (("note", "{log}", "2", "text", "--remove"), "not both"),
        (("note", "{log}", "2"), "no note on event 2"),
    ],
)
@pytest.mark.parametrize("suffix", [".tribes", ".json"])
def test_a_refused_tag_or_note_leaves_the_log_byte_identical(cli, args, said, suffix):
    path = tagged(cli, f"g{suffix}")
    line = cli.fails_untouched(path, *(a.format(log=path) for a in args), code=2)
    assert said in line, line


def test_new_refuses_a_bad_tag_and_writes_nothing(cli):
    line = cli.fails("new", "clans", "--seats", "2", "--tag", "x y=1", "-o", "n.tribes", code=2)
    assert "a tag name is" in line
    assert not cli.path("n.tribes").exists()


def test_a_log_holds_at_most_so_many_annotations(cli):
    path = tagged(cli)
    room = logfile.MAX_ANNOTATIONS - 2
    logs.annotate(path, [(f"k{i}", "v") for i in range(room)])
    line = cli.fails_untouched(path, "note", path, "1", "one more", code=2)
    assert f"at most {logfile.MAX_ANNOTATIONS} annotations" in line
    cli.ok("verify", path)


def test_a_note_on_a_version_1_log_rewrites_it_in_version_2(cli):
    source = Path(__file__).parent.parent / "logs" / "v1"
    old = next(p for p in sorted(source.iterdir()) if p.suffix == ".tribes")
    path = cli.path("old.tribes")
    path.write_bytes(old.read_bytes())
    if "board" in cli.run("log", path).stderr or cli.run("log", path).exit_code:
        pytest.skip("this version 1 log needs its board file")
    cli.ok("note", path, "0", "an old game")
    assert "format version" not in cli.ok("verify", path)
    assert cli.ok("note", path, "0") == "an old game\n"


# --- a concurrent act and note: the lock loses nothing ------------------------------------------


@pytest.mark.parametrize("suffix", [".tribes", ".json"])
def test_a_concurrent_act_and_note_lose_nothing(cli, suffix):
    path = cli.new(f"race{suffix}")
    for round_ in range(4):
        move = cli.moves(path)[0]
        writers = [
            subprocess.Popen(
                [*tribes_command(), *args],
                cwd=cli.root,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for args in (
                ("act", path.name, move),
                ("note", path.name, "0", f"round {round_}"),
                ("tag", path.name, f"round={round_}"),
            )
        ]
        for writer in writers:
            _, err = writer.communicate(timeout=60)
            assert writer.returncode == 0, err
        log = logs.open_log(path).log
        assert len(log.events) == round_ + 1
        assert log.notes[0] == f"round {round_}"
        assert log.tags["round"] == str(round_)
        cli.ok("verify", path)


def test_a_json_commit_out_of_place_among_the_annotations_is_refused(cli):
    path = tagged(cli, "g.json")
    cli.ok("note", path, "3", "late")
    text = path.read_text()
    first = text.index('"commits": [[0, "') + len('"commits": [[0, "') + 24
    assert text[first : first + 4] == '", 2'
    path.write_text(text[:first] + '", 3' + text[first + 4 :])
    line = cli.fails("log", path)
    assert "the commit after event 0 counts 3 annotations" in line


def test_a_corpus_keeps_a_logs_tags_and_gives_the_log_back_the_same(cli):
    path = tagged(cli)
    cli.ok("corpus", "add", "c.corpus", path, "--new")
    cli.ok("corpus", "get", "c.corpus#1", "-o", "back.tribes")
    assert cli.path("back.tribes").read_bytes() == path.read_bytes()
