"""The rules shipped with tribes (``tribes.rules``), by game and by id, for ``tribes rules`` and
for error messages that cite a rule: ``find("C18")`` is rule C18 of Clans with its rulings."""

from __future__ import annotations

import functools
import re
from importlib import resources

import attrs

from tribes.core.errors import UsageError

GAMES = {"C": "clans", "H": "hunters", "I": "iwari"}
"""The letter of each game's rule ids."""

_RULE = re.compile(r"^- ([A-Z])(\d+)\. ")


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


@functools.cache
def rulebook(game: str) -> Rulebook:
    """The rules of ``game`` as shipped; UsageError naming the games that have rules."""
    game = game.lower()
    if game not in GAMES.values():
        raise UsageError(f"no rules for '{game}'; rules: {', '.join(sorted(GAMES.values()))}")
    text = (resources.files("tribes.rules") / f"{game}.md").read_text(encoding="utf-8")
    return Rulebook(game, _title(text), text, tuple(_rules(game, text)))


def find(rule_id: str) -> Rule:
    """A rule by its id alone: the letter names the game (C Clans, H Hunters, I Iwari)."""
    match = re.fullmatch(r"([A-Za-z])(\d+)", rule_id.strip())
    if match is None or match[1].upper() not in GAMES:
        raise UsageError(
            f"'{rule_id}' is no rule id; ids are a letter and a number: C1… (Clans), "
            "H1… (Hunters and Gatherers), I1… (Iwari)"
        )
    return rulebook(GAMES[match[1].upper()]).rule(rule_id)


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
