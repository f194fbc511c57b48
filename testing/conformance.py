"""The conformance kit: the tests every game must pass, runnable on any game — a built-in one, a
plugin (entry point ``tribes.games``) or a Game object of one's own.

Two ways to run it::

    pytest --tribes-game=dice          # the pytest plugin adds the kit's tests for that game

    # or in a game's own test file:
    from tribes.testing.conformance import conformance_tests
    globals().update(conformance_tests("dice"))

Each check is also a plain function (``check_*``: a game, a seed and a seat count) that raises
:class:`Nonconformance` — an AssertionError whose message says in the game's terms what is
wrong, where (game, seed, step, viewer) and what differs. The checks:

- **replay**: a seeded random game replays event by event to the very states it was played to;
  legal moves are empty exactly when the game is over, each one passes ``check``; ``apply``
  never changes its input;
- **properties** (with hypothesis installed): games from any seed, seat count and move picks
  replay, stay pure and round-trip too;
- **round trips**: states through the codec (msgpack and JSON), events through the wire, the
  dict form and notation (read in the state before them), logs through both file forms;
- **views**: the ``show --json`` document (the common keys, plain JSON, ``pending.options`` the
  legal moves), the text board at several widths, ``log`` lines, for every viewer;
- **pictures**: the SVG of every step and viewer well-formed — an error names the part, the
  element and the attribute —, sized, its part keys unique; the HTML page builds;
- **playthrough**: the transcript the ``tribes_playthrough`` fixture pins, one block per step;
- **identity**: a state's digest is its declared identity (``tribes.core.game.State``): a field
  added to its class at its default changes no digest, set otherwise it does
  (:mod:`tribes.testing.identity`);
- **positions** (a game with a position form): the position of a state sets up the state again;
- **bots**: every bot plays a game to its end with legal moves;
- **rules** (a game with a rule letter): its ``rules.md`` is shipped and numbered with the letter,
  and every rule id its events and effects name is in it;
- **hidden information**: for every viewer and step, the state re-dealt (``Game.redeal``,
  :mod:`tribes.core.hiding`) shows that viewer the same ``show --json --as`` document (with
  ``pending.options``) and text board, and at some steps (:func:`drawn_steps`) the same SVG and
  HTML page (its frame, status, moves and effects); the step that led there, played from a
  re-dealt state, says the same effects and ``log --as`` line when it reveals nothing new. A game whose facts say something is
  hidden must have a re-deal, and it must deal something afresh.
"""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import attrs
import pytest

from tribes.core import rulebook, views
from tribes.core.engine import steps
from tribes.core.errors import IllegalMove, TribesError
from tribes.core.events import Effect, Event
from tribes.core.game import SPECTATOR, Game
from tribes.events import codec, logfile
from tribes.replay import html, logs, playthrough
from tribes.testing.harness import Harness
from tribes.testing.hidden import check_game_hides, check_hidden_information
from tribes.testing.identity import check_identity
from tribes.testing.markup import svg_problem
from tribes.testing.playouts import (
    SEEDS,
    WIDTHS,
    Nonconformance,
    Playout,
    drawn_steps,
    fail,
    game_of,
    playout,
    seat_count,
    viewers,
)

__all__ = [
    "SEEDS",
    "Nonconformance",
    "Playout",
    "check_bots",
    "check_game_hides",
    "check_hidden_information",
    "check_identity",
    "check_pictures",
    "check_playthrough",
    "check_positions",
    "check_properties",
    "check_purity",
    "check_replay",
    "check_round_trips",
    "check_rules",
    "check_views",
    "conformance_tests",
    "drawn_steps",
    "playout",
    "svg_problem",
]
"""The kit's public names; its parts: :mod:`tribes.testing.playouts` (the random games, the
failure), :mod:`tribes.testing.markup` (SVG problems in words), :mod:`tribes.testing.hidden`
(the re-deal checks)."""

# --- replay, purity, round trips ------------------------------------------------------------------


