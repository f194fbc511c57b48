"""Spec 3: ``tribes diff`` — one event, any two points, two logs — in the game's language, and
``--json`` as a machine form; the library's ``diff(game, doc_a, doc_b)``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tribes.core.game import EVERYTHING
from tribes.replay import questions
from tribes.replay.cursor import Cursor
from tribes.replay.diff import Change, diff

DEMO_EVENTS = 36
DEMO_STRIFE = 31
DEMO_PENDING = 35
DEMO_EPOCH_3 = 25

RAW_PATH = re.compile(
    r"\b(huts|villages|track|chips|chips_left|scores|pending|clans|to_move|winners|over)"
    r"(\.|\[)\S"
)


def change_lines(output: str) -> list[str]:
    return [line.strip() for line in output.splitlines() if line.startswith("  ")]


def differ(cli: Any, *args: Any) -> str:
    """``diff`` of two logs that differ: exit 1, as diff(1); its output."""
    result = cli.run("diff", *args)
    assert result.exit_code == 1, (args, result.exit_code, result.stdout, result.stderr)
    return str(result.stdout)


def differ_json(cli: Any, *args: Any) -> Any:
    return json.loads(differ(cli, *args, "--json"))


def assert_game_language(changes: list[Change]) -> None:
    """Every change phrased for people: no dotted document paths, no bare 'path: a → b'."""
    for change in changes:
        path = ".".join(map(str, change.path))
        assert change.text, change
        assert not RAW_PATH.search(change.text), change.text
        if len(change.path) > 1:
            assert not change.text.startswith(f"{path}:"), change.text


# --- one log -------------------------------------------------------------------------------------


def test_diff_lists_changes_in_the_order_the_event_caused_them(cli: Any, demo_log: Path) -> None:
    """Event 21 (bob 38-39) moves huts, founds villages 5 and 6, scores them, gives chips, and
    passes the turn: listed in that order, not alphabetically (chips before track before
    villages); seats and colours in their own order (red before green)."""
    lines = change_lines(cli.ok("diff", demo_log, "--at", 21))
    first = {
        what: next(i for i, line in enumerate(lines) if line.startswith(what))
        for what in ("territory", "village", "track", "score", "chips", "to move")
    }
    assert list(first) == sorted(first, key=first.__getitem__), lines
    assert lines.index("track red: 10 → 15") < lines.index("track green: 8 → 13")
    assert lines[-1].startswith("to move")


def test_diff_at_n_is_the_state_before_versus_after_event_n(cli: Any, demo_log: Path) -> None:
    out = cli.ok("diff", demo_log, "--at", 4)  # cy 2-1 founds village 1: red, yellow, blue +5
    assert out.splitlines()[0].startswith("4: cy 2-1")
    lines = change_lines(out)
    assert "track red: 0 → 5" in lines
    assert "track yellow: 0 → 5" in lines
    assert "chips cy: 0 → 1" in lines
    assert "chips left 12 → 11" in lines
    assert "to move: cy → ann" in lines
    assert any(line.startswith("village 1 founded at 1") for line in lines)
    assert any(line.startswith("territory 2:") and "yellow" in line for line in lines)  # source
    assert "territory 1: yellow 0 → 1" in lines  # the target: the yellow hut of 2 moved onto 1


def test_diff_at_n_matches_the_library_and_the_documents(cli: Any, demo_log: Path) -> None:
    replay = Cursor.open(demo_log)
    for n in (1, 4, DEMO_EPOCH_3, DEMO_STRIFE, DEMO_PENDING, DEMO_EVENTS):
        doc = cli.json("diff", demo_log, "--at", n, "--json")
        expected = diff(
            replay.game, replay.document(EVERYTHING, n - 1), replay.document(EVERYTHING, n)
        )
        assert doc["changes"] == [c.to_json() for c in expected]
        assert [c.text for c in questions.state_diff(replay, n - 1, n)] == [
            c.text for c in expected
        ]


def test_diff_without_at_is_the_last_event(cli: Any, demo_log: Path) -> None:
    assert cli.ok("diff", demo_log) == cli.ok("diff", demo_log, "--at", DEMO_EVENTS)


def test_diff_names_epochs_chips_tracks_and_territories(cli: Any, demo_log: Path) -> None:
    lines = change_lines(cli.ok("diff", demo_log, "--at", DEMO_EPOCH_3))
    assert "epoch 2 → 3" in lines
    lines = change_lines(cli.ok("diff", demo_log, "--at", DEMO_STRIFE))
    assert "epoch 3 → 4" in lines
    assert "chips cy: 3 → 4" in lines
    assert "territory 15: yellow 1 → 0" in lines  # strife at 15: the lone yellow removed
    assert "territory 15: blue 1 → 0" in lines
    assert any(re.fullmatch(r"track red: \d+ → \d+", line) for line in lines)


def test_diff_shows_a_pending_decision_and_the_end(cli: Any, demo_log: Path) -> None:
    lines = change_lines(cli.ok("diff", demo_log, "--at", DEMO_PENDING))
    assert "pending: none → ann to order villages 19 35" in lines
    lines = change_lines(cli.ok("diff", demo_log, "--at", DEMO_EVENTS))
    assert "the game is over" in lines
    assert "winners: ann" in lines


def test_diff_from_to_compares_any_two_points(cli: Any, demo_log: Path) -> None:
    out = cli.ok("diff", demo_log, "--from", 0, "--to", DEMO_EVENTS)
    lines = change_lines(out)
    assert "epoch 1 → 5" in lines
    assert "chips ann: 0 → 4" in lines
    assert "chips left 12 → 0" in lines
    backwards = change_lines(cli.ok("diff", demo_log, "--from", DEMO_EVENTS, "--to", 0))
    assert "epoch 5 → 1" in backwards
    assert len(backwards) == len(lines)
    same = change_lines(cli.ok("diff", demo_log, "--from", 12, "--to", 12))
    assert same == ["no change"]
    # --from N --to N+1 is --at N+1
    replay = Cursor.open(demo_log)
    for a, b in [(3, 4), (0, 36), (20, 31), (31, 20)]:
        doc = cli.json("diff", demo_log, "--from", a, "--to", b, "--json")
        assert doc["changes"] == [c.to_json() for c in questions.state_diff(replay, a, b)]
    assert change_lines(cli.ok("diff", demo_log, "--from", 3, "--to", 4)) == change_lines(
        cli.ok("diff", demo_log, "--at", 4)
    )


def test_json_is_a_list_of_path_old_new_text(cli: Any, demo_log: Path) -> None:
    doc = cli.json("diff", demo_log, "--at", 4, "--json")
    assert isinstance(doc["changes"], list) and doc["changes"]
    for change in doc["changes"]:
        assert set(change) == {"path", "old", "new", "text"}
        assert isinstance(change["path"], str) and isinstance(change["text"], str)
    by_path = {c["path"]: c for c in doc["changes"]}
    assert by_path["track.red"] == {
        "path": "track.red",
        "old": 0,
        "new": 5,
        "text": "track red: 0 → 5",
    }
    assert by_path["chips.cy"]["old"] == 0 and by_path["chips.cy"]["new"] == 1
    assert by_path["huts.1.yellow"] == {
        "path": "huts.1.yellow",
        "old": None,
        "new": 1,
        "text": "territory 1: yellow 0 → 1",
    }
    # the text form lists the same texts
    assert change_lines(cli.ok("diff", demo_log, "--at", 4)) == [c["text"] for c in doc["changes"]]


def test_the_library_diff_phrases_documents(demo_log: Path) -> None:
    replay = Cursor.open(demo_log)
    before = replay.document(EVERYTHING, 10)
    after = json.loads(json.dumps(before))
    after["track"]["blue"] = before["track"]["blue"] + 6
    after["epoch"] = before["epoch"] + 1
    after["chips"]["ann"] += 1
    after["huts"]["37"] = {"red": 2}
    changes = diff(replay.game, before, after)
    texts = [c.text for c in changes]
    assert f"track blue: {before['track']['blue']} → {before['track']['blue'] + 6}" in texts
    assert f"epoch {before['epoch']} → {before['epoch'] + 1}" in texts
    assert f"chips ann: {before['chips']['ann']} → {before['chips']['ann'] + 1}" in texts
    assert any(t.startswith("territory 37:") and "red" in t and "2" in t for t in texts)
    assert diff(replay.game, before, before) == []
    assert all(isinstance(c, Change) for c in changes)
    # "game" and "events" say where a state is, not what it is
    moved = {**before, "events": 99}
    assert diff(replay.game, before, moved) == []


def test_texts_speak_the_games_language_across_the_demo(demo_log: Path) -> None:
    replay = Cursor.open(demo_log)
    for n in range(1, DEMO_EVENTS + 1):
        assert_game_language(questions.state_diff(replay, n - 1, n))
    assert_game_language(questions.state_diff(replay, 0, DEMO_EVENTS))
    assert_game_language(questions.state_diff(replay, DEMO_EVENTS, 0))


def test_diff_between_two_pending_decisions(cli: Any, random_game: Any) -> None:
    """Seed 3, 3 seats: events 41 and 44 each wait for an order of different villages; the
    diff between those two states must be phrased, not crash."""
    path = random_game(3, 3)
    replay = Cursor.open(path)
    first, second = (
        replay.document(EVERYTHING, 41)["pending"],
        replay.document(EVERYTHING, 44)["pending"],
    )
    assert first is not None and second is not None and first != second
    out = cli.ok("diff", path, "--from", 41, "--to", 44)
    assert any(line.startswith("pending:") for line in change_lines(out))
    doc = cli.json("diff", path, "--from", 41, "--to", 44, "--json")
    assert doc["changes"]


# --- two logs ------------------------------------------------------------------------------------


def test_two_logs_part_at_the_order_event(cli: Any, fixture_log: Any) -> None:
    a, b = fixture_log("epoch-boundary-order-a"), fixture_log("epoch-boundary-order-b")
    out = differ(cli, a, b)
    assert "event 2" in out.splitlines()[0]
    assert "order 36 38" in out and "order 38 36" in out
    assert "after event 2" in out
    lines = change_lines(out)
    assert "track red: 3 → 7" in lines  # order-b: 36 scores 2+2 for red instead of being doomed
    assert "territory 36: empty → 2 red" in lines
    doc = differ_json(cli, a, b)
    assert doc["event"] == 2  # the first event that differs
    assert doc["state"] == 2  # the first state that differs (by state hash)
    assert {"path": "track.red", "old": 3, "new": 7, "text": "track red: 3 → 7"} in doc["changes"]


def village_changes(cli: Any, fixture_log: Any) -> tuple[list[dict[str, Any]], list[Any]]:
    """The diff of order-a against order-b (where the villages numbered 4 and 5, at 36 and 38,
    swap places in the list), and order-a's villages after event 2."""
    a, b = fixture_log("epoch-boundary-order-a"), fixture_log("epoch-boundary-order-b")
    doc = differ_json(cli, a, b)
    return doc["changes"], Cursor.open(a).document(EVERYTHING, 2)["villages"]


