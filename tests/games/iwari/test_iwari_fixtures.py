"""Each Iwari edge-case fixture shows the case of games/iwari/rules.md ("Edge cases that want a fixture
log each") it is named for: exact points, steps and pieces, read from the replayed effects.

The golden transcripts of the same logs are pinned by tests/test_playthroughs.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest

from tribes.core.engine import Step
from tribes.core.errors import IllegalMove
from tribes.games.iwari import scoring
from tribes.games.iwari.board import Terrain
from tribes.games.iwari.events import (
    CardDrawn,
    CardsPlayed,
    CardTaken,
    ConnectionScored,
    DeckRanOut,
    DeckReshuffled,
    EndTriggered,
    FeatEarned,
    FeatPlaced,
    GameEnded,
    PiecesPlaced,
    ScoringBegan,
    SettlementScored,
    TerritoryScored,
    ThirdTribePassed,
    ThirdTribePlayed,
)
from tribes.games.iwari.missions import majority_links
from tribes.games.iwari.state import FEAT_KINDS, Phase
from tribes.replay.logs import Opened
from tribes.testing import Harness, effects_of, replay_log

ROOT = Path(__file__).resolve().parents[3]
IWARI = ROOT / "fixtures" / "iwari"

EDGE_CASES = [
    "tent-ties-first-and-second",
    "totem-limit-opened-by-tent",
    "pair-as-wild",
    "deck-out-mid-refill",
    "end-by-last-tent-mid-round",
    "third-tribe-one-and-two-leftover",
    "settlement-across-border",
    "covered-connection-skipped",
    "feat-union-first-and-second",
    "feat-discovery-first-and-second",
    "feat-honour-first",
    "feat-respect-first",
    "variant-floating-lands",
    "variant-glacial-mass",
    "variant-long-road",
]

ANN, BOB, CY, DEE = 0, 1, 2, 3
THIRD = 2
"""The neutral third tribe's index in a 2-player game."""
T, F, G, C, D = Terrain.TUNDRA, Terrain.FOREST, Terrain.GLACIER, Terrain.COAST, Terrain.DESERT


def _replay(name: str) -> tuple[Opened, list[Step]]:
    return replay_log(IWARI / f"{name}.json")


def _steps_with(steps: list[Step], kind: type) -> list[int]:
    return [s.index for s in steps if effects_of(s.effects, kind)]


def _legal(opened: Opened, state: Any) -> list[str]:
    return Harness(opened.game).moves(state)


def _without_variants(opened: Opened) -> tuple[Any, list[Any]]:
    """The same position and events on the standard map: the final state and every effect."""
    header = attrs.evolve(opened.log.header, options={})
    state = opened.game.setup(header)
    effects: list[Any] = []
    for event in opened.log.events:
        state, more = opened.game.apply(state, event)
        effects.extend(more)
    return state, effects


def _ended(steps: list[Step]) -> GameEnded:
    (ended,) = effects_of(steps, GameEnded)
    assert _steps_with(steps, GameEnded) == [len(steps) - 1]
    assert steps[-1].state.over
    return ended


@pytest.mark.parametrize("name", EDGE_CASES)
def test_every_edge_case_has_a_fixture_started_from_a_position(name: str) -> None:
    opened, steps = _replay(name)
    assert opened.log.header.game == "iwari"
    assert opened.log.header.position is not None
    assert opened.log.header.meta["case"].startswith("I")
    assert len(steps) == len(opened.log.events) + 1


# --- I12: ties at first and second place ----------------------------------------------------------


