"""An Iwari state as SVG: the territories on their grid in terrain colours, with their tent spaces
(where the map file draws them, numbered, joined by their paths) and totem circles; tents and
totems by tribe (a colour and a letter each); the connections with their numbers, land or water,
and the mountains covering some; beside the map, in a panel of its own (``Picture.panel``: a
page stacks it under the map in a narrow window), the display, the deck and discard counts, each
tribe's score, supply and hand (as the viewer may see it: other hands are card backs), the feats
and expeditions when they are on, whose turn it is and the legend.

Parts are keyed so that ``tribes html`` sends a page only what a move changes: ``map`` (drawn
once), ``t6`` (territory 6's pieces), ``links``, ``last``; in the panel ``drawn`` (a draw's
source), the cards, ``tribes``, ``extras``, ``legend``.
"""

from __future__ import annotations

from collections.abc import Sequence

from tribes.core.events import Event
from tribes.core.game import Viewer
from tribes.core.pictures import (
    HIGHLIGHT,
    INK,
    OKABE_ITO,
    PAPER,
    Part,
    Picture,
    data,
    group,
    ink_on,
    num,
    points,
    shape,
    text,
)
from tribes.games.iwari.board import TERRAINS, Connection, Map, Terrain
from tribes.games.iwari.events import (
    DECLINED,
    FROM_DECK,
    TOTEM_PIECE,
    CardDrawn,
    CardExchanged,
    CardsPlayed,
    FeatPlaced,
    ThirdTribePlayed,
)
from tribes.games.iwari.render import doing, letter
from tribes.games.iwari.scoring import winners
from tribes.games.iwari.state import FEAT_KINDS, IwariState
from tribes.games.iwari.views import sees_hand, tribe_names

XS, YS = 13, 14
"""Pixels per tenth of a cell, across and down: a cell is 130 × 140."""
MX, MY = 10, 10
WIDTH, HEIGHT = 800, 590
"""The map's picture; the panel (cards, tribes, feats, the legend) is a picture of its own
(``Picture.panel``), which a page shows beside the map or, in a narrow window, under it, and
``svg()`` draws to its right."""
PANEL_W = 330
PANEL_X = 6
"""The left of the panel's text, in the panel's own units."""

TRIBE_COLOURS = (
    OKABE_ITO["orange"],
    OKABE_ITO["sky blue"],
    OKABE_ITO["bluish green"],
    OKABE_ITO["vermillion"],
    OKABE_ITO["black"],
)
"""Seats' tribes in seat order (Okabe–Ito); each tent and totem also carries its letter."""
THIRD = "#BBBBBB"
"""The neutral third tribe of a 2-player game (letter n)."""
TERRAIN_FILLS = {
    Terrain.TUNDRA: "#CFD8B4",
    Terrain.FOREST: "#93C190",
    Terrain.GLACIER: "#E4EEF4",
    Terrain.COAST: "#9FC8E3",
    Terrain.DESERT: "#EFD39A",
}
LAND = "#8B6B43"
WATER = "#2C7FB8"


def tribe_colour(state: IwariState, tribe: int) -> str:
    return THIRD if tribe >= state.players else TRIBE_COLOURS[tribe]


def picture(state: IwariState, seats: Sequence[str], viewer: Viewer, last: Event | None) -> Picture:
    game_map = state.map
    parts: list[Part] = [("map", _map(game_map)), ("links", _links(state))]
    for t in game_map.territories:
        parts.append((f"t{t.id}", _territory(state, t.id)))
    parts.append(("last", _last(state, last)))
    beside: list[Part] = [("drawn", _drawn_from(last)), *_cards(state)]
    beside.extend(_tribes(state, seats, viewer))
    beside.append(("extras", _extras(state, seats)))
    beside.append(("legend", _legend(game_map)))
    panel = Picture(PANEL_W, HEIGHT, tuple(beside))
    return Picture(WIDTH, HEIGHT, tuple(parts), title=f"Iwari: {', '.join(seats)}", panel=panel)


# --- geometry -------------------------------------------------------------------------------------


def _space(game_map: Map, space: int) -> tuple[float, float]:
    x, y = game_map.space_xy[space] if game_map.space_xy else (0, 0)
    return MX + x * XS, MY + y * YS


