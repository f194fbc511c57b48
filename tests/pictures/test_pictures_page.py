"""``tribes html``: the page holds nothing its viewer may not see, escapes every string of the log,
stays small, and the commands behave."""

from __future__ import annotations

import re

import attrs
import pytest
from pictures_testing import FIXTURES, frames, load, script_data

from tribes import games
from tribes.core.game import EVERYTHING, SPECTATOR
from tribes.core.prng import Stream
from tribes.events.logfile import GameLog
from tribes.replay import html, logs
from tribes.replay.demo import find_game

KB = 1024


def clans_with_clans(colours: dict[str, str]):
    """The full Clans fixture game from a position that is its start, with the clan cards
    dealt as ``colours`` says; the steps up to the last one before the end."""
    game, log, steps = load("clans", "full-game-3p")
    start = game.document(steps[0].state, log.header.seats, EVERYTHING)
    position = {
        "seats": list(log.header.seats),
        "clans": colours,
        "to_move": start["to_move"],
        "huts": start["huts"],
    }
    head = attrs.evolve(log.header, position=position)
    other = GameLog(header=head, events=log.events)
    replayed = logs.steps_of(game, other, verify=False)
    playing = [s for s in replayed if not game.is_over(s.state)]
    return game, other, playing


def test_a_clans_page_does_not_depend_on_the_clans_its_viewer_may_not_see():
    """Deal other clans to the other seats: the spectator's page and ann's stay byte-identical
    (before the end, when the cards are shown): nothing in them tells the hidden colours."""
    a = clans_with_clans({"ann": "red", "bob": "green", "cy": "yellow"})
    b = clans_with_clans({"ann": "red", "bob": "black", "cy": "green"})
    c = clans_with_clans({"ann": "blue", "bob": "yellow", "cy": "red"})
    spectator = [html.page(*x, SPECTATOR) for x in (a, b, c)]
    assert spectator[0] == spectator[1] == spectator[2]
    ann = [html.page(*x, 0) for x in (a, b)]
    assert ann[0] == ann[1]
    assert html.page(*a, 0) != html.page(*c, 0)  # and ann's own colour is there
    seats = frames(ann[0])[0]
    assert 'data-clan="red"' in seats["seat0"]
    assert 'data-clan="hidden"' in seats["seat1"] and 'data-clan="hidden"' in seats["seat2"]


def test_an_iwari_page_holds_no_hand_its_viewer_may_not_see():
    game, log, steps = load("iwari", "full-game-2p")
    seats = log.header.seats
    for viewer in (SPECTATOR, 0):
        page = html.page(game, log, steps, viewer)
        for i, parts in enumerate(frames(page)):
            if game.is_over(steps[i].state):
                continue
            for tribe in (0, 1):
                if tribe == viewer:
                    continue
                part = parts[f"tribe{tribe}"]
                assert "data-card" not in part, f"{seats[tribe]}'s hand at event {i}"
                assert f'data-hand="{sum(steps[i].state.hands[tribe])}"' in part
        data = script_data(page, "tribes-data")
        texts = " ".join(" ".join(s["c"]) + " " + s["p"] for s in data["steps"])
        hidden = [seats[t] for t in (0, 1) if t != viewer]
        for name in hidden:
            assert not re.search(rf"hand of {name}: [tfgcd]", texts), texts
        drawn = {
            s.index: s.seat
            for s in steps
            if type(s.event).__name__ == "CardDrawn" and s.event.source == 0
        }
        assert drawn
        for index, seat in drawn.items():
            line = re.search(rf'<li data-i="{index}".*?</li>', page).group(0)
            if seat == viewer:
                assert re.search(r"draws an? (?!card)\w+ from the deck", line), line
            else:
                assert "draws a card from the deck" in line, line
        if viewer is SPECTATOR:
            assert "options" not in texts  # the third tribe's options would tell the hand
        else:
            assert "options: third" in texts  # ann decides for the third tribe from her hand


