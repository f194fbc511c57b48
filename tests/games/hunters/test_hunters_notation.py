"""Hunters and Gatherers notation (contract): ``X,YR`` and ``X,YR+KF``; parse(format(e)) == e."""

from __future__ import annotations

import pytest
from hunters_helpers import fmt, legal, parse, play, position, start
from hypothesis import given, settings
from hypothesis import strategies as st

from tribes.core.errors import BadNotation
from tribes.games.hunters import notation
from tribes.games.hunters.events import TilePlaced

EXAMPLES = ["1,0N", "0,-1E", "-2,3W", "1,0N+g3", "0,1S+f1", "0,-1E+h0", "2,0W+hut8"]


@pytest.fixture
def state():
    return start(seed=4)


@pytest.mark.parametrize("text", EXAMPLES)
def test_the_documented_examples_parse_and_format_back(state, text):
    assert fmt(parse(state, text)) == text


@pytest.mark.parametrize(
    ("text", "x", "y", "rotation", "piece", "feature"),
    [
        ("1,0N", 1, 0, 0, None, None),
        ("0,-1E", 0, -1, 1, None, None),
        ("-2,3W", -2, 3, 3, None, None),
        ("5,5S", 5, 5, 2, None, None),
        ("1,0N+g3", 1, 0, 0, "gatherer", 3),
        ("0,1S+f1", 0, 1, 2, "fisher", 1),
        ("0,-1E+h0", 0, -1, 1, "hunter", 0),
        ("2,0W+hut8", 2, 0, 3, "hut", 8),
    ],
)
def test_the_event_holds_what_the_text_says(state, text, x, y, rotation, piece, feature):
    ev = parse(state, text)
    assert (ev.x, ev.y, ev.rotation) == (x, y, rotation)
    assert (getattr(ev.piece, "value", ev.piece), ev.feature) == (piece, feature)
    assert type(ev).__name__ == "TilePlaced"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("1,0n", "1,0N"),
        ("0,-1e+g3", "0,-1E+g3"),
        ("1,0N+gatherer3", "1,0N+g3"),
        ("0,1S+fisher1", "0,1S+f1"),
        ("0,-1E+hunter0", "0,-1E+h0"),
        ("2,0w+hut8", "2,0W+hut8"),
    ],
)
def test_lowercase_rotations_and_full_words_are_read(state, text, canonical):
    assert fmt(parse(state, text)) == canonical


@pytest.mark.parametrize(
    "text",
    ["", "1,0", "1,0X", "1;0N", "a,bN", "1,0N+", "1,0N+g", "1,0N+x3", "1,0N+g3+h2", "1,0 N", "N"],
)
def test_bad_text_is_bad_notation_saying_what_is_expected(state, text):
    with pytest.raises(BadNotation) as info:
        parse(state, text)
    assert "a Hunters and Gatherers move is X,YR" in info.value.message


def test_every_legal_move_round_trips(state):
    moves = legal(state)
    assert moves
    for text in moves:
        ev = parse(state, text)
        assert fmt(ev) == text
        assert parse(state, fmt(ev)) == ev


def test_round_trip_during_a_pending_bonus_tile():
    state = start(position([(0, 0, 35, 0), (1, 0, 38, 0)], stack=[34, 62], bonus=[81]))
    state, _ = play(state, "2,0N")
    for text in legal(state):
        assert fmt(parse(state, text)) == text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789,-+NESWnesw ghfutaeirx", max_size=14))
def test_any_text_parses_to_a_round_trip_or_is_bad_notation(text):
    state = start(seed=4)
    try:
        ev = parse(state, text)
    except BadNotation:
        return
    assert parse(state, fmt(ev)) == ev


@pytest.mark.parametrize(
    ("text", "event"),
    [
        ("1,0N", TilePlaced(x=1, y=0, rotation=0)),
        ("0,-1E", TilePlaced(x=0, y=-1, rotation=1)),
        ("-2,3W", TilePlaced(x=-2, y=3, rotation=3)),
        ("1,0N+g3", TilePlaced(x=1, y=0, rotation=0, piece="gatherer", feature=3)),
        ("0,1S+f1", TilePlaced(x=0, y=1, rotation=2, piece="fisher", feature=1)),
        ("0,-1E+h0", TilePlaced(x=0, y=-1, rotation=1, piece="hunter", feature=0)),
        ("2,0W+hut8", TilePlaced(x=2, y=0, rotation=3, piece="hut", feature=8)),
    ],
)
def test_engine_notation_round_trip(text: str, event: TilePlaced) -> None:
    assert notation.parse(text) == event
    assert notation.format(event) == text


def test_engine_notation_reads_lower_case_and_whole_words() -> None:
    assert notation.parse("1,0n+gatherer3") == notation.parse("1,0N+g3")
    assert notation.parse("2,0w+hunter0") == notation.parse("2,0W+h0")
    assert notation.parse("2,0S+fisher1") == notation.parse("2,0S+f1")


@pytest.mark.parametrize("text", ["", "1,0", "1,0X", "1;0N", "1,0N+x3", "1,0N+g", "1,0 N", "a,bN"])
def test_engine_bad_notation_says_what_is_expected(text: str) -> None:
    with pytest.raises(BadNotation) as error:
        notation.parse(text)
    assert "X,YR with R one of N E S W" in error.value.message


def test_the_legal_moves_text_is_each_moves_format_at_every_turn_of_random_games():
    """``legal`` of ``log --json --states`` is made from a placement's and a piece's parts
    without making each move's event; it is every move's ``format``, in order, at every turn."""
    from tribes import games
    from tribes.core.prng import Stream
    from tribes.core.views import legal_notation
    from tribes.replay import logs

    game = games.get("hunters")
    for seed in range(1, 7):
        names = ("ann", "bob", "cy", "di", "ed")[: 2 + seed % 4]
        state = game.setup(logs.header(game, seats=names, seed=seed))
        draws = Stream(seed, "test-moves")
        while moves := game.legal_moves(state):
            assert legal_notation(game, state) == [notation.format(m) for m in moves]
            state, _ = game.apply(state, moves[draws.below(len(moves))])


def test_a_game_that_writes_moves_its_own_way_gets_its_own_text():
    """A plugin deriving from Hunters with a notation of its own: its ``format_move`` writes
    every legal move (the parts of Hunters' notation are used only for Hunters' own)."""
    from tribes import games
    from tribes.core.views import legal_notation
    from tribes.replay import logs

    hunters = games.get("hunters")

    class Loud(type(hunters)):
        def format_move(self, event):
            return notation.format(event).lower() + "!"

    loud = Loud()
    state = loud.setup(logs.header(hunters, seats=("ann", "bob"), seed=3))
    expected = [notation.format(m).lower() + "!" for m in loud.legal_moves(state)]
    assert legal_notation(loud, state) == expected
    assert legal_notation(hunters, state) == [notation.format(m) for m in loud.legal_moves(state)]
