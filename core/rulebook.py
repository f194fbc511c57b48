"""The rules each game ships, by game and by id, for ``tribes rules`` and for error messages that
cite a rule: ``find("C18", games)`` is rule C18 of Clans with its rulings.

A game's rules are its own: the text is ``rules.md`` in the package that defines the game (read
through :mod:`importlib.resources`, so a game installed from another distribution has rules as
the built-in ones do), and the letter of its ids is ``facts.rule_letter``. Core knows no game:
whoever asks names the games to look in (``tribes.games`` lists the registered ones).
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Iterable
from importlib import resources
from typing import Any

import attrs

from tribes.core.errors import UsageError
from tribes.core.game import Game, proper_name

RULES_FILE = "rules.md"
"""The name of a game's rules text in its package."""

_RULE = re.compile(r"^- ([A-Z])([0-9]+)\. ")


@attrs.frozen
class Rule:
    """One numbered rule: its id (``C18``), its game, the section it stands in and its text,
    rulings included."""

    id: str
    game: str
    section: str
    text: str


@attrs.frozen
class Rulebook:
    game: str
    title: str
    text: str
    rules: tuple[Rule, ...]

    def rule(self, rule_id: str) -> Rule:
        wanted = rule_id.upper()
        for rule in self.rules:
            if rule.id == wanted:
                return rule
        first, last = self.rules[0].id, self.rules[-1].id
        raise UsageError(f"{self.game} has no rule '{rule_id}'; its rules are {first} to {last}")


def rulebook(game: Game[Any]) -> Rulebook:
    """The rules ``game`` ships (``rules.md`` in its package); UsageError when it ships none."""
    if not game.facts.rule_letter:
        raise UsageError(f"{game.name} ships no rules: it names no rule letter")
    return _read(package_of(game), game.name, game.facts.rule_letter)


def package_of(game: Game[Any]) -> str:
    """The package that defines ``game`` (its class's module, or the package that module is
    in): where its rules text and data files are."""
    module = sys.modules[type(game).__module__]
    return module.__package__ or module.__name__


def with_rules(games: Iterable[Game[Any]]) -> dict[str, Game[Any]]:
    """Those of ``games`` that ship rules, by name."""
    return {game.name: game for game in games if game.facts.rule_letter}


def named(name: str, games: Iterable[Game[Any]]) -> Rulebook:
    """The rules of the game called ``name`` (in any case) among ``games``; UsageError naming
    the games that have rules."""
    known = with_rules(games)
    game = known.get(name.lower())
    if game is None:
        raise UsageError(f"no rules for '{name.lower()}'; rules: {', '.join(sorted(known))}")
    return rulebook(game)


def find(rule_id: str, games: Iterable[Game[Any]]) -> Rule:
    """A rule by its id alone, among ``games``: the letter names the game (C Clans, …)."""
    by_letter = {g.facts.rule_letter: g for g in with_rules(games).values()}
    match = re.fullmatch(r"([A-Za-z])([0-9]+)", rule_id.strip())
    if match is None or match[1].upper() not in by_letter:
        ids = ", ".join(f"{letter}1… ({proper_name(g)})" for letter, g in sorted(by_letter.items()))
        raise UsageError(f"'{rule_id}' is no rule id; ids are a letter and a number: {ids}")
    return rulebook(by_letter[match[1].upper()]).rule(rule_id)


@functools.cache
def _read(package: str, game: str, letter: str) -> Rulebook:
    """The rules text of ``package``, parsed; UsageError when the package holds none, or holds
    rules of another letter than the game's."""
    try:
        text = (resources.files(package) / RULES_FILE).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        raise UsageError(f"{game} ships no rules: no {RULES_FILE} in {package}") from None
    except TypeError:  # a game defined in a plain module, not a package: it has no data beside it
        raise UsageError(
            f"{game} ships no rules: {package} is a module, not a package that could hold "
            f"{RULES_FILE}"
        ) from None
    rules = tuple(_rules(game, text))
    if not rules:
        raise UsageError(f"{game} ships no rules: its {RULES_FILE} numbers none ('- {letter}1. …')")
    wrong = next((r.id for r in rules if r.id[0] != letter), None)
    if wrong is not None:
        raise UsageError(f"{game}'s rule letter is {letter}, but its {RULES_FILE} has {wrong}")
    return Rulebook(game, _title(text), text, rules)


def _title(text: str) -> str:
    first = text.splitlines()[0] if text else ""
    return first.removeprefix("# ").removesuffix(" — rules").strip()


def _rules(game: str, text: str) -> list[Rule]:
    """Each ``- X12. ...`` item with its indented continuation lines, in the section it is in."""
    out: list[Rule] = []
    section = ""
    current: list[str] | None = None
    rule_id = ""

    def close() -> None:
        if current is not None:
            out.append(Rule(rule_id, game, section, "\n".join(current).rstrip()))

    for line in text.splitlines():
        match = _RULE.match(line)
        if match:
            close()
            rule_id, current = f"{match[1]}{match[2]}", [line[2:]]
        elif current is not None and line.startswith("  ") and line.strip():
            current.append(line[2:])
        else:
            close()
            current = None
            if line.startswith("## "):
                section = line[3:].strip()
    close()
    return out
