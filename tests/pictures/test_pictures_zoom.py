"""The page's board in a real browser (the system's Chromium through Playwright, as
test_pictures_browser.py): pan and zoom by wheel, drag and keys, a scale that stays put while
stepping with the last move kept in view, a Hunters game at its end legible tile by tile with its
ids, the drawn tile's feature ids apart, the final scoring folded, overlaps gone (Clans' arrow
and village labels, Iwari's mountains and legend), and an .svg file opened directly and
screenshot whole at once. Sizes are read from the rendered page (bounding boxes), never assumed.

Every test writes its own files under its own ``tmp_path`` and opens its own page: safe to run in
parallel (pytest-xdist), no port and no shared file name."""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Any

import pytest
from pictures_testing import load
from test_pictures_browser import TIMEOUT_MS, Opened, decode_png, open_page

from tribes.core.game import SPECTATOR
from tribes.replay import html

BOX = """(sel) => Array.from(document.querySelectorAll(sel)).map((e) => {
  const r = e.getBoundingClientRect();
  return {x: r.x, y: r.y, w: r.width, h: r.height, text: e.textContent};
})"""


def boxes(opened: Opened, selector: str) -> list[dict[str, Any]]:
    return opened.page.evaluate(BOX, selector)


def scale(opened: Opened) -> float:
    return float(opened.page.locator("#board").get_attribute("data-scale") or 0)


def inside(inner: dict[str, Any], outer: dict[str, Any]) -> bool:
    return (
        inner["x"] >= outer["x"] - 1
        and inner["y"] >= outer["y"] - 1
        and inner["x"] + inner["w"] <= outer["x"] + outer["w"] + 1
        and inner["y"] + inner["h"] <= outer["y"] + outer["h"] + 1
    )


def overlap(a: dict[str, Any], b: dict[str, Any], margin: float = 0.5) -> bool:
    return (
        a["x"] + margin < b["x"] + b["w"]
        and b["x"] + margin < a["x"] + a["w"]
        and a["y"] + margin < b["y"] + b["h"]
        and b["y"] + margin < a["y"] + a["h"]
    )


def hunters_page(browser: Any, tmp_path: Path, name: str = "full-game-2p") -> tuple[Opened, Any]:
    game, log, steps = load("hunters", name)
    return open_page(browser, tmp_path, html.page(game, log, steps, SPECTATOR)), steps


# --- a Hunters game at its end -------------------------------------------------------------------


def test_a_hunters_game_at_its_end_shows_the_last_tile_legible_with_its_id(browser, tmp_path):
    opened, steps = hunters_page(browser, tmp_path)
    opened.press("End")
    (viewport,) = boxes(opened, "#viewport")
    (last,) = boxes(opened, "#board g.last")
    assert inside(last, viewport), "the last move is in view"
    x, y = steps[-1].state.placed[-1][:2]
    (tile,) = boxes(opened, f'#board g.tile[data-x="{x}"][data-y="{y}"]')
    assert tile["w"] >= 90 and tile["h"] >= 90, f"a tile of {tile['w']:.0f} px is not legible"
    assert inside(tile, viewport)
    label = [
        b for b in boxes(opened, f'#board g.tile[data-x="{x}"][data-y="{y}"] text') if b["text"]
    ]
    tile_id = str(steps[-1].state.placed[-1][2])
    (id_box,) = [b for b in label if b["text"] == tile_id]
    assert id_box["h"] >= 11, f"the tile id is {id_box['h']:.1f} px high"
    # contrast: the id is dark ink on a light chip, not white on light green
    fill = opened.page.evaluate(
        """([x, y, id]) => {
          const g = document.querySelector(`#board g.tile[data-x="${x}"][data-y="${y}"]`);
          const t = Array.from(g.querySelectorAll("text")).find((e) => e.textContent === id);
          return [getComputedStyle(t).fill, t.previousElementSibling.getAttribute("fill")];
        }""",
        [x, y, tile_id],
    )
    assert fill == ["rgb(34, 34, 34)", "#FFFFFF"]
    assert opened.errors == []