def _cell(game_map: Map, tid: int) -> tuple[float, float]:
    t = game_map.territory(tid)
    return MX + t.col * 10 * XS, MY + t.row * 10 * YS


def _ends(game_map: Map, c: Connection) -> tuple[tuple[float, float], tuple[float, float]]:
    if c.spaces is not None and game_map.space_xy:
        return _space(game_map, c.spaces[0]), _space(game_map, c.spaces[1])
    (ax, ay), (bx, by) = _cell(game_map, c.a), _cell(game_map, c.b)
    return (ax + 5 * XS, ay + 5 * YS), (bx + 5 * XS, by + 5 * YS)


def _totem_xy(game_map: Map, tid: int) -> tuple[float, float]:
    x, y = _cell(game_map, tid)
    return x + 20, y + 10 * YS - 18


# --- the map (drawn once) -------------------------------------------------------------------------


def _map(game_map: Map) -> str:
    out = [f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{PAPER}"/>']
    for t in game_map.territories:
        x, y = _cell(game_map, t.id)
        out.append(
            f'<rect x="{x + 4}" y="{y + 4}" width="{10 * XS - 8}" height="{10 * YS - 8}" rx="10" '
            f'fill="{TERRAIN_FILLS[t.terrain]}" stroke="#7A7468" stroke-width="1" '
            f"{data(territory=t.id, terrain=t.terrain.value)}/>"
        )
        out.append(
            text(
                x + 11, y + 19, f"{t.id} {t.terrain.value}", size=11, weight="bold", fill="#3D3A33"
            )
        )
        tx, ty = _totem_xy(game_map, t.id)
        out.append(
            f'<circle cx="{num(tx)}" cy="{num(ty)}" r="10" fill="#FFFFFF" fill-opacity="0.6" '
            f'stroke="#5A554C" stroke-width="1.2" stroke-dasharray="3 2"/>'
        )
    for space in game_map.road:  # the long road of the variant (I21)
        sx, sy = _space(game_map, space)
        out.append(
            f'<circle cx="{num(sx)}" cy="{num(sy)}" r="12.5" fill="#E69F00" fill-opacity="0.35" '
            'stroke="#8B6B43" stroke-width="1" stroke-dasharray="2 2"/>'
        )
    for a in range(1, game_map.spaces + 1):  # paths between tent spaces
        for b in game_map.links[a]:
            if b > a:
                (x1, y1), (x2, y2) = _space(game_map, a), _space(game_map, b)
                out.append(
                    f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" '
                    'stroke="#6F6A5E" stroke-width="1.6" stroke-dasharray="1 3" stroke-linecap="round"/>'
                )
    return "".join(out)


def _legend(game_map: Map) -> str:
    """In the panel, at its foot: what the pieces and lines mean."""
    out = []
    legend = [
        "tents: triangles · totems: circles, by letter",
        "connections: brown land, blue dashed water;",
        "grey peak: covered by a mountain · ^n: its peaks",
    ] + (["orange rings: the long road"] if game_map.road else [])
    for k, line in enumerate(legend):
        y = HEIGHT - 14 - 17 * (len(legend) - 1 - k)
        out.append(text(PANEL_X, y, line, size=12, fill="#3D3A33"))
    return "".join(out)


# --- what changes ---------------------------------------------------------------------------------


def _links(state: IwariState) -> str:
    game_map = state.map
    out = []
    for c in game_map.connections:
        (x1, y1), (x2, y2) = _ends(game_map, c)
        covered = c.id in state.covered
        dash = ' stroke-dasharray="7 4"' if c.water else ""
        opacity = ' stroke-opacity="0.35"' if covered else ""
        out.append(
            f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" '
            f'stroke="{WATER if c.water else LAND}" stroke-width="5" stroke-linecap="round"{dash}{opacity}/>'
        )
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        factor = state.link_factors[c.id] if state.link_factors else 1
        label = f"{c.id}" + (f"×{factor}" if factor > 1 else "")
        attrs_ = data(connection=c.id, covered=str(covered).lower(), factor=factor)
        if covered:  # a grey peak no bigger than a number's chip: clear of tents and paths
            peak = [
                (mx - 11, my + 9),
                (mx - 11, my - 1),
                (mx, my - 12),
                (mx + 11, my - 1),
                (mx + 11, my + 9),
            ]
            out.append(
                group(
                    f'class="connection" {attrs_}',
                    f'<polygon points="{points(peak)}" fill="#8C8C8C" stroke="{INK}" stroke-width="1.2"/>',
                    text(
                        mx, my + 6, label, size=10, anchor="middle", fill="#FFFFFF", weight="bold"
                    ),
                )
            )
            continue
        width = 18 if factor == 1 else 28
        out.append(
            group(
                f'class="connection" {attrs_}',
                f'<rect x="{num(mx - width / 2)}" y="{num(my - 9)}" width="{width}" height="18" rx="9" '
                f'fill="#FFFFFF" stroke="{WATER if c.water else LAND}" stroke-width="2"/>',
                text(mx, my + 4, label, size=10, anchor="middle", weight="bold"),
                text(mx + width / 2 + 2, my - 6, f"^{c.peaks}", size=8, fill="#5A554C")
                if c.peaks
                else "",
            )
        )
    return group('class="links"', *out)


def _territory(state: IwariState, tid: int) -> str:
    game_map = state.map
    t = game_map.territory(tid)
    out: list[str] = []
    x, y = _cell(game_map, tid)
    factor = state.factors[tid] if state.factors else 1
    if factor > 1:
        out.append(
            f'<rect x="{x + 10 * XS - 40}" y="{y + 8}" width="30" height="16" rx="8" fill="{INK}"/>'
            + text(
                x + 10 * XS - 25,
                y + 20,
                f"×{factor}",
                size=11,
                anchor="middle",
                fill="#FFFFFF",
                weight="bold",
            )
        )
    for space in t.spaces:
        sx, sy = _space(game_map, space)
        owner = state.tents[space]
        if owner:
            tribe = owner - 1
            fill = tribe_colour(state, tribe)
            out.append(
                group(
                    f'class="tent" {data(space=space, tribe=letter(state, tribe))}',
                    shape("triangle", sx, sy - 1, 10, fill),
                    text(
                        sx,
                        sy + 6,
                        letter(state, tribe),
                        size=10,
                        anchor="middle",
                        fill=ink_on(fill),
                        weight="bold",
                    ),
                )
            )
        else:
            out.append(
                f'<circle cx="{num(sx)}" cy="{num(sy)}" r="8.5" fill="#FFFFFF" stroke="#6F6A5E" stroke-width="1"/>'
                + text(sx, sy + 3, space, size=8, anchor="middle", fill="#6F6A5E")
            )
    tx, ty = _totem_xy(game_map, tid)
    placed = [(i, n) for i, n in enumerate(state.totems[tid]) if n]
    for k, (tribe, n) in enumerate(placed):
        cx = tx + 21 * k  # the first in the circle, the others beside it
        fill = tribe_colour(state, tribe)
        out.append(
            group(
                f'class="totem" {data(territory=tid, tribe=letter(state, tribe), count=n)}',
                f'<circle cx="{num(cx)}" cy="{num(ty)}" r="9" fill="{fill}" stroke="{INK}" stroke-width="1.2"/>',
                text(
                    cx,
                    ty + 3.5,
                    f"{letter(state, tribe)}{n}",
                    size=9,
                    anchor="middle",
                    fill=ink_on(fill),
                    weight="bold",
                ),
            )
        )
    return group(f'class="territory" {data(territory=tid)}', *out)


def _last(state: IwariState, last: Event | None) -> str:
    """The last decision: the territory played in and the pieces placed, the feat's target, or
    the card source of a draw."""
    game_map = state.map
    ring = f'fill="none" stroke="{HIGHLIGHT}" stroke-width="4"'
    if isinstance(last, CardsPlayed | ThirdTribePlayed):
        x, y = _cell(game_map, last.territory)
        marks = [
            f'<rect x="{x + 2}" y="{y + 2}" width="{10 * XS - 4}" height="{10 * YS - 4}" rx="12" {ring} stroke-dasharray="8 4"/>'
        ]
        for piece in last.pieces:
            px, py = (
                _totem_xy(game_map, last.territory)
                if piece == TOTEM_PIECE
                else _space(game_map, piece)
            )
            marks.append(f'<circle cx="{num(px)}" cy="{num(py)}" r="14" {ring}/>')
        spaces = " ".join(str(p) for p in last.pieces if p != TOTEM_PIECE)
        totems = sum(1 for p in last.pieces if p == TOTEM_PIECE)
        return group(
            f'class="last" {data(territory=last.territory, spaces=spaces, totems=totems)}', *marks
        )
    if isinstance(last, FeatPlaced) and last.target != DECLINED:
        if last.kind in ("honour", "respect"):
            c = game_map.connection(last.target)
            (x1, y1), (x2, y2) = _ends(game_map, c)
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            return group(
                f'class="last" {data(connection=last.target)}',
                f'<circle cx="{num(mx)}" cy="{num(my)}" r="20" {ring}/>',
            )
        x, y = _cell(game_map, last.target)
        return group(
            f'class="last" {data(territory=last.target)}',
            f'<rect x="{x + 2}" y="{y + 2}" width="{10 * XS - 4}" height="{10 * YS - 4}" rx="12" {ring}/>',
        )
    return '<g class="last"></g>'


def _drawn_from(last: Event | None) -> str:
    """In the panel, the card source of a draw or an exchange: the deck or a display slot."""
    if isinstance(last, CardDrawn | CardExchanged):
        x, y = _slot_xy(last.source)
        ring = f'fill="none" stroke="{HIGHLIGHT}" stroke-width="4"'
        return group(
            f'class="last" {data(source="deck" if last.source == FROM_DECK else f"d{last.source}")}',
            f'<rect x="{x - 4}" y="{y - 4}" width="48" height="64" rx="7" {ring}/>',
        )
    return '<g class="drawn-from"></g>'


# --- the panel ------------------------------------------------------------------------------------


def _slot_xy(source: int) -> tuple[float, float]:
    """The top left of a card place in the panel: the deck (0) or display slot 1..4."""
    return PANEL_X + 50 * source, 30


def _card(x: float, y: float, card: Terrain | None, w: float = 40, h: float = 56) -> str:
    if card is None:
        return (
            f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" rx="5" fill="none" '
            f'stroke="#8A8478" stroke-dasharray="4 3"/>'
        )
    big = h >= 40
    return (
        f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" rx="5" '
        f'fill="{TERRAIN_FILLS[card]}" stroke="{INK}" stroke-width="1" {data(card=card.letter)}/>'
        + text(
            x + w / 2,
            y + h / 2 + (6 if big else 4),
            card.letter.upper(),
            size=16 if big else 11,
            anchor="middle",
            weight="bold",
        )
        + (text(x + w / 2, y + h - 5, card.value, size=7, anchor="middle") if big else "")
    )


def _back(x: float, y: float, w: float = 16, h: float = 22) -> str:
    return (
        f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" rx="3" fill="#5A554C" '
        f'stroke="{INK}" stroke-width="1"/>'
        f'<rect x="{num(x + 3)}" y="{num(y + 3)}" width="{num(w - 6)}" height="{num(h - 6)}" rx="2" '
        'fill="none" stroke="#C9C2B5" stroke-width="1"/>'
    )


def _cards(state: IwariState) -> list[Part]:
    """The deck, each display slot and the discard pile: a part each (a draw changes two)."""
    x0 = PANEL_X
    dx, dy = _slot_xy(FROM_DECK)
    parts: list[Part] = [
        (
            "card-titles",
            text(x0, 20, "Deck", size=12, weight="bold")
            + text(x0 + 50, 20, "Display", size=12, weight="bold")
            + text(PANEL_X + 260, 20, "Discard", size=12, weight="bold")
            + "".join(
                text(
                    _slot_xy(slot)[0] + 20,
                    dy + 72,
                    f"d{slot}",
                    size=10,
                    anchor="middle",
                    fill="#5A554C",
                )
                for slot in range(1, len(state.display) + 1)
            ),
        ),
        (
            "deck",
            group(
                f'class="deck" {data(cards=len(state.deck))}',
                _back(dx, dy, 40, 56) if state.deck else _card(dx, dy, None),
                text(dx + 20, dy + 72, f"{len(state.deck)} left", size=10, anchor="middle"),
                text(PANEL_X + 90, 122, f"the deck ran out {state.deck_outs}×", size=10)
                if state.deck_outs
                else "",
            ),
        ),
    ]
    for slot, card in enumerate(state.display, start=1):
        x, y = _slot_xy(slot)
        parts.append((f"d{slot}", _card(x, y, card)))
    x = PANEL_X + 260
    top = state.discard[-1] if state.discard else None
    parts.append(
        (
            "discard",
            group(
                f'class="discard" {data(cards=len(state.discard))}',
                _card(x, 30, top),
                text(x + 20, 102, _cards_word(len(state.discard)), size=10, anchor="middle"),
            ),
        )
    )
    return parts


def _tribes(state: IwariState, seats: Sequence[str], viewer: Viewer) -> list[Part]:
    """A part per tribe (its score, supply and hand as the viewer may see it)."""
    names = tribe_names(state, seats)
    y0 = 134
    parts: list[Part] = [("tribes", text(PANEL_X, y0, "Tribes", size=12, weight="bold"))]
    for tribe, name in enumerate(names):
        out = []
        y = y0 + 10 + 46 * tribe
        fill = tribe_colour(state, tribe)
        active = tribe == state.to_move and not state.over
        if active:
            out.append(
                f'<rect x="{PANEL_X - 4}" y="{y - 2}" width="{PANEL_W - 4}" height="44" rx="6" '
                f'fill="none" stroke="{INK}" stroke-width="2"/>'
            )
        out.append(shape("triangle", PANEL_X + 11, y + 13, 10, fill))
        out.append(
            text(
                PANEL_X + 11,
                y + 20,
                letter(state, tribe),
                size=10,
                anchor="middle",
                fill=ink_on(fill),
                weight="bold",
            )
        )
        out.append(
            text(
                PANEL_X + 28,
                y + 15,
                f"{name}  {state.scores[tribe]} points",
                size=12,
                weight="bold",
            )
        )
        out.append(
            text(
                PANEL_X + 28,
                y + 33,
                f"tents {state.tent_supply[tribe]} · totems {state.totem_supply[tribe]}",
                size=10,
            )
        )
        hand_data = ""
        if tribe < state.players:
            hand = state.hands[tribe]
            hx = PANEL_X + 150
            if sees_hand(state, viewer, tribe):
                cards = [t for t, n in zip(TERRAINS, hand, strict=True) for _ in range(n)]
                for k, card in enumerate(cards):
                    out.append(_card(hx + 19 * k, y + 8, card, 17, 24))
                label = "hand" if cards else "hand: empty"
                hand_data = "".join(c.letter for c in cards)
            else:
                for k in range(sum(hand)):
                    out.append(_back(hx + 19 * k, y + 8, 17, 24))
                label = f"hand: {_cards_word(sum(hand))}"
                hand_data = str(sum(hand))
            out.append(text(hx, y + 4, label, size=8, fill="#5A554C"))
        attributes = data(tribe=letter(state, tribe), score=state.scores[tribe], hand=hand_data)
        parts.append((f"tribe{tribe}", group(f'class="tribe" {attributes}', *out)))
    return parts


def _extras(state: IwariState, seats: Sequence[str]) -> str:
    y = 134 + 10 + 46 * state.tribes + 14
    out = []
    if state.feats_on:
        left = "  ".join(
            f"{kind} {n}" for kind, n in zip(FEAT_KINDS, state.feats_left, strict=True)
        )
        out.append(text(PANEL_X, y, "Feats left", size=11, weight="bold"))
        out.append(text(PANEL_X + 70, y, left, size=10))
        y += 18
    if state.expeditions:
        out.append(text(PANEL_X, y, "Expeditions", size=11, weight="bold"))
        for card in state.expeditions:
            y += 15
            who = ", ".join(seats[s] for s in card.claimed) or "open"
            out.append(text(PANEL_X + 8, y, f"{card.id}: {who}", size=10))
        y += 18
    if state.ending and not state.over:
        out.append(text(PANEL_X, y, "last round", size=11, weight="bold"))
        y += 18
    if state.over:
        won = [seats[i] for i in winners(state)]
        status = f"game over: {' and '.join(won)} {'win' if len(won) > 1 else 'wins'}"
    else:
        status = f"{seats[state.to_move]} {doing(state, hints=False)}"
    out.append(text(PANEL_X, y + 4, status, size=12, weight="bold"))
    return group('class="extras"', *out)


def _cards_word(n: int) -> str:
    return f"{n} card{'' if n == 1 else 's'}"
