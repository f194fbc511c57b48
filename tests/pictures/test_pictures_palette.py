"""The pieces' colours stay apart for colour-blind eyes: every pair of clan colours (Clans) and of
tribe colours (Iwari) is far apart in CIELAB after a standard simulation of protanopia,
deuteranopia and tritanopia (Machado, Oliveira & Fernandes 2009, severity 1), and the pieces
also differ by shape or letter."""

from __future__ import annotations

import itertools
import math

import pytest

from tribes.games.clans import pictures as clans_pictures
from tribes.games.iwari import pictures as iwari_pictures

MACHADO = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
MIN_DISTANCE = 15.0
"""CIE76 ΔE: 2.3 is just noticeable; 15 tells two pieces apart at a glance (and every piece
carries its letter or shape besides)."""

PALETTES = {
    "clans huts": list(clans_pictures.HUT_COLOURS.values()),
    "iwari tribes": [*iwari_pictures.TRIBE_COLOURS, iwari_pictures.THIRD],
}


def linear(hex_colour: str) -> tuple[float, ...]:
    def one(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return tuple(one(int(hex_colour[i : i + 2], 16) / 255) for i in (1, 3, 5))


def simulate(rgb: tuple[float, ...], matrix) -> tuple[float, ...]:
    return tuple(
        min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in matrix
    )


def lab(rgb: tuple[float, ...]) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def closest_pair(colours: list[str], vision: str) -> tuple[float, str, str]:
    seen = [(c, lab(simulate(linear(c), MACHADO[vision]))) for c in colours]
    return min((math.dist(la, lb), a, b) for (a, la), (b, lb) in itertools.combinations(seen, 2))


@pytest.mark.parametrize("vision", list(MACHADO))
@pytest.mark.parametrize("palette", list(PALETTES))
def test_colours_stay_apart_under_simulated_colour_blindness(palette: str, vision: str) -> None:
    distance, a, b = closest_pair(PALETTES[palette], vision)
    assert distance >= MIN_DISTANCE, (
        f"{palette}, {vision}: {a} and {b} are only ΔE {distance:.1f} apart"
    )


def test_the_simulation_can_fail():
    """Red and green, the classic pair, merge under deuteranopia: the check would see it."""
    distance, _, _ = closest_pair(["#FF0000", "#00A000"], "deuteranopia")
    assert closest_pair(["#FF0000", "#00A000"], "normal")[0] > 50
    assert distance < MIN_DISTANCE


def test_pieces_differ_by_shape_or_letter_too():
    shapes = clans_pictures.HUT_SHAPES
    assert set(shapes) == set(clans_pictures.HUT_COLOURS)
    assert len(set(shapes.values())) == len(shapes)
    from tribes.games.iwari.render import LETTERS

    assert len(set(LETTERS)) == len(iwari_pictures.TRIBE_COLOURS)