def test_two_logs_diff_no_two_changes_read_the_same(cli: Any, fixture_log: Any) -> None:
    """A text about a village's colours must say which colour changed."""
    changes, _ = village_changes(cli, fixture_log)
    texts = [c["text"] for c in changes]
    assert len(set(texts)) == len(texts), [t for t in texts if texts.count(t) > 1]
    for change in changes:
        path = change["path"].split(".")
        if path[0] == "villages" and len(path) > 3:
            assert path[3] in change["text"], (change["path"], change["text"])


def test_two_logs_diff_names_a_village_by_its_number(cli: Any, fixture_log: Any) -> None:
    """The log calls the village at 36 "village 4"; the diff must not call it village 3. Records
    in the path are keyed by their number too (villages.4.territory)."""
    changes, villages = village_changes(cli, fixture_log)
    numbers = {v["number"] for v in villages}
    seen = False
    for change in changes:
        path = change["path"].split(".")
        if path[0] == "villages" and len(path) > 2:
            number = int(path[1])
            assert number in numbers
            assert (
                f"village {number} " in change["text"] or f"village {number}:" in change["text"]
            ), (
                change["path"],
                change["text"],
            )
            seen = seen or number == 4
    assert seen


def test_a_log_and_its_fork_agree_on_the_shorter(cli: Any, demo_log: Path) -> None:
    fork = demo_log.with_name("fork.tribes")
    cli.ok("fork", demo_log, "--at", 20, "-o", fork)
    out = differ(cli, demo_log, fork)
    assert "19" in out and "goes on" in out
    doc = differ_json(cli, fork, demo_log)
    assert doc["event"] == 20 and doc["state"] is None and doc["changes"] == []