def check_replay(run: Playout, *, to_the_end: bool = True) -> None:
    """Replaying the log gives the very states it was played to; legal moves are empty exactly
    when the game is over; every listed move passes ``check``; the game ends (unless
    ``to_the_end`` is false: a game cut short)."""
    game = run.game
    replayed = list(steps(game, run.log.header, run.log.events))
    for built, again in zip(run.steps, replayed, strict=True):
        if again.state != built.state or codec.state_hash(again.state) != codec.state_hash(
            built.state
        ):
            raise fail(run.where(built.index), "replaying the log reaches another state")
        if again.effects != built.effects:
            raise fail(run.where(built.index), "replaying the log causes other effects")
    for step in run.steps:
        state, moves = step.state, game.legal_moves(step.state)
        if (not moves) != game.is_over(state):
            said = "no legal move but the game is not over" if not moves else "over with moves"
            raise fail(run.where(step.index), said)
        if (game.to_move(state) is None) != game.is_over(state):
            raise fail(run.where(step.index), "to_move is None exactly when over: it is not")
        for move in moves:
            try:
                game.check(state, move)
            except IllegalMove as exc:
                raise fail(
                    run.where(step.index),
                    f"the listed move '{game.format_move(move)}' is refused: {exc}",
                ) from None
    if to_the_end and not game.is_over(run.steps[-1].state):
        raise fail(run.where(), "the random game never ended")


def check_purity(run: Playout) -> None:
    """``apply`` and ``legal_moves`` never change the state they are given (nor do a few other
    legal moves applied to it)."""
    game = run.game
    for before, after in zip(run.steps, run.steps[1:], strict=False):
        state = before.state
        twin, plain = copy.deepcopy(state), codec.unstructure(state)
        assert after.event is not None
        for move in [after.event, *game.legal_moves(state)[:3]]:
            game.apply(state, move)
        if state != twin or codec.unstructure(state) != plain:
            raise fail(run.where(after.index), "apply changed the state it was given")


def check_round_trips(run: Playout) -> None:
    """States through the codec (msgpack, JSON); events through the wire, their dict and JSON
    forms and notation read in the state before them; the log through both file forms."""
    game = run.game
    table, versions = game.events, game.events.versions()
    for step in run.steps:
        state = step.state
        plain = codec.unstructure(state)
        for form, back in (
            ("the codec", codec.structure(plain, type(state))),
            ("msgpack", codec.structure(codec.unpack_all(codec.pack(plain))[0], type(state))),
            ("JSON", codec.structure(codec.from_json(codec.to_json(plain)), type(state))),
        ):
            if back != state or codec.state_hash(back) != codec.state_hash(state):
                raise fail(run.where(step.index), f"the state does not round-trip through {form}")
    for before, after in zip(run.steps, run.steps[1:], strict=False):
        event = after.event
        assert event is not None
        where = run.where(after.index)
        wire = codec.unpack_all(b"".join(codec.pack(v) for v in codec.event_to_wire(event)))
        if codec.event_from_wire(table, wire, versions) != event:
            raise fail(where, f"the event {event!r} does not round-trip through the wire")
        if codec.event_from_dict(table, codec.event_to_dict(event), versions) != event:
            raise fail(where, f"the event {event!r} does not round-trip through its dict")
        if codec.event_from_dict(
            table, codec.from_json(codec.event_json_line(event)), versions
        ) != (event):
            raise fail(where, f"the event {event!r} does not round-trip through JSON")
        text = game.format_move(event)
        try:
            parsed = game.parse_move(before.state, text)
        except TribesError as exc:
            raise fail(where, f"its notation '{text}' does not parse: {exc}") from None
        if parsed != event:
            raise fail(where, f"the notation '{text}' reads back as {parsed!r}, not {event!r}")
    log = attrs.evolve(run.log, checkpoints=logs.checkpoints(game, run.log, (), run.steps))
    data = logfile.encode(log)
    back, end = logfile.decode(data, lambda _name: game.events)
    if back != log or end.size != len(data):
        raise fail(run.where(), "the log does not round-trip through the .tribes form")
    raw = logfile.read_json_text(logfile.to_json_text(log))
    events = tuple(codec.event_from_dict(table, item, log.header.schema) for item in raw.items)
    if (raw.header, raw.checkpoints, events) != (log.header, log.checkpoints, log.events):
        raise fail(run.where(), "the log does not round-trip through the .json form")


