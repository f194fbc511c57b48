"""The Game contract: everything the engine and the tooling use of a game, and the base class that
gives a game all of it from a few modules.

Core knows no game; games subclass :class:`GameBase` and are listed in ``tribes.games``. A game
declares what is particular to it — its name, its :class:`Facts`, its event table, its bots and its
modules (``rules``, ``notation``, ``views``, ``render`` as ``rendering``, ``pictures``) — and
inherits the rest; its rules text and data files are in its package too.
A *viewer* is who looks at a state: a seat number, :data:`SPECTATOR` (no hidden information) or
:data:`EVERYTHING` (all of it, for debugging).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

import attrs

from tribes.core import views as core_views
from tribes.core.errors import BadOption, BadPosition, UsageError
from tribes.core.events import Effect, Event, EventTable
from tribes.core.header import Header
from tribes.core.pictures import Picture
from tribes.core.positions import POSITION_OPTIONS, position_options, seat_names
from tribes.core.prng import Stream
from tribes.core.reprs import fields_repr

SPECTATOR: None = None
EVERYTHING: Literal["all"] = "all"
Viewer = int | None | Literal["all"]
DocumentPath = tuple[str | int, ...]


# --- what a game is -------------------------------------------------------------------------------


@attrs.frozen
class Option:
    """A game option (``--option NAME=VALUE``): its default and, in words, what it takes. With
    ``choices``, a value outside them is refused; ``many`` takes several, comma-separated."""

    name: str
    default: str
    takes: str
    choices: tuple[str, ...] = ()
    many: bool = False

    __repr__ = fields_repr

    def refuses(self, value: str) -> str | None:
        """Why ``value`` is no value of this option, or None."""
        if not self.choices:
            return None
        values = [v for v in value.split(",") if v] if self.many else [value]
        wrong = next((v for v in values if v not in self.choices), None)
        if wrong is None:
            return None
        if len(self.choices) == 2:
            return f"option {self.name} is {' or '.join(self.choices)}, not '{wrong}'"
        listed = ", ".join(self.choices)
        return f"option {self.name}: unknown {self.name} '{wrong}'; {self.name}s: {listed}"


@attrs.frozen
class Facts:
    """What a game is, for tools and people: seats, what is hidden, whether chance plays a part,
    the options it takes."""

    min_seats: int
    max_seats: int
    hidden: str
    """What a player may not see, in words ("" when nothing is hidden)."""
    chance: bool
    options: tuple[Option, ...] = ()
    private_moves: bool = False
    """Whether the legal moves give a hidden thing away (Iwari: the plays a hand can pay for):
    then only the seat to move (and a viewer of everything) sees them."""
    rule_letter: str = ""
    """The letter of the game's rule ids (``C`` of ``C18``): its rules text is ``rules.md`` in
    its own package, numbered ``- C1. …`` (:mod:`tribes.core.rulebook`); "" when it ships none."""

    __repr__ = fields_repr

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)


@attrs.frozen
class Outcome:
    """Scores so far (the final ones once the game is over) and the winners (seats; empty until
    the end). ``others`` scores tribes that no seat plays (Iwari's third tribe)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...] = ()
    others: tuple[tuple[str, int], ...] = ()
    ended: str | None = None
    """Why the game ended, in words ("the 12th village is founded"); None while it goes on."""

    __repr__ = fields_repr


def proper_name(game: Game[Any]) -> str:
    """What to call a game in a title: its ``title``, or its ``name`` when it gives none."""
    return getattr(game, "title", "") or game.name


def highest(scores: Sequence[int], tiebreak: Sequence[int] | None = None) -> tuple[int, ...]:
    """The seats with the highest score; among them, with ``tiebreak``, those with the most of
    it. Seats still tied share the victory."""
    best = max(scores)
    top = [seat for seat, score in enumerate(scores) if score == best]
    if tiebreak is not None:
        most = max(tiebreak[seat] for seat in top)
        top = [seat for seat in top if tiebreak[seat] == most]
    return tuple(top)


@attrs.frozen
class Pending:
    """A decision the rules hand to a player mid-turn: which seat, what kind of decision (a word
    of the game's, e.g. "order"), and what the game says of it (``details``, as plain data)."""

    seat: int
    decision: str
    details: Mapping[str, Any] = attrs.field(factory=dict)
    finishes_move: bool = False
    """Whether the decision only finishes the move that raised it (Clans' order numbers the
    villages that move founded, C18, C19), rather than being an action of its own: ``shrink``
    then never starts a reproducer between the two."""

    __repr__ = fields_repr


# --- the contract ---------------------------------------------------------------------------------


class State(Protocol):
    """What the engine and every tool read of a state of any game: whether the game is over and,
    while it is not, whose turn it is. The rest of a state is the game's own, read only by its
    modules. Read-only here because a state is a value: made once, never written afterwards
    (a frozen attrs class, changed by building a new one).

    **Its identity is declared, not its Python shape.** A state's digest (checkpoints of new
    logs, baselines, ``digest:`` lines of transcripts; ``tribes.events.codec.state_hash``)
    covers its *identity document* (``codec.identity``): the state's fields as the codec writes
    them, sorted, where in every attrs object a field equal to its declared default is left
    out, and so is a cache (``codec.CACHE``). So a game adds a field that changes no outcome
    (a variant flag, off) with a default, and no digest of an earlier state changes; a field
    whose value differs from its default is part of the identity. A change of outcome bumps
    ``rules_version``. The conformance kit checks it for every game
    (``tribes.testing.identity``): a field added to a state's class at its default changes no
    digest, set otherwise it does."""

    @property
    def over(self) -> bool: ...

    @property
    def to_move(self) -> int:
        """The seat whose decision the game waits for (meaningless once ``over``)."""


S = TypeVar("S", bound=State)
"""A game's state type: ``Game[ClansState]``."""
S_contra = TypeVar("S_contra", bound=State, contravariant=True)
"""A state type a module only reads (views, pictures): one that reads any state reads a
game's."""


class Bot(Protocol[S_contra]):
    def choose(self, state: S_contra, moves: Sequence[Event]) -> Event:
        """One of ``moves`` (never empty), for the state's active seat."""


class BotFactory(Protocol[S]):
    def __call__(self, game: Game[S], seed: int, seat: int) -> Bot[S]: ...


class Game(Protocol[S]):
    """Everything ``tribes.replay`` and ``tribes.cli`` use of a game whose states are ``S``."""

    name: str
    title: str
    """The game's proper name for people (page headers, titles): "Carcassonne: Hunters and
    Gatherers"; ``name`` is the word commands take."""
    rules_version: int
    events: EventTable
    facts: Facts
    bots: Mapping[str, BotFactory[S]]
    diff_whole: tuple[str, ...]
    """Top-level ``show --json`` fields that ``diff`` reports as one value (a pending decision)."""
    diff_order: tuple[str, ...]
    """Top-level ``show --json`` fields in the order a move changes them (Clans: the huts
    moved, then the villages founded, the points they scored, the chips): ``diff`` lists its
    changes so, then the game's other fields, then the scores and whose turn it is."""

    def check_options(self, options: Mapping[str, str]) -> dict[str, str]:
        """The options that differ from their defaults; raises BadOption for any it does not
        take."""

    def setup(self, header: Header) -> S:
        """The state before event 1: from the seed, or from ``header.position``."""

    def seats_of_position(self, position: Any) -> list[str]:
        """The seat names a position names (``new --position`` takes its seats from it)."""

    def setup_effects(self, header: Header, state: S) -> tuple[Effect, ...]:
        """What the start caused (a tile drawn at the start that fits nowhere, removed): the
        effects of step 0, which ``log``, the page and transcripts show at the start."""

    def to_move(self, state: S) -> int | None:
        """The seat whose decision the game waits for; None when over."""

    def is_over(self, state: S) -> bool: ...

    def legal_moves(self, state: S) -> Sequence[Event]:
        """Every legal event now; empty exactly when the game is over."""

    def check(self, state: S, event: Event) -> None:
        """Raises IllegalMove (naming the rule) unless ``event`` is legal in ``state``."""

    def apply(self, state: S, event: Event) -> tuple[S, tuple[Effect, ...]]:
        """The reducer: the next state and what the event caused. Pure and total: it checks the
        event and raises IllegalMove for an illegal one; it never mutates ``state``."""

    def parse_move(self, state: S, text: str) -> Event:
        """An event from its notation, read in ``state`` (the state it is played in); raises
        BadNotation."""

    def format_move(self, event: Event) -> str: ...

    def outcome(self, state: S) -> Outcome: ...

    def provisional(self, state: S) -> Outcome:
        """The scores the game would give if it ended now: what the rules have yet to add at
        their scorings, added as if they came now (``hunt`` steers by them where the scores
        move only at scorings). The outcome's own scores for a game that says nothing more."""

    def pending(self, state: S) -> Pending | None:
        """The decision the rules wait for mid-turn, or None (an ordinary turn)."""

    def visible_scores(self, state: S, viewer: Viewer) -> tuple[int | None, ...]:
        """The seats' scores as ``viewer`` may see them (None: it would give a secret away)."""

    def document(self, state: S, seats: Sequence[str], viewer: Viewer) -> dict[str, Any]:
        """The ``show --json`` document of a state, as ``viewer`` may see it: the common keys
        (``tribes.core.views.COMMON_KEYS``) and the game's own fields."""

    def fields(self, state: S, seats: Sequence[str], viewer: Viewer) -> dict[str, Any]:
        """The game's own ``show --json`` fields, as ``viewer`` may see them."""

    def render(self, state: S, seats: Sequence[str], viewer: Viewer, width: int = 100) -> str:
        """The state as text for a terminal ``width`` columns wide, as ``viewer`` may see it."""

    def phrase(self, path: DocumentPath, old: Any, new: Any) -> str | None:
        """One change between two documents in the game's terms, or None for the plain form."""

    def picture(
        self, state: S, seats: Sequence[str], viewer: Viewer, last: Event | None = None
    ) -> Picture:
        """The state drawn as ``viewer`` may see it (nothing hidden is in the drawing at all),
        ``last`` (the event that led to it) highlighted; ``tribes html`` sends its parts."""

    def svg(
        self,
        state: S,
        seats: Sequence[str],
        viewer: Viewer,
        last: Event | None = None,
        effects: Sequence[Effect] = (),
    ) -> str:
        """:meth:`picture` as one standalone SVG document (``tribes show --svg``), with what
        ``effects`` (the last event's) were about marked (:meth:`marks`)."""

    def marks(self, state: S, effects: Sequence[Effect]) -> tuple[str, ...]:
        """By effect, SVG marking on the board what it was about ("" for nothing)."""

    def position(self, state: S, seats: Sequence[str]) -> dict[str, Any]:
        """The position file of ``state`` (``tribes position``): a header with it as its
        position, these seats and the same options sets up a state with the same document and
        the same legal moves (with the same seed, the very state). Plain JSON data."""

    def simpler(self, position: Any) -> Iterable[Any]:
        """Positions a step simpler than ``position`` (``tribes shrink``): a piece, card, hut,
        tile or some points fewer, most promising first. They need not be valid: each is set
        up and tried."""


# --- what a game's modules give -------------------------------------------------------------------


class Rules(Protocol[S]):
    """A game's ``rules`` module. Its states are :class:`State` s: the engine reads ``over``
    and ``to_move`` of every state the reducer makes."""

    def setup(self, header: Header, options: Mapping[str, str]) -> S:
        """The start state of ``header``, from its seed or its position; ``options`` are the
        header's options with every default filled in, and the text of a file an option names
        is ``header.files[option]`` (carried in the log: never read from a path)."""

    def legal_moves(self, state: S) -> Sequence[Event]: ...
    def check(self, state: S, event: Event) -> None: ...
    def apply(self, state: S, event: Event) -> tuple[S, tuple[Effect, ...]]: ...
    def outcome(self, state: S) -> Outcome: ...
    def pending(self, state: S) -> Pending | None: ...


class Notation(Protocol):
    def parse(self, text: str) -> Event: ...
    def format(self, event: Event) -> str: ...


class Views(Protocol[S_contra]):
    def fields(self, state: S_contra, seats: Sequence[str], viewer: Viewer) -> dict[str, Any]: ...
    def phrase(self, path: DocumentPath, old: Any, new: Any) -> str | None: ...


class Render(Protocol[S_contra]):
    def render(
        self, state: S_contra, seats: Sequence[str], viewer: Viewer, width: int = 100
    ) -> str: ...


class Pictures(Protocol[S_contra]):
    def picture(
        self, state: S_contra, seats: Sequence[str], viewer: Viewer, last: Event | None
    ) -> Picture: ...


class Hiding(Protocol):
    def redeal(self, state: Any, viewer: Viewer, draws: Stream) -> Any:
        """A state ``viewer`` cannot tell from ``state`` (:mod:`tribes.core.hiding`): what
        they cannot see dealt afresh from ``draws``; ``state`` itself for EVERYTHING."""


class Positions(Protocol[S_contra]):
    def position(self, state: S_contra, seats: Sequence[str]) -> dict[str, Any]: ...
    def simpler(self, position: Any) -> Iterable[Any]: ...


class GameBase(Generic[S]):
    """A Game made of its modules: a game declares its name, facts, events, bots and modules, and
    overrides only what its modules cannot say (e.g. how its options are checked)."""

    name: str
    title: str = ""
    """The proper name; a game that gives none is called by its ``name``
    (:func:`proper_name`)."""
    rules_version: int
    events: EventTable
    facts: Facts
    bots: Mapping[str, BotFactory[S]]
    diff_whole: tuple[str, ...] = ("pending",)
    diff_order: tuple[str, ...] = ()

    # Class attributes, declared without ClassVar: a ClassVar cannot name S, and the Game
    # protocol reads them as attributes of the game object.
    rules: Rules[S]
    notation: Notation
    views: Views[S]
    rendering: Render[S]
    pictures: Pictures[S]
    positions: Positions[S] | None = None
    """Writes positions of states and simplifies them; without it ``tribes position`` and
    ``tribes shrink`` say that the game has no position form."""

    hiding: Hiding | None = None
    """Re-deals what a viewer cannot see (:mod:`tribes.core.hiding`), for the conformance kit's
    hidden-information check; a game that hides nothing (``facts.hidden == ""``) needs none."""

    HOT: ClassVar[tuple[str, ...]] = ("legal_moves", "apply")
    """Called once a move by every simulation and replay: a game's class takes its rules'
    functions themselves for these (no forwarding call between), unless it defines its own."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        rules = cls.__dict__.get("rules")
        if rules is not None:
            for name in cls.HOT:
                if name not in cls.__dict__:
                    setattr(cls, name, staticmethod(getattr(rules, name)))

    # options and setup

    def check_options(self, options: Mapping[str, str]) -> dict[str, str]:
        merged = self.with_defaults(options)
        for option in self.facts.options:
            why = option.refuses(merged[option.name])
            if why:
                raise BadOption(why)
        self.validate_options(merged)
        return {o.name: merged[o.name] for o in self.facts.options if merged[o.name] != o.default}

    def with_defaults(self, options: Mapping[str, str]) -> dict[str, str]:
        """Every option the game takes, ``options`` over the defaults; BadOption for one it does
        not take, naming those it does."""
        known = {o.name: o for o in self.facts.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            takes = ", ".join(f"{o.name}={o.takes}" for o in self.facts.options) or "none"
            raise BadOption(f"{self.name} takes no option '{unknown[0]}'; options: {takes}")
        return {name: options.get(name, o.default) for name, o in known.items()}

    def validate_options(self, options: Mapping[str, str]) -> None:
        """Raise BadOption for values the choices cannot judge (a data file that fails
        validation, say); ``options`` has every default filled in."""

    def setup(self, header: Header) -> S:
        options = self.with_defaults(header.options)
        if isinstance(header.position, dict) and POSITION_OPTIONS in header.position:
            header = self._options_of_position(header, options)
        return self.rules.setup(header, options)

    def _options_of_position(self, header: Header, options: Mapping[str, str]) -> Header:
        """The header with its position's ``options`` checked against the game's (a position
        of a game with feats is no position of one without) and taken out of the position. An
        option that names a file is compared only when the position names it."""
        named = position_options(header.position)
        try:
            wanted = self.with_defaults(named)
        except BadOption as exc:
            raise BadPosition(f"position options: {exc.message}") from None
        for option in self.facts.options:
            if option.takes == "PATH" and option.name not in named:
                continue
            name, value = option.name, wanted[option.name]
            if option.many and sorted(value.split(",")) == sorted(options[name].split(",")):
                continue
            if value != options[name]:
                raise BadPosition(
                    f"the position is of a game with option {name}={value}, this one has "
                    f"{name}={options[name]} (--option {name}={value})"
                )
        rest = {k: v for k, v in header.position.items() if k != POSITION_OPTIONS}
        return attrs.evolve(header, position=rest)

    def seats_of_position(self, position: Any) -> list[str]:
        return seat_names(position, self.facts.min_seats, self.facts.max_seats)

    def setup_effects(self, header: Header, state: S) -> tuple[Effect, ...]:
        return ()

    # turns

    def to_move(self, state: S) -> int | None:
        return None if state.over else state.to_move

    def is_over(self, state: S) -> bool:
        return bool(state.over)

    def legal_moves(self, state: S) -> Sequence[Event]:
        return self.rules.legal_moves(state)

    def check(self, state: S, event: Event) -> None:
        self.rules.check(state, event)

    def apply(self, state: S, event: Event) -> tuple[S, tuple[Effect, ...]]:
        return self.rules.apply(state, event)

    def outcome(self, state: S) -> Outcome:
        return self.rules.outcome(state)

    def provisional(self, state: S) -> Outcome:
        """The rules module's ``provisional(state)``, optional: without it, the outcome."""
        provisional = getattr(self.rules, "provisional", None)
        if provisional is None or state.over:
            return self.outcome(state)
        return provisional(state)  # type: ignore[no-any-return]  # an optional module function

    def pending(self, state: S) -> Pending | None:
        return self.rules.pending(state)

    # text

    def parse_move(self, state: S, text: str) -> Event:
        return self.notation.parse(text)

    def format_move(self, event: Event) -> str:
        return self.notation.format(event)

    # views

    def visible_scores(self, state: S, viewer: Viewer) -> tuple[int | None, ...]:
        return self.outcome(state).scores

    def document(self, state: S, seats: Sequence[str], viewer: Viewer) -> dict[str, Any]:
        return core_views.document(self, state, seats, viewer)

    def fields(self, state: S, seats: Sequence[str], viewer: Viewer) -> dict[str, Any]:
        return self.views.fields(state, seats, viewer)

    def render(self, state: S, seats: Sequence[str], viewer: Viewer, width: int = 100) -> str:
        return self.rendering.render(state, seats, viewer, width)

    def phrase(self, path: DocumentPath, old: Any, new: Any) -> str | None:
        return self.views.phrase(path, old, new)

    # pictures

    def picture(
        self, state: S, seats: Sequence[str], viewer: Viewer, last: Event | None = None
    ) -> Picture:
        return self.pictures.picture(state, seats, viewer, last)

    def svg(
        self,
        state: S,
        seats: Sequence[str],
        viewer: Viewer,
        last: Event | None = None,
        effects: Sequence[Effect] = (),
    ) -> str:
        picture = self.picture(state, seats, viewer, last)
        marked = "".join(self.marks(state, effects))
        if marked:
            picture = attrs.evolve(picture, parts=(*picture.parts, ("marks", marked)))
        return picture.svg()

    def marks(self, state: S, effects: Sequence[Effect]) -> tuple[str, ...]:
        """By effect, the SVG that marks on the board what it was about (a scored feature,
        drawn over the picture of ``state``), "" where there is nothing to mark: the pictures
        module's ``mark(state, effect)``, optional (a game without it marks nothing)."""
        mark = getattr(self.pictures, "mark", None)
        if mark is None:
            return ("",) * len(effects)
        return tuple(mark(state, e) for e in effects)

    # hidden information

    def redeal(self, state: Any, viewer: Viewer, seed: int) -> Any | None:
        """A state ``viewer`` cannot tell from ``state``, what they cannot see dealt afresh
        from ``seed``; None for a game with no ``hiding`` module. Optional in the contract:
        tools never call it, the conformance kit does."""
        if self.hiding is None:
            return None
        return self.hiding.redeal(state, viewer, Stream(seed, "redeal"))

    # positions

    def position(self, state: S, seats: Sequence[str]) -> dict[str, Any]:
        if self.positions is None:
            raise UsageError(f"{self.name} has no position form: it cannot write positions")
        return self.positions.position(state, seats)

    def simpler(self, position: Any) -> Iterable[Any]:
        return () if self.positions is None else self.positions.simpler(position)