def test_a_log_against_itself_is_the_same_game(cli: Any, demo_log: Path) -> None:
    copy = demo_log.with_name("copy.json")
    cli.ok("export", demo_log, "--json", "-o", copy)
    out = cli.ok("diff", demo_log, copy)
    assert out.strip() == "the logs are the same game: 36 events, same states"
    doc = cli.json("diff", demo_log, copy, "--json")
    assert doc["event"] is None and doc["state"] is None and doc["changes"] == []


def test_logs_with_other_seeds_or_seats_still_diff_sensibly(
    cli: Any, random_game: Any, fixture_log: Any
) -> None:
    a, b = random_game(1, 3), random_game(2, 3)  # same seats, other seeds
    doc = differ_json(cli, a, b)
    assert doc["state"] == 0  # different boards from the start
    assert doc["event"] == 1
    assert doc["changes"]
    assert any(c["text"].startswith("territory ") for c in doc["changes"])
    out = differ(cli, a, b)
    assert "event 1" in out and "after event 0" in out
    # other seats: 3 named seats against 2
    doc = differ_json(cli, fixture_log("full-game-3p"), fixture_log("two-players"))
    assert doc["state"] == 0 and doc["changes"]
    for change in doc["changes"]:
        assert "Traceback" not in change["text"] and change["text"]


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["--at", 0],
        ["--at", DEMO_EVENTS + 1],
        ["--at", -3],
        ["--from", -1],
        ["--from", 0, "--to", DEMO_EVENTS + 1],
        ["--from", 99, "--to", 1],
    ],
)
def test_an_index_out_of_range_is_one_line_and_exit_2(
    cli: Any, demo_log: Path, args: list[Any]
) -> None:
    line = cli.fails("diff", demo_log, *args, code=2)
    assert "out of range" in line


