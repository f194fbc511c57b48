"""Spec 5: the pytest plugin (entry point ``pytest11``, module ``tribes.replay.pytest_plugin``)
and its fixture ``tribes_playthrough``, run as a user would: pytest in a real process, in
pytester's folder, with nothing but a log and a test file (the plugin comes from its entry
point, not from a conftest)."""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tribes.events import codec
from tribes.replay import logs, playthrough, questions
from tribes.replay.cursor import Cursor
from tribes.replay.playthrough import milestones, transcript

FLAGS = ("-p", "no:cacheprovider", "--strict-markers", "-W", "error", "-p", "no:hypothesispytest")

USER_TEST = """
from pathlib import Path


def test_my_game(tribes_playthrough):
    tribes_playthrough(Path(__file__).parent / "logs" / "game.tribes")
"""

ESC = "\x1b["
"""How a terminal colour starts."""
_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def user(
    pytester: pytest.Pytester, demo_source: Path, monkeypatch: pytest.MonkeyPatch
) -> pytest.Pytester:
    """A user's project: a copied log and one test using the fixture; nothing else."""
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    for name in [n for n in os.environ if n.startswith("PYTEST_XDIST_")]:
        monkeypatch.delenv(name)  # a worker of a parallel run: the user's run is none (syrupy
        # leaves its report to the controller in a worker)
    (pytester.path / "logs").mkdir()
    shutil.copyfile(demo_source, pytester.path / "logs" / "game.tribes")
    pytester.makepyfile(test_user=USER_TEST)
    return pytester


def run(user: pytest.Pytester, *args: str) -> pytest.RunResult:
    """pytest in a real process in the user's folder."""
    return user.runpytest_subprocess(*FLAGS, *args)


def snapshot_files(user: pytest.Pytester) -> dict[str, str]:
    """Every snapshot file under the user's folder: path -> text."""
    return {
        p.relative_to(user.path).as_posix(): p.read_text()
        for p in sorted(user.path.rglob("__snapshots__/**/*"))
        if p.is_file()
    }


def output(result: pytest.RunResult) -> str:
    return "\n".join(result.outlines + result.errlines)


def test_the_plugin_is_registered_by_its_entry_point() -> None:
    points = [
        e
        for e in importlib.metadata.entry_points(group="pytest11")
        if e.value == "tribes.replay.pytest_plugin"
    ]
    assert len(points) == 1


def test_record_then_pass_then_fail_when_the_log_changes(user: pytest.Pytester) -> None:
    log = user.path / "logs" / "game.tribes"
    run(user, "--snapshot-update").assert_outcomes(passed=1)
    # one text file for the one log, holding its whole transcript, as it is
    files = snapshot_files(user)
    assert list(files) == ["__snapshots__/test_user/test_my_game.txt"]
    (text,) = files.values()
    assert text == playthrough.text(transcript(log))
    assert "event 36: ann order 19 35" in text
    assert text.count("\n  board:\n") == 37  # the board at every step by default
    run(user).assert_outcomes(passed=1)  # and again, unchanged
    # the log forked shorter: the snapshot no longer matches
    opened = logs.open_log(log)
    logs.create(log, questions.fork(opened.log, 20), opened.game, force=True)
    changed = run(user)
    changed.assert_outcomes(failed=1)
    changed.stdout.fnmatch_lines(["*the playthrough of *game.tribes differs from its snapshot*"])
    assert snapshot_files(user) == files  # a failing run does not rewrite the snapshot


def test_a_changed_move_fails_with_the_diff_of_that_step(user: pytest.Pytester) -> None:
    run(user, "--snapshot-update").assert_outcomes(passed=1)
    log = user.path / "logs" / "game.tribes"
    opened = logs.open_log(log)
    result = questions.whatif(Cursor.open(log), 5, "3-9")
    logs.create(log, result.log, opened.game, force=True)
    failed = run(user, "--color=no")
    failed.assert_outcomes(failed=1)
    failed.stdout.fnmatch_lines(["*differs from its snapshot*", "*event 5: * 3-9*"])


def test_without_a_snapshot_it_fails_saying_so(user: pytest.Pytester) -> None:
    """Fails because the snapshot is missing, not for any other reason (a crash, a bad log)."""
    result = run(user, "--color=no")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*the playthrough of *game.tribes differs from its snapshot*",
            "*Snapshot 'test_my_game' does not exist!*",
        ]
    )
    assert "Traceback" not in output(result)
    assert not snapshot_files(user)  # and nothing is written without --snapshot-update


