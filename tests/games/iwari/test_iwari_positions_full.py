"""I7 with the full position form (``tribes position`` writes it): where the turn stands (a feat
to place, the third tribe's step, the refill, the half-journey due), the feats earned and placed,
the expeditions completed; each checked against what play reaches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest

from tribes.core.errors import BadPosition
from tribes.replay import logs

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "iwari"


def state_where(fixture: str, decision: str) -> tuple[Any, Any, Any]:
    """The game, header and first state of a fixture where ``decision`` is pending."""
    opened = logs.open_log(FIXTURES / f"{fixture}.json")
    game = opened.game
    for step in logs.steps_of(game, opened.log):
        pending = game.pending(step.state)
        if pending is not None and pending.decision == decision:
            return game, opened.log.header, step.state
    raise AssertionError(f"{fixture} never waits for {decision}")


def position_of(fixture: str, decision: str) -> tuple[Any, Any, dict[str, Any]]:
    game, head, state = state_where(fixture, decision)
    return game, head, game.position(state, head.seats)


@pytest.mark.parametrize(
    ("fixture", "decision", "key"),
    [
        ("feat-union-first-and-second", "feat", "feats"),
        ("third-tribe-one-and-two-leftover", "third", "played"),
        ("deck-out-mid-refill", "refill", "half_journey_scored"),
        ("full-game-4p-expeditions", "refill", "expeditions"),
    ],
)
def test_i7_a_pending_decision_is_part_of_a_position(fixture: str, decision: str, key: str) -> None:
    game, head, state = state_where(fixture, decision)
    doc = game.position(state, head.seats)
    assert doc["phase"] == decision and key in doc
    again = game.setup(attrs.evolve(head, position=doc))
    assert again == state
    assert game.pending(again) == game.pending(state)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["feats"]["earned"].update(ann=["union", "union"]), "each once"),
        (lambda d: d["feats"].update(pending=[{"kind": "respect", "options": [1]}]), "no feat"),
        (lambda d: d["feats"].update(pending=[]), "phase 'feat' goes with the feats to place"),
        (lambda d: d["feats"].update(territories={"99": 2}), "unknown id '99'"),
        (lambda d: d["feats"].update(territories={"3": 5}), "more feats placed than earned"),
        (lambda d: d.update(phase="third", feats={**d["feats"], "pending": []}), "third tribe"),
        (lambda d: d.update(half_journey_scored=False, deck_outs=1), "only in the refill"),
    ],
)
def test_i7_a_full_position_is_checked_against_play(change: Any, message: str) -> None:
    game, head, doc = position_of("feat-union-first-and-second", "feat")
    change(doc)
    with pytest.raises(BadPosition) as info:
        game.setup(attrs.evolve(head, position=doc))
    assert message in info.value.message


def test_i20_expeditions_and_their_claims_are_part_of_a_position() -> None:
    game, head, doc = position_of("full-game-4p-expeditions", "refill")
    assert len(doc["expeditions"]) == 3 and doc["options"]["expeditions"] == "on"
    for bad, message in (
        ([*doc["expeditions"][:2]], "the 3 cards face up"),
        ([{**doc["expeditions"][0], "card": "x"}, *doc["expeditions"][1:]], "unknown card 'x'"),
        (
            [{**doc["expeditions"][0], "claimed": ["zed"]}, *doc["expeditions"][1:]],
            "claimed seat 'zed' is not a seat",
        ),
    ):
        with pytest.raises(BadPosition) as info:
            game.setup(attrs.evolve(head, position={**doc, "expeditions": bad}))
        assert message in info.value.message
