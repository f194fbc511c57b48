"""Text rendering of an Iwari state: the map's territories on their grid, the connections, then
cards, supplies and scores. Fits 100 columns (80 with ``width`` under 100).

A territory is three lines: ``6 forest x2`` (number, terrain, feat factor), its tent spaces from
the first number on (``22 a·b··``: a tent of a on 22, of b on 24), and its totems (``T a1 b2``).
Tribes are letters in seat order (a, b, …); the third tribe of a 2-player game is ``n``.
Connections read ``3:2-6^1``: number 3 joins territories 2 and 6 over land (``~`` water, ``x``
covered), under a mountain symbol of 1 peak.
"""

from __future__ import annotations

from collections.abc import Sequence

from tribes.core.game import Viewer
from tribes.core.views import count
from tribes.games.iwari.moves import can_play, exchanges
from tribes.games.iwari.scoring import winners
from tribes.games.iwari.state import IwariState, Phase
from tribes.games.iwari.views import hand_text, sees_hand, tribe_names

LETTERS = "abcde"


def letter(state: IwariState, tribe: int) -> str:
    return "n" if tribe >= state.players else LETTERS[tribe]


def render(state: IwariState, seats: Sequence[str], viewer: Viewer, width: int = 100) -> str:
    cell = 16 if width >= 100 else 13
    return "\n".join(
        [*_grid(state, cell), *_connections(state, width), "", *_status(state, seats, viewer)]
    )


def _grid(state: IwariState, cell: int) -> list[str]:
    game_map = state.map
    cols = max(t.col for t in game_map.territories) + 1
    rows = max(t.row for t in game_map.territories) + 1
    by_cell = {(t.col, t.row): t for t in game_map.territories}
    lines: list[str] = []
    for row in range(rows):
        parts: list[list[str]] = [[], [], []]
        for col in range(cols):
            t = by_cell.get((col, row))
            if t is None:
                texts = ["", "", ""]
            else:
                factor = state.factors[t.id]
                head = f"{t.id} {t.terrain.value}" + (f" x{factor}" if factor > 1 else "")
                spaces = "".join(
                    letter(state, state.tents[s] - 1) if state.tents[s] else "·" for s in t.spaces
                )
                totems = " ".join(
                    f"{letter(state, i)}{n}" for i, n in enumerate(state.totems[t.id]) if n
                )
                texts = [head, f"{t.spaces[0]} {spaces}", f"T {totems}" if totems else ""]
            for i, text in enumerate(texts):
                parts[i].append(text[: cell - 1].ljust(cell))
        lines.extend("".join(p).rstrip() for p in parts)
    return lines


def _connections(state: IwariState, width: int) -> list[str]:
    items = []
    for c in state.map.connections:
        mark = "x" if c.id in state.covered else ("~" if c.water else "-")
        factor = state.link_factors[c.id]
        peaks = f"^{c.peaks}" if c.peaks else ""
        items.append(f"{c.id}:{c.a}{mark}{c.b}{peaks}" + (f"x{factor}" if factor > 1 else ""))
    lines, line = [], "links"
    for item in items:
        if len(line) + len(item) + 1 > width:
            lines.append(line)
            line = "     "
        line += " " + item
    lines.append(line)
    return [*lines, "      (- land, ~ water, x covered by mountains, ^2 a symbol of 2 peaks)"]


def _status(state: IwariState, seats: Sequence[str], viewer: Viewer) -> list[str]:
    names = tribe_names(state, seats)
    display = " ".join(c.letter if c else "-" for c in state.display)
    lines = [
        f"display {display}   deck {len(state.deck)}   discard {len(state.discard)}"
        + (f"   deck ran out {state.deck_outs}x" if state.deck_outs else "")
        + ("   (last round)" if state.ending and not state.over else ""),
    ]
    for tribe, name in enumerate(names):
        hand = ""
        if tribe < state.players:
            hand = (
                f"hand {hand_text(state.hands[tribe])}"
                if sees_hand(state, viewer, tribe)
                else f"hand {count(sum(state.hands[tribe]), 'card')}"
            )
        lines.append(
            f"{letter(state, tribe)}={name:<10} score {state.scores[tribe]:>3}  tents {state.tent_supply[tribe]:>2}  "
            f"totems {state.totem_supply[tribe]}  {hand}".rstrip()
        )
    if state.expeditions:
        lines.append(
            "expeditions "
            + "  ".join(
                f"{c.id}({','.join(seats[s] for s in c.claimed) or '-'})" for c in state.expeditions
            )
        )
    if state.over:
        won = [seats[i] for i in winners(state)]
        lines.append(f"game over: {' and '.join(won)} {'win' if len(won) > 1 else 'wins'}")
    else:
        lines.append(f"{seats[state.to_move]} {doing(state)}")
    return lines


def doing(state: IwariState, *, hints: bool = True) -> str:
    """What the active player is to do, naming only what is legal (a pass only when neither a
    play nor an exchange is possible). The board text and the picture say the same; ``hints``
    adds the notation of declining, which the picture's narrow panel leaves out."""
    if state.phase is Phase.ACTION:
        if can_play(state, state.to_move) or exchanges(state):
            return "to play or exchange"
        return "to pass: no play or exchange is possible"
    if state.phase is Phase.FEAT:
        kind = state.pending_feats[0].kind if state.pending_feats else ""
        decline = f": feat {kind} none" if hints else ""
        return f"to place the {kind} feat (or decline it{decline})"
    if state.phase is Phase.THIRD:
        return "to play for the third tribe, or not" + (" (third pass)" if hints else "")
    return "to draw"