def test_tent_ties_first_and_second() -> None:
    _, steps = _replay("tent-ties-first-and-second")
    start = steps[0].state
    assert start.players == 4
    assert start.tents_in(5) == [1, 2, 1, 1]
    assert steps[1].effects == (PiecesPlaced(tribe=ANN, territory=5, tents=(17,), totems=0),)
    assert steps[1].state.tents_in(5) == [2, 2, 1, 1]
    # The draw empties the deck: half-journey scoring, tents only (I13).
    last = steps[2]
    assert isinstance(last.event, CardDrawn)
    assert effects_of(last.effects, DeckRanOut) == [DeckRanOut(time=1)]
    assert effects_of(last.effects, ScoringBegan) == [ScoringBegan(stage="half-journey")]
    assert effects_of(last.effects, TerritoryScored) == [
        # ann 2, bob 2 share first: every tent (6); cy 1, dee 1 share second: 2 each.
        TerritoryScored(territory=5, points=(6, 6, 2, 2)),
        # ann 3 first; cy 1, dee 1 share second: ann's 3 each; bob has no tent: 0.
        TerritoryScored(territory=11, points=(5, 0, 3, 3)),
    ]
    assert not effects_of(last.effects, ConnectionScored)
    assert not effects_of(last.effects, SettlementScored)
    assert last.state.scores == (5 + 6 + 5, 4 + 6, 3 + 2 + 3, 2 + 2 + 3)
    assert not last.state.over
    assert scoring.tent_points([2, 2, 1, 1]) == [6, 6, 2, 2]


# --- I8 ruling: a tent opens room for a totem in the same play ------------------------------------


def test_totem_limit_opened_by_tent_placed_first() -> None:
    opened, steps = _replay("totem-limit-opened-by-tent")
    start = steps[0].state
    assert start.tents_in(6) == [1, 1, 0]
    assert start.totems[6] == (0, 1, 0)  # full: 1 totem, nobody has more than 1 tent
    legal = _legal(opened, start)
    assert "6 tent24 totem ff" in legal
    assert "6 totem f" not in legal
    assert not [m for m in legal if m.startswith("6 totem")]
    for refused in ("6 totem f", "6 totem tent24 ff", "6 totem totem ff"):
        with pytest.raises(IllegalMove) as error:
            opened.game.check(start, opened.game.parse_move(start, refused))
        assert error.value.rule == "I8"
        assert "totems" in str(error.value)
    play = steps[1]
    assert play.event == CardsPlayed(territory=6, pieces=(24, 0), cards=(F, F))
    assert play.effects == (PiecesPlaced(tribe=ANN, territory=6, tents=(24,), totems=1),)
    assert play.state.tents_in(6) == [2, 1, 0]
    assert play.state.totems[6] == (1, 1, 0)
    assert play.state.totem_supply[ANN] == 7
    assert steps[-1].state.to_move == BOB


# --- I8: a pair as a wild --------------------------------------------------------------------------


def test_pair_used_as_wild_in_another_terrain() -> None:
    opened, steps = _replay("pair-as-wild")
    game_map = steps[0].state.map
    start = steps[0].state
    assert start.hands[ANN] == (0, 0, 1, 2, 0)  # g c c: no desert card
    assert game_map.territory(12).terrain is D
    assert "12 tent50 cc" in _legal(opened, start)
    with pytest.raises(IllegalMove) as error:
        opened.game.check(start, opened.game.parse_move(start, "12 tent50 c"))
    assert error.value.rule == "I8"
    # ann: one tent in desert territory 12, paid with a pair of coasts.
    assert steps[1].event == CardsPlayed(territory=12, pieces=(50,), cards=(C, C))
    assert steps[1].effects == (PiecesPlaced(tribe=ANN, territory=12, tents=(50,), totems=0),)
    assert steps[1].state.hands[ANN] == (0, 0, 1, 0, 0)
    assert steps[1].state.discard[-2:] == (C, C)
    # bob: two tents in forest territory 6, a forest and a pair of glaciers.
    assert game_map.territory(6).terrain is F
    assert steps[4].seat == BOB
    assert steps[4].event == CardsPlayed(territory=6, pieces=(23, 24), cards=(F, G, G))
    assert steps[4].effects == (PiecesPlaced(tribe=BOB, territory=6, tents=(23, 24), totems=0),)
    assert steps[4].state.hands[BOB] == (0, 0, 0, 0, 0)
    # cy: a totem in tundra territory 5, a pair of deserts.
    assert game_map.territory(5).terrain is T
    assert steps[8].seat == CY
    assert steps[8].event == CardsPlayed(territory=5, pieces=(0,), cards=(D, D))
    assert steps[8].effects == (PiecesPlaced(tribe=CY, territory=5, tents=(), totems=1),)
    assert steps[8].state.hands[CY] == (1, 0, 0, 0, 0)


