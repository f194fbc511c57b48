"""The fixed parts of ``tribes html``'s page (:mod:`tribes.replay.html`): its style sheet, its script
(which rebuilds each step's board from the parts that changed, and steps through the log by key,
slider, click or ``#N``) and the template they are set into, with the page's data."""

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
#stage{display:flex;gap:10px;align-items:flex-start}
#viewport{flex:1 1 auto;min-width:0;height:max(360px,calc(100vh - 250px));
background:#FBFAF6;border:1px solid #CFC9BC;border-radius:6px;overflow:hidden;cursor:grab;
touch-action:none;outline:none}
#viewport:focus-visible{box-shadow:0 0 0 3px #56B4E9}
#viewport.dragging{cursor:grabbing}
#board{width:100%;height:100%;display:block;user-select:none}
#zoom{display:flex;gap:4px;align-items:center}
#zoom button{min-width:30px;padding:3px 6px}
#scale{font-size:12px;min-width:3.2em;text-align:right;font-variant-numeric:tabular-nums}
#aside{flex:0 0 auto;background:#FBFAF6;border:1px solid #CFC9BC;border-radius:6px;padding:4px;
max-height:max(360px,calc(100vh - 250px));overflow:auto}
#panel{display:block}
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
#options{margin:0;padding:0;list-style:none;font:12px/1.5 ui-monospace,"DejaVu Sans Mono",monospace;
max-height:9.5em;overflow-y:auto}
#options li{white-space:normal}
#options b{font-weight:600}
#side{flex:0 0 330px;background:#fff;border:1px solid #CFC9BC;border-radius:6px;
max-height:calc(100vh - 80px);display:flex;flex-direction:column}
#side h2{font-size:13px;margin:8px 12px 4px;text-transform:uppercase;color:#5A554C}
#moves{list-style:none;margin:0;padding:0 0 8px;overflow-y:auto;font-size:13px}
#moves li{display:grid;grid-template-columns:2.6em 4.5em auto;column-gap:6px;padding:2px 10px;
cursor:pointer;border-left:4px solid transparent}
#moves li:hover{background:#F3F1EA}
#moves li.current{background:#FCE6F1;border-left-color:#CC79A7}
#moves li.current .mv{font-weight:700}
#moves .i{text-align:right;color:#777;font-variant-numeric:tabular-nums}
#moves .seat{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#moves .mv{font-family:ui-monospace,"DejaVu Sans Mono",monospace}
#moves .eff{grid-column:2/4;color:#5A554C;font-size:12px}
#moves .eff:empty{display:none}
#moves details.eff summary{cursor:pointer}
#moves details.eff .all .e{display:block;padding-left:1em;text-indent:-1em}
#moves .e.m{cursor:pointer;text-decoration:underline dotted #CC79A7}
#moves .e.chosen{background:#F6D3E6;color:#222}
#moves .note{grid-column:2/4;color:#0B5C8C;font-size:12px;font-style:italic;white-space:pre-wrap}
.keys{font-size:12px;color:#5A554C;margin:6px 0 0}
@media (max-width:900px){main{flex-direction:column}#side{flex:1 1 auto;width:100%}}
@media (max-width:700px){main{padding:8px}#stage{flex-direction:column;align-items:stretch}
#aside{max-height:none}#controls{flex-wrap:wrap}#zoom{margin-left:auto}}
"""

SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("tribes-data").textContent);
  var board = document.getElementById("board");
  var viewport = document.getElementById("viewport");
  var panel = document.getElementById("panel");
  var slider = document.getElementById("slider");
  var where = document.getElementById("where");
  var items = document.querySelectorAll("#moves li");
  var frames = [];
  var parts = {}, order = [], panelOrder = [];
  JSON.parse(document.getElementById("tribes-frames").textContent).forEach(function (step) {
    parts = Object.assign({}, parts, step.s || {});
    (step.d || []).forEach(function (k) { delete parts[k]; });
    if (step.o) { order = step.o; }
    if (step.po) { panelOrder = step.po; }
    frames.push({parts: parts, order: order, panelOrder: panelOrder, w: step.w, h: step.h,
                 x: step.x || 0, y: step.y || 0, l: step.l || 0, pw: step.pw, ph: step.ph});
  });
  var current = -1;
  // The view: a scale (pixels per unit) and the point of the drawing at the viewport's centre.
  // It is set once when the page opens and then only by the reader (wheel, pinch, drag, keys,
  // buttons): stepping keeps the scale, and pans only to bring the last move into view.
  var view = null;
  var MIN_K = 0.05, MAX_K = 8;
  function size() { return {w: viewport.clientWidth || 1, h: viewport.clientHeight || 1}; }
  function fitScale(frame) { var v = size(); return Math.min(v.w / frame.w, v.h / frame.h); }
  function centreOf(frame) { return {x: frame.x + frame.w / 2, y: frame.y + frame.h / 2}; }
  function draw() {
    var v = size(), w = v.w / view.k, h = v.h / view.k;
    board.setAttribute("viewBox", [view.x - w / 2, view.y - h / 2, w, h].map(function (n) { return n.toFixed(2); }).join(" "));
    board.dataset.scale = view.k.toFixed(4);
    document.getElementById("scale").textContent = Math.round(view.k * 100) + "%";
  }
  function boxOf(selector) {
    var found = board.querySelector(selector);
    if (!found || !found.firstChild) { return null; }
    try { var b = found.getBBox(); return b.width || b.height ? b : null; } catch (err) { return null; }
  }
  function lastBox() { return boxOf(".last"); }
  function fit(frame) {
    view = {k: fitScale(frame), x: centreOf(frame).x, y: centreOf(frame).y};
    draw();
  }
  var READABLE = 0.7;  // in a narrow window a board of fixed size opens no smaller (labels of 7 px)
  var NARROW = window.matchMedia ? window.matchMedia("(max-width:700px)") : {matches: false};
  function opening(frame) {
    var k = fitScale(frame), c = centreOf(frame), box;
    if (frame.l) {  // a board that grows: at the scale where it reads, whatever its size now
      var whole = k >= frame.l;
      k = frame.l;
      box = whole ? null : lastBox();  // too big to show whole: around the last move
      if (box) { c = {x: box.x + box.width / 2, y: box.y + box.height / 2}; }
    } else {
      if (NARROW.matches && k < READABLE) {  // a phone: at a scale where it reads, round the last move
        k = READABLE;
        box = lastBox();
        if (box) { c = {x: box.x + box.width / 2, y: box.y + box.height / 2}; }
      }
      if (NARROW.matches) {  // stacked: the board's own height, no empty band above and below
        var tall = Math.ceil(frame.h * k) + 2;
        if (tall < viewport.clientHeight) { viewport.style.height = tall + "px"; c.y = centreOf(frame).y; }
      }
    }
    view = {k: k, x: c.x, y: c.y};
    draw();
  }
  function follow(box) {  // the last move (or the box given) in view, the scale kept
    box = box || lastBox();
    if (!box) { return; }
    var v = size(), w = v.w / view.k, h = v.h / view.k;
    var left = view.x - w / 2, top = view.y - h / 2;
    var inside = box.x >= left && box.y >= top &&
      box.x + box.width <= left + w && box.y + box.height <= top + h;
    if (!inside) { view.x = box.x + box.width / 2; view.y = box.y + box.height / 2; draw(); }
  }
  function zoom(factor, px, py) {  // px, py: the pixel of the viewport that stays put
    var v = size();
    if (px === undefined) { px = v.w / 2; py = v.h / 2; }
    var k = Math.max(MIN_K, Math.min(MAX_K, view.k * factor));
    var ux = view.x + (px - v.w / 2) / view.k, uy = view.y + (py - v.h / 2) / view.k;
    view.x = ux - (px - v.w / 2) / k; view.y = uy - (py - v.h / 2) / k; view.k = k;
    draw();
  }
  function pan(dx, dy) { view.x -= dx / view.k; view.y -= dy / view.k; draw(); }
  function text(id, value) { document.getElementById(id).textContent = value; }
  function reveal(item, whole) {  // the current move in view in the list, which alone scrolls:
    // the page stays where it is (scrollIntoView would scroll it too, off the board on a
    // phone); ``whole``: as much of it as the list holds, from its top (unfolded effects)
    var list = item.parentNode, box = list.getBoundingClientRect(), at = item.getBoundingClientRect();
    if (at.top < box.top) { list.scrollTop -= box.top - at.top; }
    else if (at.bottom > box.bottom) {
      list.scrollTop += whole ? Math.min(at.top - box.top, at.bottom - box.bottom) : at.bottom - box.bottom;
    }
  }
  function fromHash() {
    var n = parseInt((location.hash || "#0").slice(1), 10);
    return isNaN(n) ? 0 : n;
  }
  function show(i, chosen) {  // chosen: one of the step's effects, whose mark alone is drawn
    i = Math.max(0, Math.min(data.n, i));
    var frame = frames[i], step = data.steps[i];
    var marks = step.k || [];
    var marked = chosen === undefined ? marks.join("") : (marks[chosen] || "");
    board.innerHTML = frame.order.map(function (k) { return frame.parts[k]; }).join("") +
      (marked ? '<g id="marks">' + marked + "</g>" : "");
    Array.prototype.forEach.call(document.querySelectorAll("#moves .e.chosen"), function (e) { e.classList.remove("chosen"); });
    if (chosen !== undefined) {
      var line = items[i].querySelector('.e[data-e="' + chosen + '"]');
      if (line) { line.classList.add("chosen"); }
    }
    if (panel) {
      panel.innerHTML = frame.panelOrder.map(function (k) { return frame.parts[k]; }).join("");
      panel.setAttribute("width", frame.pw); panel.setAttribute("height", frame.ph);
      panel.setAttribute("viewBox", "0 0 " + frame.pw + " " + frame.ph);
    }
    if (view === null) { opening(frame); } else { follow(chosen === undefined ? null : boxOf("#marks")); }
    if (current >= 0) { items[current].classList.remove("current"); items[current].removeAttribute("aria-current"); }
    items[i].classList.add("current");
    items[i].setAttribute("aria-current", "step");
    reveal(items[i]);
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
    var options = document.getElementById("options");
    options.textContent = "";
    (step.mv || []).forEach(function (group) {
      var li = document.createElement("li"), head = document.createElement("b");
      head.textContent = group[0];
      li.appendChild(head);
      if (group.length > 1) { li.appendChild(document.createTextNode(" " + group.slice(1).join(" "))); }
      options.appendChild(li);
    });
    var total = (step.mv || []).reduce(function (n, g) { return n + 1 + Math.max(0, g.length - 1); }, 0);
    text("options-title", step.mv === null ? "Moves now: hidden (they would tell a hand)" :
      (step.mv.length ? "Moves now (" + total + ")" : "Moves now: none"));
    try { history.replaceState(null, "", "#" + i); } catch (err) { /* a page opened from disk may refuse */ }
  }
  var PAN = 80;
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    if (e.target && e.target.tagName === "INPUT" && e.key.indexOf("Arrow") === 0) { return; }
    if (e.shiftKey && e.key.indexOf("Arrow") === 0) {  // Shift + arrows pan the board
      var d = {ArrowLeft: [PAN, 0], ArrowRight: [-PAN, 0], ArrowUp: [0, PAN], ArrowDown: [0, -PAN]}[e.key];
      e.preventDefault(); pan(d[0], d[1]); return;
    }
    if (e.key === "+" || e.key === "=") { e.preventDefault(); zoom(1.25); return; }
    if (e.key === "-" || e.key === "_") { e.preventDefault(); zoom(0.8); return; }
    if (e.key === "0") { e.preventDefault(); fit(frames[current]); return; }
    var to = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: data.n}[e.key];
    if (to === undefined) { return; }
    e.preventDefault();
    show(to);
  });
  viewport.addEventListener("wheel", function (e) {  // a pinch on a touchpad comes as ctrl + wheel
    e.preventDefault();
    var r = viewport.getBoundingClientRect();
    var dy = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
    zoom(Math.pow(1.0015, -dy * (e.ctrlKey ? 4 : 1)), e.clientX - r.left, e.clientY - r.top);
  }, {passive: false});
  var pointers = {};
  function spread() {
    var ps = Object.keys(pointers).map(function (k) { return pointers[k]; });
    return ps.length < 2 ? null : {d: Math.hypot(ps[0].x - ps[1].x, ps[0].y - ps[1].y),
      x: (ps[0].x + ps[1].x) / 2, y: (ps[0].y + ps[1].y) / 2};
  }
  viewport.addEventListener("pointerdown", function (e) {
    if (e.target.closest("button")) { return; }
    viewport.setPointerCapture(e.pointerId);
    pointers[e.pointerId] = {x: e.clientX, y: e.clientY};
    viewport.classList.add("dragging");
    viewport.focus({preventScroll: true});
  });
  viewport.addEventListener("pointermove", function (e) {
    var was = pointers[e.pointerId];
    if (!was) { return; }
    var before = spread();
    pointers[e.pointerId] = {x: e.clientX, y: e.clientY};
    var after = spread();
    if (before && after && before.d > 0) {  // two fingers: pinch around their middle
      var r = viewport.getBoundingClientRect();
      zoom(after.d / before.d, after.x - r.left, after.y - r.top);
    } else if (!before) {
      pan(e.clientX - was.x, e.clientY - was.y);
    }
  });
  function release(e) {
    delete pointers[e.pointerId];
    if (!Object.keys(pointers).length) { viewport.classList.remove("dragging"); }
  }
  viewport.addEventListener("pointerup", release);
  viewport.addEventListener("pointercancel", release);
  document.getElementById("zoom-in").addEventListener("click", function () { zoom(1.25); });
  document.getElementById("zoom-out").addEventListener("click", function () { zoom(0.8); });
  document.getElementById("zoom-fit").addEventListener("click", function () { fit(frames[current]); });
  window.addEventListener("resize", function () { if (view) { draw(); } });
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  document.getElementById("moves").addEventListener("click", function (e) {
    var li = e.target.closest("li"), line = e.target.closest(".e.m");
    if (li && line) {  // an effect the board can mark: that step, that mark alone
      show(parseInt(li.getAttribute("data-i"), 10), parseInt(line.getAttribute("data-e"), 10));
      return;
    }
    if (e.target.closest("summary")) { return; }  // folding the effects stays on the step
    if (li) { show(parseInt(li.getAttribute("data-i"), 10)); }
  });
  document.getElementById("moves").addEventListener("toggle", function (e) {
    if (e.target.open) { reveal(e.target.closest("li"), true); }  // unfolded: in view, read from its top
  }, true);
  [["first", function () { return 0; }], ["prev", function () { return current - 1; }],
   ["next", function () { return current + 1; }], ["last", function () { return data.n; }]].forEach(function (b) {
    document.getElementById(b[0]).addEventListener("click", function () { show(b[1]()); });
  });
  window.addEventListener("hashchange", function () { show(fromHash()); });  // #N typed in
  show(fromHash());
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
<span id="zoom"><span id="scale"></span><button id="zoom-out" title="zoom out (-)">−</button><button id="zoom-in" title="zoom in (+)">+</button><button id="zoom-fit" title="the whole board (0)">fit</button></span>
</div>
<div id="stage">
<div id="viewport" tabindex="0" aria-label="the board: drag to pan, wheel or pinch to zoom">
<svg id="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" fill="#222" role="img" aria-label="the board"></svg>
</div>
{panel}
</div>
<noscript><p>This page draws the board with its script: allow scripts to step through the game.</p></noscript>
<div id="info">
<div class="box"><h2>Turn</h2><div id="turn"></div><div id="pending"></div>
<table id="scores"></table></div>
<div class="box"><h2>What this event changed</h2><ul id="changes"></ul></div>
<div class="box"><h2 id="options-title">Moves now</h2><ul id="options"></ul></div>
</div>
<p class="keys">Keys: ← → step, Home and End jump; + − zoom, 0 the whole board, Shift + arrows pan; on the board: drag to pan, wheel or pinch to zoom; click a move; drag the slider.</p>
</div>
<aside id="side"><h2>Moves</h2><ol id="moves">{moves}</ol></aside>
</main>
<script type="application/json" id="tribes-data">{data}</script>
<script type="application/json" id="tribes-frames">{frames}</script>
<script>{script}</script>
</body>
</html>
"""
