"""The CLI contract, when all is well: every command, exit 0, the documented output."""

from __future__ import annotations

import json
import re

import pytest

from tribes.core.game import EVERYTHING
from tribes.replay import logs
from tribes.testing import Harness

MOVE = re.compile(r"^(\d{1,3}-\d{1,3}|order( \d{1,3})+)$")
STEP_LINE = re.compile(r"^\s*(\d+)  (\S+)\s+(\d{1,3}-\d{1,3}|order(?: \d{1,3})+)(?:\s+(.*))?$")
DOCUMENT_KEYS = {
    "game",
    "events",
    "over",
    "to_move",
    "pending",
    "scores",
    "winners",
    "track",
    "chips",
    "epoch",
    "villages",
    "huts",
    "clans",
}


def parse_steps(output: str) -> list[tuple[int, str, str, str]]:
    steps = []
    for line in output.splitlines():
        match = STEP_LINE.match(line)
        assert match, f"not an 'index seat notation effects' line: {line!r}"
        steps.append((int(match[1]), match[2], match[3], match[4] or ""))
    return steps


# --- new ----------------------------------------------------------------------------------------


def test_new_writes_a_log_and_says_who_moves(cli):
    path = cli.path("g.tribes")
    out = cli.ok("new", "clans", "--names", "ann,bob,cy", "--seed", 7, "-o", path)
    assert path.is_file()
    assert path.read_bytes().startswith(b"\x89TRB")
    who = cli.show_json(path)["to_move"]
    assert who in ("ann", "bob", "cy")
    assert out == f"{path}: new clans game, seed 7, seats ann, bob, cy; {who} to move\n"
    header = logs.open_log(path).log.header
    assert (header.game, header.seed, header.seats) == ("clans", 7, ("ann", "bob", "cy"))
    cli.ok("verify", path)


def test_new_is_deterministic_for_a_seed(cli):
    a = cli.new("a.tribes")
    b = cli.new("b.tribes")
    assert a.read_bytes() == b.read_bytes()
    c = cli.new("c.tribes", seed=8)
    assert cli.ok("show", c, "--at", 0) != cli.ok("show", a, "--at", 0)


def test_new_json_output_is_the_json_form(cli):
    path = cli.new("g.json")
    doc = json.loads(path.read_text())
    assert doc["format"] == "tribes-log"
    assert doc["version"] == 3
    assert doc["header"]["seats"] == ["ann", "bob", "cy"]
    assert doc["header"]["seed"] == 7
    assert doc["events"] == []
    assert cli.moves(path) == cli.moves(cli.new("g.tribes"))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_new_with_seats_names_them_p1_to_pn(cli, seats):
    path = cli.path("s.tribes")
    cli.ok("new", "clans", "--seats", seats, "--seed", 1, "-o", path)
    doc = cli.show_json(path)
    assert list(doc["chips"]) == [f"p{i + 1}" for i in range(seats)]
    assert doc["events"] == 0


def test_new_force_replaces_an_existing_log(cli):
    path = cli.new()
    cli.play(path, 2)
    cli.ok("new", "clans", "--names", "ann,bob,cy", "--seed", 7, "-o", path, "--force")
    assert cli.show_json(path)["events"] == 0


# --- moves, act, log ----------------------------------------------------------------------------


def test_moves_lists_legal_moves_one_per_line_in_notation(cli):
    path = cli.new()
    moves = cli.moves(path)
    for move in moves:
        assert MOVE.match(move), move
    # exactly the library's legal moves, in its order
    opened = logs.open_log(path)
    start = logs.steps_of(opened.game, opened.log)[-1].state
    assert moves == Harness(opened.game).moves(start)
    assert len(set(moves)) == len(moves) > 0


