"""Iwari rules: legal moves, check and the reducer (I8–I18), turn by turn.

A turn moves through phases (``Phase``): the action (play, exchange or pass), the feats the play
earned, the third tribe's play (2 players), the refill one draw at a time. Phases that need no
decision are passed through at once, and the end of a turn does the rest: the reshuffle and
half-journey scoring, expeditions, the end of the journey and final scoring.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tribes.core.errors import GameOver, IllegalMove
from tribes.core.events import Effect, Event
from tribes.core.game import Outcome, Pending
from tribes.core.header import Header
from tribes.games.iwari import missions, scoring, situations
from tribes.games.iwari.board import TERRAINS, Terrain, load
from tribes.games.iwari.board import expeditions as expedition_cards
from tribes.games.iwari.events import (
    DECLINED,
    FROM_DECK,
    CardDrawn,
    CardExchanged,
    CardsPlayed,
    CardTaken,
    DeckRanOut,
    DeckReshuffled,
    EndTriggered,
    ExpeditionCompleted,
    FeatEarned,
    FeatPlaced,
    GameEnded,
    PiecesPlaced,
    ThirdTribePassed,
    ThirdTribePlayed,
    TurnPassed,
)
from tribes.games.iwari.moves import THIRD, can_play, exchanges, legal_moves, plays, sources
from tribes.games.iwari.placement import check_payment, place
from tribes.games.iwari.positions import from_position
from tribes.games.iwari.state import (
    FEAT_KINDS,
    HAND,
    ExpeditionCard,
    IwariState,
    Phase,
    evolve,
    from_seed,
)

__all__ = ["apply", "check", "legal_moves", "outcome", "pending", "setup"]

_INDEX = {t: i for i, t in enumerate(TERRAINS)}
DECK_OUT_TWICE = "the deck ran out a second time"
LAST_TENT = "a tribe has placed its last tent"


def setup(header: Header, options: Mapping[str, str]) -> IwariState:
    """The start: from the seed (I2–I6) or a position (I7), with the options' map and modules."""
    variants = [v for v in options["variant"].split(",") if v]
    game_map = load(options["map"], variants, header.files.get("map"))
    feats = options["feats"] == "on"
    expeditions = options["expeditions"] == "on"
    if header.position is not None:
        return from_position(
            game_map,
            header.position,
            header.seats,
            feats=feats,
            chance=header.chance,
            with_expeditions=expeditions,
        )
    return from_seed(
        game_map, header.chance, len(header.seats), feats=feats, with_expeditions=expeditions
    )


def outcome(state: IwariState) -> Outcome:
    """Scores of the players (and of the third tribe, which cannot win); winners by I18."""
    players = state.players
    others = (("third", state.scores[THIRD]),) if state.tribes > players else ()
    ended = end_reason(state) if state.over else None
    return Outcome(state.scores[:players], scoring.winners(state), others, ended)


def provisional(state: IwariState) -> Outcome:
    """The scores if the scorings still to come came now: the half-journey's tents (I13), while
    it is still to come, and the final scoring (I15) (what ``hunt`` steers by)."""
    if state.deck_outs == 0 or state.half_due:
        state = evolve(state, scores=scoring.half_journey(state)[0])
    scores = scoring.final(state)[0]
    others = (("third", scores[THIRD]),) if state.tribes > state.players else ()
    return Outcome(scores[: state.players], others=others)


def end_reason(state: IwariState) -> str:
    """I14: the journey ends when the deck runs out a second time or a tribe places its last
    tent (the round is then played out)."""
    return DECK_OUT_TWICE if state.deck_outs >= 2 else LAST_TENT


def pending(state: IwariState) -> Pending | None:
    """A turn's decisions after its action: a feat to place, the third tribe's play, a draw."""
    if state.over or state.phase is Phase.ACTION:
        return None
    details = {"feat": state.pending_feats[0].kind} if state.phase is Phase.FEAT else {}
    return Pending(state.to_move, state.phase.value, details)


# --- check ----------------------------------------------------------------------------------------


