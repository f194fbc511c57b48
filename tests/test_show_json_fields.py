"""``show --json`` holds what scripts asked for: the seats in order, why the game ended, doomed
villages, Iwari's feats by seat and whether half-journey scoring has happened."""

from __future__ import annotations

import json
from pathlib import Path

from tribes.core import views
from tribes.replay import logs

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def documents(path: Path) -> list[dict]:
    opened = logs.open_log(path)
    steps = logs.steps_of(opened.game, opened.log)
    head = opened.log.header
    return [views.step_document(opened.game, head, s.index, s.state, "all") for s in steps]


def test_seats_in_seat_order_and_the_common_keys():
    for path in sorted(FIXTURES.glob("*/*.json")):
        doc = documents(path)[0]
        assert doc["seats"] == list(logs.open_log(path).log.header.seats)
        assert set(views.COMMON_KEYS) <= set(doc)


def test_why_a_game_ended():
    twelfth = documents(FIXTURES / "clans" / "twelfth-and-thirteenth.json")
    assert twelfth[0]["ended"] is None
    assert twelfth[-1]["over"] and twelfth[-1]["ended"] == "the 12th village is founded"
    stuck = documents(FIXTURES / "clans" / "no-legal-move.json")[-1]
    assert stuck["ended"] == "no legal move is left"
    tents = documents(FIXTURES / "iwari" / "end-by-last-tent-mid-round.json")[-1]
    assert tents["ended"] == "a tribe has placed its last tent"


def test_a_doomed_village_is_flagged():
    docs = documents(FIXTURES / "clans" / "doomed-with-strife.json")
    villages = docs[-1]["villages"]
    assert any(v["doomed"] and v["value"] == 0 for v in villages)
    assert all(v["value"] is None or v["value"] > 0 or v["doomed"] for v in villages)


def test_iwari_feats_by_seat_and_half_journey():
    docs = documents(FIXTURES / "iwari" / "feat-union-first-and-second.json")
    earned = docs[-1]["feats"]["earned"]
    assert set(earned) == set(docs[-1]["seats"])
    assert sorted(k for kinds in earned.values() for k in kinds).count("union") >= 1
    refill = documents(FIXTURES / "iwari" / "deck-out-mid-refill.json")
    # the deck runs out during a refill (deck_outs 1) and the half-journey scores only after it
    marks = [(d["deck_outs"], d["half_journey_scored"]) for d in refill]
    assert marks[0] == (0, False)
    assert (1, False) in marks and marks[-1] == (1, True)
    assert marks.index((1, True)) == marks.index((1, False)) + 1


def test_a_spectator_cannot_read_a_hand_from_the_third_tribes_options(cli):
    """I22: the third tribe's plays are paid from the deciding player's hand, so its options
    tell that hand: only that player (and a viewer of everything) sees them."""
    path = FIXTURES / "iwari" / "full-game-2p.json"
    opened = logs.open_log(path)
    steps = logs.steps_of(opened.game, opened.log)
    head = opened.log.header
    third = next(s for s in steps if opened.game.pending(s.state) is not None)
    decider = opened.game.pending(third.state).seat
    other = 1 - decider
    for viewer, sees in ((None, False), (other, False), (decider, True), ("all", True)):
        doc = views.step_document(opened.game, head, third.index, third.state, viewer)
        assert (doc["pending"]["options"] is not None) == sees, viewer
    at = str(third.index)
    spectator = json.loads(cli.ok("show", str(path), "--json", "--at", at, "--as", "spectator"))
    assert spectator["pending"]["options"] is None
    lines = cli.ok("log", str(path), "--json", "--states", "--as", "spectator").splitlines()
    record = json.loads(lines[third.index])
    assert record["legal"] is None and record["state"]["pending"]["options"] is None
    clans = json.loads(
        cli.ok(
            "log",
            str(FIXTURES / "clans" / "two-players.json"),
            "--json",
            "--states",
            "--as",
            "spectator",
        ).splitlines()[0]
    )
    assert clans["legal"]  # Clans' moves give nothing away
