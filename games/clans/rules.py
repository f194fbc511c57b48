"""Clans rules: legal moves, check and the reducer (C8–C22).

The reducer never mutates its input: each move builds new tuples. Legal moves are read from
per-board tables of prebuilt events (one per source and set of occupied neighbours), so the hot
path does bit arithmetic and list extension, nothing more.
"""

from __future__ import annotations

import itertools
from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from tribes.core.errors import BadPosition, GameOver, IllegalMove
from tribes.core.events import Effect, Event
from tribes.core.game import Outcome, Pending, highest
from tribes.core.header import Header
from tribes.core.movelist import MoveList
from tribes.games.clans.board import COLOUR_NAMES, TERRITORIES, VILLAGES, Board, load
from tribes.games.clans.events import (
    EpochBegan,
    GameEnded,
    HutsMoved,
    OrderAwaited,
    OrderChosen,
    StrifeRemoved,
    VillageDoomed,
    VillageFounded,
    VillageUnscored,
)
from tribes.games.clans.positions import from_position
from tribes.games.clans.state import (
    BIG_GROUP,
    EMPTY,
    ClansState,
    Huts,
    PendingOrder,
    Village,
    c_index,
    evolve,
    from_seed,
)

TWELFTH = "the 12th village is founded"
NO_MOVE_LEFT = "no legal move is left"


def setup(header: Header, options: Mapping[str, str]) -> ClansState:
    """The start: from the seed (C4–C6) or a position (C7); a start where no hut can move is
    over at once (C21)."""
    board = load(options["board"], header.files.get("board"))
    if header.position is None:
        start = from_seed(board, header.chance, len(header.seats))
    else:
        start = from_position(board, header.position, header.seats)
        if start.pending is not None and len(_distinct_orders(start, start.pending.villages)) < 2:
            listed = " ".join(map(str, start.pending.villages))
            raise BadPosition(
                f"order: every order of villages {listed} gives the same outcome, so none is "
                "asked for (C18, C19)"
            )
    if start.pending is None and (start.founded >= VILLAGES or not has_move(start)):
        return evolve(start, over=True)
    return start


def outcome(state: ClansState) -> Outcome:
    """C22: scores are track plus chips; the highest wins at the end, ties share it."""
    scores = state.scores()
    if not state.over:
        return Outcome(scores)
    return Outcome(scores, highest(scores), ended=end_reason(state))


def provisional(state: ClansState) -> Outcome:
    """The scores if the next village were founded now (``hunt`` steers by them): the most
    valuable occupied territory with one occupied neighbour, whose move founds it (C11), scored
    in the current epoch (C13-C15; the chip aside)."""
    board, occupied = state.board, state.occupied
    chart = board.epochs[state.epoch - 1]
    best, village = 0, EMPTY
    for tid in range(1, TERRITORIES + 1):
        near = occupied & board.neighbour_mask[tid]  # one neighbour: not a village, not two
        terrain = board.territories[tid - 1].terrain
        doomed = terrain in chart.unfavourable
        if occupied >> tid & 1 and near and not near & (near - 1) and not doomed:
            after = _strife(state.huts[tid])
            value = sum(after) + (chart.bonus if terrain in chart.favourable else 0)
            if value > best:
                best, village = value, after
    track = [points + (best if n else 0) for points, n in zip(state.track, village, strict=True)]
    seats = zip(state.clans, state.chips, strict=True)
    return Outcome(tuple(track[c_index(c)] + n for c, n in seats))


def end_reason(state: ClansState) -> str:
    """C20, C21: the 12th village, or no hut left to move."""
    return TWELFTH if state.founded >= VILLAGES else NO_MOVE_LEFT


def pending(state: ClansState) -> Pending | None:
    """C18, C19: the order of villages one move founded, when it matters."""
    if state.pending is None or state.over:
        return None
    villages = {"villages": list(state.pending.villages)}
    return Pending(state.to_move, "order", villages, finishes_move=True)


def legal_moves(state: ClansState) -> Sequence[Event]:
    """Every legal event: empty exactly when the game is over."""
    if state.over:
        return []
    if state.pending is not None:
        return [
            OrderChosen(villages=order) for order in _distinct_orders(state, state.pending.villages)
        ]
    tables = _tables(state.board)
    if state.big:
        candidates, extra = _big_moves(state, state.board, state.pairs)
        return Moves(candidates, tables, tuple(map(tables.by_pair.__getitem__, extra)))
    return Moves(state.pairs, tables, ())