def test_a_page_holds_neither_the_seed_nor_the_starting_position():
    game = games.get("iwari")
    seed = 8_123_456_789_012
    head = logs.header(game, seats=["ann", "bob", "cy"], seed=seed)
    state, events, picks = game.setup(head), [], Stream(1, "page")
    for _ in range(60):
        moves = game.legal_moves(state)
        events.append(moves[picks.below(len(moves))])
        state, _ = game.apply(state, events[-1])
    log = GameLog(header=head, events=tuple(events))
    page = html.page(game, log, logs.steps_of(game, log, verify=False), SPECTATOR)
    assert str(seed) not in page
    assert '"seed"' not in page and "position" not in page


HOSTILE = (
    "</script><script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "q\"u'o`t&e<!--",
)


def hostile_page(viewer=EVERYTHING) -> str:
    game, log, steps = load("clans", "two-players")
    head = attrs.evolve(
        log.header,
        seats=HOSTILE[:2],
        meta={"note": HOSTILE[2], HOSTILE[0]: HOSTILE[1]},
    )
    return html.page(game, attrs.evolve(log, header=head), steps, viewer)


def test_every_string_of_the_log_is_escaped():
    page = hostile_page()
    assert page.count("<script") == 3 and page.count("</script>") == 3  # the page's own only
    assert "<img" not in page and "<!--" not in page
    for text in HOSTILE:
        assert html.esc(text) in page  # shown, as text
    for name in HOSTILE[:2]:  # and in the drawings' and the status's data, escaped too
        assert any(html.esc(name) in part for part in frames(page)[0].values())
        assert name in str(script_data(page, "tribes-data"))


def test_the_demo_page_is_under_300_kb():
    game = games.get("clans")
    log = find_game(game)
    page = html.page(game, log, logs.steps_of(game, log, verify=False))
    assert len(page.encode()) < 300 * KB


@pytest.mark.parametrize(
    "path", sorted(p.relative_to(FIXTURES) for p in FIXTURES.glob("*/full-game-*.json")), ids=str
)
@pytest.mark.parametrize("viewer", [SPECTATOR, EVERYTHING], ids=["spectator", "all"])
def test_a_full_game_page_is_under_2_mb(path, viewer) -> None:
    game, log, steps = load(path.parent.name, path.stem)
    page = html.page(game, log, steps, viewer)
    assert len(page.encode()) < 2 * KB * KB


def test_html_writes_a_page_and_says_where(cli):
    log = FIXTURES / "iwari" / "full-game-2p.json"
    out = cli.ok("html", log, "-o", cli.path("game.html"), "--as", "ann")
    assert out.startswith(f"{cli.path('game.html')}: ") and "as ann" in out and "KB" in out
    assert cli.path("game.html").read_text().startswith("<!DOCTYPE html>")
    copy = cli.path("copy.json")
    copy.write_bytes(log.read_bytes())
    assert "as a spectator" in cli.ok("html", copy)
    assert cli.path("copy.html").exists()


def test_html_refuses_an_unknown_viewer(cli):
    line = cli.fails("html", FIXTURES / "clans" / "two-players.json", "--as", "zed", code=2)
    assert "'zed' is no seat" in line


def test_show_svg(cli):
    log = FIXTURES / "clans" / "full-game-3p.json"
    out = cli.ok("show", log, "--svg", "--at", "3", "--as", "spectator")
    assert out.startswith("<svg") and out.endswith("</svg>\n")
    assert 'data-clan="hidden"' in out
    cli.ok("show", log, "--svg", "-o", cli.path("b.svg"))
    assert cli.path("b.svg").read_text() == cli.ok("show", log, "--svg")
    assert "--json or --svg" in cli.fails("show", log, "--svg", "--json", code=2)


def test_a_page_names_nothing_to_fetch():
    """One file: no link, font, image or script from anywhere (only SVG's namespace name), and
    a Content-Security-Policy that would refuse them."""
    game, log, steps = load("iwari", "full-game-5p-variants")
    page = html.page(game, log, steps)
    assert set(re.findall(r"(?:https?:)?//[\w.-]+[^\s\"'<>]*", page)) <= {
        "http://www.w3.org/2000/svg"
    }
    assert "default-src 'none'" in page
    assert not re.search(r"<(link|img|iframe|object|embed)\b|@import|url\(|src=", page)
