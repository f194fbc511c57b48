"""``act --as SEAT`` and ``TRIBES_SEAT``: two players sharing a log (by mail) cannot move for
each other. A move that is not the seat's to make is refused in one line naming whose turn it is,
and the log is left byte-identical; the seat's own moves go in as ever."""

from __future__ import annotations

from pathlib import Path

import pytest

from tribes.testing.cli import Cli

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _with_env(cli: Cli, **env: str) -> Cli:
    cli.runner.env.update(env)
    return cli


def test_a_move_of_another_seat_is_refused_naming_whose_turn_it_is(cli):
    log = cli.new(names="ann,bob")  # ann moves first
    move = cli.moves(log)[0]
    line = cli.fails_untouched(log, "act", log, "--as", "bob", move)
    assert line == (
        f"tribes: event 1: it is ann's turn, not bob's: '{move}' would be ann's move and you "
        "play as bob"
    )


def test_the_seat_s_own_move_goes_in(cli):
    log = cli.new(names="ann,bob")
    move = cli.moves(log)[0]
    out = cli.ok("act", log, "--as", "ann", move)
    assert out.split()[:3] == ["1", "ann", move]
    assert len(cli.ok("log", log).splitlines()) == 1


def test_tribes_seat_in_the_environment_does_the_same(cli):
    log = cli.new(names="ann,bob")
    _with_env(cli, TRIBES_SEAT="bob")
    move = cli.moves(log)[0]
    line = cli.fails_untouched(log, "act", log, move)
    assert "it is ann's turn, not bob's" in line
    cli.ok("act", log, "--as", "ann", move)  # --as wins over the environment
    assert "bob" in cli.ok("act", log, cli.moves(log)[0])  # now it is bob's turn: his move


def test_a_batch_that_runs_into_the_other_seat_s_turn_appends_nothing(cli):
    log = cli.new(names="ann,bob")
    first = cli.moves(log)[0]
    cli.ok("act", log, first)  # ann's move: bob to move
    cli.ok("act", log, "--as", "bob", cli.moves(log)[0])
    moves = cli.moves(log)  # ann's turn again
    line = cli.fails_untouched(log, "act", log, "--as", "ann", moves[0], "1-2")
    assert line.startswith("tribes: event 4: it is bob's turn, not ann's: '1-2'")


def test_an_unknown_seat_is_a_usage_error_naming_the_seats(cli):
    log = cli.new(names="ann,bob")
    move = cli.moves(log)[0]
    line = cli.fails_untouched(log, "act", log, "--as", "zed", move, code=2)
    assert line == "tribes: --as 'zed' is no seat of this log; its seats: ann, bob"
    _with_env(cli, TRIBES_SEAT="zed")  # (moves too would refuse a seat the log does not have)
    line = cli.fails_untouched(log, "act", log, move, code=2)
    assert line == "tribes: TRIBES_SEAT 'zed' is no seat of this log; its seats: ann, bob"


@pytest.mark.parametrize("where", ["before", "after"])
def test_hunters_moves_with_a_minus_and_as_anywhere(cli, where):
    """Hunters moves may start with a minus (``-1,0N``): --as is still the option, before the
    moves or after them."""
    log = cli.new("h.tribes", game="hunters", names="ann,bob", seed=1)  # ann: -1,0N
    minus = next(m for m in cli.moves(log) if m.startswith("-"))
    args = ["--as", "bob", minus] if where == "before" else [minus, "--as", "bob"]
    line = cli.fails_untouched(log, "act", log, *args)
    assert line.startswith(f"tribes: event 1: it is ann's turn, not bob's: '{minus}'")
    args = ["--as=ann", minus] if where == "before" else [minus, "--as=ann"]
    assert minus in cli.ok("act", log, *args)


def test_a_pending_decision_is_the_decider_s_move(cli):
    """A decision the rules hand to a seat mid-turn (Clans' order of villages, C18) is that
    seat's move: another seat's --as is refused, naming the decider."""
    fixture = FIXTURES / "clans" / "full-game-3p.json"  # its last event: ann orders 2 villages
    cli.ok("import", fixture, "-o", cli.path("full.tribes"))
    log = cli.path("order.tribes")
    cli.ok("fork", cli.path("full.tribes"), "--at", 47, "-o", log)
    moves = cli.json("moves", log, "--json")
    assert moves["to_move"] == "ann" and moves["moves"][0].startswith("order")
    line = cli.fails_untouched(log, "act", log, "--as", "bob", moves["moves"][0])
    assert "it is ann's turn, not bob's" in line
    cli.ok("act", log, "--as", "ann", moves["moves"][0])
