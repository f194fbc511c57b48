"""The built-in games' drawings (that every game's SVG is well-formed and sized is the
conformance kit's check, ``tests/conformance``): the drawn pieces are the state's, the last move
is highlighted, and hidden parts are not drawn."""

from __future__ import annotations

from pictures_testing import clans_huts, iwari_pieces, load, parse, pieces

from tribes import games
from tribes.core.game import EVERYTHING, SPECTATOR
from tribes.core.views import step_document
from tribes.replay import logs


def test_clans_huts_drawn_are_the_states_at_every_step():
    game, log, steps = load("clans", "full-game-3p")
    for step in steps:
        svg = game.svg(step.state, log.header.seats, EVERYTHING, step.event)
        document = step_document(game, log.header, step.index, step.state, EVERYTHING)
        assert clans_huts(svg) == document["huts"], f"at event {step.index}"
        villages = {int(v["territory"]) for v in document["villages"]}
        drawn = {
            int(t["territory"])
            for t in pieces(svg, "territory")
            if t["state"] in ("village", "doomed")
        }
        assert drawn == villages


def test_iwari_pieces_drawn_are_the_states_at_every_step():
    game, log, steps = load("iwari", "full-game-3p-feats")
    for step in steps:
        svg = game.svg(step.state, log.header.seats, EVERYTHING, step.event)
        document = step_document(game, log.header, step.index, step.state, EVERYTHING)
        tents, totems = iwari_pieces(svg, log.header.seats)
        want = {t: {k: sorted(v) for k, v in row.items()} for t, row in document["tents"].items()}
        assert tents == want, f"at event {step.index}"
        assert totems == document["totems"], f"at event {step.index}"
        covered = {
            int(c["connection"]) for c in pieces(svg, "connection") if c["covered"] == "true"
        }
        assert covered == set(document["covered"])


def test_clans_last_move_marks_source_and_target():
    game, log, steps = load("clans", "full-game-3p")
    step = steps[5]
    (last,) = pieces(game.svg(step.state, log.header.seats, None, step.event), "last")
    assert (int(last["source"]), int(last["target"])) == (step.event.source, step.event.target)
    orders = [s for s in steps if type(s.event).__name__ == "OrderChosen"]
    assert orders
    (last,) = pieces(game.svg(orders[0].state, log.header.seats, None, orders[0].event), "last")
    assert last["order"] == " ".join(map(str, orders[0].event.villages))


def test_iwari_last_play_marks_its_territory_and_pieces():
    game, log, steps = load("iwari", "full-game-2p")
    plays = [s for s in steps if type(s.event).__name__ in ("CardsPlayed", "ThirdTribePlayed")]
    assert plays
    for step in plays[:5]:
        (last,) = pieces(game.svg(step.state, log.header.seats, None, step.event), "last")
        assert int(last["territory"]) == step.event.territory
        placed = [p for p in step.event.pieces if p]
        assert last["spaces"] == " ".join(map(str, placed))


def test_clans_colours_are_drawn_only_where_the_viewer_may_see_them():
    game, log, steps = load("clans", "full-game-3p")
    middle = steps[20]
    assert not game.is_over(middle.state)
    colours = [c.value for c in middle.state.clans]
    seen = {
        s["seat"]: s["clan"] for s in pieces(game.svg(middle.state, log.header.seats, None), "seat")
    }
    assert set(seen.values()) == {"hidden"}
    seen = {
        s["seat"]: s["clan"] for s in pieces(game.svg(middle.state, log.header.seats, 1), "seat")
    }
    assert seen == {"ann": "hidden", "bob": colours[1], "cy": "hidden"}
    end = steps[-1]
    seen = {
        s["seat"]: s["clan"] for s in pieces(game.svg(end.state, log.header.seats, None), "seat")
    }
    assert list(seen.values()) == [c.value for c in end.state.clans]


def test_iwari_hands_are_drawn_only_where_the_viewer_may_see_them():
    game, log, steps = load("iwari", "full-game-3p-feats")
    middle = steps[30].state
    for viewer in (SPECTATOR, 0, 2):
        svg = game.svg(middle, log.header.seats, viewer)
        for tribe in pieces(svg, "tribe"):
            seat = "abc".index(tribe["tribe"])
            cards = sum(middle.hands[seat])
            if viewer == seat:
                assert len(tribe["hand"]) == cards and tribe["hand"].isalpha()
            else:
                assert tribe["hand"] == str(cards)
        assert svg.count('data-card="') == 4 + (len(middle.discard) > 0) + (
            sum(middle.hands[viewer]) if viewer is not None else 0
        )


def test_hostile_seat_names_are_escaped_in_the_drawing():
    game = games.get("clans")
    names = ("</text><script>x</script>", "a\"b'c&d", "<img src=x onerror=alert(1)>")
    head = logs.header(game, seats=["a", "b", "c"], seed=5)
    state = game.setup(head)
    svg = game.svg(state, names, EVERYTHING)
    root = parse(svg)
    assert not [n for n in root.iter() if n.tag.endswith("script") or n.tag.endswith("img")]
    texts = "".join(n.text or "" for n in root.iter())
    for name in names:
        assert name in texts


def test_hunters_tiles_and_pieces_drawn_are_the_states_at_every_step():
    game, log, steps = load("hunters", "full-game-4p")
    letters = dict(zip("abcde", log.header.seats, strict=False))
    for step in [*steps[:: max(1, len(steps) // 12)], steps[-1]]:
        svg = game.svg(step.state, log.header.seats, SPECTATOR, step.event)
        document = step_document(game, log.header, step.index, step.state, SPECTATOR)
        tiles = sorted(
            (int(t["x"]), int(t["y"]), int(t["tile"]), int(t["rotation"]))
            for t in pieces(svg, "tile")
        )
        assert tiles == sorted(
            (t["x"], t["y"], t["tile"], t["rotation"]) for t in document["tiles"]
        )
        drawn = sorted(
            (int(p["x"]), int(p["y"]), int(p["feature"]), p["kind"], letters[p["seat"]])
            for p in pieces(svg, "piece")
        )
        assert drawn == sorted(
            (p["x"], p["y"], p["feature"], p["kind"], p["seat"]) for p in document["pieces"]
        )
        complete = len(pieces(svg, "complete"))
        assert complete == sum(1 for f in document["features"] if f.get("complete"))
        if step.index:
            (last,) = pieces(svg, "last")
            x, y = step.state.placed[-1][:2]
            assert (int(last["x"]), int(last["y"])) == (x, y)
