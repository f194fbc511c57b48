"""Pictures of states: SVG written by our own code, shared by every game's ``pictures`` module.

A game draws a state as a :class:`Picture`: a canvas size and a sequence of keyed *parts*, each a
piece of SVG markup (a territory, a hut stack, the score track). ``Picture.svg()`` is the whole
drawing; ``tribes html`` sends a page only the parts that change from one step to the next, so a
long game stays small. A part's key is unique within its picture.

Every text that comes from outside (seat names, metadata) goes through :func:`esc`. Colours come
from :data:`OKABE_ITO`, a palette chosen to stay apart for colour-blind eyes (a test checks it
under simulated deuteranopia and protanopia); pieces also carry a letter or a shape.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import attrs

from tribes.core.reprs import fields_repr

OKABE_ITO = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky blue": "#56B4E9",
    "bluish green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish purple": "#CC79A7",
}
"""Okabe & Ito (2008), "Color Universal Design": eight colours told apart with any colour vision."""

HIGHLIGHT = "#CC79A7"
"""The last move's mark: reddish purple, drawn as a thick dashed outline (a shape, not a hue)."""
INK = "#222"
PAPER = "#FBFAF6"
FONT = "font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif"
"""Fonts every machine has: a page never loads one."""

Part = tuple[str, str]
"""A keyed piece of a picture: (key, SVG markup)."""


@attrs.frozen
class Picture:
    """A drawing: ``width`` × ``height`` user units from (``left``, ``top``), its ``parts`` in
    paint order.

    A board that grows (Hunters and Gatherers' play area) keeps its pieces where they are and
    moves its origin instead, so that a page stepping through a game keeps its view; its
    ``panel`` (the drawn tile, the seats) is a picture of its own, which a page shows beside
    the board, out of its zoom, and :meth:`svg` draws to its right. ``legible`` is the
    smallest scale (pixels per unit) at which the board's text reads: a page fits the whole
    board when that is no smaller, else opens at ``legible`` around the last move (0: always
    fit), and :meth:`svg` sizes the document at it."""

    width: int
    height: int
    parts: tuple[Part, ...]
    title: str = ""
    left: int = 0
    top: int = 0
    panel: Picture | None = None
    legible: float = 0.0

    __repr__ = fields_repr

    def body(self) -> str:
        return "".join(markup for _, markup in self.parts)

    def svg(self) -> str:
        """The whole drawing as one standalone SVG document: an explicit width, height and
        viewBox (a browser opening the file directly lays it out at once), the board at its
        legible scale, the panel at its right."""
        title = f"<title>{esc(self.title)}</title>" if self.title else ""
        scale = max(1.0, self.legible)
        panel = self.panel
        width = self.width * scale + (panel.width if panel else 0)
        height = max(self.height * scale, panel.height if panel else 0)
        body = self.body()
        if scale != 1 or self.left or self.top:
            body = (
                f'<g transform="scale({num(scale)}) translate({-self.left},{-self.top})">{body}</g>'
            )
        if panel is not None:
            body += (
                f'<g transform="translate({num(self.width * scale)},0)">'
                f'<rect width="{panel.width}" height="{num(height)}" fill="{PAPER}"/>'
                f"{panel.body()}</g>"
            )
        w, h = num(math.ceil(width)), num(math.ceil(height))
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" '
            f'width="{w}" height="{h}" fill="{INK}" style="{FONT}">'
            f"{title}{body}</svg>\n"
        )

    def _repr_svg_(self) -> str:
        """A notebook shows a picture as the board (``game.picture(state, seats, viewer)``)."""
        return self.svg()


def esc(text: object) -> str:
    """Text made safe for SVG and HTML, inside elements and inside quoted attributes.

    ``html`` is imported here, when a picture is drawn: at the top it cost every command that
    opens a log ~6 M instructions (its table of entities), since every game's pictures module
    is loaded with the game."""
    import html  # noqa: PLC0415  start-up: html's entities, only when a picture is drawn

    return html.escape(str(text), quote=True)


def num(value: float) -> str:
    """A coordinate, short: ``12``, ``12.5``."""
    text = f"{value:.1f}"
    return text.removesuffix(".0")


def points(xy: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in xy)


def text(
    x: float,
    y: float,
    content: object,
    *,
    size: float = 12,
    anchor: str = "start",
    fill: str = INK,
    weight: str = "normal",
    extra: str = "",
) -> str:
    """A line of text, escaped; ``y`` is its baseline."""
    bold = ' font-weight="bold"' if weight == "bold" else ""
    align = "" if anchor == "start" else f' text-anchor="{anchor}"'
    colour = "" if fill == INK else f' fill="{fill}"'
    return (
        f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}"{align}{colour}{bold}{extra}>'
        f"{esc(content)}</text>"
    )


def ink_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (a #RRGGBB colour)."""
    r, g, b = (int(fill[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return "#000000" if relative_luminance((r, g, b)) > 0.22 else "#FFFFFF"


def relative_luminance(rgb: Sequence[float]) -> float:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def shape(kind: str, x: float, y: float, r: float, fill: str, extra: str = "") -> str:
    """A piece's shape centred on (x, y), of radius about ``r``: circle, square, diamond,
    triangle, hexagon or house — so that pieces differ by shape as well as by colour."""
    stroke = f'fill="{fill}" stroke="{INK}" stroke-width="1"{extra}'
    if kind == "circle":
        return f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" {stroke}/>'
    if kind == "square":
        s = r * 0.9
        return f'<rect x="{num(x - s)}" y="{num(y - s)}" width="{num(2 * s)}" height="{num(2 * s)}" {stroke}/>'
    corners: list[tuple[float, float]]
    if kind == "diamond":
        corners = [(x, y - r * 1.15), (x + r * 1.15, y), (x, y + r * 1.15), (x - r * 1.15, y)]
    elif kind == "triangle":
        corners = [(x, y - r * 1.25), (x + r * 1.2, y + r * 0.85), (x - r * 1.2, y + r * 0.85)]
    elif kind == "hexagon":
        corners = [
            (
                x + r * 1.05 * math.cos(math.radians(60 * k)),
                y + r * 1.05 * math.sin(math.radians(60 * k)),
            )
            for k in range(6)
        ]
    elif kind == "house":
        corners = [
            (x, y - r * 1.2),
            (x + r, y - r * 0.2),
            (x + r, y + r * 0.9),
            (x - r, y + r * 0.9),
            (x - r, y - r * 0.2),
        ]
    else:
        raise ValueError(f"unknown shape {kind!r}")
    return f'<polygon points="{points(corners)}" {stroke}/>'


def group(attributes: str, *children: str) -> str:
    return f"<g {attributes}>{''.join(children)}</g>"


def data(**values: object) -> str:
    """``data-*`` attributes (underscores become dashes), escaped: what tests and the page read
    back from a drawn piece."""
    return " ".join(f'data-{k.replace("_", "-")}="{esc(v)}"' for k, v in values.items())