@pytest.mark.parametrize("args", [["--at", "x"], ["--from", "1.5"], ["--bogus"], []])
def test_usage_errors_exit_2(cli: Any, demo_log: Path, args: list[Any]) -> None:
    if args:
        cli.usage("diff", demo_log, *args)
    else:
        cli.usage("diff")


def test_three_logs_or_an_index_with_two_are_usage_errors(cli: Any, demo_log: Path) -> None:
    cli.fails("diff", demo_log, demo_log, demo_log, code=2)
    cli.fails("diff", demo_log, demo_log, "--at", 3, code=2)
    cli.fails("diff", demo_log, demo_log, "--from", 1, "--to", 3, code=2)


def test_damaged_logs_are_one_line_and_exit_1(cli: Any, demo_log: Path, damage: Any) -> None:
    folder = demo_log.parent
    for broken in (
        damage.flip(demo_log, 60),
        damage.cut(demo_log, len(demo_log.read_bytes()) - 2),
        damage.garbage(folder),
        damage.empty(folder),
        damage.bad_json(folder),
        damage.other_version(demo_log),
        damage.other_version_json(demo_log),
        damage.newer_rules(demo_log),
        damage.bad_checkpoint(demo_log),
        damage.illegal_event(demo_log, 9),
        folder / "missing.tribes",
    ):
        cli.fails("diff", broken, "--at", 3)
        cli.fails("diff", broken, "--from", 1, "--to", 2, "--json")


def test_with_two_logs_the_error_names_the_bad_one(cli: Any, demo_log: Path, damage: Any) -> None:
    """With two logs, the one line must say which of them is bad."""
    folder = demo_log.parent
    for broken in (
        damage.flip(demo_log, 60),
        damage.garbage(folder),
        damage.other_version(demo_log),
        damage.bad_checkpoint(demo_log),
        damage.illegal_event(demo_log, 9),
        folder / "missing.tribes",
    ):
        for args in ([demo_log, broken], [broken, demo_log, "--json"]):
            line = cli.fails("diff", *args, code=2)  # trouble, as diff(1) says it
            assert broken.name in line, line


def test_another_format_version_names_the_versions(cli: Any, demo_log: Path, damage: Any) -> None:
    line = cli.fails("diff", damage.other_version(demo_log), "--at", 3)
    assert "version" in line and "2" in line and "1" in line


def test_two_logs_of_different_games_are_one_clear_error(tmp_path: Path) -> None:
    """Bad input: two logs of different games for diff — one line, exit 2 (diff(1)'s
    trouble), no traceback."""
    from click.testing import CliRunner

    from tribes.cli.main import main

    root = Path(__file__).parents[2] / "fixtures"
    result = CliRunner().invoke(
        main,
        [
            "diff",
            str(root / "clans" / "two-players.json"),
            str(root / "iwari" / "full-game-2p.json"),
        ],
    )
    assert result.exit_code == 2
    assert result.output == (
        "tribes: the logs are of different games: clans and iwari; diff compares two logs of one game\n"
    )
