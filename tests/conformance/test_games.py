"""The conformance kit (:mod:`tribes.testing.conformance`) on every registered game — the
built-in ones and any plugin installed (the example game ``dice`` under ``make test``) — Iwari
also with its feats, expeditions and variants."""

from __future__ import annotations

from tribes import games
from tribes.testing.conformance import conformance_tests

OPTIONS: dict[str, list[dict[str, str]]] = {
    "iwari": [{}, {"feats": "on", "expeditions": "on", "variant": "long-road,floating-lands"}],
}

for _name in games.names():
    for _test, _function in conformance_tests(_name, options=OPTIONS.get(_name, [{}])).items():
        globals()[f"{_test}__{_name}"] = _function


def test_the_kit_runs_every_check_on_every_registered_game() -> None:
    """Each registered game (the example game too, once installed) gets every test of the kit
    here: a game left out, or a check the kit dropped, is caught."""
    expected = set(conformance_tests("clans"))
    assert {"test_conformance_replay", "test_conformance_hidden_information"} <= expected
    for name in games.names():
        made = {test for test in globals() if test.endswith(f"__{name}")}
        assert made == {f"{test}__{name}" for test in conformance_tests(name)}, name
