"""Each Clans fixture (``fixtures/clans/``) really shows the edge case of the Clans rules it is
named for; their golden transcripts are pinned by ``tests/test_playthroughs.py``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tribes.core.engine import Step
from tribes.core.errors import IllegalMove
from tribes.games.clans.board import COLOUR_NAMES, VILLAGES
from tribes.games.clans.events import (
    EpochBegan,
    GameEnded,
    HutsMoved,
    OrderAwaited,
    OrderChosen,
    StrifeRemoved,
    VillageDoomed,
    VillageFounded,
    VillageUnscored,
)
from tribes.replay import logs
from tribes.testing import effects_of, replay_log

ROOT = Path(__file__).resolve().parents[3]
CLANS = ROOT / "fixtures" / "clans"

REQUIRED = [
    "epoch-boundary-order-a",
    "epoch-boundary-order-b",
    "twelfth-and-thirteenth",
    "strife-single-colour",
    "doomed-with-strife",
    "big-onto-bigger",
    "big-equal-either-way",
    "big-equal-other-way",
    "big-refused",
    "no-legal-move",
    "two-players",
    "from-position",
    "full-game-3p",
]


def _replay(name: str) -> tuple[Any, list[Step]]:
    return replay_log(CLANS / f"{name}.json")


def test_every_edge_case_has_its_fixture() -> None:
    missing = [n for n in REQUIRED if not (CLANS / f"{n}.json").is_file()]
    assert not missing


# --- C12, C18: two villages at an epoch boundary -------------------------------------------------


def test_epoch_boundary_order_changes_who_scores() -> None:
    opened_a, a = _replay("epoch-boundary-order-a")
    opened_b, b = _replay("epoch-boundary-order-b")
    head_a, head_b = opened_a.log.header, opened_b.log.header
    assert (head_a.seats, head_a.position) == (head_b.seats, head_b.position)
    assert opened_a.log.events[0] == opened_b.log.events[0]
    # Only one chip is left in epoch 1, and the move founds two villages: the game waits.
    assert a[0].state.epoch == 1
    assert VILLAGES - a[0].state.founded > 0
    assert sum(1 for s in a[0].state.board.slot_epochs[a[0].state.founded :] if s == 1) == 1
    for steps in (a, b):
        assert effects_of(steps[1].effects, OrderAwaited) == [
            OrderAwaited(seat=0, villages=(36, 38))
        ]
        assert steps[1].state.pending is not None
        assert isinstance(steps[2].event, OrderChosen)
        founded = effects_of(steps[2].effects, VillageFounded)
        assert [(v.number, v.epoch) for v in founded] == [(4, 1), (5, 2)]
        assert effects_of(steps[2].effects, EpochBegan) == [EpochBegan(epoch=2)]
    assert a[2].event != b[2].event
    # a: 36 first, doomed on mountain in epoch 1; b: 38 first, and 36 scores in epoch 2.
    assert [d.territory for d in effects_of(a[2].effects, VillageDoomed)] == [36]
    assert not effects_of(b[2].effects, VillageDoomed)
    assert {v.territory: v.scored for v in effects_of(b[2].effects, VillageFounded)}[36] == ("red",)
    assert a[-1].state.track != b[-1].state.track
    assert a[-1].state.scores() != b[-1].state.scores()


# --- C16, C19, C20: the 12th and 13th village ----------------------------------------------------


def test_twelfth_and_thirteenth() -> None:
    _, steps = _replay("twelfth-and-thirteenth")
    assert steps[0].state.founded == VILLAGES - 1
    assert effects_of(steps[1].effects, OrderAwaited) == [OrderAwaited(seat=1, villages=(36, 38))]
    last = steps[-1]
    assert isinstance(last.event, OrderChosen)
    twelfth = effects_of(last.effects, VillageFounded)
    unscored = effects_of(last.effects, VillageUnscored)
    assert [v.number for v in twelfth] == [12]
    assert [(u.territory, u.number) for u in unscored] == [(last.event.villages[1], 13)]
    assert twelfth[0].territory == last.event.villages[0]
    assert twelfth[0].value == sum(twelfth[0].huts) + 5
    (ended,) = effects_of(last.effects, GameEnded)
    assert ended.reason == "the 12th village is founded"
    state = last.state
    assert ended.scores == state.scores()
    assert state.over
    assert state.founded == VILLAGES
    # The 13th keeps its huts (C19) and scores nothing.
    thirteenth = unscored[0].territory
    assert state.huts[thirteenth] == steps[1].state.huts[thirteenth]
    assert sum(state.huts[thirteenth]) > 0
    assert [v.value for v in state.villages if v.number == 13] == [None]


# --- C13: strife leaving one colour ----------------------------------------------------------------


def test_strife_leaves_a_single_colour() -> None:
    _, steps = _replay("strife-single-colour")
    effects = steps
    (strife,) = effects_of(effects, StrifeRemoved)
    (village,) = [v for v in effects_of(effects, VillageFounded) if v.territory == strife.territory]
    assert len(strife.colours) == 4
    assert sum(1 for n in village.huts if n) == 1
    assert village.scored == ("red",)
    assert not effects_of(effects, VillageDoomed)
    assert steps[-1].state.huts[strife.territory] == village.huts


# --- C13, C15: a doomed village with strife --------------------------------------------------------


def test_doomed_village_with_strife() -> None:
    _, steps = _replay("doomed-with-strife")
    effects = steps[-1].effects
    (village,) = effects_of(effects, VillageFounded)
    (strife,) = effects_of(effects, StrifeRemoved)
    (doomed,) = effects_of(effects, VillageDoomed)
    assert village.territory == strife.territory == doomed.territory
    before = steps[-2].state
    event = steps[-1].event
    assert isinstance(event, HutsMoved)
    merged = [
        a + b for a, b in zip(before.huts[event.source], before.huts[event.target], strict=True)
    ]
    assert all(merged)
    assert village.value == 0
    assert village.scored == ()
    assert doomed.terrain in before.board.epoch(village.epoch).unfavourable
    after = steps[-1].state
    assert sum(after.huts[village.territory]) == 0
    assert after.track == before.track
    assert sum(after.chips) == sum(before.chips) + 1


# --- C9, C10: the 7+ exception ---------------------------------------------------------------------


def _big_move(steps: list[Step], index: int) -> tuple[int, int]:
    event = steps[index].event
    assert isinstance(event, HutsMoved)
    before = steps[index - 1].state
    return before.totals[event.source], before.totals[event.target]


def test_big_group_onto_bigger() -> None:
    _, steps = _replay("big-onto-bigger")
    source, target = _big_move(steps, len(steps) - 1)
    assert 7 <= source < target


def test_big_equal_groups_either_way() -> None:
    one, a = _replay("big-equal-either-way")
    other, b = _replay("big-equal-other-way")
    assert one.log.header.position == other.log.header.position
    size_a, target_a = _big_move(a, 1)
    size_b, target_b = _big_move(b, 1)
    assert size_a == target_a == size_b == target_b >= 7
    ea, eb = a[1].event, b[1].event
    assert isinstance(ea, HutsMoved)
    assert isinstance(eb, HutsMoved)
    assert (ea.source, ea.target) == (eb.target, eb.source)
    legal = one.game.legal_moves(a[0].state)
    assert ea in legal
    assert eb in legal


REFUSED = CLANS / "big-refused.json"
REFUSALS = [
    # 8 huts onto a 7+ group of 7 (smaller): C10.
    ("15-16", "C10", "moves only onto a group at least as large"),
    # 8 huts onto a group of 3 (fewer than 7): C9.
    ("15-14", "C9", "cannot move"),
]


def test_big_refused_position_lists_only_the_allowed_big_moves() -> None:
    opened, steps = _replay("big-refused")
    state = steps[-1].state
    assert state.totals[15] == 8
    assert state.totals[16] == 7
    assert state.totals[14] < 7
    assert state.totals[22] >= 8
    legal = [opened.game.format_move(m) for m in opened.game.legal_moves(state)]
    assert "15-22" in legal
    assert "16-15" in legal
    assert [m for m in legal if m.startswith("15-")] == ["15-22"]


@pytest.mark.parametrize(("move", "rule", "text"), REFUSALS, ids=[m for m, _, _ in REFUSALS])
def test_big_refused_by_act(tmp_path: Path, move: str, rule: str, text: str) -> None:
    log = tmp_path / REFUSED.name
    shutil.copyfile(REFUSED, log)
    before = log.read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "tribes.cli.main", "act", str(log), move],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert text in done.stderr
    assert f"illegal move '{move}'" in done.stderr
    assert log.read_bytes() == before == REFUSED.read_bytes()
    # The library says which rule refused it, and leaves the file alone too.
    with pytest.raises(IllegalMove) as refused:
        logs.act(logs.open_log(log), [move])
    assert refused.value.rule == rule
    assert log.read_bytes() == before


# --- C21: no legal move before the 12th village ----------------------------------------------------


def test_no_legal_move_ends_the_game() -> None:
    opened, steps = _replay("no-legal-move")
    state = steps[-1].state
    assert state.over
    assert state.founded < VILLAGES
    assert opened.game.legal_moves(state) == []
    (ended,) = effects_of(steps[-1].effects, GameEnded)
    assert ended.reason == "no legal move is left"
    assert ended.scores == state.scores()
    assert sum(1 for s in steps if effects_of(s.effects, GameEnded)) == 1


# --- C5: a 2-player game ----------------------------------------------------------------------------


def test_two_players_with_three_ownerless_colours() -> None:
    opened, steps = _replay("two-players")
    head = opened.log.header
    assert len(head.seats) == 2
    assert head.position is None
    state = steps[-1].state
    held = {c.value for c in state.clans}
    ownerless = [i for i, name in enumerate(COLOUR_NAMES) if name not in held]
    assert len(ownerless) == 3
    founded = effects_of(steps, VillageFounded)
    for colour in ownerless:
        name = COLOUR_NAMES[colour]
        # each ownerless colour is in villages founded, scores in them, and so on the track
        assert any(v.huts[colour] for v in founded), name
        assert any(name in v.scored for v in founded), name
        assert state.track[colour] > 0, name
    assert state.over
    (ended,) = effects_of(steps[-1].effects, GameEnded)
    assert ended.reason == "the 12th village is founded"
    assert ended.clans == tuple(c.value for c in state.clans)  # only the held colours
    assert ended.scores == state.scores()


# --- C7: a game started from a position ------------------------------------------------------------


def test_from_position() -> None:
    opened, steps = _replay("from-position")
    assert opened.log.header.position is not None
    start = steps[0].state
    assert start.epoch == 3
    assert start.founded == 7
    track = opened.log.header.position["track"]
    assert start.track == tuple(track[name] for name in COLOUR_NAMES) != (0, 0, 0, 0, 0)  # C7
    assert len(start.villages) == 6  # six villages on the board, a seventh chip taken earlier
    assert len(steps) == 5
    # village 8, doomed on forest in epoch 3 (C15); village 9 takes epoch 3's last chip (C12)
    founded = effects_of(steps, VillageFounded)
    assert [(v.number, v.epoch, v.territory) for v in founded] == [(8, 3, 4), (9, 3, 34)]
    assert [d.territory for d in effects_of(steps[3].effects, VillageDoomed)] == [4]
    assert effects_of(steps[4].effects, EpochBegan) == [EpochBegan(epoch=4)]
    assert steps[-1].state.epoch == 4
    assert not steps[-1].state.over


def test_full_game_3p() -> None:
    opened, steps = _replay("full-game-3p")
    assert len(opened.log.header.seats) == 3
    assert opened.log.header.position is None
    state = steps[-1].state
    assert state.over
    assert state.founded == VILLAGES
    # it ends with the 11th and 12th village founded by one move, in the order ann chose
    assert effects_of(steps, OrderAwaited) == [OrderAwaited(seat=0, villages=(51, 58))]
    assert isinstance(steps[-1].event, OrderChosen)
    assert [v.number for v in effects_of(steps[-1].effects, VillageFounded)] == [11, 12]
    (ended,) = effects_of(steps, GameEnded)
    assert ended.reason == "the 12th village is founded"
    assert ended.scores == state.scores()
