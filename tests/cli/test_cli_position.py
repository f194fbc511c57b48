"""``tribes position LOG [--at N] [-o FILE]``: the position file of any state, which
``tribes new GAME --position FILE --seed S`` turns back into a game in that state — the same
``show --json`` (bar the log's own fields: events, tags, note) and the same legal moves, for
every registered game, at every step of every fixture, pending decisions and ends included."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tribes import games
from tribes.core import views
from tribes.events import codec
from tribes.replay import logs
from tribes.testing.cli import Cli

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "fixtures").rglob("*.json"))
LOG_FIELDS = ("events", "tags", "note")
"""What ``show --json`` says of the log, not of the state: no position can know them."""


def state_document(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k not in LOG_FIELDS}


def round_trip(cli: Cli, log: Path, at: int, game: str, *seats: str) -> Path:
    """``position --at`` then ``new --position`` (another seed, as a user would): the new log,
    its state as the original's for every viewer."""
    pos = cli.path(f"{log.stem}-{at}.position.json")
    cli.ok("position", log, "--at", at, "-o", pos, "--force")
    again = cli.path(f"{log.stem}-{at}.tribes")
    cli.ok("new", game, "--position", pos, "--seed", 99, "-o", again, "--force")
    for who in ("all", "spectator", *seats):
        before = cli.show_json(log, "--at", at, "--as", who)
        assert state_document(cli.show_json(again, "--as", who)) == state_document(before)
    assert cli.moves(again) == cli.ok("moves", log, "--at", at).splitlines()
    return pos


def test_the_reachable_hunters_state_of_the_issue_is_a_position(cli: Cli) -> None:
    """Issue 17: game 2 of this run, after event 35, has 3 huts in one river system and hunters
    of both seats in one meadow, joined after they were placed: a state play reaches, so a
    position (H6 limits where a piece is placed, not what a joined feature holds)."""
    cli.ok(
        "simulate", "hunters", "--games", 10, "--seed", 82, "--seats", 2, "--bot", "greedy",
        "--save", cli.path("D"),
    )  # fmt: skip
    log = sorted(cli.path("D").iterdir())[1]
    shown = cli.show_json(log, "--at", 35)
    systems = [f for f in shown["features"] if f["type"] == "system"]
    meadows = [f for f in shown["features"] if f["type"] == "meadow"]
    assert max(sum(f["pieces"].values()) for f in systems) == 3
    assert any(len(f["pieces"]) == 2 for f in meadows)
    pos = round_trip(cli, log, 35, "hunters", "p1", "p2")
    assert len(json.loads(pos.read_text())["pieces"]) == len(shown["pieces"])


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_state_of_every_fixture_is_a_position(fixture: Path) -> None:
    """Every step of every fixture log: its position, set up with the log's options and another
    seed, has the same document for every viewer and the same legal moves; with the log's seed
    it is the very state."""
    opened = logs.open_log(fixture)
    game, head = opened.game, opened.log.header
    seats = list(head.seats)
    for step in logs.steps_of(game, opened.log):
        position = codec.from_json(codec.to_json(game.position(step.state, seats)))
        for seed in (head.seed, head.seed ^ 1):
            again = game.setup(attrs.evolve(head, seed=seed, position=position))
            if seed == head.seed:
                assert again == step.state, step.index
            for viewer in ("all", None, *range(len(seats))):
                assert views.document(game, again, seats, viewer) == views.document(
                    game, step.state, seats, viewer
                ), (step.index, viewer)
            assert list(map(game.format_move, game.legal_moves(again))) == list(
                map(game.format_move, game.legal_moves(step.state))
            ), step.index


def test_the_fixtures_hold_every_kind_of_position() -> None:
    """The fixtures reach what positions had to learn: a pending order, a finished Clans game,
    an Iwari feat, third-tribe step and half-journey due, a pending Hunters bonus tile."""
    found: set[str] = set()
    for fixture in FIXTURES:
        opened = logs.open_log(fixture)
        game = opened.game
        for step in logs.steps_of(game, opened.log):
            pos = game.position(step.state, opened.log.header.seats)
            pending = game.pending(step.state)
            found.add(f"{game.name}:{pending.decision if pending else 'turn'}")
            if game.is_over(step.state):
                found.add(f"{game.name}:over")
            if pos.get("half_journey_scored") is False and pos.get("deck_outs") == 1:
                found.add("iwari:half-journey due")
    assert {
        "clans:order",
        "clans:over",
        "iwari:feat",
        "iwari:third",
        "iwari:refill",
        "iwari:half-journey due",
        "iwari:over",
        "hunters:bonus",
        "hunters:over",
    } <= found