# --- I13: the deck runs out mid-refill -------------------------------------------------------------


def test_deck_runs_out_mid_refill_then_half_journey() -> None:
    _, steps = _replay("deck-out-mid-refill")
    assert steps[0].state.deck == (C,)
    assert steps[0].state.deck_outs == 0
    assert sum(steps[1].state.hands[ANN]) == 1  # 2 cards played: 2 draws to come
    # First draw: display slot 2, refilled with the deck's last card. The refill is not over.
    first = steps[2]
    assert first.event == CardDrawn(source=2)
    assert first.effects == (
        CardTaken(seat=ANN, source=2, card=G, refill=C),
        DeckRanOut(time=1),
    )
    assert first.state.deck == ()
    assert first.state.display == (F, C, C, D)
    assert first.state.phase is Phase.REFILL
    assert first.state.to_move == ANN
    assert first.state.scores == (0, 0, 0)
    # Second draw, from the display (no deck): the refill is done, then reshuffle and scoring.
    second = steps[3]
    assert second.event == CardDrawn(source=3)
    assert [type(e) for e in second.effects] == [
        CardTaken,
        DeckReshuffled,
        ScoringBegan,
        TerritoryScored,
        TerritoryScored,
        TerritoryScored,
    ]
    assert second.effects[0] == CardTaken(seat=ANN, source=3, card=C, refill=None)
    assert second.effects[1] == DeckReshuffled(cards=35)
    assert second.effects[2] == ScoringBegan(stage="half-journey")
    assert effects_of(second.effects, TerritoryScored) == [
        TerritoryScored(territory=4, points=(0, 0, 1)),
        TerritoryScored(territory=5, points=(3, 0, 0)),
        TerritoryScored(territory=6, points=(0, 2, 0)),
    ]
    after = second.state
    assert sum(after.hands[ANN]) == 3
    assert after.hands[ANN] == (0, 0, 2, 1, 0)  # g (kept) + g + c drawn
    assert None not in after.display  # the emptied slot 3 is refilled from the new deck
    assert len(after.deck) == 34
    assert after.discard == ()
    assert after.deck_outs == 1
    assert after.scores == (3, 2, 1)
    assert after.to_move == BOB
    assert _steps_with(steps, ScoringBegan) == [3]


# --- I14: the end triggered by a tribe's last tent mid-round ---------------------------------------


def test_end_triggered_by_last_tent_mid_round() -> None:
    opened, steps = _replay("end-by-last-tent-mid-round")
    start = steps[0].state
    assert (start.start, start.to_move) == (ANN, BOB)
    assert start.tent_supply == (21 - 3, 1, 21 - 2)
    assert steps[1].effects == (PiecesPlaced(tribe=BOB, territory=14, tents=(60,), totems=0),)
    assert steps[1].state.tent_supply[BOB] == 0
    assert _steps_with(steps, EndTriggered) == [2]
    assert effects_of(steps[2].effects, EndTriggered) == [
        EndTriggered(reason="a tribe has placed its last tent")
    ]
    assert steps[2].state.ending
    assert not steps[2].state.over
    assert steps[2].state.to_move == CY
    # The round is played out: cy plays, then it ends before ann (the start player) moves again.
    assert [s.seat for s in steps[1:]] == [BOB, BOB, CY, CY]
    assert steps[3].effects == (PiecesPlaced(tribe=CY, territory=8, tents=(34,), totems=0),)
    last = steps[4]
    assert effects_of(last.effects, ScoringBegan) == [ScoringBegan(stage="final")]
    assert effects_of(last.effects, TerritoryScored) == [
        TerritoryScored(territory=3, points=(0, 5, 0)),
        TerritoryScored(territory=5, points=(0, 6, 0)),
        TerritoryScored(territory=6, points=(2, 0, 0)),
        TerritoryScored(territory=8, points=(2, 0, 3)),
        TerritoryScored(territory=10, points=(0, 0, 1)),
        TerritoryScored(territory=11, points=(0, 6, 0)),
        TerritoryScored(territory=14, points=(0, 4, 0)),
    ]
    assert [len(s.spaces) for s in effects_of(last.effects, SettlementScored)] == [5, 6, 6, 4]
    assert _ended(steps) == GameEnded(scores=(4, 42, 4), winners=(BOB,))
    assert opened.game.legal_moves(last.state) == []


