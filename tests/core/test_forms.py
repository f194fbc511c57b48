"""One mapping of an attrs class to plain data (issue 27 §4): its form (``events/forms.py``),
made once from its attrs fields, is what every form of a value is made from: the converter's
data and the plain path's in declared order, an event's wire form, the walk of a state's digest
in sorted order with the fields at their declared default left out of the identity."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from tribes import games
from tribes.events import codec, forms, plain
from tribes.testing.playouts import playout


@attrs.frozen(kw_only=True)
class Sample:
    zeta: int
    alpha: tuple[int, ...] = ()
    middle: str = "m"
    total: int = attrs.field(default=0, metadata={forms.CACHE: True})

    @classmethod
    def from_fields(cls, **fields: Any) -> Sample:
        return cls(**fields, total=fields["zeta"] + sum(fields.get("alpha", ())))


def test_a_form_is_made_once_from_the_attrs_fields() -> None:
    form = forms.form(Sample)
    assert forms.form(Sample) is form
    assert form.caches == ("total",)
    assert form.names == ("zeta", "alpha", "middle")  # declared order, the cache left out
    assert form.sorted_names == ("alpha", "middle", "zeta")
    assert form.defaults == ((), "m", forms.NO_DEFAULT)  # a factory's value made once
    value = Sample(zeta=3, alpha=(1,), middle="x", total=4)
    assert form.values(value) == (3, (1,), "x")
    assert form.sorted_values(value) == ((1,), "x", 3)
    assert plain.serialized(Sample) is form.fields
    assert plain.cache_fields(Sample) == form.caches


def test_every_form_of_a_value_takes_its_fields_from_the_one_mapping() -> None:
    value = Sample.from_fields(zeta=3, alpha=(1, 2))
    form = forms.form(Sample)
    data = codec.unstructure(value)  # the converter's (a class with caches)
    assert tuple(data) == form.names
    assert codec.structure(data, Sample) == value
    assert tuple(codec.canonical_plain(value)) == form.sorted_names
    assert codec.identity(value) == {"alpha": (1, 2), "zeta": 3}  # "middle" at its default
    assert codec.identity(Sample.from_fields(zeta=1)) == {"zeta": 1}


@pytest.mark.parametrize("name", games.BUILT_IN)
def test_the_wire_the_document_and_the_digest_of_every_game_read_the_form(name: str) -> None:
    played = playout(name, seed=3).played
    for event in played.log.events:
        form = forms.form(type(event))
        assert codec.field_names(type(event)) == form.names
        assert codec.event_to_wire(event)[1:] == list(codec.event_to_dict(event).values())[1:]
        assert list(codec.event_to_dict(event))[1:] == list(form.names)
    state = played.steps[-1].state
    form = forms.form(type(state))
    assert tuple(codec.canonical_plain(state)) == form.sorted_names
    assert set(codec.identity(state)) <= set(form.sorted_names)
    assert set(codec.converter().unstructure(state)) == set(form.names)