# --- views, pictures, the page, the playthrough ---------------------------------------------------


def check_views(run: Playout) -> None:
    """For every step and viewer: the ``show --json`` document has the common keys and
    ``pending.options`` lists the legal moves when the viewer may see them; the text board
    renders; the ``log --as`` line says the move. At some steps (:func:`drawn_steps`) the
    document is written as JSON and the board rendered at every width."""
    game = run.game
    drawing = drawn_steps(len(run.steps), phase=run.seed)
    for step in run.steps:
        drawn = step.index in drawing
        for viewer in viewers(len(run.seats)):
            where = run.where(step.index, viewer)
            doc = views.step_document(game, run.log.header, step.index, step.state, viewer)
            missing = [k for k in views.COMMON_KEYS if k not in doc]
            if missing:
                raise fail(where, f"show --json has no {', '.join(missing)}")
            try:
                if drawn:  # the costly part: at some steps (a game's fields keep their types)
                    codec.to_json(doc)
            except (TypeError, ValueError) as exc:
                raise fail(where, f"show --json is no plain JSON: {exc}") from None
            pending = doc["pending"]
            if pending is not None and pending.get("options") is not None:
                legal = [game.format_move(m) for m in game.legal_moves(step.state)]
                if list(pending["options"]) != legal:
                    raise fail(where, "pending.options are not the legal moves")
            for width in WIDTHS if drawn else WIDTHS[:1]:
                board = game.render(step.state, run.seats, viewer, width)
                if not isinstance(board, str) or not board.strip():
                    raise fail(where, f"the text board at {width} columns is empty")
            line = views.step_line(game, run.seats, step, viewer=viewer)
            if step.event is not None and game.format_move(step.event) not in line:
                raise fail(where, f"the log line does not name the move: {line!r}")


def check_pictures(run: Playout) -> None:
    """The pictures of some steps (:func:`drawn_steps`) for every viewer: part keys unique, each part and the whole SVG
    well-formed (a failure names the part, element and attribute), the SVG sized in pixels
    with its viewBox; the HTML page of the game builds for a spectator and a seat."""
    game = run.game
    drawing = drawn_steps(len(run.steps), phase=run.seed)
    for step in run.steps:
        if step.index not in drawing:
            continue
        for viewer in viewers(len(run.seats)):
            where = run.where(step.index, viewer)
            picture = game.picture(step.state, run.seats, viewer, step.event)
            keys = [k for k, _ in picture.parts]
            doubled = sorted({k for k in keys if keys.count(k) > 1})
            if doubled:
                raise fail(where, f"the picture has two parts called {doubled[0]!r}")
            panel = picture.panel.parts if picture.panel else ()
            for owner, parts in (("part", picture.parts), ("panel part", panel)):
                for key, markup in parts:
                    problem = svg_problem(markup)
                    if problem:
                        raise fail(where, f"the SVG {owner} {key!r} is not well-formed: {problem}")
            svg = game.svg(step.state, run.seats, viewer, step.event)
            problem = svg_problem(svg)
            if problem:
                raise fail(where, f"the SVG is not well-formed: {problem}")
            root = ET.fromstring(svg)  # noqa: S314  the game's own SVG, checked above
            width, height = root.get("width"), root.get("height")
            if not (width and height and float(width) > 0 and float(height) > 0):
                raise fail(where, "the SVG has no width and height in pixels")
            if root.get("viewBox") != f"0 0 {width} {height}":
                raise fail(where, f"the SVG's viewBox is {root.get('viewBox')!r}")
            scale = max(1.0, picture.legible)
            if float(width) < picture.width * scale or float(height) < picture.height * scale:
                raise fail(where, f"the SVG is {width}×{height}, smaller than its legible size")
    for viewer in (SPECTATOR, 0):
        page = html.page(game, run.log, run.steps, viewer)
        if "tribes-frames" not in page:
            raise fail(run.where(viewer=viewer), "the HTML page holds no frames")