# --- I11: the third tribe with 2 and with 1 leftover card ------------------------------------------


def test_third_tribe_with_two_and_one_leftover_cards() -> None:
    opened, steps = _replay("third-tribe-one-and-two-leftover")
    assert steps[0].state.players == 2
    assert steps[0].state.tribes == 3
    # ann plays 1 card: 2 left, both used for the third tribe (a tent and a totem).
    assert steps[1].event == CardsPlayed(territory=6, pieces=(22,), cards=(F,))
    assert steps[1].state.phase is Phase.THIRD
    assert steps[1].state.hands[ANN] == (2, 0, 0, 0, 0)
    assert ThirdTribePassed() in opened.game.legal_moves(steps[1].state)
    assert steps[2].seat == ANN
    assert steps[2].event == ThirdTribePlayed(territory=5, pieces=(17, 0), cards=(T, T))
    assert steps[2].effects == (PiecesPlaced(tribe=THIRD, territory=5, tents=(17,), totems=1),)
    assert steps[2].state.hands[ANN] == (0, 0, 0, 0, 0)
    assert [type(s.event) for s in steps[3:6]] == [CardDrawn] * 3
    # bob plays 2 cards (a pair of glaciers): 1 left, used for the third tribe.
    assert steps[6].event == CardsPlayed(territory=1, pieces=(1,), cards=(G, G))
    assert steps[6].state.phase is Phase.THIRD
    assert steps[6].state.hands[BOB] == (0, 0, 0, 0, 1)
    assert steps[7].seat == BOB
    assert steps[7].event == ThirdTribePlayed(territory=12, pieces=(50,), cards=(D,))
    assert steps[7].effects == (PiecesPlaced(tribe=THIRD, territory=12, tents=(50,), totems=0),)
    assert steps[7].state.hands[BOB] == (0, 0, 0, 0, 0)
    # ann plays 3 cards: the third tribe gets no play, the refill follows at once.
    assert steps[11].event == CardsPlayed(territory=5, pieces=(18, 19), cards=(T, G, G))
    assert steps[11].state.phase is Phase.REFILL
    assert all(isinstance(m, CardDrawn) for m in opened.game.legal_moves(steps[11].state))
    assert isinstance(steps[12].event, CardDrawn)
    third_plays = [s.index for s in steps if isinstance(s.event, ThirdTribePlayed)]
    assert third_plays == [2, 7]
    final = steps[-1].state
    assert final.tent_supply[THIRD] == 21 - 3
    assert final.totem_supply[THIRD] == 8 - 1
    assert final.tents_in(5) == [2, 0, 2]


# --- I17: a settlement across a border -------------------------------------------------------------