def test_a_pending_order_is_part_of_the_position(cli: Cli) -> None:
    cli.ok("demo", "-o", cli.path("out"))
    log = cli.path("out") / "demo.tribes"
    pos = json.loads(cli.ok("position", log, "--at", 35))
    assert pos["order"] == [19, 35]
    assert len(pos["villages"]) == 11
    round_trip(cli, log, 35, "clans", "ann", "bob", "cy")
    end = json.loads(cli.ok("position", log))  # the finished game: 12 chips, 13 villages
    assert sum(end["chips"].values()) == 12 and len(end["villages"]) == 13
    round_trip(cli, log, 36, "clans", "ann", "bob", "cy")


def test_show_json_is_no_position_and_the_error_says_what_writes_one(cli: Cli) -> None:
    for game in games.BUILT_IN:  # the games with a position form
        log = cli.new(f"{game}.tribes", game=game, names="ann,bob")
        doc = cli.path(f"{game}.show.json")
        doc.write_text(cli.ok("show", log, "--json"))
        line = cli.fails("new", game, "--position", doc, "-o", cli.path(f"{game}-again.tribes"))
        assert "unknown position key" in line
        assert "show --json" in line and "tribes position LOG" in line


def test_a_log_or_corpus_given_as_a_position_is_told_what_writes_one(cli: Cli) -> None:
    """A log or corpus for --position (as a user tries the log a hunt wrote): one line saying
    what the file is and the command that writes a position, never a decoding error."""
    log = cli.new("game.tribes")
    cli.ok("act", log, "1-2")
    as_json = cli.path("game.json")
    as_json.write_text(cli.ok("export", log, "--json"))
    runs = cli.path("runs.corpus")
    cli.ok("simulate", "clans", "--games", 1, "--seed", 2, "--save", runs)
    for source in (log, as_json):
        for command in (("new", "clans", "-o", cli.path("new.tribes")), ("hunt", "clans")):
            until = ("--until", "over") if command[0] == "hunt" else ()
            assert cli.fails(*command, "--position", source, *until) == (
                f"tribes: position {source} is a tribes log, not a position file: "
                f"'tribes position {source} --at N -o FILE' writes the position after event N"
            )
    assert cli.fails("new", "clans", "--position", runs, "-o", cli.path("new.tribes")) == (
        f"tribes: position {runs} is a tribes corpus, not a position file: "
        f"'tribes position {runs}#K --at N -o FILE' writes the position after event N"
    )
    assert not cli.path("new.tribes").exists()


def test_a_position_carries_its_options(cli: Cli) -> None:
    """An Iwari game with feats and a variant: its position says so, new takes the options from
    it, and a game with other options refuses it in one line."""
    log = cli.new(
        "v.tribes", "--option", "feats=on", "--option", "variant=long-road", game="iwari",
        names="ann,bob",
    )  # fmt: skip
    cli.play(log, 4)
    pos = json.loads(cli.ok("position", log))
    assert pos["options"] == {"feats": "on", "variant": "long-road"}
    assert "feats" in pos
    round_trip(cli, log, 4, "iwari", "ann", "bob")
    cli.path("p.json").write_text(json.dumps(pos))
    line = cli.fails(
        "new", "iwari", "--position", cli.path("p.json"), "--option", "feats=off",
        "-o", cli.path("w.tribes"),
    )  # fmt: skip
    assert "the position is of a game with option feats=on" in line


def test_position_output_forms(cli: Cli) -> None:
    log = cli.new("g.tribes")
    cli.play(log, 3)
    printed = json.loads(cli.ok("position", log, "--at", 2))
    assert printed["seats"] == ["ann", "bob", "cy"]
    said = cli.ok("position", log, "--at", 2, "-o", cli.path("p.json"))
    assert "tribes new clans --position" in said and "--seed 7" in said
    assert json.loads(cli.path("p.json").read_text()) == printed
    report = cli.json("position", log, "--at", 2, "--json")
    assert report["position"] == printed
    assert (report["game"], report["events"], report["seed"]) == ("clans", 2, 7)
    assert "exists" in cli.fails("position", log, "-o", cli.path("p.json"), code=2)
    assert "out of range" in cli.fails("position", log, "--at", 9, code=2)
    assert "none.tribes" in cli.fails("position", cli.path("none.tribes"))