def check_playthrough(run: Playout) -> None:
    """The transcript ``tribes_playthrough`` pins: one block per step, each naming its event,
    its effects and the state's digest."""
    game, seats = run.game, run.seats
    blocks = [playthrough.block(game, seats, step) for step in run.steps]
    for step, block in zip(run.steps, blocks, strict=True):
        lines = block.splitlines()
        move = game.format_move(step.event) if step.event is not None else "start"
        who = seats[step.seat] if step.seat is not None else "-"
        if lines[0] != f"event {step.index}: {who} {move}":
            raise fail(run.where(step.index), f"the transcript's block starts {lines[0]!r}")
        if f"  digest: {codec.state_hash(step.state)}" not in lines:
            raise fail(run.where(step.index), "the transcript's block has not the digest")
    parsed = playthrough.parse(playthrough.text(blocks))
    if len(parsed) != len(run.steps):
        raise fail(run.where(), "the transcript does not read back block by block")


def check_positions(run: Playout) -> None:
    """The position of a state (every fifth, every pending decision, the end), through JSON,
    sets up the very state with the same seed and the same document and legal moves with
    another; a game without a position form passes."""
    game = run.game
    if getattr(game, "positions", True) is None:
        return
    for step in run.steps:
        pending = game.pending(step.state) is not None
        if not (pending or step.index % 5 == 0 or game.is_over(step.state)):
            continue
        position = codec.from_json(codec.to_json(game.position(step.state, run.seats)))
        for seed in (run.seed, run.seed ^ 0x5EED):
            head = logs.header(
                game, seats=run.seats, seed=seed, options=dict(run.options), position=position
            )
            again = game.setup(head)
            where = run.where(step.index)
            if seed == run.seed and again != step.state:
                raise fail(where, "the state's position sets up another state")
            for viewer in viewers(len(run.seats)):
                if views.document(game, again, run.seats, viewer) != views.document(
                    game, step.state, run.seats, viewer
                ):
                    raise fail(where, "the state's position shows another document")
            if [game.format_move(m) for m in game.legal_moves(again)] != [
                game.format_move(m) for m in game.legal_moves(step.state)
            ]:
                raise fail(where, "the state's position has other legal moves")


