"""``tribes html``: one self-contained page that steps through a log in any browser, offline.

The page holds the board of every step as the game draws it (``Game.picture``), as one viewer may
see it, and nothing that viewer may not: hidden parts are never drawn, the seed and the starting
position are left out (either would tell hidden cards), a pending decision's options appear only
for the seat that decides, effects are told as the viewer may read them (``describe_for``: a card
another seat draws from the deck is "a card"). To stay small, step 0 carries every part of its picture and each later
step only the parts that changed (``s``: set, ``d``: dropped, ``o``: the new order when it
changed); the page's script rebuilds each board from those. The move list is plain HTML; every
string that comes from the log is escaped (``html.escape`` for the page and the drawings; inside
the JSON of the script, ``</`` and ``<!--`` cannot close or open anything).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tribes.core import views
from tribes.core.engine import Step
from tribes.core.game import EVERYTHING, Game, Viewer
from tribes.core.pictures import Picture, esc
from tribes.events.logfile import GameLog
from tribes.replay.diff import diff


def viewer_name(seats: Sequence[str], viewer: Viewer) -> str:
    if viewer == EVERYTHING:
        return "everything (all hidden information shown)"
    if viewer is None:
        return "a spectator"
    return str(seats[viewer])


def page(game: Game, log: GameLog, steps: Sequence[Step], viewer: Viewer = None) -> str:
    """The page of a log whose ``steps`` (from ``logs.steps_of``) are given, as ``viewer`` sees
    it (default: a spectator, so that a shared page spoils nothing)."""
    seats = log.header.seats
    frames = _frames(game, seats, steps, viewer)
    documents = [_document(game, log, s, viewer) for s in steps]
    records = []
    for i in range(len(steps)):
        changes = [] if i == 0 else [c.text for c in diff(game, documents[i - 1], documents[i])]
        records.append({**_status(documents[i]), "c": changes})
    first = frames[0]
    moves = "".join(_move(game, seats, s, viewer) for s in steps)
    title = f"{game.name}: {', '.join(seats)}"
    meta = "".join(
        f"<span><b>{esc(k)}</b> {esc(_plain(v))}</span>" for k, v in sorted(log.header.meta.items())
    )
    return TEMPLATE.format(
        title=esc(title),
        game=esc(game.name),
        seats=esc(", ".join(seats)),
        viewer=esc(viewer_name(seats, viewer)),
        events=len(steps) - 1,
        meta=meta,
        moves=moves,
        last=len(steps) - 1,
        width=first["w"],
        height=first["h"],
        data=script_json({"n": len(steps) - 1, "steps": records}),
        frames=drawing_json(frames),
        css=CSS,
        script=SCRIPT,
    )


def script_json(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element whatever its strings hold: no ``<``,
    ``>`` or ``&`` is left as itself (they become JSON escapes of the same characters)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (
        text.replace("&", "\\u0026")
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def drawing_json(value: Any) -> str:
    """JSON of the drawings for a ``<script>`` element. Their markup is our own, every string
    of the log in it already escaped by the game's pictures (``core.pictures.esc``), so only
    ``</`` (which could close the element) and ``<!--`` need escaping: that keeps the many
    tags of a drawing one byte each."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!--", "\\u003c!--")


def _frames(
    game: Game, seats: Sequence[str], steps: Sequence[Step], viewer: Viewer
) -> list[dict[str, Any]]:
    """Each step's picture: the first whole, the others as the parts that changed."""
    frames: list[dict[str, Any]] = []
    before: Picture | None = None
    for step in steps:
        picture = game.picture(step.state, seats, viewer, step.event)
        frame: dict[str, Any] = {"w": picture.width, "h": picture.height}
        if before is None:
            frame["s"] = dict(picture.parts)
            frame["o"] = [k for k, _ in picture.parts]
        else:
            old = dict(before.parts)
            new = dict(picture.parts)
            frame["s"] = {k: v for k, v in picture.parts if old.get(k) != v}
            dropped = [k for k in old if k not in new]
            if dropped:
                frame["d"] = dropped
            if [k for k, _ in before.parts] != [k for k, _ in picture.parts]:
                frame["o"] = [k for k, _ in picture.parts]
        frames.append(frame)
        before = picture
    return frames


