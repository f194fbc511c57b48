"""Iwari move text (``parse(format(e)) == e``):

- ``6 tent23 totem fcc`` — play in territory 6: a tent on space 23, then a totem, paid with a
  forest and a pair of coasts (cards as terrain letters: t f g c d);
- ``third 6 tent25 f`` / ``third pass`` — the third tribe's play in a 2-player game, or none;
- ``swap f deck`` / ``swap f d2`` — exchange: discard a forest, draw from the deck or display slot 2;
- ``draw deck`` / ``draw d3`` — one card of the refill;
- ``pass`` — when neither a play nor an exchange is possible;
- ``feat union 6`` / ``feat honour 3`` / ``feat union none`` — place an earned feat, or decline it.
"""

from __future__ import annotations

import re

from tribes.core.errors import BadNotation
from tribes.core.events import Event
from tribes.games.iwari.board import BY_LETTER, Terrain
from tribes.games.iwari.events import (
    DECLINED,
    FROM_DECK,
    TOTEM_PIECE,
    CardDrawn,
    CardExchanged,
    CardsPlayed,
    FeatPlaced,
    ThirdTribePassed,
    ThirdTribePlayed,
    TurnPassed,
)
from tribes.games.iwari.state import FEAT_KINDS

EXPECTED = (
    "an Iwari move is a play (6 tent23 totem fcc), 'third 6 tent25 f', 'third pass', "
    "'swap f deck', 'draw d2', 'pass' or 'feat union 6' (cards t f g c d; display slots d1 to d4)"
)
_PLAY = re.compile(r"^([0-9]{1,3})((?:\s+(?:tent[0-9]{1,3}|totem)){1,2})\s+([tfgcd]{1,3})$")
_SOURCE = re.compile(r"^(deck|d[1-4])$")
_LETTERED = re.compile(r"^[0-9]{1,3}(?:\s+(?:tent[0-9]{1,3}|totem)){1,2}\s+([a-z]{1,3})$")


def parse(text: str) -> Event:
    words = text.strip().lower().split()
    line = " ".join(words)
    try:
        if line == "pass":
            return TurnPassed()
        if line == "third pass":
            return ThirdTribePassed()
        if words[0] == "third":
            territory, pieces, cards = _play(" ".join(words[1:]))
            return ThirdTribePlayed(territory=territory, pieces=pieces, cards=cards)
        if words[0] == "swap" and len(words) == 3:
            return CardExchanged(card=_card(text, words[1]), source=_source(text, words[2]))
        if words[0] == "draw" and len(words) == 2:
            return CardDrawn(source=_source(text, words[1]))
        if words[0] == "feat" and len(words) == 3:
            if words[1] not in FEAT_KINDS:
                raise _unknown(text, "feat", words[1], f"feats: {', '.join(FEAT_KINDS)}")
            target = DECLINED if words[2] == "none" else int(words[2])
            return FeatPlaced(kind=words[1], target=target)
        territory, pieces, cards = _play(line)
        return CardsPlayed(territory=territory, pieces=pieces, cards=cards)
    except (ValueError, IndexError):
        raise BadNotation(f"cannot read move '{text}': {EXPECTED}") from None


CARDS = ", ".join(f"{t.letter} ({t.value})" for t in BY_LETTER.values())
"""The cards a move may name, for a message: ``t (tundra), f (forest), ...``."""


def _unknown(text: str, what: str, word: str, known: str) -> BadNotation:
    """A move of the right form naming something that does not exist: say which word, and
    what there is (rather than the whole grammar)."""
    return BadNotation(f"cannot read move '{text}': unknown {what} '{word}'; {known}")


def _card(text: str, word: str) -> Terrain:
    if word not in BY_LETTER:
        raise _unknown(text, "card", word, f"the cards are {CARDS}")
    return BY_LETTER[word]


def _play(text: str) -> tuple[int, tuple[int, ...], tuple[Terrain, ...]]:
    match = _PLAY.match(text)
    if not match:
        lettered = _LETTERED.match(text)
        if lettered:  # a play but for its cards: name the card that does not exist
            wrong = next(c for c in lettered[1] if c not in BY_LETTER)
            raise _unknown(text, "card", wrong, f"the cards are {CARDS}")
        raise ValueError(text)
    words = match[2].split()
    if any(w != "totem" and int(w[4:]) == 0 for w in words):
        raise ValueError(text)  # there is no tent space 0
    pieces = tuple(TOTEM_PIECE if w == "totem" else int(w[4:]) for w in words)
    return int(match[1]), pieces, tuple(BY_LETTER[c] for c in match[3])


def _source(text: str, word: str) -> int:
    if not _SOURCE.match(word):
        raise _unknown(text, "place to draw from", word, "deck, or a display slot d1 to d4")
    return FROM_DECK if word == "deck" else int(word[1:])


def format(event: Event) -> str:
    if isinstance(event, CardsPlayed | ThirdTribePlayed):
        pieces = " ".join("totem" if p == TOTEM_PIECE else f"tent{p}" for p in event.pieces)
        cards = "".join(c.letter for c in event.cards)
        prefix = "third " if isinstance(event, ThirdTribePlayed) else ""
        return f"{prefix}{event.territory} {pieces} {cards}"
    if isinstance(event, ThirdTribePassed):
        return "third pass"
    if isinstance(event, TurnPassed):
        return "pass"
    if isinstance(event, CardExchanged):
        return f"swap {event.card.letter} {_source_text(event.source)}"
    if isinstance(event, CardDrawn):
        return f"draw {_source_text(event.source)}"
    if isinstance(event, FeatPlaced):
        return f"feat {event.kind} {'none' if event.target == DECLINED else event.target}"
    raise BadNotation(f"'{type(event).__name__}' is not an Iwari event")


def _source_text(source: int) -> str:
    return "deck" if source == FROM_DECK else f"d{source}"