def test_the_drawn_tile_shows_its_feature_ids_apart_and_says_what_each_is(browser, tmp_path):
    opened, steps = hunters_page(browser, tmp_path)
    state = steps[0].state
    tile = state.tiles.tiles[state.drawn]
    ids = boxes(opened, "#panel g.drawn .feature-id")
    assert sorted(int(b["text"]) for b in ids) == sorted(tile.features)
    for i, a in enumerate(ids):
        assert a["h"] >= 14, f"feature id {a['text']} is {a['h']:.1f} px high"
        for b in ids[i + 1 :]:
            assert not overlap(a, b), f"ids {a['text']} and {b['text']} overlap"
    lines = [b["text"] for b in boxes(opened, "#panel text")]
    for fid in tile.features:
        kind = tile.features[fid].type
        assert any(line.startswith(f"{fid} {kind}") for line in lines), lines
    # the moves now, beside it, name those ids: 0,-1N +g0 +h1
    options = " ".join(b["text"] for b in boxes(opened, "#options li"))
    assert re.search(r"\+[gfh]\d", options), options
    assert opened.errors == []


def test_no_drawn_tile_leaves_no_gap(browser, tmp_path):
    opened, _ = hunters_page(browser, tmp_path)
    opened.press("End")
    texts = {b["text"]: b for b in boxes(opened, "#panel text")}
    none = texts["Drawn tile: none"]
    stacks = next(b for t, b in texts.items() if t.startswith("stacks:"))
    assert 0 < stacks["y"] - (none["y"] + none["h"]) < 16


def test_the_final_scoring_is_folded_and_opens_on_a_click(browser, tmp_path):
    opened, steps = hunters_page(browser, tmp_path)
    last = opened.page.locator(f'#moves li[data-i="{len(steps) - 1}"]')
    folded = last.bounding_box()
    assert folded and folded["height"] < 60, "the last move's effects are folded"
    assert "more" in (last.locator("summary").text_content() or "")
    last.locator("summary").click()
    opened_box = last.bounding_box()
    assert opened_box and opened_box["height"] > 2 * folded["height"]
    assert "game over" in (last.text_content() or "")


def test_the_header_names_the_game_by_its_proper_name(browser, tmp_path):
    opened, _ = hunters_page(browser, tmp_path)
    assert opened.state()["title"].startswith("Carcassonne: Hunters and Gatherers: ")
    game, log, steps = load("clans", "full-game-3p")
    (tmp_path / "clans").mkdir()
    clans = open_page(browser, tmp_path / "clans", html.page(game, log, steps))
    assert clans.state()["title"].startswith("Clans: ")


# --- pan and zoom --------------------------------------------------------------------------------


def test_keys_zoom_in_out_and_fit(browser, tmp_path):
    opened, _ = hunters_page(browser, tmp_path)
    opened.press("End")
    k = scale(opened)
    opened.press("+")
    assert scale(opened) == pytest.approx(k * 1.25, rel=1e-3)
    opened.press("-", "-")
    assert scale(opened) == pytest.approx(k * 0.8, rel=1e-3)
    opened.press("0")  # the whole board in view
    (viewport,) = boxes(opened, "#viewport")
    tiles = boxes(opened, "#board g.tile")
    assert tiles and all(inside(t, viewport) for t in tiles)
    assert scale(opened) < k
    before = boxes(opened, "#board g.tile")[0]
    at = opened.state()["current"]
    opened.press("Shift+ArrowRight")  # pans (the board moves left, as a view moving right)
    after = boxes(opened, "#board g.tile")[0]
    assert after["x"] < before["x"]
    assert opened.state()["current"] == at  # and does not step