def test_a_position_file_reads_as_lines_a_person_can_edit(cli: Cli) -> None:
    """Short lists and objects of plain values (a territory's huts, a hand, the seats) stay on
    one line; the whole is the same JSON as the one-value-a-line form."""
    log = cli.new("g.tribes")
    cli.play(log, 3)
    text = cli.ok("position", log)
    assert '  "seats": ["ann", "bob", "cy"],' in text.splitlines()
    assert len(text.splitlines()) < len(codec.to_json(json.loads(text)).splitlines()) / 2
    assert max(len(line) for line in text.splitlines()) <= 96


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=5), inner),
        max_leaves=30,
    )
)
def test_readable_json_is_the_same_json(value: Any) -> None:
    text = codec.to_readable_json(value, width=20)
    assert json.loads(text) == json.loads(codec.to_json(value))
    for line in text.splitlines():
        stripped = line.strip().rstrip(",")
        if len(line) > 20 and stripped[:1] in "[{":
            assert any(isinstance(v, list | dict) for v in _items(json.loads(stripped)))


def _items(value: Any) -> list[Any]:
    return list(value.values()) if isinstance(value, dict) else list(value)


def test_position_of_a_corpus_game(cli: Cli) -> None:
    cli.ok("simulate", "clans", "--games", 3, "--seed", 4, "--save", cli.path("r.corpus"))
    pos = json.loads(cli.ok("position", f"{cli.path('r.corpus')}#2", "--at", 5))
    assert set(pos) >= {"seats", "huts", "clans", "to_move"}
    whole = cli.path("r.corpus")
    for command in ("position", "show", "log"):
        assert cli.fails(command, whole, code=2) == (
            f"tribes: {whole} is a corpus of many games and this command reads one: name it as "
            f"{whole}#K (K from 1; 'tribes corpus ls {whole}' lists them)"
        )


def test_a_game_on_its_own_board_is_told_to_give_new_the_board(cli: Cli) -> None:
    board = ROOT / "games" / "clans" / "data" / "board.json"
    log = cli.new("b.tribes", "--option", f"board={board}")
    result = cli.run("position", log, "-o", cli.path("p.json"))
    assert result.exit_code == 0
    assert f"--option board={board}" in result.stderr


def test_old_positions_are_read_as_before() -> None:
    """Every fixture that starts from a position still replays to the states its checkpoints and
    commits pin (the state hash; the golden playthroughs pin every step's, the start's too)."""
    started = [f for f in FIXTURES if '"position"' in f.read_text()]
    assert len(started) >= 30
    for fixture in started:
        opened = logs.open_log(fixture)
        assert opened.log.checkpoints or not opened.log.events
        logs.steps_of(opened.game, opened.log, verify=True, path=str(fixture))


def test_a_position_naming_an_option_no_game_has_is_a_file_error(cli: Cli) -> None:
    log = cli.new("g.tribes", game="iwari", names="ann,bob")
    pos = json.loads(cli.ok("position", log))
    cli.path("p.json").write_text(json.dumps({**pos, "options": {"colour": "red"}}))
    line = cli.fails("new", "iwari", "--position", cli.path("p.json"), "-o", cli.path("n.tribes"))
    assert "position options: iwari takes no option 'colour'" in line
    cli.path("q.json").write_text(json.dumps({**pos, "options": ["feats"]}))
    line = cli.fails("new", "iwari", "--position", cli.path("q.json"), "-o", cli.path("n.tribes"))
    assert "'options' must map option names to values" in line


def test_a_position_with_options_on_a_map_of_its_own(cli: Cli) -> None:
    """The map is no part of the position (it names a file): give new the same --option."""
    game_map = ROOT / "games" / "iwari" / "data" / "map.json"
    log = cli.new("m.tribes", "--option", f"map={game_map}", "--option", "feats=on", game="iwari")
    cli.play(log, 2)
    pos = cli.path("p.json")
    result = cli.run("position", log, "-o", pos)
    assert result.exit_code == 0 and f"--option map={game_map}" in result.stderr
    assert "map" not in json.loads(pos.read_text())["options"]
    again = cli.path("again.tribes")
    cli.ok("new", "iwari", "--position", pos, "--option", f"map={game_map}", "-o", again)
    assert state_document(cli.show_json(again)) == state_document(cli.show_json(log))


@pytest.mark.parametrize("game", ["clans", "hunters"])
def test_the_position_examples_of_the_docs_start_games(cli: Cli, game: str) -> None:
    """The JSON example of each guide's "Position files" section is a valid position, read as
    it always was (no optional key needed), and its position again gives the same game."""
    import re

    page = (ROOT / "docs" / "games" / f"{game}.md").read_text()
    section = page[page.index("## Position files") :]
    example = re.search(r"^```json\n(.*?)^```", section, re.DOTALL | re.MULTILINE)
    assert example is not None
    cli.path("example.json").write_text(example[1])
    log = cli.path(f"{game}-example.tribes")
    cli.ok("new", game, "--position", cli.path("example.json"), "--seed", 5, "-o", log)
    round_trip(cli, log, 0, game, *json.loads(example[1])["seats"])
