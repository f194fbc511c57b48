"""Whole random games checked step by step against the test writer's own model of the rules
(``hunters_model``): H5 (every fitting placement, nothing else), H6 (which pieces may go where),
H7–H12 (what each move scores, who goes home), H13 (gold earns a bonus tile), H14–H17 (the end
and final scoring), H18 (winners) and the ``features`` list of ``show --json``.

The moves are drawn by a seeded ``random.Random`` of the test (the engine never sees it).
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from hunters_helpers import DX, bot_move, doc, legal, make_bot, placements, play, start
from hunters_model import Layout, completion, final, piece_options

MOVE = re.compile(r"(-?\d+),(-?\d+)([NESW])(?:\+(hut|g|f|h)(\d+))?")
KIND = {"g": "gatherer", "f": "fisher", "h": "hunter", "hut": "hut"}


def _parse(text):
    m = MOVE.fullmatch(text)
    assert m, text
    piece = (KIND[m[4]], int(m[5])) if m[4] else None
    return int(m[1]), int(m[2]), "NESW".index(m[3]), piece


def _tiles(d):
    return [(t["x"], t["y"], t["tile"], t["rotation"]) for t in d["tiles"]]


def _pieces(d):
    return sorted((p["x"], p["y"], p["feature"], p["kind"], p["seat"]) for p in d["pieces"])


def _supply_left(pieces, seats):
    on = Counter((p[4], p[3] == "hut") for p in pieces)
    return {s: {"members": 5 - on[(s, False)], "huts": 2 - on[(s, True)]} for s in seats}


def _features(layout):
    out = {"forest": [], "river": [], "meadow": [], "system": []}
    for kind in ("forest", "river"):
        for root in layout.roots(kind):
            out[kind].append((layout.cells_of(layout.group(root)), layout.complete(root)))
    for root in layout.roots("meadow"):
        out["meadow"].append((layout.cells_of(layout.group(root)), None))
    for node in layout.system_roots():
        out["system"].append((layout.cells_of(layout.system(node)), layout.system_fish(node)))
    return {k: sorted(v) for k, v in out.items()}


def _engine_features(d):
    out = {"forest": [], "river": [], "meadow": [], "system": []}
    for f in d["features"]:
        cells = tuple(sorted({tuple(c) for c in f["tiles"]}))
        if f["type"] in ("forest", "river"):
            out[f["type"]].append((cells, f["complete"]))
        elif f["type"] == "meadow":
            out["meadow"].append((cells, f["complete"]))
        elif f["type"] == "system":
            out["system"].append((cells, f["fish"]))
    return {k: sorted(v) for k, v in out.items()}


def _details(layout, pieces):
    """What the test writer's model says of each feature beyond its cells: the pieces in it
    (members; huts for a system), a meadow's mammoths, aurochs, fire and shrine."""
    out = []
    for kind in ("forest", "river", "meadow"):
        for root in layout.roots(kind):
            nodes = set(layout.group(root))
            who = Counter(p[4] for p in pieces if p[3] != "hut" and p[:3] in nodes)
            extra = ()
            if kind == "meadow":
                count = Counter()
                for n in nodes:
                    count.update(layout.info(n).get("animals", {}))
                flags = tuple(any(layout.info(n).get(f) for n in nodes) for f in ("fire", "shrine"))
                extra = (count["mammoth"], count["aurochs"], *flags)
            out.append((kind, layout.cells_of(nodes), tuple(sorted(who.items())), extra))
    for node in layout.system_roots():
        nodes = set(layout.system(node))
        who = Counter(p[4] for p in pieces if p[3] == "hut" and p[:3] in nodes)
        out.append(("system", layout.cells_of(nodes), tuple(sorted(who.items())), ()))
    return sorted(out)


def _engine_details(d):
    out = []
    for f in d["features"]:
        cells = tuple(sorted({tuple(c) for c in f["tiles"]}))
        who = tuple(sorted((s, n) for s, n in f["pieces"].items() if n))
        extra = ()
        if f["type"] == "meadow":
            a = f["animals"]
            extra = (a["mammoth"], a["aurochs"], bool(f["fire"]), bool(f["shrine"]))
        out.append((f["type"], cells, who, extra))
    return sorted(out)


def _check_moves(rng, d, moves, seats):
    tiles, drawn = _tiles(d), d["drawn"]
    by_place: dict[str, set] = {}
    for text in moves:
        place = text.split("+")[0]
        piece = _parse(text)[3]
        by_place.setdefault(place, set())
        if piece:
            by_place[place].add(piece)
    # H5: every cell and rotation where the drawn tile fits, and nothing else
    assert set(by_place) == placements(tiles, drawn), drawn
    # H6: the pieces allowed on a few of them
    pieces = _pieces(d)
    left = _supply_left(pieces, seats)[d["to_move"]]
    for place in rng.sample(sorted(by_place), min(4, len(by_place))):
        x, y, r, _ = _parse(place)
        layout = Layout([*tiles, (x, y, drawn, r)])
        want = piece_options(layout, x, y, pieces, left["members"], left["huts"])
        assert by_place[place] == want, (place, drawn)