def test_every_listed_move_is_accepted(cli):
    path = cli.new()
    before = path.read_bytes()
    for move in cli.moves(path)[:: max(1, len(cli.moves(path)) // 8)]:
        path.write_bytes(before)
        out = cli.ok("act", path, move)
        assert parse_steps(out)[0][:3] == (1, cli.show_json(path, "--at", 0)["to_move"], move)


def test_act_one_move_prints_its_line_and_appends_it(cli):
    path = cli.new()
    before = path.read_bytes()
    mover = cli.show_json(path)["to_move"]
    move = cli.moves(path)[0]
    out = cli.ok("act", path, move)
    assert parse_steps(out) == [(1, mover, move, "")]
    after = path.read_bytes()
    assert after.startswith(before), "an append only adds bytes after the old ones"
    assert len(after) > len(before)
    assert cli.show_json(path)["events"] == 1


def test_act_several_moves_numbers_them_in_order(cli):
    path = cli.new()
    first = cli.moves(path)[0]
    cli.ok("act", path, first)
    seats = ["ann", "bob", "cy"]
    mover = cli.show_json(path)["to_move"]
    # Play three more moves in one call: pick each as the first legal move of a scratch copy.
    scratch = cli.path("scratch.tribes")
    scratch.write_bytes(path.read_bytes())
    chosen = cli.play(scratch, 3)
    out = cli.ok("act", path, *chosen)
    steps = parse_steps(out)
    assert [s[0] for s in steps] == [2, 3, 4]
    assert [s[2] for s in steps] == chosen
    start = seats.index(mover)
    assert [s[1] for s in steps] == [seats[(start + i) % 3] for i in range(3)]
    assert cli.show_json(path) == cli.show_json(scratch)


def test_act_accepts_the_arrow_form_of_a_move(cli):
    path = cli.new()
    move = cli.moves(path)[0]
    out = cli.ok("act", path, move.replace("-", ">"))
    assert parse_steps(out)[0][2] == move


def test_log_prints_one_line_per_event(cli):
    path = cli.new()
    assert cli.ok("log", path) == ""
    played = cli.play(path, 5)
    steps = parse_steps(cli.ok("log", path))
    assert [s[0] for s in steps] == [1, 2, 3, 4, 5]
    assert [s[2] for s in steps] == played


def test_log_shows_effects_of_a_village(cli, position):
    # 59 and 60 are neighbours and alone on the board: 59-60 founds a village at 60 and ends it.
    path = cli.from_position(position({59: {"red": 1}, 60: {"blue": 1}}))
    cli.ok("act", path, "59-60")
    [(index, seat, move, effects)] = parse_steps(cli.ok("log", path))
    assert (index, seat, move) == (1, "ann", "59-60")
    assert "village 1 at 60" in effects
    assert "game over" in effects


def test_act_on_a_json_log_rewrites_it_and_it_stays_valid(cli):
    path = cli.new("g.json")
    played = cli.play(path, 3)
    doc = json.loads(path.read_text())
    assert len(doc["events"]) == 3
    assert [s[2] for s in parse_steps(cli.ok("log", path))] == played
    assert cli.ok("verify", path).startswith("ok")


# --- show ---------------------------------------------------------------------------------------


def test_show_renders_the_board(cli):
    path = cli.new()
    text = cli.ok("show", path)
    for territory in (1, 30, 60):
        assert re.search(rf"\b{territory}[a-z]", text), territory
    # the board as the game renders it, everything shown
    opened = logs.open_log(path)
    state = logs.steps_of(opened.game, opened.log)[-1].state
    assert text == opened.game.render(state, opened.log.header.seats, EVERYTHING) + "\n"
    assert text.rstrip().endswith(f"{cli.show_json(path)['to_move']} to move")


def test_show_at_zero_is_the_start(cli):
    path = cli.new()
    start = cli.ok("show", path)
    start_json = cli.show_json(path)
    cli.play(path, 3)
    assert cli.ok("show", path, "--at", 0) == start
    assert cli.show_json(path, "--at", 0) == start_json
    assert cli.show_json(path, "--at", 3) == cli.show_json(path)
    assert cli.show_json(path, "--at", 2)["events"] == 2


def test_show_json_has_the_documented_keys(cli):
    path = cli.new()
    doc = cli.show_json(path)
    assert doc.keys() >= DOCUMENT_KEYS
    assert doc["game"] == "clans"
    assert doc["events"] == 0
    assert doc["over"] is False
    assert doc["to_move"] in ("ann", "bob", "cy")
    assert doc["pending"] is None
    assert doc["winners"] == []
    assert set(doc["track"]) == {"red", "yellow", "green", "blue", "black"}
    assert doc["chips"] == {"ann": 0, "bob": 0, "cy": 0}
    assert doc["epoch"] == 1
    assert doc["villages"] == []
    assert sum(sum(c.values()) for c in doc["huts"].values()) == 60


def test_show_as_a_seat_hides_the_other_clans(cli):
    path = cli.new()
    everything = cli.show_json(path, "--as", "all")
    assert set(everything["clans"]) == {"ann", "bob", "cy"}
    assert len(set(everything["clans"].values())) == 3
    assert all(v is not None for v in everything["scores"].values())
    assert cli.show_json(path) == everything, "the default viewer is 'all'"

    ann = cli.show_json(path, "--as", "ann")
    assert ann["clans"] == {"ann": everything["clans"]["ann"]}
    assert ann["scores"]["ann"] == everything["scores"]["ann"]
    assert ann["scores"]["bob"] is None
    assert ann["scores"]["cy"] is None

    spectator = cli.show_json(path, "--as", "spectator")
    assert spectator["clans"] == {}
    assert set(spectator["scores"].values()) == {None}

    # Public facts are the same for every viewer.
    for doc in (ann, spectator):
        for key in ("huts", "track", "chips", "to_move", "epoch", "villages"):
            assert doc[key] == everything[key], key


def test_show_text_as_a_seat_hides_the_other_colours(cli):
    path = cli.new()
    clans = cli.show_json(path)["clans"]
    text_all = cli.ok("show", path, "--as", "all")
    text_ann = cli.ok("show", path, "--as", "ann")
    text_spectator = cli.ok("show", path, "--as", "spectator")

    def status(text: str) -> str:
        return text.split("\n\n", 1)[-1]  # the lines under the board

    for seat, colour in clans.items():
        assert f"{seat} [{colour}]" in status(text_all)
        assert f"{seat} [{colour}]" not in status(text_spectator)
        assert (f"{seat} [{colour}]" in status(text_ann)) == (seat == "ann")


def test_after_the_end_every_clan_is_revealed(cli, position):
    path = cli.from_position(position({59: {"red": 1}, 60: {"blue": 1}}))
    cli.ok("act", path, "59-60")
    doc = cli.show_json(path, "--as", "spectator")
    assert doc["over"] is True
    assert doc["to_move"] is None
    assert doc["clans"] == {"ann": "red", "bob": "blue"}
    assert doc["scores"] == {"ann": 3, "bob": 2}
    assert doc["winners"] == ["ann"]
    assert cli.moves(path) == []


# --- verify -------------------------------------------------------------------------------------


def test_verify_one_log(cli):
    path = cli.new()
    cli.play(path, 4)
    out = cli.ok("verify", path)
    assert out.startswith("ok")
    assert str(path) in out
    assert "4 events" in out
    assert "failed" not in out, "one file: no summary line"


def test_verify_many_logs_prints_a_summary(cli):
    paths = [cli.new(f"g{i}.tribes", seed=i) for i in range(3)]
    cli.play(paths[1], 2)
    paths.append(cli.new("g.json"))
    lines = cli.ok("verify", *paths).splitlines()
    assert lines[-1] == "4 ok, 0 failed"
    assert all(line.startswith("ok") for line in lines[:-1])


def test_verify_fails_with_1_if_any_log_fails(cli):
    good = cli.new()
    bad = cli.path("bad.tribes")
    bad.write_bytes(good.read_bytes()[:-3])
    result = cli.run("verify", good, bad, good)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[-1] == "2 ok, 1 failed"
    assert lines[0].startswith("ok")
    assert lines[1].startswith("FAIL") and "bad.tribes" in lines[1] and "truncated" in lines[1]


def test_verify_a_single_failing_log_exits_1(cli):
    bad = cli.path("bad.tribes")
    bad.write_bytes(b"\x89TRB")
    result = cli.run("verify", bad)
    assert result.exit_code == 1
    assert "bad.tribes" in result.stdout + result.stderr


# --- export, import -----------------------------------------------------------------------------


def test_export_then_import_is_byte_identical(cli):
    original = cli.new()
    cli.play(original, 3)
    cli.play(original, 1)
    exported = cli.ok("export", original, "--json")
    json_path = cli.path("g.json")
    json_path.write_text(exported)
    doc = json.loads(exported)
    assert len(doc["events"]) == 4
    back = cli.path("back.tribes")
    out = cli.ok("import", json_path, "-o", back)
    assert "4 events" in out
    assert back.read_bytes() == original.read_bytes()


def test_export_import_round_trip_of_a_whole_game(cli, tmp_path):
    save = tmp_path / "sims"
    cli.ok("simulate", "clans", "--games", 2, "--seed", 11, "--bot", "greedy", "--save", save)
    for original in sorted(save.glob("*.tribes")):
        json_path = tmp_path / f"{original.stem}.json"
        json_path.write_text(cli.ok("export", original, "--json"))
        back = tmp_path / f"{original.stem}.back.tribes"
        cli.ok("import", json_path, "-o", back)
        assert back.read_bytes() == original.read_bytes()


def test_export_to_a_file_writes_the_json_form(cli):
    original = cli.new()
    cli.play(original, 2)
    out = cli.path("out.json")
    cli.ok("export", original, "--json", "-o", out)
    assert out.read_text() == cli.ok("export", original, "--json")


def test_import_of_a_hand_written_scenario_in_notation(cli):
    original = cli.new()
    played = cli.play(original, 3)
    doc = json.loads(cli.ok("export", original, "--json"))
    doc["events"] = played
    for key in ("checkpoints", "commits", "digest"):  # a scenario: nothing to check it by
        del doc[key]
    scenario = cli.path("scenario.json")
    scenario.write_text(json.dumps(doc))
    back = cli.path("back.tribes")
    cli.ok("import", scenario, "-o", back)
    assert cli.show_json(back) == cli.show_json(original)
    cli.ok("verify", back)


# --- simulate, demo -----------------------------------------------------------------------------


def test_simulate_prints_a_summary(cli):
    out = cli.ok("simulate", "clans", "--games", 5, "--seed", 3)
    lines = out.splitlines()
    assert re.match(r"^5 games, 3 seats, [\d.]+ events a game, best score \d+$", lines[0])
    seat_lines = [line for line in lines if re.match(r"^\s+p\d: wins ", line)]
    assert len(seat_lines) == 3
    wins = sum(float(re.search(r"wins ([\d.]+)", line)[1]) for line in seat_lines)
    assert wins == pytest.approx(5)
    assert re.match(r"^\d+ games/s$", lines[-1])


def test_simulate_is_deterministic_for_a_seed(cli):
    a = cli.ok("simulate", "clans", "--games", 4, "--seed", 3).splitlines()[:-1]
    b = cli.ok("simulate", "clans", "--games", 4, "--seed", 3).splitlines()[:-1]
    assert a == b


def test_simulate_greedy_saves_logs_that_verify(cli, tmp_path):
    save = tmp_path / "saved"
    out = cli.ok("simulate", "clans", "--games", 3, "--seed", 3, "--bot", "greedy", "--save", save)
    assert out.startswith("3 games")
    saved = sorted(save.glob("*.tribes"))
    assert len(saved) == 3
    lines = cli.ok("verify", *saved).splitlines()
    assert lines[-1] == "3 ok, 0 failed"
    assert all(", over," in line for line in lines[:-1])


def test_simulate_with_four_seats(cli, tmp_path):
    folder = tmp_path / "runs"
    out = cli.ok("simulate", "clans", "--games", 2, "--seed", 1, "--seats", 4, "--save", folder)
    lines = out.splitlines()
    unsaved = cli.ok("simulate", "clans", "--games", 2, "--seed", 1, "--seats", 4).splitlines()
    assert unsaved[:5] == lines[:5]  # the same games, saved or not (the speed line aside)
    # the summary is of the games played: four seats, their events and final scores
    opened = [logs.open_log(p) for p in sorted(folder.glob("*.tribes"))]
    assert [o.log.header.seats for o in opened] == [("p1", "p2", "p3", "p4")] * 2
    events = sum(len(o.log.events) for o in opened) / 2
    assert lines[0].startswith(f"2 games, 4 seats, {events:.1f} events a game, best score ")
    finals = [o.game.outcome(logs.steps_of(o.game, o.log)[-1].state).scores for o in opened]
    assert lines[0].endswith(f"best score {max(max(f) for f in finals)}")
    for seat, line in enumerate(lines[1:5]):
        mean = sum(f[seat] for f in finals) / 2
        assert line.startswith(f"  p{seat + 1}: wins "), line
        assert line.endswith(f"mean score {mean:.1f}"), line


def test_demo_shows_the_twelfth_and_thirteenth_village(cli, tmp_path):
    folder = tmp_path / "demo"
    out = cli.ok("demo", "-o", folder)
    finish = [line for line in out.splitlines() if "village 12 " in line and "village 13 " in line]
    assert finish, "the demo's last move founds the 12th and the 13th village"
    assert "beyond the 12th" in finish[0]
    log = folder / "demo.tribes"
    assert log.is_file()
    verified = cli.ok("verify", log)
    assert verified.startswith("ok") and ", over," in verified
    assert cli.show_json(log)["over"] is True
