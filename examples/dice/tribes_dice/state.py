"""The Bonus Dice state and how a game starts from the seed (D2)."""

from __future__ import annotations

import attrs

from tribes.core.prng import Chance

CARDS = (1, 2, 3, 4, 5, 6)
"""D1: the bonus cards."""
TARGET = 20
ROUNDS = 10


@attrs.frozen(kw_only=True)
class DiceState:
    """Everything about a game at one point. ``seed`` is the log's: each roll draws from its
    stream ``roll-N`` (N: the rolls so far), so the die is the log's, never the state's."""

    seed: int
    bonus: tuple[int, ...]
    """Each seat's bonus card (D2): secret until the end."""
    aside: tuple[int, ...]
    """The cards set aside unseen."""
    scores: tuple[int, ...]
    """Banked points by seat (the bonus cards count only at the end)."""
    start: int
    to_move: int
    round: int = 1
    turn_points: int = 0
    rolls: int = 0
    last: int | None = None
    """The face last rolled (None before the first roll)."""
    over: bool = False

    @property
    def chance(self) -> Chance:
        """The log's chance, for the rolls the reducer makes (the seed's named streams)."""
        return Chance(self.seed)


def from_chance(chance: Chance, players: int) -> DiceState:
    """The first state: the bonus cards dealt (D2) and the first player drawn, from the log's
    chance (``header.chance``)."""
    cards = chance.shuffled("bonus", CARDS)
    start = chance.below("start", players)
    return DiceState(
        seed=chance.seed,
        bonus=cards[:players],
        aside=cards[players:],
        scores=(0,) * players,
        start=start,
        to_move=start,
    )


def roll(state: DiceState) -> int:
    """The face the next roll shows (D3)."""
    return state.chance.below(f"roll-{state.rolls}", 6) + 1
