"""The one fast way to build a frozen attrs state or event: :func:`evolver` and :func:`maker`,
generated from the class's own ``attrs.fields``, once a class.

A move builds a new state (and Hunters a new event and effect), so how it is built is on the hot
path: calling a class (``State(a=1, ...)``) builds a dict of its keywords that Python unpacks
again for ``__init__``, a quarter of what a state costs, and ``attrs.evolve`` reads every field
through ``getattr`` and calls the class. The reducers build with the functions made here instead:

- ``evolve = evolver(State)``: ``evolve(state, to_move=1, over=True)`` is ``attrs.evolve(state,
  to_move=1, over=True)``. Every field not named is the old state's value, the very object (caches
  too); a name that is no field is refused (``TypeError``, by Python); an instance of a subclass
  gives an instance of that subclass, its own fields carried (its own evolver, made on first use).
  So a field added to a class is carried by every ``evolve`` with no other edit, and a reducer
  never lists a state's fields (``tests/games/test_state_fields.py`` checks every game's moves).
- ``make = maker(Event)``: ``make(x=1, y=2)`` is ``Event(x=1, y=2)``, the class's defaults too.

The new instance is ``object.__new__(cls)``. ``make`` gives it to the class's own ``__init__``
(attrs' generated one), every argument by keyword. ``evolve`` does what that ``__init__`` does:
for a class whose ``__init__`` only stores (no validator, converter, init hook or hash cache; else
it calls that ``__init__``), it stores each field as attrs' code does, into the instance's dict
(``slots=False``) or through ``object.__setattr__`` (slotted): one call fewer, and no 15 or 30
keywords to match. Both require a keyword-only class (STYLE.md): the keywords are the fields'
``alias``. ``tests/core/test_builders.py`` compares them with ``attrs.evolve`` and the class call.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import attrs

T = TypeVar("T", bound=attrs.AttrsInstance)

_MISSING: Any = type("_Missing", (), {"__repr__": lambda self: "MISSING", "__slots__": ()})()
"""The default of every keyword of an ``evolve``: that field is not changed."""


def _keywords(cls: type[attrs.AttrsInstance]) -> list[tuple[str, str]]:
    """(name, keyword) of every field, the keyword ``cls.__init__`` takes it by; a class that is
    not keyword-only, or has a field ``__init__`` does not take, is refused."""
    keywords = []
    for field in attrs.fields(cls):
        if not field.init or not field.kw_only or field.alias is None:
            raise TypeError(
                f"{cls.__qualname__}: field '{field.name}' is not a keyword of __init__; "
                "builders build keyword-only attrs classes"
            )
        keywords.append((field.name, field.alias))
    return keywords


def _compiled(name: str, source: str, cls: type, **scope: Any) -> Callable[..., Any]:
    namespace: dict[str, Any] = {
        "_new": object.__new__,
        "_cls": cls,
        "_init": vars(cls)["__init__"],
    }
    namespace.update(scope)
    code = compile(source, f"<builders.{name} of {cls.__module__}.{cls.__qualname__}>", "exec")
    exec(code, namespace)  # noqa: S102  the source is made above, from the class's own fields
    function: Callable[..., Any] = namespace[name]
    function.__qualname__ = f"{name}[{cls.__qualname__}]"
    return function


def _stores_only(cls: type[attrs.AttrsInstance]) -> bool:
    """Whether attrs' ``__init__`` of ``cls`` only stores its arguments, one per field: no
    validator, converter, ``__attrs_pre_init__``/``__attrs_post_init__`` or hash cache."""
    hooks = ("__attrs_pre_init__", "__attrs_post_init__", "_attrs_cached_hash")
    plain = all(f.validator is None and f.converter is None for f in attrs.fields(cls))
    return plain and not any(hasattr(cls, hook) for hook in hooks)


def _slots(cls: type) -> set[str]:
    """The names of the slots of ``cls`` and its bases."""
    return {name for base in cls.__mro__ for name in vars(base).get("__slots__", ())}


def evolver(cls: type[T]) -> Callable[..., T]:
    """``evolve(instance, **changes)``, as ``attrs.evolve`` but fast: made once a class (cached);
    see the module's text."""
    return _evolver(cls)


def maker(cls: type[T]) -> Callable[..., T]:
    """``make(**fields)``, as calling ``cls`` but fast, with the same defaults: made once a
    class (cached); see the module's text."""
    return _maker(cls)


@functools.cache
def _evolver(cls: type[attrs.AttrsInstance]) -> Callable[..., Any]:
    fields = _keywords(cls)
    keywords = ", ".join(f"{alias}=_MISSING" for _, alias in fields)
    passed = ", ".join(f"{alias}={alias}" for _, alias in fields)
    head = (
        f"def evolve(self, *, {keywords}):\n"
        "    if self.__class__ is not _cls:\n"
        f"        return _evolver(self.__class__)(self, {passed})\n"
        "    new = _new(_cls)\n"
    )
    value = "{alias} if {alias} is not _MISSING else self.{name}"
    if not _stores_only(cls):
        values = ", ".join(
            f"{alias}={value.format(alias=alias, name=name)}" for name, alias in fields
        )
        body = f"    _init(new, {values})\n"
    elif cls.__dictoffset__ and not _slots(cls) & {name for name, _ in fields}:
        # attrs' __init__ of a dict class stores into the instance's dict
        body = "    stored = new.__dict__\n" + "".join(
            f"    stored[{name!r}] = {value.format(alias=alias, name=name)}\n"
            for name, alias in fields
        )
    else:  # of a slotted frozen class (or a dict class below one), by object.__setattr__
        body = "    store = _store(new)\n" + "".join(
            f"    store({name!r}, {value.format(alias=alias, name=name)})\n"
            for name, alias in fields
        )
    return _compiled(
        "evolve",
        head + body + "    return new\n",
        cls,
        _MISSING=_MISSING,
        _evolver=_evolver,
        _store=object.__setattr__.__get__,
    )


@functools.cache
def _maker(cls: type[attrs.AttrsInstance]) -> Callable[..., Any]:
    aliases = [alias for _, alias in _keywords(cls)]
    defaults: dict[str, Any] = vars(cls)["__init__"].__kwdefaults__ or {}
    keywords = ", ".join(f"{a}=_defaults[{a!r}]" if a in defaults else a for a in aliases)
    passed = ", ".join(f"{a}={a}" for a in aliases)
    source = (
        f"def make(*, {keywords}):\n"
        "    new = _new(_cls)\n"
        f"    _init(new, {passed})\n"
        "    return new\n"
    )
    return _compiled("make", source, cls, _defaults=defaults)