def check_properties(game: Game[Any] | str) -> Callable[..., None] | None:
    """A hypothesis test (None without hypothesis installed): games from any seed, seat count
    and list of move picks (``moves[pick % len(moves)]``, cut short when the picks run out)
    replay, stay pure and round-trip as the seeded games do."""
    try:
        from hypothesis import HealthCheck, given, settings  # noqa: PLC0415  optional: hypothesis, for the kit's property alone
        from hypothesis import strategies as st  # noqa: PLC0415  optional: hypothesis, for the kit's property alone
    except ImportError:
        return None
    game = game_of(game)
    harness = Harness(game)
    seats = st.integers(game.facts.min_seats, game.facts.max_seats)
    picks = st.lists(st.integers(0, 2**16), max_size=150)

    @settings(
        max_examples=PROPERTY_EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(seed=st.integers(0, logs.MAX_SEED), count=seats, picks=picks)
    def test(seed: int, count: int, picks: list[int]) -> None:
        names = harness.default_seats(count)
        played = harness.random_game(seed, names, picks, stream="conformance")
        run = Playout(game, seed, names, {}, played)
        check_replay(run, to_the_end=False)
        check_purity(run)
        check_round_trips(run)

    test.__doc__ = check_properties.__doc__
    return test


PROPERTY_EXAMPLES = 25
"""The examples the property test draws (derandomized: the same ones every run)."""


def check_bots(game: Game[Any] | str, seed: int) -> None:
    """Every bot of the game plays every seat of a game to its end, with legal moves only."""
    game = game_of(game)
    harness = Harness(game)
    seats = harness.default_seats(seat_count(game, seed))
    for name, factory in game.bots.items():
        state = harness.from_seed(seed, seats)
        bots = [factory(game, seed, seat) for seat in range(len(seats))]
        for turn in range(10_000):
            moves = game.legal_moves(state)
            if not moves:
                break
            seat = game.to_move(state)
            assert seat is not None
            move = bots[seat].choose(state, moves)
            if move not in moves:
                raise fail(
                    f"{game.name} seed {seed}, bot {name}, turn {turn}",
                    f"the bot chose '{game.format_move(move)}', no legal move",
                )
            state, _ = game.apply(state, move)
        else:
            raise fail(f"{game.name} seed {seed}, bot {name}", "the game did not end")


def check_rules(game: Game[Any] | str) -> None:
    """A game that names a rule letter ships its rules text (``rules.md`` in its package),
    numbered with that letter, and every rule id its events, effects and ``uncounted`` name is
    one of its rules."""
    game = game_of(game)
    if not game.facts.rule_letter:
        return
    try:
        book = rulebook.rulebook(game)
    except (TribesError, TypeError) as exc:  # TypeError: a game's module is in no package
        raise fail(game.name, f"its rules cannot be read: {exc}") from None
    ids = {rule.id for rule in book.rules}
    table = game.events
    kinds: list[type[Event | Effect]] = [*table.by_tag.values(), *table.effects.values()]
    named = {(kind.__name__, rule) for kind in kinds for rule in kind.RULES} | {
        ("uncounted", rule) for rule in table.uncounted
    }
    unknown = sorted((rule, where) for where, rule in named if rule not in ids)
    if unknown:
        rule, where = unknown[0]
        raise fail(game.name, f"{where} names rule {rule}, which its {rulebook.RULES_FILE} lacks")


PER_GAME: dict[str, Callable[[Playout], Any]] = {
    "replay": check_replay,
    "purity": check_purity,
    "round_trips": check_round_trips,
    "identity": check_identity,
    "views": check_views,
    "pictures": check_pictures,
    "playthrough": check_playthrough,
    "positions": check_positions,
    "hidden_information": check_hidden_information,
}
"""The checks run on each of the kit's random games, by name (the tests are
``test_conformance_<name>``)."""

HEAVY = {"views": 3, "pictures": 3, "positions": 3, "hidden_information": 3}
"""The checks that draw, render or re-deal every step run on the first few seeds only (which
still give every seat count of a 2–4 player game)."""


def cases(
    game: Game[Any], seeds: Sequence[int], options: Sequence[Mapping[str, str]]
) -> Iterator[Any]:
    for seed in seeds:
        for i, chosen in enumerate(options):
            seats = seat_count(game, seed)
            label = f"{game.name}-seed{seed}-{seats}p" + (f"-options{i}" if i else "")
            yield pytest.param(seed, dict(chosen), id=label)


def conformance_tests(
    game: Game[Any] | str,
    *,
    seeds: Sequence[int] = SEEDS,
    options: Sequence[Mapping[str, str]] = ({},),
) -> dict[str, Callable[..., None]]:
    """The kit as pytest test functions for ``game`` (a registered name or a Game), by test
    name: put them in a test module's globals. Each is parametrized over ``seeds`` (and each
    set of ``options``: a game's variants)."""
    the_game = game_of(game)
    tests: dict[str, Callable[..., None]] = {}

    def per_game(check: Callable[[Playout], Any], used: Sequence[int]) -> Callable[..., None]:
        def test(seed: int, chosen: dict[str, str]) -> None:
            check(playout(the_game, seed, options=chosen))

        test.__doc__ = check.__doc__
        params = list(cases(the_game, used, options))
        return pytest.mark.parametrize(("seed", "chosen"), params)(test)

    for name, check in PER_GAME.items():
        used = list(seeds)[: HEAVY[name]] if name in HEAVY else seeds
        tests[f"test_conformance_{name}"] = per_game(check, used)

    @pytest.mark.parametrize("seed", list(seeds)[:2])
    def test_conformance_bots(seed: int) -> None:
        check_bots(the_game, seed)

    def test_conformance_hiding_deals() -> None:
        check_game_hides(the_game, seeds)

    def test_conformance_rules() -> None:
        check_rules(the_game)

    test_conformance_bots.__doc__ = check_bots.__doc__
    test_conformance_hiding_deals.__doc__ = check_game_hides.__doc__
    test_conformance_rules.__doc__ = check_rules.__doc__
    properties = check_properties(the_game)
    if properties is not None:
        tests["test_conformance_properties"] = properties
    tests["test_conformance_rules"] = test_conformance_rules
    tests["test_conformance_bots"] = test_conformance_bots
    tests["test_conformance_hiding_deals"] = test_conformance_hiding_deals
    return tests