def test_a_viewer_and_the_transcript_returned(user: pytest.Pytester) -> None:
    user.makepyfile(
        test_views="""
from pathlib import Path

LOG = Path(__file__).parent / "logs" / "game.tribes"


def test_as_ann(tribes_playthrough):
    blocks = tribes_playthrough(LOG, 0)
    assert len(blocks) == 37
    assert blocks[0].startswith("event 0: - start")
    assert "ann [black] 0 chips = 0   bob [?] 0 chips   cy [?] 0 chips" in blocks[1]


def test_as_spectator(tribes_playthrough):
    blocks = tribes_playthrough(LOG, None)
    assert "ann [?] 0 chips   bob [?] 0 chips   cy [?] 0 chips" in blocks[1]
"""
    )
    run(user, "--snapshot-update", "test_views.py").assert_outcomes(passed=2)
    run(user, "test_views.py").assert_outcomes(passed=2)
    files = snapshot_files(user)
    log = user.path / "logs" / "game.tribes"
    assert files["__snapshots__/test_views/test_as_ann.txt"] == playthrough.text(transcript(log, 0))
    assert files["__snapshots__/test_views/test_as_spectator.txt"] == playthrough.text(
        transcript(log, None)
    )


# --- a log that cannot be replayed -------------------------------------------------------------


DAMAGES = ("flipped", "cut", "illegal", "missing")

DAMAGED_TEST = """
from pathlib import Path

import pytest


@pytest.mark.parametrize("how", ["flipped", "cut", "illegal", "missing"])
def test_log(tribes_playthrough, how):
    tribes_playthrough(Path(__file__).parent / "logs" / f"{how}.tribes")
"""


def _damage(log: Path, damage: Any, how: str) -> None:
    if how == "flipped":
        damage.flip(log, 50).replace(log)
    elif how == "cut":
        damage.cut(log, 40).replace(log)
    elif how == "illegal":
        damage.illegal_event(log, 12).replace(log)
    else:
        log.unlink()


def test_a_log_that_cannot_be_replayed_fails_in_one_line_and_keeps_its_snapshot(
    user: pytest.Pytester, damage: Any
) -> None:
    """Damaged, cut, with an event the rules refuse, or gone: each fails in one line naming
    the log, and neither a run nor ``--snapshot-update`` suggests, deletes or rewrites its
    snapshot."""
    (user.path / "test_user.py").unlink()
    for how in DAMAGES:
        shutil.copyfile(user.path / "logs" / "game.tribes", user.path / "logs" / f"{how}.tribes")
    user.makepyfile(test_damaged=DAMAGED_TEST)
    run(user, "--snapshot-update").assert_outcomes(passed=4)
    pinned = snapshot_files(user)
    assert len(pinned) == 4
    for how in DAMAGES:
        _damage(user.path / "logs" / f"{how}.tribes", damage, how)
    for args in ((), ("--snapshot-update",)):
        result = run(user, "--color=no", *args)
        result.assert_outcomes(failed=4)
        text = output(result)
        for how in DAMAGES:
            # one line, naming the log, in the failure and in the summary; no traceback
            failure = [
                line
                for line in result.outlines
                if line.startswith("tribes_playthrough: ") and f"{how}.tribes" in line
            ]
            assert len(failure) == 1, (how, text)
            assert failure[0].endswith("(its snapshot is kept; fix or restore the log)")
            result.stdout.fnmatch_lines([f"FAILED test_damaged.py::test_log[[]{how}[]] - *"])
        assert "Traceback" not in text
        assert "tribes/" not in text and "replay/" not in text  # no frame of tribes' code
        # nothing suggests updating, and updating neither deletes nor rewrites the snapshots
        assert "--snapshot-update" not in text
        assert "unused" not in text and "deleted" not in text
        assert snapshot_files(user) == pinned, args


def test_a_log_that_cannot_be_replayed_writes_no_snapshot_either(
    user: pytest.Pytester, damage: Any
) -> None:
    _damage(user.path / "logs" / "game.tribes", damage, "flipped")
    result = run(user, "--snapshot-update")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["tribes_playthrough: *game.tribes*"])
    assert not snapshot_files(user)


# --- colours -------------------------------------------------------------------------------------

