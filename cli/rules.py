"""``tribes rules``: the rules shipped with tribes, whole or one by id."""

from __future__ import annotations

from typing import Any

import click

from tribes import games
from tribes.core import rulebook
from tribes.core.game import Game
from tribes.events import codec


@click.command()
@click.argument("words", nargs=-1, metavar="[GAME] [ID]")
@click.option("--json", "as_json", is_flag=True, help="The rules as JSON: id, section, text.")
def rules(words: tuple[str, ...], as_json: bool) -> None:
    """The rules as tribes plays them: 'tribes rules' lists the games and their rules,
    'tribes rules clans' prints the rules of Clans, 'tribes rules C18' (or 'clans C18') one rule
    with its rulings."""
    chosen = _chosen(words)
    if as_json:
        click.echo(codec.to_json([_rule_json(r) for r in chosen]))
        return
    if not words:
        for name, game in sorted(rulebook.with_rules(_games()).items()):
            book = rulebook.rulebook(game)
            ids = f"{book.rules[0].id} to {book.rules[-1].id}"
            click.echo(f"{name:<8} {book.title} ({len(book.rules)} rules, {ids})")
        click.echo("tribes rules GAME prints a game's rules; tribes rules ID one rule (e.g. C18)")
        return
    if len(chosen) > 1:
        click.echo(rulebook.named(chosen[0].game, _games()).text.rstrip())
        return
    rule = chosen[0]
    click.echo(f"{rulebook.named(rule.game, _games()).title} — {rule.section}")
    click.echo(rule.text)


def _chosen(words: tuple[str, ...]) -> list[rulebook.Rule]:
    """The rules ``words`` name: none given, every rule; a game, its rules; an id (after a game
    or alone), that rule."""
    known = rulebook.with_rules(_games())
    words = tuple(w.lower() if w.lower() in known else w for w in words)
    if len(words) > 2:
        raise click.UsageError("rules takes a game, an id, or both (tribes rules clans C18)")
    if not words:
        return [r for _, g in sorted(known.items()) for r in rulebook.rulebook(g).rules]
    if len(words) == 2:
        return [rulebook.named(words[0], known.values()).rule(words[1])]
    if words[0] in known:
        return list(rulebook.rulebook(known[words[0]]).rules)
    return [rulebook.find(words[0], known.values())]


def _games() -> list[Game[Any]]:
    """Every registered game (a broken plugin left out): those of them with rules are the games
    ``rules`` speaks of."""
    return games.loadable()


def _rule_json(rule: rulebook.Rule) -> dict[str, str]:
    return {"id": rule.id, "game": rule.game, "section": rule.section, "text": rule.text}