def check(state: IwariState, event: Event) -> None:
    """Raise IllegalMove, naming the rule, unless ``event`` is legal now."""
    if state.over:
        raise GameOver("the game is over", rule="I14")
    phase = state.phase
    if not isinstance(event, _EXPECTED[phase]):
        if isinstance(event, ThirdTribePlayed | ThirdTribePassed):
            raise IllegalMove(
                "the third tribe plays only right after its player's play of 1 or 2 cards, in a 2-player game",
                rule="I11",
            )
        raise IllegalMove(_waiting(state), rule=_phase_rule(phase))
    if isinstance(event, CardsPlayed | ThirdTribePlayed):
        tribe = state.to_move if isinstance(event, CardsPlayed) else THIRD
        _check_play(state, tribe, event)
    elif isinstance(event, CardExchanged):
        if not state.hands[state.to_move][TERRAINS.index(event.card)]:
            raise IllegalMove(f"no {event.card.value} card in hand to discard", rule="I9")
        _check_source(state, event.source, "I9")
    elif isinstance(event, CardDrawn):
        _check_source(state, event.source, "I10")
    elif isinstance(event, TurnPassed):
        if plays(state, state.to_move, CardsPlayed) or exchanges(state):
            raise IllegalMove(
                "a player may pass only when they can neither play nor exchange", rule="I8"
            )
    elif isinstance(event, FeatPlaced):
        feat = state.pending_feats[0]
        if event.kind != feat.kind:
            raise IllegalMove(f"the {feat.kind} feat is to be placed first", rule="I19")
        if event.target != DECLINED and event.target not in feat.options:
            where = "connection" if feat.kind in ("honour", "respect") else "territory"
            listed = " ".join(map(str, feat.options))
            raise IllegalMove(
                f"the {feat.kind} feat cannot go on {where} {event.target}; choose one of {listed} (or 'feat {feat.kind} none' to decline it)",
                rule="I19",
            )


_SELF_CHECKED: dict[type[Event], Phase] = {
    CardsPlayed: Phase.ACTION,
    ThirdTribePlayed: Phase.THIRD,
    CardDrawn: Phase.REFILL,
}
"""Events whose whole check is done as they are applied (a play's placing, a draw's source):
checking first would do it twice."""

_EXPECTED: dict[Phase, tuple[type[Event], ...]] = {
    Phase.ACTION: (CardsPlayed, CardExchanged, TurnPassed),
    Phase.FEAT: (FeatPlaced,),
    Phase.THIRD: (ThirdTribePlayed, ThirdTribePassed),
    Phase.REFILL: (CardDrawn,),
}
"""The events each phase of a turn takes."""


def _check_play(state: IwariState, tribe: int, play: CardsPlayed | ThirdTribePlayed) -> None:
    game_map = state.map
    if not 1 <= play.territory <= len(game_map.territories):
        raise IllegalMove(f"there is no territory {play.territory}", rule="I1")
    terrain = game_map.territory(play.territory).terrain
    check_payment(play.cards, len(play.pieces), terrain, state.hands[state.to_move])
    place(state, tribe, play.territory, play.pieces)


def _check_source(state: IwariState, source: int, rule: str) -> None:
    if source == FROM_DECK:
        if not state.deck:
            raise IllegalMove("the deck is empty", rule=rule)
    elif not 1 <= source <= len(state.display) or state.display[source - 1] is None:
        raise IllegalMove(f"display slot {source} holds no card", rule=rule)


def _waiting(state: IwariState) -> str:
    return {
        Phase.ACTION: "the turn begins with a play, an exchange or (only when neither is possible) a pass",
        Phase.FEAT: _feat_first(state),
        Phase.THIRD: "the third tribe's step comes first: play for it ('third 6 tent25 f') or leave it ('third pass')",
        Phase.REFILL: "the hand is being refilled: draw from the deck or the display",
    }[state.phase]


def _feat_first(state: IwariState) -> str:
    kind = state.pending_feats[0].kind if state.pending_feats else ""
    return (
        f"the {kind} feat must be placed ('feat {kind} N') or declined ('feat {kind} none') first"
    )


def _phase_rule(phase: Phase) -> str:
    return {Phase.ACTION: "I8", Phase.FEAT: "I19", Phase.THIRD: "I11", Phase.REFILL: "I10"}[phase]


# --- the reducer ----------------------------------------------------------------------------------


_PASSES = (ThirdTribePassed, TurnPassed)
"""(not ``A | B`` in the reducer: that builds a union type at every call)"""


def apply(state: IwariState, event: Event) -> tuple[IwariState, tuple[Effect, ...]]:
    if state.over or _SELF_CHECKED.get(type(event)) is not state.phase:
        check(state, event)  # a play in its own phase is checked as it is placed, in _play
    effects: list[Effect] = []
    seat = state.to_move
    if isinstance(event, CardsPlayed):
        played = len(event.cards)
        phase = _after_action(state.players, played)
        after = _play(state, seat, event, effects, played=played, phase=phase)
        if state.feats_on:
            after = _earn(state, after, seat, effects)
    elif isinstance(event, ThirdTribePlayed):
        after = _play(state, THIRD, event, effects, phase=Phase.REFILL)
    elif isinstance(event, _PASSES):
        after = evolve(state, phase=Phase.REFILL)
    elif isinstance(event, CardExchanged):
        hand = list(state.hands[seat])
        hand[TERRAINS.index(event.card)] -= 1
        after = _draw(state, event.source, effects, hand=hand, discard=(*state.discard, event.card))
    elif isinstance(event, CardDrawn):
        after = _draw(state, event.source, effects)
    else:
        assert isinstance(event, FeatPlaced)
        after = _place_feat(state, event)
    return _advance(after, effects), tuple(effects)