COLOURS_ON = """
def pytest_configure(config):
    # a terminal would have them: syrupy colours its diff unless --snapshot-no-colors is given
    if "--snapshot-no-colors" not in config.invocation_params.args:
        config.option.no_colors = False
"""


def test_failure_text_honours_the_colour_flags(user: pytest.Pytester) -> None:
    user.makeconftest(COLOURS_ON)
    run(user, "--snapshot-update").assert_outcomes(passed=1)
    log = user.path / "logs" / "game.tribes"
    opened = logs.open_log(log)
    logs.create(log, questions.whatif(Cursor.open(log), 5, "3-9").log, opened.game, force=True)
    for flags, coloured in (
        (("--color=yes",), True),  # the control: the same failure has colours
        (("--color=no",), False),
        (("--color=yes", "--snapshot-no-colors"), False),
    ):
        result = run(user, *flags)
        result.assert_outcomes(failed=1)
        text = output(result)
        diff = text[text.index("differs from its snapshot") : text.index("snapshot report summary")]
        assert "+ event 5: ann 3-9" in _COLOUR.sub("", diff), flags
        assert (ESC in diff) == coloured, flags
        if "--color=no" in flags:
            assert ESC not in text  # nor anywhere else, syrupy's report included


# --- the compact mode ----------------------------------------------------------------------------

CORPUS_TEST = """
from pathlib import Path

import pytest

LOGS = sorted((Path(__file__).parent / "logs").glob("*.tribes"))


@pytest.mark.parametrize("log", LOGS, ids=[p.stem for p in LOGS])
def test_corpus(tribes_playthrough, log):
    tribes_playthrough(log, compact=True)


def test_chosen_boards(tribes_playthrough):
    log = LOGS[0]
    tribes_playthrough(log, boards={0: "start", 10: "tenth", -1: "end"}, moves=True, name="a")
    tribes_playthrough(log, boards=[5], name="b")
"""


def test_compact_mode_pins_digests_and_effects_at_every_step_and_few_boards(
    user: pytest.Pytester, random_logs: list[Path]
) -> None:
    for path in random_logs[:3]:
        shutil.copyfile(path, user.path / "logs" / path.name)
    user.makepyfile(test_corpus=CORPUS_TEST)
    run(user, "--snapshot-update", "test_corpus.py").assert_outcomes(passed=5)
    run(user, "test_corpus.py").assert_outcomes(passed=5)
    files = snapshot_files(user)
    folder = "__snapshots__/test_corpus"
    logs_ = sorted((user.path / "logs").glob("*.tribes"))
    assert sorted(files) == sorted(
        [f"{folder}/test_corpus[{p.stem}].txt" for p in logs_]
        + [f"{folder}/test_chosen_boards[a].txt", f"{folder}/test_chosen_boards[b].txt"]
    )
    for path in logs_:
        text = files[f"{folder}/test_corpus[{path.stem}].txt"]
        opened = logs.open_log(path)
        steps = logs.steps_of(opened.game, opened.log)
        seats = opened.log.header.seats
        # every step: its digest and every effect; no legal moves; boards at the milestones
        assert [line[10:] for line in text.splitlines() if line.startswith("  digest: ")] == [
            codec.state_hash(s.state) for s in steps
        ]
        assert [line[10:] for line in text.splitlines() if line.startswith("  effect: ")] == [
            e.describe(seats) for s in steps for e in s.effects
        ]
        assert "legal moves" not in text
        named = milestones(len(steps))
        assert text.count("\n  board") == len(named) == 5
        for step, name in named.items():
            assert f"event {step}: " in text.split(f"\n  board ({name}):\n")[0].rsplit("\n\n")[-1]
    chosen = files[f"{folder}/test_chosen_boards[a].txt"]
    assert chosen == playthrough.text(
        transcript(logs_[0], boards={0: "start", 10: "tenth", -1: "end"})
    )
    assert "  board (tenth):" in chosen
    assert "legal moves (" in chosen
    assert files[f"{folder}/test_chosen_boards[b].txt"].count("\n  board:\n") == 1