class MoveTables:
    """A board's moves, prebuilt: ``by_pair[i]`` is the move of pair ``i`` (bit ``i`` of a pair
    mask), ``by_byte[k][v]`` the moves of byte ``k`` of a pair mask when its value is ``v``."""

    __slots__ = ("by_byte", "by_pair")

    def __init__(self, board: Board) -> None:
        self.by_pair = tuple(HutsMoved(source=a, target=b) for a, b in board.pairs)
        self.by_byte = tuple(
            _subsets(self.by_pair[8 * k : 8 * k + 8]) for k in range(_width(board))
        )


def _subsets(moves: tuple[HutsMoved, ...]) -> tuple[tuple[HutsMoved, ...], ...]:
    """By byte value ``v`` (0..255), the moves whose bit ``i`` is set in ``v``, in bit order
    (bits past the moves' count ignored). Each value's moves are those of ``v`` less its top
    bit, plus the top bit's move: one tuple each, which is what makes ``tribes moves`` and
    ``act`` start at once (listing each value's moves bit by bit cost ~90 M instructions)."""
    listed: list[tuple[HutsMoved, ...]] = [()]
    for move in moves:  # values with this move's bit on top follow those below it
        listed += [(*earlier, move) for earlier in listed]
    return tuple(listed * (256 // len(listed)))


def _tables(board: Board) -> MoveTables:
    """The move tables of ``board``, made once per board: a bounded memo keyed by the board's
    ``source`` (its identity, as ``Board.__eq__`` says), read at every turn. A string key is
    hashed in C; the board itself through its Python ``__hash__`` (~1.7 k instructions a
    turn through ``functools.lru_cache``)."""
    made = _TABLES.get(board.source)
    if made is None:
        if len(_TABLES) >= 16:
            _TABLES.clear()
        made = _TABLES[board.source] = MoveTables(board)
    return made


_TABLES: dict[str, MoveTables] = {}


_POPCOUNT = bytes(v.bit_count() for v in range(256))
"""By byte value, its bits set: ``bytes.translate`` counts the moves of each byte in C."""
_ONES = int.from_bytes(b"\x01" * 64, "little")
"""1 in each of 64 bytes: a number of byte counts times this has the running sums in its bytes
(the sum up to byte ``k`` in byte ``k``), as long as no sum passes 255."""


def running_counts(counts: bytes, total: int) -> Sequence[int]:
    """By ``k``, the sum of ``counts[0..k]`` (``itertools.accumulate(counts)``; ``total`` is
    their sum): where no sum passes 255 and there are at most 64 counts, summed in C by one
    product, the bytes of ``counts`` read as a number times :data:`_ONES` (the result holds 64
    bytes more than ``counts``, past the sums: read its first ``len(counts)``)."""
    width = len(counts)
    if total < 256 and width <= 64:
        return (int.from_bytes(counts, "little") * _ONES).to_bytes(width + 64, "little")
    return list(itertools.accumulate(counts))


class Moves(MoveList):
    """The moves of a pair mask, in pair order, then those of sources of 7 or more (``extra``).
    A move is read from the byte tables when asked for: a random player reads one of some
    thirty, and listing them all took a fifth of a game."""

    __slots__ = ("_count", "_extra", "_mask", "_plain", "_tables")

    def __init__(self, mask: int, tables: MoveTables, extra: tuple[Event, ...]) -> None:
        self._mask = mask
        self._tables = tables.by_byte
        self._extra = extra
        self._plain = plain = mask.bit_count()
        self._count = plain + len(extra)

    def __getitem__(self, index: int | slice) -> Any:  # a bot reads one: no checks in between
        if type(index) is int and 0 <= index < self._count:
            return self._at(index)
        return super().__getitem__(index)

    def _at(self, index: int) -> Event:
        """Move ``index``: the byte of the mask that holds it is the first whose running count
        of moves passes ``index``; the move is then read from that byte's table."""
        plain = self._plain
        if index >= plain:
            return self._extra[index - plain]
        tables = self._tables
        width = len(tables)
        data = self._mask.to_bytes(width, "little")
        upto = running_counts(data.translate(_POPCOUNT), plain)  # moves in bytes 0..k, by k
        k = bisect_right(upto, index, 0, width)
        return tables[k][data[k]][index - upto[k - 1] if k else index]

    def __iter__(self) -> Iterator[Event]:
        moves: list[Event] = []
        extend = moves.extend
        tables = self._tables
        for by_value, value in zip(tables, self._mask.to_bytes(len(tables), "little"), strict=True):
            if value:
                extend(by_value[value])
        moves.extend(self._extra)
        return iter(moves)


def _big_moves(state: ClansState, board: Board, candidates: int) -> tuple[int, list[int]]:
    """The pair mask without the moves of sources of 7 or more, and the pair bits of those of
    their moves that C10 allows (onto a group at least as large), in pair order."""
    totals = state.totals
    occupied = state.occupied
    extra: list[int] = []
    for source in bits(state.big):
        out = board.out_mask[source]
        candidates &= ~out
        first = lowest(out)  # a source's pairs are consecutive, by target
        size = totals[source]
        for i, t in enumerate(board.neighbours[source], first):
            if occupied >> t & 1 and totals[t] >= size:
                extra.append(i)
    return candidates, extra


def has_move(state: ClansState) -> bool:
    """Whether any hut can move (C21)."""
    if not state.big:
        return bool(state.pairs)
    candidates, extra = _big_moves(state, state.board, state.pairs)
    return bool(candidates or extra)


def lowest(mask: int) -> int:
    """The index of the lowest bit set in ``mask`` (not 0): ``mask == 1 << lowest(mask)`` for a
    mask of one bit."""
    return (mask & -mask).bit_length() - 1


def bits(mask: int) -> list[int]:
    """The indexes of the bits set in ``mask``, lowest first: ``sum(1 << i for i in
    bits(mask)) == mask``."""
    out = []
    while mask:
        i = lowest(mask)
        out.append(i)
        mask ^= 1 << i
    return out


def check(state: ClansState, event: Event) -> None:
    """Raise IllegalMove, naming the rule, unless ``event`` is legal now."""
    if state.over:
        raise GameOver("the game is over", rule="C20")
    if isinstance(event, HutsMoved):
        if state.pending is not None:
            listed = " ".join(map(str, state.pending.villages))
            raise IllegalMove(
                f"the order of villages {listed} must be chosen first (e.g. 'order {listed}')",
                rule="C18",
            )
        _check_move(state, event)
    elif isinstance(event, OrderChosen):
        if state.pending is None:
            raise IllegalMove("no order of villages is awaited", rule="C18")
        if sorted(event.villages) != sorted(state.pending.villages):
            listed = " ".join(map(str, state.pending.villages))
            raise IllegalMove(f"the order must name villages {listed}, each once", rule="C18")
    else:
        raise IllegalMove(f"'{type(event).__name__}' is not a Clans event")


def _check_move(state: ClansState, move: HutsMoved) -> None:
    source, target = move.source, move.target
    if not (1 <= source <= TERRITORIES and 1 <= target <= TERRITORIES):
        tid = target if 1 <= source <= TERRITORIES else source
        raise IllegalMove(
            f"there is no territory {tid}; territories are 1 to {TERRITORIES}", rule="C1"
        )
    if source == target:
        raise IllegalMove(
            f"a move needs two different territories: {source}-{target} names territory "
            f"{source} twice",
            rule="C8",
        )
    board = state.board
    size = state.totals[source]
    if not size:
        raise IllegalMove(f"territory {source} is empty: there are no huts to move", rule="C8")
    if not state.occupied & board.neighbour_mask[source]:
        raise IllegalMove(f"territory {source} is a village: villages never move", rule="C11")
    if not board.adjacent(source, target):
        raise IllegalMove(f"territory {target} is not adjacent to {source}", rule="C8")
    if not state.totals[target]:
        raise IllegalMove(
            f"territory {target} is empty: nothing can move onto an empty territory", rule="C8"
        )
    if size >= BIG_GROUP:
        other = state.totals[target]
        if other < BIG_GROUP:
            raise IllegalMove(
                f"territory {source} holds {size} huts: a group of {BIG_GROUP} or more cannot move",
                rule="C9",
            )
        if other < size:
            raise IllegalMove(
                f"territory {source} holds {size} huts and {target} only {other}: a group of "
                f"{BIG_GROUP} or more moves only onto a group at least as large",
                rule="C10",
            )


def apply(state: ClansState, event: Event) -> tuple[ClansState, tuple[Effect, ...]]:
    """The reducer: the state after ``event`` and what it caused."""
    if type(event) is HutsMoved and state.pending is None and not state.over:
        source, target = event.source, event.target
        board = state.board
        bit = board.pair_bit.get((source, target))
        if (
            bit is None
            or not state.pairs >> bit & 1
            or (state.big >> source & 1 and state.totals[target] < state.totals[source])
        ):  # a move legal_moves does not list: the whole check, which names the rule it breaks
            _check_move(state, event)
        return _move(state, board, source, target)
    check(state, event)
    assert isinstance(event, OrderChosen)
    cleared = evolve(state, pending=None)
    return _found_and_pass(cleared, event.villages)


def _move(
    state: ClansState, board: Board, source: int, target: int
) -> tuple[ClansState, tuple[Effect, ...]]:
    """C8: all huts of ``source`` onto ``target``; the villages this leaves founded (C11), or
    their order asked for when it matters (C18, C19); then the turn passes."""
    moved = _moved(state, board, source, target)
    occupied = moved[2]
    masks = board.neighbour_mask
    villages: list[int] = []
    for t in board.neighbours[source]:
        if occupied >> t & 1 and not occupied & masks[t]:
            villages.append(t)
    if not villages:
        to_move = (state.to_move + 1) % len(state.chips)
        return _pass_turn(
            _after(state, moved, to_move, state.chips, state.track, state.villages), []
        )
    found = tuple(villages)
    if len(found) == 1 or len(set(_slot_keys(state, len(found)))) == 1:  # one order
        return _found_and_pass(state, found, moved)
    after = _after(state, moved, state.to_move, state.chips, state.track, state.villages)
    orders = _distinct_orders(after, found)
    if len(orders) > 1:
        pending = evolve(after, pending=PendingOrder(villages=found))
        return pending, (OrderAwaited(seat=state.to_move, villages=found),)
    return _found_and_pass(after, orders[0])


# --- private helpers ------------------------------------------------------------------------------


def _width(board: Board) -> int:
    return (len(board.pairs) + 7) // 8


Moved = tuple[list[Huts], list[int], int, int, int]
"""The huts and totals by territory, the occupied, pair and big masks after a move."""


def _moved(state: ClansState, board: Board, source: int, target: int) -> Moved:
    """C8: all huts of ``source`` onto ``target``, as what a state is built from."""
    huts = list(state.huts)
    a, b = huts[target], huts[source]
    huts[target] = (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4])
    huts[source] = EMPTY
    totals = list(state.totals)
    size = totals[target] = totals[target] + totals[source]
    totals[source] = 0
    big = state.big & ~(1 << source)
    if size >= BIG_GROUP:
        big |= 1 << target
    return (
        huts,
        totals,
        state.occupied & ~(1 << source),
        state.pairs & ~board.touch_mask[source],
        big,
    )


def _after(
    state: ClansState,
    moved: Moved,
    to_move: int,
    chips: Sequence[int],
    track: Sequence[int],
    villages: Sequence[Village],
) -> ClansState:
    """The state after a move (``moved``: the board :func:`_moved` made of it, villages founded
    or not), with ``to_move`` next and these chips, track and villages."""
    huts, totals, occupied, pairs, big = moved
    return evolve(
        state,
        huts=tuple(huts),
        totals=tuple(totals),
        occupied=occupied,
        pairs=pairs,
        big=big,
        to_move=to_move,
        chips=tuple(chips),
        track=tuple(track),
        villages=tuple(villages),
    )


def _slot_key(state: ClansState, number: int) -> tuple[int, int]:
    """What decides a village's fate: the epoch of its chip (the 12th alone), or beyond (0, 0)."""
    if number > VILLAGES:
        return (0, 0)
    return (state.board.slot_epochs[number - 1], int(number == VILLAGES))


def _slot_keys(state: ClansState, count: int) -> list[tuple[int, int]]:
    """The slot keys of the next ``count`` villages: one key for all, one founding order."""
    first = state.founded + 1
    return [_slot_key(state, first + i) for i in range(count)]


def _distinct_orders(state: ClansState, villages: tuple[int, ...]) -> list[tuple[int, ...]]:
    """One founding order per distinct outcome (C17–C19). Orders that only swap villages within
    one epoch change nothing; nor do orders whose scores, chips and huts come out the same."""
    keys = _slot_keys(state, len(villages))
    if len(set(keys)) == 1:
        return [villages]
    seen: dict[tuple[tuple[int, tuple[int, int]], ...], tuple[int, ...]] = {}
    for order in itertools.permutations(villages):
        assignment = tuple(sorted(zip(order, keys, strict=True)))
        if assignment not in seen:
            seen[assignment] = _canonical(order, keys)
    outcomes: dict[tuple[object, ...], tuple[int, ...]] = {}
    for order in sorted(seen.values(), key=lambda o: (_rank(o, villages), o)):
        after, _ = _found(state, order)
        outcomes.setdefault((after.track, after.chips, after.huts), order)
    return list(outcomes.values())


def _canonical(order: Sequence[int], keys: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """The order with villages sorted by territory within each run of equal slot keys."""
    out: list[int] = []
    for _, run in itertools.groupby(zip(order, keys, strict=True), key=lambda p: p[1]):
        out.extend(sorted(v for v, _ in run))
    return tuple(out)


def _rank(order: tuple[int, ...], villages: tuple[int, ...]) -> int:
    return sum(abs(order.index(v) - i) for i, v in enumerate(villages))


def _found(
    state: ClansState,
    order: Sequence[int],
    *,
    pass_turn: bool = False,
    moved: Moved | None = None,
) -> tuple[ClansState, list[Effect]]:
    """Found the villages in ``order`` (C12–C16, C19): chip, strife, value, track; with
    ``pass_turn`` the turn passes in the same new state, unless the 12th village ended the game
    (C20: the founder stays the one to move in the final state). ``moved``: the board after
    the move that founds them, when no state was made of it."""
    board = state.board
    if moved is None:
        huts, totals = list(state.huts), list(state.totals)
        occupied, pairs, big = state.occupied, state.pairs, state.big
    else:
        huts, totals, occupied, pairs, big = moved
    chips = list(state.chips)
    track = list(state.track)
    villages = list(state.villages)
    effects: list[Effect] = []
    founder = state.to_move
    number = state.founded
    for tid in order:
        number += 1
        if number > VILLAGES:
            villages.append(
                Village(territory=tid, number=number, epoch=None, huts=huts[tid], value=None)
            )
            effects.append(VillageUnscored(territory=tid, number=number))
            continue
        epoch = board.slot_epochs[number - 1]
        chart = board.epochs[epoch - 1]
        terrain = board.territories[tid - 1].terrain
        chips[founder] += 1
        before = huts[tid]
        after = _strife(before)
        total = sum(after)
        doomed = number < VILLAGES and terrain in chart.unfavourable
        value = 0
        scored: list[str] = []
        if not doomed:
            if number == VILLAGES:  # C16: its epoch's bonus on the chart, whatever its terrain
                value = total + chart.bonus
            else:
                value = total + (chart.bonus if terrain in chart.favourable else 0)
            for i, n in enumerate(after):
                if n:
                    track[i] += value
                    scored.append(COLOUR_NAMES[i])
        villages.append(Village(territory=tid, number=number, epoch=epoch, huts=after, value=value))
        effects.append(
            VillageFounded(
                territory=tid,
                number=number,
                epoch=epoch,
                founder=founder,
                huts=after,
                value=value,
                scored=tuple(scored),
            )
        )
        if after != before:
            lost = tuple(COLOUR_NAMES[i] for i, n in enumerate(after) if n != before[i])
            effects.append(StrifeRemoved(territory=tid, colours=lost))
        if doomed:
            effects.append(VillageDoomed(territory=tid, terrain=terrain, huts=total))
            after = EMPTY
            total = 0
            pairs &= ~board.touch_mask[tid]
        huts[tid] = after
        totals[tid] = total
        if not total:  # doomed, or strife took every hut (five lone ones)
            occupied &= ~(1 << tid)
        if total < BIG_GROUP:
            big &= ~(1 << tid)
        if number < VILLAGES and board.slot_epochs[number] != epoch:
            effects.append(EpochBegan(epoch=board.slot_epochs[number]))
    to_move = founder
    if pass_turn and sum(chips) < VILLAGES:
        to_move = (founder + 1) % len(chips)
    new = _after(state, (huts, totals, occupied, pairs, big), to_move, chips, track, villages)
    return new, effects


def _strife(huts: Huts) -> Huts:
    """C13: when all five colours meet, every colour with a single hut loses it."""
    if all(huts):
        return tuple(0 if n == 1 else n for n in huts)  # type: ignore[return-value]  # 5 colours
    return huts


def _found_and_pass(
    state: ClansState, order: Sequence[int], moved: Moved | None = None
) -> tuple[ClansState, tuple[Effect, ...]]:
    founded, effects = _found(state, order, pass_turn=True, moved=moved)
    if founded.founded >= VILLAGES:
        return _end(founded, effects, TWELFTH)
    return _pass_turn(founded, effects)


def _pass_turn(passed: ClansState, effects: list[Effect]) -> tuple[ClansState, tuple[Effect, ...]]:
    """The turn has passed clockwise (C6); end the game if no hut can move (C21)."""
    if not has_move(passed):
        return _end(passed, effects, NO_MOVE_LEFT)
    return passed, tuple(effects)


def _end(
    state: ClansState, effects: list[Effect], reason: str
) -> tuple[ClansState, tuple[Effect, ...]]:
    """C22: reveal the clans; score track plus chips; the highest score wins, ties share it."""
    ended = evolve(state, over=True)
    scores = ended.scores()
    effects.append(
        GameEnded(
            reason=reason,
            clans=tuple(c.value for c in ended.clans),
            scores=scores,
            winners=highest(scores),
        )
    )
    return ended, tuple(effects)