def _document(game: Game, log: GameLog, step: Step, viewer: Viewer) -> dict[str, Any]:
    """The step's show --json document as the viewer may see it (options that would tell a
    secret are null there: Facts.private_moves)."""
    return views.step_document(game, log.header, step.index, step.state, viewer)


def _status(document: dict[str, Any]) -> dict[str, Any]:
    pending = document.get("pending")
    if pending:
        words = f"{pending['seat']} must decide: {pending['decision']}"
        details = [
            f"{k} {_plain(v)}"
            for k, v in pending.items()
            if k not in ("seat", "decision", "options")
        ]
        if details:
            words += f" ({'; '.join(details)})"
        if pending.get("options"):
            words += f"; options: {' | '.join(pending['options'])}"
    else:
        words = ""
    return {
        "sc": [[k, v] for k, v in document["scores"].items()],
        "tm": document["to_move"],
        "p": words,
        "ov": document["over"],
        "wn": document["winners"],
    }


def _plain(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " ".join(map(_plain, value))
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items())
    return str(value)


def _move(game: Game, seats: Sequence[str], step: Step, viewer: Viewer) -> str:
    effects = views.effects_text(seats, step, viewer=viewer)  # a card drawn by another: "a card"
    return (
        f'<li data-i="{step.index}" tabindex="-1"><span class="i">{step.index}</span>'
        f'<span class="seat">{esc(views.seat_name(seats, step) if step.index else "")}</span>'
        f'<span class="mv">{esc(views.notation(game, step))}</span>'
        f'<span class="eff">{esc(effects)}</span></li>'
    )


CSS = """
*{box-sizing:border-box}
body{margin:0;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
color:#222;background:#F3F1EA}
header{padding:8px 16px;background:#2F2C27;color:#F3F1EA;display:flex;flex-wrap:wrap;gap:4px 18px;
align-items:baseline}
header h1{font-size:17px;margin:0}
header span{font-size:12px;opacity:.85}
main{display:flex;gap:14px;padding:12px 16px;align-items:flex-start}
#left{flex:1 1 auto;min-width:0}
#board{width:100%;height:auto;max-height:72vh;background:#FBFAF6;border:1px solid #CFC9BC;
border-radius:6px;display:block}
#controls{display:flex;gap:8px;align-items:center;margin:0 0 8px}
#controls button{font:inherit;padding:3px 10px;border:1px solid #8A8478;background:#fff;
border-radius:4px;cursor:pointer}
#controls input{flex:1}
#where{min-width:9em;font-variant-numeric:tabular-nums}
#info{display:flex;gap:14px;margin-top:10px;flex-wrap:wrap}
.box{background:#fff;border:1px solid #CFC9BC;border-radius:6px;padding:8px 12px;flex:1 1 240px}
.box h2{font-size:13px;margin:0 0 4px;text-transform:uppercase;letter-spacing:.04em;color:#5A554C}
#changes{margin:0;padding-left:18px;font-size:13px}
#scores{border-collapse:collapse;font-size:13px}
#scores td{padding:1px 10px 1px 0}
#side{flex:0 0 380px;background:#fff;border:1px solid #CFC9BC;border-radius:6px;
max-height:calc(100vh - 80px);display:flex;flex-direction:column}
#side h2{font-size:13px;margin:8px 12px 4px;text-transform:uppercase;color:#5A554C}
#moves{list-style:none;margin:0;padding:0 0 8px;overflow-y:auto;font-size:13px}
#moves li{display:grid;grid-template-columns:2.6em 4.5em auto;column-gap:6px;padding:2px 10px;
cursor:pointer;border-left:4px solid transparent}
#moves li:hover{background:#F3F1EA}
#moves li.current{background:#FCE6F1;border-left-color:#CC79A7;font-weight:600}
#moves .i{text-align:right;color:#777;font-variant-numeric:tabular-nums}
#moves .seat{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#moves .mv{font-family:ui-monospace,"DejaVu Sans Mono",monospace}
#moves .eff{grid-column:2/4;color:#5A554C;font-size:12px}
#moves .eff:empty{display:none}
.keys{font-size:12px;color:#5A554C;margin:6px 0 0}
@media (max-width:900px){main{flex-direction:column}#side{flex:1 1 auto;width:100%}}
"""

SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("tribes-data").textContent);
  var board = document.getElementById("board");
  var slider = document.getElementById("slider");
  var where = document.getElementById("where");
  var items = document.querySelectorAll("#moves li");
  var frames = [];
  var parts = {}, order = [];
  JSON.parse(document.getElementById("tribes-frames").textContent).forEach(function (step) {
    parts = Object.assign({}, parts, step.s || {});
    (step.d || []).forEach(function (k) { delete parts[k]; });
    if (step.o) { order = step.o; }
    frames.push({parts: parts, order: order, w: step.w, h: step.h});
  });
  var current = -1;
  function text(id, value) { document.getElementById(id).textContent = value; }
  function show(i) {
    i = Math.max(0, Math.min(data.n, i));
    var frame = frames[i], step = data.steps[i];
    board.setAttribute("viewBox", "0 0 " + frame.w + " " + frame.h);
    board.innerHTML = frame.order.map(function (k) { return frame.parts[k]; }).join("");
    if (current >= 0) { items[current].classList.remove("current"); items[current].removeAttribute("aria-current"); }
    items[i].classList.add("current");
    items[i].setAttribute("aria-current", "step");
    items[i].scrollIntoView({block: "nearest"});
    current = i;
    slider.value = i;
    where.textContent = (i === 0 ? "start" : "event " + i) + " of " + data.n;
    var rows = document.getElementById("scores");
    rows.textContent = "";
    step.sc.forEach(function (pair) {
      var tr = document.createElement("tr");
      var name = document.createElement("td"), score = document.createElement("td");
      name.textContent = pair[0];
      score.textContent = pair[1] === null ? "hidden" : pair[1];
      tr.appendChild(name); tr.appendChild(score); rows.appendChild(tr);
    });
    var turn = step.ov ? "game over: " + (step.wn.length ? step.wn.join(" and ") + (step.wn.length > 1 ? " win" : " wins") : "no winner")
      : (step.tm === null ? "" : step.tm + " to move");
    text("turn", turn);
    text("pending", step.p || (step.ov ? "" : "no pending decision"));
    var list = document.getElementById("changes");
    list.textContent = "";
    (i === 0 ? ["the start of the game"] : (step.c.length ? step.c : ["nothing visible changed"])).forEach(function (line) {
      var li = document.createElement("li");
      li.textContent = line;
      list.appendChild(li);
    });
    try { history.replaceState(null, "", "#" + i); } catch (err) { /* a page opened from disk may refuse */ }
  }
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var to = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: data.n}[e.key];
    if (to === undefined) { return; }
    e.preventDefault();
    show(to);
  });
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  document.getElementById("moves").addEventListener("click", function (e) {
    var li = e.target.closest("li");
    if (li) { show(parseInt(li.getAttribute("data-i"), 10)); }
  });
  [["first", function () { return 0; }], ["prev", function () { return current - 1; }],
   ["next", function () { return current + 1; }], ["last", function () { return data.n; }]].forEach(function (b) {
    document.getElementById(b[0]).addEventListener("click", function () { show(b[1]()); });
  });
  var start = parseInt((location.hash || "#0").slice(1), 10);
  show(isNaN(start) ? 0 : start);
})();
"""

TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>{title}</title>
<style>{css}</style>
</head>
<body>
<header><h1>{title}</h1><span>{game} · {events} events · seats {seats}</span>
<span>seen as {viewer}</span>{meta}</header>
<main>
<div id="left">
<div id="controls">
<button id="first" title="first (Home)">«</button><button id="prev" title="back (←)">‹</button>
<button id="next" title="forward (→)">›</button><button id="last" title="last (End)">»</button>
<input id="slider" type="range" min="0" max="{last}" value="0" aria-label="event">
<span id="where"></span>
</div>
<svg id="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" fill="#222" role="img" aria-label="the board"></svg>
<noscript><p>This page draws the board with its script: allow scripts to step through the game.</p></noscript>
<div id="info">
<div class="box"><h2>Turn</h2><div id="turn"></div><div id="pending"></div>
<table id="scores"></table></div>
<div class="box"><h2>What this event changed</h2><ul id="changes"></ul></div>
</div>
<p class="keys">Keys: ← → step, Home and End jump; click a move; drag the slider.</p>
</div>
<aside id="side"><h2>Moves</h2><ol id="moves">{moves}</ol></aside>
</main>
<script type="application/json" id="tribes-data">{data}</script>
<script type="application/json" id="tribes-frames">{frames}</script>
<script>{script}</script>
</body>
</html>
"""