def test_the_transcript_has_one_block_per_step(demo_source: Path, demo: Any) -> None:
    blocks = transcript(demo_source)
    opened = logs.open_log(demo_source)
    steps = logs.steps_of(opened.game, opened.log)
    assert len(blocks) == demo.EVENTS + 1 == len(steps)
    assert blocks[0].startswith("event 0: - start\n")
    strife = blocks[demo.STRIFE].splitlines()
    assert strife[0] == "event 31: cy 14-15"
    assert strife[1:4] == [
        (
            "  effect: village 9 at 15 (epoch 3, 2 red, 2 green, 2 black): red, green, black +6; "
            "chip to cy"
        ),
        "  effect: strife at 15: lone yellow, blue removed",
        "  effect: epoch 4 begins",
    ]
    assert strife[4] == f"  digest: {codec.state_hash(steps[31].state)}"
    legal = [opened.game.format_move(m) for m in opened.game.legal_moves(steps[31].state)]
    head = strife.index(f"  legal moves ({len(legal)}):")
    board = strife.index("  board:")
    listed = " ".join(line.strip() for line in strife[head + 1 : board]).split(", ")
    assert listed == legal
    rendered = opened.game.render(steps[31].state, opened.log.header.seats, "all")
    assert "\n".join(line[4:] for line in strife[board + 1 :]) == rendered


def test_milestones_name_the_start_quarters_and_end() -> None:
    assert milestones(1) == {0: "start"}
    assert milestones(2) == {0: "start", 1: "end"}
    assert milestones(37) == {
        0: "start",
        9: "a quarter",
        18: "half-way",
        27: "three quarters",
        36: "end",
    }
    assert list(milestones(130)) == [0, 32, 64, 96, 129]


def test_legal_moves_wrap_without_cutting_a_move() -> None:
    moves = [f"{n} tent{n} totem fcc" for n in range(40)]
    lines = playthrough.wrap(moves, 4)
    assert all(4 + len(line) <= playthrough.WIDTH for line in lines)
    assert " ".join(lines).split(", ") == moves
    assert playthrough.wrap([], 4) == []


def test_chosen_boards_out_of_range_are_refused(demo_source: Path) -> None:
    with pytest.raises(ValueError, match="step 40 is out of range: the log has steps 0 to 36"):
        transcript(demo_source, boards=[0, 40])
    blocks = transcript(demo_source, boards=[-1], moves=False)
    assert [i for i, b in enumerate(blocks) if "\n  board:\n" in b] == [36]
    assert not any("legal moves" in b for b in blocks)


# --- a failure says where -------------------------------------------------------------------------

COMPACT_TEST = """
from pathlib import Path


def test_my_game(tribes_playthrough):
    tribes_playthrough(Path(__file__).parent / "logs" / "game.tribes", compact=True)
"""


def _first_failure_line(result: pytest.RunResult) -> str:
    """The line of the failure that follows the test's header in pytest's report."""
    lines = result.outlines
    start = next(i for i, line in enumerate(lines) if "differs from its snapshot" in line)
    return lines[start]


def test_a_shorter_log_fails_saying_both_counts_and_the_first_step_that_differs(
    user: pytest.Pytester,
) -> None:
    """The issue's case: a log forked shorter under a compact snapshot. The failure's first line
    says the snapshot has 36 events and the log 19 now, and that the first step that differs is
    event 20, which only the snapshot has: the 19 before it agree. That compact mode shows the
    boards at other steps of a shorter game (its quarters) is no difference of the game: the
    walk-through was sent to an event where nothing had changed."""
    (user.path / "test_user.py").write_text(COMPACT_TEST)
    run(user, "--snapshot-update").assert_outcomes(passed=1)
    log = user.path / "logs" / "game.tribes"
    opened = logs.open_log(log)
    cursor = Cursor.open(log)
    cursor.seek(20)
    gone = (
        f"{opened.log.header.seats[cursor.step.seat]} {opened.game.format_move(cursor.step.event)}"
    )
    logs.create(log, questions.fork(opened.log, 20), opened.game, force=True)
    failed = run(user, "--color=no")
    failed.assert_outcomes(failed=1)
    first = _first_failure_line(failed)
    assert first.endswith(
        "the snapshot has 36 events, the log now 19 events; the first difference is at "
        f"event 20 ({gone}), which is in the snapshot only; 19 events before it read the same"
    ), first