def test_settlement_across_border_scored_at_the_end() -> None:
    _, steps = _replay("settlement-across-border")
    game_map = steps[0].state.map
    assert scoring.settlements(steps[0].state, ANN) == []
    assert steps[1].effects == (PiecesPlaced(tribe=ANN, territory=10, tents=(41,), totems=0),)
    assert scoring.settlements(steps[1].state, ANN) == [(24, 25, 41, 42)]
    assert 42 in game_map.links[25]  # the printed path across the border 6 | 10
    last = steps[2]
    assert effects_of(last.effects, DeckRanOut) == [DeckRanOut(time=2)]
    assert effects_of(last.effects, EndTriggered) == [
        EndTriggered(reason="the deck ran out a second time")
    ]
    (settlement,) = effects_of(last.effects, SettlementScored)
    assert settlement == SettlementScored(tribe=ANN, spaces=(24, 25, 41, 42))
    assert {game_map.space_territory[s] for s in settlement.spaces} == {6, 10}
    assert scoring.settlements(last.state, CY) == []  # 27-28-29: three tents are no settlement
    # Final order (I15): tents, then totems, then settlements.
    kinds = [type(e) for e in last.effects]
    assert kinds.index(SettlementScored) > max(
        i for i, k in enumerate(kinds) if k is TerritoryScored
    )
    assert effects_of(last.effects, TerritoryScored) == [
        TerritoryScored(territory=6, points=(4, 4, 0)),
        TerritoryScored(territory=7, points=(0, 0, 3)),
        TerritoryScored(territory=10, points=(2, 0, 0)),
    ]
    assert _ended(steps) == GameEnded(scores=(4 + 2 + 4, 4, 3), winners=(ANN,))


# --- I16: a covered connection is skipped ----------------------------------------------------------


def test_covered_connections_skipped_in_totem_scoring() -> None:
    _, steps = _replay("covered-connection-skipped")
    final = steps[-1].state
    assert final.covered == (3, 8, 12)
    assert steps[1].effects == (PiecesPlaced(tribe=ANN, territory=7, tents=(), totems=1),)
    assert final.totems[7] == (1, 0, 1)
    # ann holds the majority on both ends of 3 (2-6), 6 (5-6) and 8 (6-7); only 6 is uncovered.
    for link in (3, 6, 8):
        c = final.map.connection(link)
        assert scoring.totem_majority(final.totems[c.a], ANN)
        assert scoring.totem_majority(final.totems[c.b], ANN)
    assert [c.id for c in majority_links(final, ANN)] == [6]
    last = steps[-1]
    assert effects_of(last.effects, ConnectionScored) == [
        ConnectionScored(connection=6, points=(2, 0, 0))
    ]
    # Uncovered, 3 and 8 would have scored too.
    _, uncovered = scoring.score_totems(attrs.evolve(final, covered=()))
    assert uncovered == [
        ConnectionScored(connection=3, points=(2, 0, 0)),
        ConnectionScored(connection=6, points=(2, 0, 0)),
        ConnectionScored(connection=8, points=(3, 0, 0)),
    ]
    assert _ended(steps) == GameEnded(scores=(13, 6, 3), winners=(ANN,))


# --- I19: feats ------------------------------------------------------------------------------------


def _feats_left(state: Any, kind: str) -> int:
    return state.feats_left[FEAT_KINDS.index(kind)]


def test_union_feat_first_and_second() -> None:
    opened, steps = _replay("feat-union-first-and-second")
    assert opened.log.header.options == {"feats": "on"}
    assert effects_of(steps[1].effects, FeatEarned) == [
        FeatEarned(seat=ANN, kind="union", options=(5,))
    ]
    assert steps[1].state.phase is Phase.FEAT
    assert steps[2].event == FeatPlaced(kind="union", target=5)
    assert steps[2].state.factors[5] == 2
    assert effects_of(steps[4].effects, FeatEarned) == [
        FeatEarned(seat=BOB, kind="union", options=(3, 7))  # 8-9 | 27-28, across a border
    ]
    assert steps[5].event == FeatPlaced(kind="union", target=7)
    assert steps[5].state.factors[7] == 2
    assert _feats_left(steps[5].state, "union") == 0
    # cy completes a settlement too, but both union feats are gone.
    assert scoring.settlements(steps[7].state, CY) == [(44, 45, 46, 47)]
    assert _steps_with(steps, FeatEarned) == [1, 4]
    assert steps[-1].state.earned == (("union",), ("union",), ())
    assert effects_of(steps[-1].effects, TerritoryScored) == [
        TerritoryScored(territory=3, points=(0, 2, 0)),
        TerritoryScored(territory=5, points=(8, 0, 0)),  # 4 tents, factor 2
        TerritoryScored(territory=7, points=(0, 4, 0)),  # 2 tents, factor 2
        TerritoryScored(territory=11, points=(0, 0, 4)),
    ]
    assert _ended(steps) == GameEnded(scores=(12, 10, 8), winners=(ANN,))


