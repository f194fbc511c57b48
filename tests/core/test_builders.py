"""``core.builders``: ``evolver`` is ``attrs.evolve`` and ``maker`` the class call, made fast."""

from __future__ import annotations

import attrs
import pytest

from tribes.core.builders import evolver, maker


@attrs.frozen(kw_only=True)
class Slotted:
    a: int
    b: tuple[int, ...] = ()
    c: str = attrs.field(default=attrs.Factory(lambda self: f"{self.a}!", takes_self=True))
    _private: int = 0


@attrs.frozen(kw_only=True, slots=False)
class Plain:
    a: int
    b: list[int] = attrs.Factory(list)


@attrs.frozen(kw_only=True)
class More(Slotted):
    d: int = 4


@attrs.frozen(kw_only=True)
class Converted:
    a: int = attrs.field(converter=int)
    b: int = attrs.field(default=0, validator=attrs.validators.ge(0))


@attrs.frozen(kw_only=True, slots=False)
class PlainBelow(Slotted):
    """A dict class below a slotted one: its fields are slots and a dict."""

    e: int = 5


@attrs.frozen
class Positional:
    a: int


@pytest.mark.parametrize(
    ("before", "changes"),
    [
        (Slotted(a=1), {"b": (2,)}),
        (Slotted(a=1, b=(3,), private=5), {"a": 2, "c": "x", "private": 6}),
        (Slotted(a=1), {}),
        (Plain(a=1), {"a": 2}),
        (More(a=1, d=7), {"a": 2}),
        (More(a=1, d=7), {"d": 8, "b": (1,)}),
        (PlainBelow(a=1), {"a": 2, "e": 6}),
        (Converted(a="1"), {"b": 2}),  # type: ignore[arg-type]  # what the converter takes
    ],
)
def test_evolve_is_attrs_evolve(before: object, changes: dict[str, object]) -> None:
    made = evolver(type(before))(before, **changes)
    expected = attrs.evolve(before, **changes)
    assert type(made) is type(expected)
    assert made == expected
    for field in attrs.fields(type(before)):  # not copies: the very objects
        assert getattr(made, field.name) is getattr(expected, field.name)


def test_evolve_of_a_subclass_carries_its_own_fields() -> None:
    """The evolver of a class, given an instance of a subclass, makes that subclass: a field the
    subclass adds is carried (what ``tests/games/test_state_fields.py`` relies on)."""
    made = evolver(Slotted)(More(a=1, d=7), a=2)
    assert made == More(a=2, d=7, c="1!")


def test_evolve_runs_the_converters_and_validators_of_the_class() -> None:
    """A class whose ``__init__`` does more than store is built by that ``__init__``."""
    evolve = evolver(Converted)
    assert evolve(Converted(a=1), a="7").a == 7
    with pytest.raises(ValueError, match="'b' must be >= 0"):
        evolve(Converted(a=1), b=-1)


def test_evolve_refuses_a_name_that_is_no_field() -> None:
    with pytest.raises(TypeError, match="'e'"):
        evolver(Slotted)(Slotted(a=1), e=2)
    with pytest.raises(TypeError, match="'d'"):
        evolver(Slotted)(Slotted(a=1), d=2)  # a field of the subclass only


def test_evolve_keeps_the_instance_frozen() -> None:
    made = evolver(Plain)(Plain(a=1), a=2)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.a = 3  # type: ignore[misc]  # the assignment a frozen class refuses


@pytest.mark.parametrize(
    "fields",
    [{"a": 1}, {"a": 1, "b": (2,)}, {"a": 1, "c": "x", "private": 3}],
)
def test_make_is_the_class_call(fields: dict[str, object]) -> None:
    made = maker(Slotted)(**fields)
    assert type(made) is Slotted
    assert made == Slotted(**fields)  # type: ignore[arg-type]  # the fields of the cases above


def test_make_keeps_a_factory_default_fresh() -> None:
    make = maker(Plain)
    first, second = make(a=1), make(a=1)
    assert first.b == [] and first.b is not second.b


def test_make_refuses_what_the_class_refuses() -> None:
    with pytest.raises(TypeError, match="'a'"):
        maker(Slotted)()
    with pytest.raises(TypeError, match="'e'"):
        maker(Slotted)(a=1, e=2)
    with pytest.raises(TypeError):
        maker(Slotted)(1)


def test_a_class_that_is_not_keyword_only_is_refused() -> None:
    with pytest.raises(TypeError, match="field 'a' is not a keyword"):
        evolver(Positional)
    with pytest.raises(TypeError, match="field 'a' is not a keyword"):
        maker(Positional)


def test_made_once_a_class() -> None:
    assert evolver(Slotted) is evolver(Slotted)
    assert maker(Slotted) is maker(Slotted)