def test_the_wheel_zooms_about_the_pointer_and_a_drag_pans(browser, tmp_path):
    opened, steps = hunters_page(browser, tmp_path)
    opened.press("End")
    x, y = steps[-1].state.placed[-1][:2]
    selector = f'#board g.tile[data-x="{x}"][data-y="{y}"]'
    (tile,) = boxes(opened, selector)
    cx, cy = tile["x"] + tile["w"] / 2, tile["y"] + tile["h"] / 2
    k = scale(opened)
    opened.page.mouse.move(cx, cy)
    opened.page.mouse.wheel(0, -240)  # up: in
    opened.page.wait_for_function(
        f"() => Number(document.getElementById('board').dataset.scale) > {k}"
    )
    (zoomed,) = boxes(opened, selector)
    assert zoomed["w"] > tile["w"] * 1.2
    # the point under the pointer stayed under it
    assert zoomed["x"] + zoomed["w"] / 2 == pytest.approx(cx, abs=3)
    assert zoomed["y"] + zoomed["h"] / 2 == pytest.approx(cy, abs=3)
    opened.page.mouse.down()
    opened.page.mouse.move(cx - 120, cy + 50, steps=6)
    opened.page.mouse.up()
    (dragged,) = boxes(opened, selector)
    assert dragged["x"] == pytest.approx(zoomed["x"] - 120, abs=2)
    assert dragged["y"] == pytest.approx(zoomed["y"] + 50, abs=2)
    assert opened.errors == []


def test_the_buttons_zoom_and_fit(browser, tmp_path):
    opened, _ = hunters_page(browser, tmp_path)
    k = scale(opened)
    opened.page.click("#zoom-in")
    assert scale(opened) == pytest.approx(k * 1.25, rel=1e-3)
    opened.page.click("#zoom-out")
    assert scale(opened) == pytest.approx(k, rel=1e-3)
    opened.page.click("#zoom-fit")
    assert opened.page.locator("#scale").text_content() == f"{round(scale(opened) * 100)}%"


def test_the_scale_stays_put_while_stepping_and_the_last_move_stays_in_view(browser, tmp_path):
    opened, _ = hunters_page(browser, tmp_path)
    k = scale(opened)
    assert k >= 1.3  # legible from the start
    (viewport,) = boxes(opened, "#viewport")
    seen = []
    for keys in (
        ("ArrowRight",) * 5,
        ("ArrowRight",) * 30,
        ("End",),
        ("ArrowLeft",) * 7,
        ("Home",),
    ):
        opened.press(*keys)
        seen.append(scale(opened))
        (last,) = boxes(opened, "#board g.last")
        assert inside(last, viewport), f"the last move left the view at {opened.state()['current']}"
    assert seen == [k] * len(seen)
    opened.press("+")
    k2 = scale(opened)
    opened.press("ArrowRight", "ArrowRight")
    assert scale(opened) == k2  # the reader's zoom is kept too
    assert opened.errors == []


def test_clans_and_iwari_open_whole_and_zoom_too(browser, tmp_path):
    for game_name, name in (("clans", "full-game-3p"), ("iwari", "full-game-3p-feats")):
        game, log, steps = load(game_name, name)
        folder = tmp_path / game_name
        folder.mkdir()
        opened = open_page(browser, folder, html.page(game, log, steps))
        (viewport,) = boxes(opened, "#viewport")
        (paper,) = boxes(opened, "#board > rect:first-child")
        assert inside(paper, viewport)  # the whole board, as large as the view allows
        assert paper["w"] > 0.9 * viewport["w"] or paper["h"] > 0.9 * viewport["h"]
        k = scale(opened)
        opened.press("+")
        assert scale(opened) == pytest.approx(k * 1.25, rel=1e-3)
        opened.press("End", "0")
        assert scale(opened) == pytest.approx(k, rel=1e-3)
        assert opened.errors == []


# --- overlaps ------------------------------------------------------------------------------------