def test_boards_shown_at_other_steps_differ_only_when_nothing_else_does() -> None:
    """A board shown on one side only (compact mode's quarters move with the length) is not
    the first difference when a later step really differs; with the same steps it is told, and
    a board is compared by its lines whatever it is named."""
    start = "event 0: - start\n  digest: aa"
    one = "event 1: ann 1-2\n  digest: bb"
    two = "event 2: bob 2-3\n  digest: cc"
    board = "\n  board (a quarter):\n    12f"
    recorded = playthrough.text([start, one + board, two])
    changed = playthrough.difference(recorded, [start, one, "event 2: bob 2-3\n  digest: dd"])
    assert changed.splitlines()[0].endswith(
        "the first difference is at event 2 (bob 2-3): its digest differs"
    )
    moved = playthrough.difference(recorded, [start, one, two + board])
    assert moved.splitlines()[0].endswith(
        "the first difference is at event 1 (ann 1-2): its board differs"
    )
    assert "  board: recorded, not shown now" in moved
    renamed = one + board.replace("a quarter", "half-way")  # the same steps: the name is told
    said = playthrough.difference(
        playthrough.text([start, renamed, two]), [start, one + board, two]
    )
    assert "board: line 0: board (half-way → a quarter):" in said
    longer = playthrough.difference(
        playthrough.text([start, renamed, two]), [start, one + board, two, "event 3: cy 3-4"]
    )  # another length: where boards fall and how they are named is no difference
    assert longer.splitlines()[0].endswith(
        "event 3 (cy 3-4), which is in the log only; 2 events before it read the same"
    )
    redrawn = playthrough.difference(recorded, [start, one + board.replace("12f", "13f"), two])
    assert "event 1 (ann 1-2): its board differs" in redrawn
    assert "board: line 1 was '12f', now '13f'" in redrawn


def test_a_changed_move_names_the_event_its_notation_then_and_now_and_what_differs(
    user: pytest.Pytester,
) -> None:
    run(user, "--snapshot-update").assert_outcomes(passed=1)
    log = user.path / "logs" / "game.tribes"
    before = Cursor.open(log)
    before.seek(5)
    recorded = before.game.format_move(before.step.event)
    opened = logs.open_log(log)
    result = questions.whatif(Cursor.open(log), 5, "3-9")
    logs.create(log, result.log, opened.game, force=True)
    failed = run(user, "--color=no")
    failed.assert_outcomes(failed=1)
    first = _first_failure_line(failed)
    events = len(result.log.events)
    assert f"the snapshot has 36 events, the log now {events} events" in first
    assert f"the first difference is at event 5 (ann 3-9; recorded: ann {recorded}): " in first
    assert first.endswith("the move, digest, legal moves and board differ")
    text = output(failed)
    assert re.search(
        r"^E?\s*digest: recorded [0-9a-f]{32}, now [0-9a-f]{32}$", text, re.MULTILINE
    ), text
    assert re.search(r"legal moves: recorded \d+ moves, now \d+", text)


def test_the_difference_is_told_for_effects_and_digest_alone() -> None:
    """A step whose effects changed but nothing else (a rules change that reports differently):
    the first line names that step and its effects."""
    recorded = (
        "event 0: - start\n  digest: aa\n\nevent 1: ann 1-2\n  effect: old words\n  digest: bb\n"
    )
    now = ["event 0: - start\n  digest: aa", "event 1: ann 1-2\n  effect: new words\n  digest: cc"]
    said = playthrough.difference(recorded, now).splitlines()
    assert said[0] == (
        "the snapshot has 1 event, the log now 1 event; the first difference is at event 1 "
        "(ann 1-2): its digest and effects differ"
    )
    assert said[1:] == ["  digest: recorded bb, now cc", "  effects: old → new words"]
    # effects that share few words are told whole, then and now
    other = ["event 0: - start\n  digest: aa", "event 1: ann 1-2\n  effect: all else\n  digest: cc"]
    assert playthrough.difference(recorded, other).splitlines()[2:] == [
        "  effects: recorded old words",
        "           now      all else",
    ]


def test_a_missing_log_without_a_snapshot_says_nothing_was_recorded(
    user: pytest.Pytester,
) -> None:
    (user.path / "logs" / "game.tribes").unlink()
    for args in ((), ("--snapshot-update",)):
        result = run(user, "--color=no", *args)
        result.assert_outcomes(failed=1)
        (line,) = [x for x in result.outlines if x.startswith("tribes_playthrough: ")]
        assert "game.tribes" in line and "no such file" in line
        assert "no snapshot of it was ever recorded" in line and "nothing was recorded" in line
        assert "its snapshot is kept" not in output(result)
        assert not snapshot_files(user)
