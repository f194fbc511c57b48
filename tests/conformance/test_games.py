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