def test_clans_arrow_leaves_the_target_s_hut_counts_clear(browser, tmp_path):
    game, log, steps = load("clans", "full-game-3p")
    opened = open_page(browser, tmp_path, html.page(game, log, steps))
    checked = 0
    for step in steps[1:]:
        event = step.event
        if type(event).__name__ != "HutsMoved":
            continue
        opened.page.click(f'#moves li[data-i="{step.index}"]')
        heads = boxes(opened, "#board g.last polygon[fill='#222']")
        counts = boxes(opened, f'#board g.huts[data-territory="{event.target}"] text')
        assert heads and counts
        for head in heads:
            for count in counts:
                assert not overlap(head, count), f"event {step.index}: the arrow covers a count"
        checked += 1
        if checked == 12:
            break
    assert checked == 12


def test_clans_village_labels_are_on_top(browser, tmp_path):
    game, log, steps = load("clans", "full-game-3p")
    opened = open_page(browser, tmp_path, html.page(game, log, steps))
    opened.press("End")
    hidden = opened.page.evaluate(
        """() => Array.from(document.querySelectorAll("#board g.territory text"))
          .filter((t) => /^V\\d+$/.test(t.textContent))
          .filter((t) => {
            const r = t.getBoundingClientRect();
            const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
            return top !== t;
          }).map((t) => t.textContent)"""
    )
    labels = [b for b in boxes(opened, "#board g.territory text") if re.match(r"^V\d+$", b["text"])]
    assert len(labels) == 12
    assert hidden == []


def test_iwari_mountains_clear_of_tents_and_a_legend_that_reads(browser, tmp_path):
    game, log, steps = load("iwari", "full-game-3p-feats")
    opened = open_page(browser, tmp_path, html.page(game, log, steps))
    opened.press("End")
    peaks = boxes(opened, '#board g.connection[data-covered="true"] polygon')
    spaces = boxes(opened, "#board g.tent polygon") + boxes(opened, "#board g.territory circle")
    assert peaks
    for peak in peaks:
        for space in spaces:
            assert not overlap(peak, space, margin=1), "a mountain sits on a tent or a tent space"
    legend = [b for b in boxes(opened, "#panel text") if b["text"].startswith("tents: triangles")]
    assert legend and legend[0]["h"] >= 9, f"the legend is {legend[0]['h']:.1f} px high"


# --- an SVG file opened directly -----------------------------------------------------------------


def test_an_svg_file_opened_directly_is_screenshot_whole_at_once(browser, tmp_path):
    """``show --svg`` of a large Hunters board, opened as a file: its explicit width and height
    are the page's size, so a full-page capture of the document (the viewport at that size, or
    Chromium's capture beyond the viewport) is taken at once. (Playwright's own ``full_page``
    waits for ``document.body``, which an SVG document never has: not something a file can
    change.)"""
    game, log, steps = load("hunters", "full-game-4p")
    svg = game.svg(steps[-1].state, log.header.seats, SPECTATOR, steps[-1].event)
    path = tmp_path / "board.svg"
    path.write_text(svg, encoding="utf-8")
    width, height = (int(v) for v in re.match(r'<svg [^>]*viewBox="0 0 (\d+) (\d+)"', svg).groups())
    assert f'width="{width}" height="{height}"' in svg
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(path.as_uri())
    size = page.evaluate(
        "() => [document.documentElement.getBoundingClientRect().width,"
        " document.documentElement.getBoundingClientRect().height]"
    )
    assert size == [width, height]
    whole = decode_png(page.screenshot(timeout=TIMEOUT_MS))
    assert len(whole) == width * height
    assert len(set(whole)) > 30
    cdp = page.context.new_cdp_session(page)
    shot = cdp.send(
        "Page.captureScreenshot",
        {
            "format": "png",
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1},
        },
    )
    assert len(decode_png(base64.b64decode(shot["data"]))) == width * height
    page.close()