def test_discovery_feat_first_and_second() -> None:
    _, steps = _replay("feat-discovery-first-and-second")
    every = tuple(range(1, 16))
    assert effects_of(steps[1].effects, FeatEarned) == [
        FeatEarned(seat=ANN, kind="discovery", options=tuple(t for t in every if t != 4))
    ]
    assert all(steps[1].state.tents[s] for s in (13, 14, 15))
    assert steps[2].event == FeatPlaced(kind="discovery", target=5)
    assert steps[2].state.factors[5] == 2
    assert effects_of(steps[4].effects, FeatEarned) == [
        FeatEarned(seat=BOB, kind="discovery", options=tuple(t for t in every if t != 12))
    ]
    assert steps[5].event == FeatPlaced(kind="discovery", target=5)
    assert steps[5].state.factors[5] == 3  # the two feats add up
    assert _feats_left(steps[5].state, "discovery") == 0
    # cy fills the last space of territory 1, but both discovery feats are gone.
    assert steps[7].effects == (PiecesPlaced(tribe=CY, territory=1, tents=(3,), totems=0),)
    assert all(steps[7].state.tents[s] for s in (1, 2, 3))
    assert _steps_with(steps, FeatEarned) == [1, 4]
    assert effects_of(steps[-1].effects, TerritoryScored) == [
        TerritoryScored(territory=1, points=(3, 3, 3)),
        TerritoryScored(territory=4, points=(3, 2, 0)),
        TerritoryScored(territory=5, points=(9, 6, 0)),  # ann 2, bob 1 tents, factor 3
        TerritoryScored(territory=12, points=(3, 3, 3)),
    ]
    assert _ended(steps) == GameEnded(scores=(18, 14, 6), winners=(ANN,))


@pytest.mark.parametrize(
    ("name", "kind", "ann_link", "bob_link", "ann_move", "bob_move"),
    [
        ("feat-honour-first", "honour", 1, 16, "2 totem g", "14 totem t"),
        ("feat-respect-first", "respect", 5, 13, "4 totem c", "14 totem t"),
    ],
)
def test_honour_and_respect_go_to_the_first_only(
    name: str, kind: str, ann_link: int, bob_link: int, ann_move: str, bob_move: str
) -> None:
    opened, steps = _replay(name)
    water = kind == "respect"
    game_map = steps[0].state.map
    assert game_map.connection(ann_link).water is water
    assert game_map.connection(bob_link).water is water
    assert majority_links(steps[0].state, ANN) == []
    assert opened.game.format_move(steps[1].event) == ann_move
    assert effects_of(steps[1].effects, FeatEarned) == [
        FeatEarned(seat=ANN, kind=kind, options=(ann_link,))
    ]
    assert steps[2].event == FeatPlaced(kind=kind, target=ann_link)
    assert steps[2].state.link_factors[ann_link] == 2
    assert _feats_left(steps[2].state, kind) == 0
    # bob then holds a connection of the same kind: there was one feat, and it is gone.
    assert opened.game.format_move(steps[4].event) == bob_move
    assert [c.id for c in majority_links(steps[4].state, BOB)] == [bob_link]
    assert _steps_with(steps, FeatEarned) == [1]
    assert steps[-1].state.earned == ((kind,), (), ())
    assert effects_of(steps[-1].effects, ConnectionScored) == [
        ConnectionScored(connection=ann_link, points=(4, 0, 0)),  # 2 totems, factor 2
        ConnectionScored(connection=bob_link, points=(0, 2, 0)),
    ]
    assert _ended(steps) == GameEnded(scores=(8, 4, 2), winners=(ANN,))