def _dense(d, moves):
    """The moves whose tile touches the most placed tiles: crowded layouts, where features join
    and close more often than in random play."""
    cells = {(t["x"], t["y"]) for t in d["tiles"]}

    def touching(text):
        x, y, _, _ = _parse(text)
        return sum((x + dx, y + dy) in cells for dx, dy in DX.values())

    best = max(touching(m) for m in moves)
    return [m for m in moves if touching(m) == best]


def _playout(seed, seats, check_moves=True, dense=False, bot=None):
    """A whole game: moves drawn by the test's own random choice (``dense``: mostly among the
    placements touching the most tiles), or chosen by one of the game's bots (``bot``)."""
    rng = random.Random(seed)
    state = start(seats=seats, seed=seed)
    bots = [make_bot(bot, seed, i) for i in range(len(seats))] if bot else None
    steps = 0
    while True:
        d = doc(state, seats)
        if d["over"]:
            break
        moves = legal(state)
        assert moves
        if check_moves:
            _check_moves(rng, d, moves, seats)
        pool = _dense(d, moves) if dense and rng.random() < 0.8 else moves
        with_piece = [m for m in pool if "+" in m]
        text = rng.choice(with_piece if with_piece and rng.random() < 0.7 else pool)
        if bots:
            text = bot_move(bots[seats.index(d["to_move"])], state)
        x, y, r, piece = _parse(text)
        seat = d["to_move"]
        before = _pieces(d)
        placed = [*before, (x, y, piece[1], piece[0], seat)] if piece else before
        layout = Layout([*_tiles(d), (x, y, d["drawn"], r)])
        points, home, gold = completion(layout, x, y, placed)

        state, _ = play(state, text)
        after = doc(state, seats)
        steps += 1

        expect_pieces = sorted(p for p in placed if p not in home)
        expect_scores = {s: d["scores"][s] + points.get(s, 0) for s in seats}
        assert _engine_features(after) == _features(layout), (seed, steps, text)
        if not after["over"]:
            assert _engine_details(after) == _details(layout, expect_pieces), (seed, steps, text)
        if after["over"]:
            for s, v in final(layout, expect_pieces).items():
                expect_scores[s] += v
            expect_pieces = [p for p in expect_pieces if p[3] in ("hunter", "hut")]
        assert after["scores"] == expect_scores, (seed, steps, text, points)
        assert _pieces(after) == sorted(expect_pieces), (seed, steps, text)
        assert after["supply"] == _supply_left(expect_pieces, seats)
        # H13: gold in a forest completed by a land tile earns one bonus tile, nothing else does
        earned = gold and d["pending"] is None and d["bonus_stack"] > 0
        if earned:
            assert after["bonus_stack"] < d["bonus_stack"], (seed, steps, text)
        else:
            assert after["bonus_stack"] == d["bonus_stack"], (seed, steps, text)
            assert after["pending"] is None
        if after["pending"] is None and not after["over"]:
            # H3: seat order; after a bonus tile too, the seat after its placer
            assert after["to_move"] == seats[(seats.index(seat) + 1) % len(seats)]
        if after["pending"] is not None:
            assert earned
            assert after["pending"]["seat"] == seat
            assert after["to_move"] == seat
    top = max(d["scores"].values())
    assert d["winners"] == [s for s in seats if d["scores"][s] == top]
    assert d["stack"] == 0
    assert len(list(d["tiles"])) + len(d["removed"]) == 1 + 78 + 12 - d["bonus_stack"]
    return steps


@pytest.mark.parametrize("seed", [1, 2])
def test_random_two_player_games_follow_the_rules(seed):
    assert _playout(seed, ("ann", "bob")) >= 20


@pytest.mark.parametrize("seed", [11, 12])
def test_random_games_of_three_to_five_players_follow_the_rules(seed):
    seats = ("ann", "bob", "cy", "dee", "eve")[: 3 + seed % 3]
    _playout(seed, seats, check_moves=seed == 11)


@pytest.mark.parametrize(("seed", "players"), [(22, 3), (23, 4)])
def test_crowded_random_games_follow_the_rules(seed, players):
    _playout(seed, ("ann", "bob", "cy", "dee")[:players], dense=True)


@pytest.mark.parametrize(("seed", "players"), [(31, 2), (32, 3)])
def test_games_of_the_greedy_bot_follow_the_rules(seed, players):
    """The game's own greedy bot places pieces where they score: big joined features, ties and
    majorities, which random play rarely builds."""
    _playout(seed, ("ann", "bob", "cy")[:players], check_moves=False, bot="greedy")