def _play(
    state: IwariState,
    tribe: int,
    play: CardsPlayed | ThirdTribePlayed,
    effects: list[Effect],
    **more: object,
) -> IwariState:
    """Pay and place; IllegalMove if either cannot be done (this is the play's check)."""
    game_map = state.map
    if not 1 <= play.territory <= len(game_map.territories):
        raise IllegalMove(f"there is no territory {play.territory}", rule="I1")
    check_payment(
        play.cards,
        len(play.pieces),
        game_map.territory(play.territory).terrain,
        state.hands[state.to_move],
    )
    placed = place(state, tribe, play.territory, play.pieces)
    hand = list(state.hands[state.to_move])
    for card in play.cards:
        hand[TERRAINS.index(card)] -= 1
    effects.append(
        PiecesPlaced(
            tribe=tribe, territory=play.territory, tents=placed.new_tents, totems=placed.new_totems
        )
    )
    before = situations.codes(game_map, state.situations, state.tents, state.totems)
    after = evolve(
        state,
        tents=placed.tents,
        totems=placed.totems,
        situations=situations.changed(
            game_map, play.territory, placed.tents, placed.totems, before
        ),
        tent_supply=placed.tent_supply,
        totem_supply=placed.totem_supply,
        hands=_set(state.hands, state.to_move, tuple(hand)),
        discard=(*state.discard, *play.cards),
        **more,
    )
    if (
        tribe < state.players
        and state.expeditions
        and missions.fills_desert(after, placed.new_tents)
    ):
        after = _claim(after, tribe, "last-space-desert", effects)
    return after


def _earn(before: IwariState, after: IwariState, seat: int, effects: list[Effect]) -> IwariState:
    new_tents = tuple(
        s for s in range(1, len(after.tents)) if after.tents[s] and not before.tents[s]
    )
    found = missions.earned_feats(before, after, seat, new_tents)
    if not found:
        return after
    left = list(after.feats_left)
    for feat in found:
        left[FEAT_KINDS.index(feat.kind)] -= 1
        effects.append(FeatEarned(seat=seat, kind=feat.kind, options=feat.options))
    earned = _set(after.earned, seat, (*after.earned[seat], *(f.kind for f in found)))
    return evolve(
        after, phase=Phase.FEAT, pending_feats=tuple(found), feats_left=tuple(left), earned=earned
    )


def _place_feat(state: IwariState, event: FeatPlaced) -> IwariState:
    rest = state.pending_feats[1:]
    after = evolve(state, pending_feats=rest)
    if event.target != DECLINED:
        if event.kind in ("honour", "respect"):
            factors = list(after.link_factors)
            factors[event.target] += 1
            after = evolve(after, link_factors=tuple(factors))
        else:
            factors = list(after.factors)
            factors[event.target] += 1
            after = evolve(after, factors=tuple(factors))
    return evolve(after, phase=Phase.FEAT if rest else _after_action(after.players, after.played))


def _after_action(players: int, played: int) -> Phase:
    """I11: in a 2-player game, a play of 1 or 2 cards lets the third tribe play."""
    if players == 2 and played in (1, 2):
        return Phase.THIRD
    return Phase.REFILL


def _draw(
    state: IwariState,
    source: int,
    effects: list[Effect],
    hand: list[int] | None = None,
    discard: tuple[Terrain, ...] | None = None,
) -> IwariState:
    """One card into the active hand (``hand``: the hand after an exchange's discard); the deck
    refills the display at once, and running out is noted (I13, I14)."""
    _check_source(state, source, "I10")  # a draw's whole check (see _SELF_CHECKED)
    deck = list(state.deck)
    display = list(state.display)
    had_cards = bool(deck)
    if source == FROM_DECK:
        card = deck.pop(0)
    else:
        drawn = display[source - 1]
        assert drawn is not None
        card = drawn
        display[source - 1] = deck.pop(0) if deck else None
    effects.append(
        CardTaken(
            seat=state.to_move,
            source=source,
            card=card,
            refill=None if source == FROM_DECK else display[source - 1],
        )
    )
    hand = list(state.hands[state.to_move]) if hand is None else hand
    hand[_INDEX[card]] += 1
    changes: dict[str, object] = {
        "deck": tuple(deck),
        "display": tuple(display),
        "hands": _set(state.hands, state.to_move, tuple(hand)),
        "phase": Phase.REFILL,
    }
    if discard is not None:
        changes["discard"] = discard
    if had_cards and not deck:
        outs = state.deck_outs + 1
        effects.append(DeckRanOut(time=outs))
        changes.update(deck_outs=outs, half_due=state.half_due or outs == 1)
    elif sum(hand) >= HAND and _quiet_end(state):
        # The hand is full and nothing happens at the end of this turn: hand the turn on here
        # rather than rebuild the state once more in _end_turn (it would do just this).
        changes.update(to_move=(state.to_move + 1) % state.players, phase=Phase.ACTION, played=0)
    return evolve(state, **changes)