# --- I21: the map variants change the outcome ------------------------------------------------------


def test_floating_lands_settlement_only_through_a_connection() -> None:
    opened, steps = _replay("variant-floating-lands")
    assert opened.log.header.options == {"variant": "floating-lands"}
    game_map = steps[0].state.map
    link = game_map.connection(6)
    assert (link.a, link.b, link.spaces) == (5, 6, (21, 23))
    assert 23 in game_map.links[21]
    assert effects_of(steps[-1].effects, SettlementScored) == [
        SettlementScored(tribe=ANN, spaces=(20, 21, 22, 23))
    ]
    assert _ended(steps) == GameEnded(scores=(20, 19, 4), winners=(ANN,))
    standard, effects = _without_variants(opened)
    assert 23 not in standard.map.links[21]
    assert scoring.settlements(standard, ANN) == []
    assert not effects_of(effects, SettlementScored)
    assert effects_of(effects, GameEnded) == [GameEnded(scores=(16, 19, 4), winners=(BOB,))]


def test_glacial_mass_rerouted_connection_11() -> None:
    opened, steps = _replay("variant-glacial-mass")
    assert opened.log.header.options == {"variant": "glacial-mass"}
    link = steps[0].state.map.connection(11)
    assert (link.a, link.b) == (1, 2)
    final = steps[-1].state
    assert final.totems[1] == (1, 0, 0)
    assert final.totems[2] == (2, 0, 0)
    assert (final.totems[6], final.totems[10]) == ((0, 1, 0), (0, 1, 0))
    assert effects_of(steps[-1].effects, ConnectionScored) == [
        ConnectionScored(connection=1, points=(3, 0, 0)),
        ConnectionScored(connection=11, points=(3, 0, 0)),  # 1-2 again, not bob's 6-10
    ]
    assert _ended(steps) == GameEnded(scores=(20, 18, 4), winners=(ANN,))
    standard, effects = _without_variants(opened)
    assert (standard.map.connection(11).a, standard.map.connection(11).b) == (6, 10)
    assert effects_of(effects, ConnectionScored) == [
        ConnectionScored(connection=1, points=(3, 0, 0)),
        ConnectionScored(connection=11, points=(0, 2, 0)),
    ]
    assert effects_of(effects, GameEnded) == [GameEnded(scores=(17, 20, 4), winners=(BOB,))]


def test_long_road_majority_scores_as_a_territory() -> None:
    opened, steps = _replay("variant-long-road")
    assert opened.log.header.options == {"variant": "long-road"}
    final = steps[-1].state
    road = final.map.road
    on_road = [sum(1 for s in road if final.tents[s] == t + 1) for t in range(3)]
    assert on_road == [3, 2, 1]
    scored = effects_of(steps[-1].effects, TerritoryScored)
    assert scored[-1] == TerritoryScored(territory=0, points=(6, 3, 2))
    assert scored[:-1] == [
        TerritoryScored(territory=5, points=(3, 0, 0)),
        TerritoryScored(territory=6, points=(0, 2, 0)),
        TerritoryScored(territory=7, points=(0, 0, 1)),
    ]
    assert _ended(steps) == GameEnded(scores=(21, 19, 6), winners=(ANN,))
    _, effects = _without_variants(opened)
    assert [e.territory for e in effects_of(effects, TerritoryScored)] == [5, 6, 7]
    assert effects_of(effects, GameEnded) == [GameEnded(scores=(15, 16, 4), winners=(BOB,))]
