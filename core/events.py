"""Events, effects and the tag table each game declares.

An event is what a player (or the rules, for a pending choice) decided: once in a log it is a fact,
so events are frozen and named in the past tense. Every event type carries an explicit wire tag
(an int, for msgpack) and name (a string, for JSON), fixed forever: renaming the class must not
break a stored log. ``VERSION`` is its schema version; older shapes are brought forward by
upcasters before structuring.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from tribes.core.reprs import fields_repr

if TYPE_CHECKING:  # the Game contract imports this module: no import back at run time
    from tribes.core.game import Viewer

RESERVED_TAG = 0
"""Wire tag 0 is the log file's own (its checkpoint and commit records), never an event's."""

Payload = dict[str, Any]
UpcastFn = Callable[[Payload], Payload]


@attrs.frozen(kw_only=True)
class Event:
    """Base of every event. Subclasses set ``TAG``, ``NAME`` and, when their shape changed,
    ``VERSION``."""

    TAG: ClassVar[int] = -1
    NAME: ClassVar[str] = ""
    VERSION: ClassVar[int] = 1
    RULES: ClassVar[tuple[str, ...]] = ()
    """The rule ids an event of this type applies (``tribes coverage``): a Clans move is C8;
    ``WHEN`` narrows one to the events whose fields meet a condition, as on :class:`Effect`."""
    WHEN: ClassVar[Mapping[str, str]] = {}

    __repr__ = fields_repr

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _shared_repr(cls)


@attrs.frozen(kw_only=True)
class Effect:
    """Base of every effect: a consequence the reducer computed (a village founded, an epoch
    turned). Effects are not stored; tooling shows them and tests pin them.

    ``RULES`` names the rules an effect of the type shows applied in a way that mattered (a
    strife: C13), for ``tribes coverage``; ``WHEN`` narrows one of them to the effects whose
    fields meet a condition in the bisect language (``{"C16": "number == 12"}``: only the 12th
    village shows its bonus rule)."""

    RULES: ClassVar[tuple[str, ...]] = ()
    WHEN: ClassVar[Mapping[str, str]] = {}

    __repr__ = fields_repr

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _shared_repr(cls)

    def describe(self, seats: Sequence[str]) -> str:
        """One line in the game's language; subclasses say it better."""
        fields = ", ".join(f"{a.name}={getattr(self, a.name)!r}" for a in attrs.fields(type(self)))
        return f"{type(self).__name__}({fields})"

    def describe_for(self, seats: Sequence[str], viewer: Viewer) -> str:
        """The line as ``viewer`` (a seat number, SPECTATOR or EVERYTHING, as in
        ``tribes.core.game``) may see it; ``describe`` is the line for EVERYTHING. Only an
        effect that carries a secret (a card drawn from a deck) needs to override this."""
        return self.describe(seats)


@attrs.frozen
class Upcaster:
    """Brings the payload of event ``tag`` from schema ``from_version`` to ``from_version + 1``.

    ``old_fields`` names the old shape's fields in wire order, so that a positional msgpack record
    can be read as the dict the function takes.
    """

    tag: int
    from_version: int
    old_fields: tuple[str, ...]
    fn: UpcastFn

    __repr__ = fields_repr


def _shared_repr(cls: type) -> None:
    """An event or effect class takes :func:`fields_repr` unless it writes its own: set before
    attrs decorates the class, which then finds a ``__repr__`` of the class's own and compiles
    none (every game's events and effects, a plugin's too)."""
    if "__repr__" not in cls.__dict__:
        cls.__repr__ = fields_repr  # type: ignore[assignment,method-assign]  # a class method set on the class


class EventTable:
    """The explicit table of one game's event types: wire tag and name to class, and upcasters;
    and its effect types by class name (what ``tribes find`` expressions may name) with the rule
    ids no event or effect can show applied, each with the reason (``uncounted``: a board's
    layout is data, a view is no event), for ``tribes coverage``."""

    def __init__(
        self,
        types: Iterable[type[Event]],
        upcasters: Iterable[Upcaster] = (),
        *,
        effects: Iterable[type[Effect]] = (),
        uncounted: Mapping[str, str] | None = None,
    ) -> None:
        self.by_tag: dict[int, type[Event]] = {}
        self.by_name: dict[str, type[Event]] = {}
        for cls in types:
            if cls.TAG <= RESERVED_TAG or not cls.NAME:
                raise ValueError(f"{cls.__name__} needs a TAG > 0 and a NAME")
            if cls.TAG in self.by_tag or cls.NAME in self.by_name:
                raise ValueError(f"{cls.__name__}: tag {cls.TAG} or name {cls.NAME!r} is taken")
            self.by_tag[cls.TAG] = cls
            self.by_name[cls.NAME] = cls
        self.upcasters: dict[tuple[int, int], Upcaster] = {}
        for up in upcasters:
            if up.tag not in self.by_tag or up.from_version >= self.by_tag[up.tag].VERSION:
                raise ValueError(f"upcaster for tag {up.tag} v{up.from_version} has no later shape")
            self.upcasters[(up.tag, up.from_version)] = up
        self.effects: dict[str, type[Effect]] = {}
        for kind in effects:
            if kind.__name__ in self.effects:
                raise ValueError(f"two effect types are called {kind.__name__}")
            self.effects[kind.__name__] = kind
        self.uncounted: dict[str, str] = dict(uncounted or {})

    def versions(self) -> dict[str, int]:
        """The schema version of every event type by name, as a log header records it."""
        return {cls.NAME: cls.VERSION for _, cls in sorted(self.by_tag.items())}