def _quiet_end(state: IwariState) -> bool:
    """Whether ending the turn now only hands it on: no reshuffle, no expedition, no end."""
    return not (
        state.half_due or state.expeditions or state.ending or state.deck_outs >= 2
    ) and all(state.tent_supply)


def _advance(state: IwariState, effects: list[Effect]) -> IwariState:
    """Pass through the phases that need no decision; end the turn when the refill is done."""
    if state.over:
        return state
    if state.phase is Phase.THIRD and not can_play(state, THIRD):
        state = evolve(state, phase=Phase.REFILL)
    if state.phase is Phase.REFILL:
        full = sum(state.hands[state.to_move]) >= HAND
        if full or not sources(state):
            return _end_turn(state, effects)
    return state


def _end_turn(state: IwariState, effects: list[Effect]) -> IwariState:
    if state.half_due:
        state = _half_journey(state, effects)
    if state.expeditions:
        state = _expeditions(state, effects)
    if not state.ending:
        reason = None
        if state.deck_outs >= 2:
            reason = DECK_OUT_TWICE
        else:
            empty = [t for t in range(state.tribes) if not state.tent_supply[t]]
            if empty:
                reason = LAST_TENT
        if reason:
            effects.append(EndTriggered(reason=reason))
            state = evolve(state, ending=True)
    following = (state.to_move + 1) % state.players
    if state.ending and following == state.start:
        scores, more = scoring.final(state)
        effects.extend(more)
        ended = evolve(state, scores=scores, over=True, phase=Phase.ACTION, played=0)
        effects.append(GameEnded(scores=scores, winners=scoring.winners(ended)))
        return ended
    return evolve(state, to_move=following, phase=Phase.ACTION, played=0)


def _half_journey(state: IwariState, effects: list[Effect]) -> IwariState:
    """I13: after the refill, the discard pile becomes the new deck, then tents score."""
    deck = list(state.chance.shuffled(f"reshuffle-{state.deck_outs}", state.discard))
    effects.append(DeckReshuffled(cards=len(deck)))
    display = list(state.display)
    for i, card in enumerate(display):
        if card is None and deck:
            display[i] = deck.pop(0)
    state = evolve(state, deck=tuple(deck), display=tuple(display), discard=(), half_due=False)
    scores, more = scoring.half_journey(state)
    effects.extend(more)
    state = evolve(state, scores=scores)
    if not deck:
        effects.append(DeckRanOut(time=2))
        state = evolve(state, deck_outs=2)
    return state


def _expeditions(state: IwariState, effects: list[Effect]) -> IwariState:
    """I20: after every turn, each seat (the active one first) completes what it now meets."""
    order = [(state.to_move + i) % state.players for i in range(state.players)]
    for seat in order:
        for card in state.expeditions:
            check_mission = missions.STATE_MISSIONS.get(card.id)
            if check_mission is not None and _open(card, seat) and check_mission(state, seat):
                state = _claim(state, seat, card.id, effects)
    return state


def _open(card: ExpeditionCard, seat: int) -> bool:
    return len(card.claimed) < 2 and seat not in card.claimed


def _claim(state: IwariState, seat: int, card_id: str, effects: list[Effect]) -> IwariState:
    cards = list(state.expeditions)
    for i, card in enumerate(cards):
        if card.id == card_id and _open(card, seat):
            points = _points_of(card_id)[len(card.claimed)]
            cards[i] = ExpeditionCard(id=card.id, claimed=(*card.claimed, seat))
            effects.append(ExpeditionCompleted(seat=seat, card=card_id, points=points))
            scores = _set(state.scores, seat, state.scores[seat] + points)
            return evolve(state, expeditions=tuple(cards), scores=scores)
    return state


def _points_of(card_id: str) -> tuple[int, int]:
    return next(c.points for c in expedition_cards() if c.id == card_id)


def _set(values: tuple[Any, ...], index: int, value: object) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])
