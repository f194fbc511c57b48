"""A small, safe query language over a ``show --json`` document, for ``tribes bisect --until``.

Never Python's eval: expressions are tokenized and parsed here, and can only read the document.

    expr     := or
    or       := and ("or" and)*
    and      := not ("and" not)*
    not      := "not" not | compare
    compare  := sum (("==" | "!=" | "<" | "<=" | ">" | ">=" | "in") sum)?
    sum      := unary (("+" | "-") unary)*
    unary    := "-" unary | primary
    primary  := NUMBER | STRING | "true" | "false" | "null" | FUNC "(" expr ")" | "(" expr ")" | path
    path     := NAME ("." (NAME | NUMBER) | "[" expr "]")*
    FUNC     := len | sum | max | min | count

Examples: ``over``, ``len(villages) >= 12``, ``track.red > 30``, ``pending != null``,
``chips.ann + chips.bob >= 5``, ``"red" in clans``. Names are letters, digits and ``_``, so
``track.red-track.blue`` subtracts; a key with other characters is reached with brackets:
``chips["ann-b"]``. Unary minus nests too (``- - 1``); expressions nest at most 32 levels deep. A path that is not in the document is null;
a top-level name that is no field of the document is an error (it is likely a typo). ``x in m``
holds when ``x`` is an item of list ``m``, a key or a value of object ``m``, or a part of text ``m``.

At a step of a game (``find``, ``shrink``) an expression also reads what the event did
(:func:`at_step`): each effect type of the game by its class name is the list of the event's
effects of that type, each as ``log --json`` gives it (``type``, ``text`` and its fields), so
``len(VillageFounded) >= 2`` holds at a move that founded two villages and ``TileRemoved`` at one
that removed a tile; ``move`` is the event in notation (null at the start). The state's document
is built only when the expression reads a field of it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from tribes.core import digits, views
from tribes.core.errors import UsageError
from tribes.core.events import Effect, Event
from tribes.core.game import EVERYTHING, Game
from tribes.core.header import Header
from tribes.replay.records import effect_record

MAX_LENGTH = 500
MAX_DEPTH = 32
_TOKEN = re.compile(
    r"[ \t\r\n]*(?:(?P<number>[0-9]+(?:\.[0-9]+)?)|(?P<string>\"[^\"]*\"|'[^']*')"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<op>==|!=|<=|>=|[<>()\[\].+-]))"
)
SPACE = " \t\r\n"
"""What separates tokens: ASCII white space only (a no-break space is no space here)."""
MAX_DIGITS = 30
"""The longest number an expression may write (a longer one overflows a float)."""
FUNCTIONS: dict[str, Callable[[Any], Any]] = {
    "len": lambda v: len(v) if isinstance(v, list | dict | str) else 0,
    "sum": lambda v: sum(_numbers(v)),
    "max": lambda v: max(_numbers(v), default=None),
    "min": lambda v: min(_numbers(v), default=None),
    "count": lambda v: (
        sum(1 for x in (v.values() if isinstance(v, dict) else v) if x)
        if isinstance(v, list | dict)
        else int(bool(v))
    ),
}
KEYWORDS = {"and", "or", "not", "in", "true", "false", "null"}


def _numbers(value: Any) -> list[float]:
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return [x for x in items if isinstance(x, int | float) and not isinstance(x, bool)]


@attrs.frozen
class Query:
    """A parsed expression: call it with a document to get its value; ``holds`` for truth."""

    text: str
    _run: Callable[[Mapping[str, Any]], Any]
    paths: tuple[tuple[str, Callable[[Mapping[str, Any]], bool]], ...] = ()
    """Each path of the expression as written, and whether it is there in a document."""

    def __call__(self, doc: Mapping[str, Any]) -> Any:
        return self._run(doc)

    def holds(self, doc: Mapping[str, Any]) -> bool:
        return _truthy(self._run(doc))

    def missing(self, doc: Mapping[str, Any]) -> set[str]:
        """The paths that are not in ``doc`` (read as null): a key it lacks, an index beyond a
        list's ends."""
        return {text for text, present in self.paths if not present(doc)}


def parse(text: str, fields: set[str] | None = None, effects: set[str] | None = None) -> Query:
    """Parse ``text``; with ``fields``, a top-level name outside them (and outside ``effects``,
    the effect types a step names) is an error that lists both."""
    if len(text) > MAX_LENGTH:
        raise UsageError(f"the expression is longer than {MAX_LENGTH} characters")
    tokens, spans = _tokenize(text)
    parser = _Parser(tokens, text, fields, spans, effects or set())
    run = parser.expr()
    extra = parser.peek()
    if extra is not None:
        raise parser.error(f"unexpected '{extra[1]}'")
    return Query(text, run, tuple(parser.paths))


def _tokenize(text: str) -> tuple[list[tuple[str, str]], list[tuple[int, int]]]:
    """The tokens of ``text`` and where each stands in it."""
    tokens = []
    spans = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip(SPACE) == "":
            break
        match = _TOKEN.match(text, pos)
        if not match or match.end() == pos:
            bad = text[pos:].lstrip(SPACE)[:1]
            hint = " (to compare, write '==')" if bad == "=" else ""
            raise UsageError(f"bad expression '{text}': unexpected character '{bad}'{hint}")
        kind = match.lastgroup or ""
        tokens.append((kind, match[kind]))
        spans.append(match.span(kind))
        pos = match.end()
    return tokens, spans


Run = Callable[[Mapping[str, Any]], Any]


class _Parser:
    def __init__(
        self,
        tokens: list[tuple[str, str]],
        text: str,
        fields: set[str] | None,
        spans: list[tuple[int, int]],
        effects: set[str],
    ) -> None:
        self.effects = effects
        self.depth = 0
        self.spans = spans
        self.tokens = tokens
        self.pos = 0
        self.text = text
        self.fields = fields
        self.paths: list[tuple[str, Callable[[Mapping[str, Any]], bool]]] = []

    def error(self, why: str) -> UsageError:
        return UsageError(f"bad expression '{self.text}': {why}")

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, value: str | None = None) -> tuple[str, str]:
        token = self.peek()
        if token is None:
            raise self.error("it ends too soon")
        if value is not None and token[1] != value:
            raise self.error(f"expected '{value}', found '{token[1]}'")
        self.pos += 1
        return token

    def at(self, *values: str) -> bool:
        token = self.peek()
        return token is not None and token[1] in values and token[0] in ("op", "name")

    def expr(self) -> Run:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(f"it nests deeper than {MAX_DEPTH} levels")
        try:
            return self._or()
        finally:
            self.depth -= 1

    def _or(self) -> Run:
        left = self.conj()
        while self.at("or"):
            self.take()
            right = self.conj()
            left = (lambda a, b: lambda d: _truthy(a(d)) or _truthy(b(d)))(left, right)  # noqa: PLC3002  binds the operands now
        return left

    def conj(self) -> Run:
        left = self.neg()
        while self.at("and"):
            self.take()
            right = self.neg()
            left = (lambda a, b: lambda d: _truthy(a(d)) and _truthy(b(d)))(left, right)  # noqa: PLC3002  binds the operands now
        return left

    def neg(self) -> Run:
        if self.at("not"):
            self.take()
            inner = self.neg()
            return lambda d: not _truthy(inner(d))
        return self.compare()

    def compare(self) -> Run:
        left = self.sum()
        if self.at("==", "!=", "<", "<=", ">", ">=", "in"):
            op = self.take()[1]
            right = self.sum()
            return (lambda a, b, o: lambda d: _compare(o, a(d), b(d)))(left, right, op)  # noqa: PLC3002  binds the operands now
        return left

    def sum(self) -> Run:
        left = self.unary()
        while self.at("+", "-"):
            op = self.take()[1]
            right = self.unary()
            left = (lambda a, b, o: lambda d: _arith(o, a(d), b(d)))(left, right, op)  # noqa: PLC3002  binds the operands now
        return left

    def unary(self) -> Run:
        if self.at("-"):
            self.take()
            inner = self.unary()
            return lambda d: _arith("-", 0, inner(d))
        return self.primary()

    def primary(self) -> Run:
        kind, value = self.take()
        if kind == "number":
            if len(value) > MAX_DIGITS:
                raise self.error(f"number '{value[:20]}...' is longer than {MAX_DIGITS} characters")
            number = float(value) if "." in value else int(value)
            return lambda d: number
        if kind == "string":
            text = value[1:-1]
            return lambda d: text
        if value == "(":
            inner = self.expr()
            self.take(")")
            return inner
        if kind == "name" and value in ("true", "false", "null"):
            constant = {"true": True, "false": False, "null": None}[value]
            return lambda d: constant
        if kind == "name" and value in FUNCTIONS and self.at("("):
            self.take("(")
            inner = self.expr()
            self.take(")")
            fn = FUNCTIONS[value]
            return lambda d: fn(inner(d))
        if kind == "name" and value not in KEYWORDS and self.at("("):
            raise self.error(f"unknown function '{value}'; functions: {', '.join(FUNCTIONS)}")
        if kind == "name" and value not in KEYWORDS:
            if self.fields is not None and value not in self.fields | self.effects:
                known = ", ".join(sorted(self.fields))
                effects = f"; effects: {', '.join(sorted(self.effects))}" if self.effects else ""
                raise self.error(f"unknown field '{value}'; fields: {known}{effects}")
            return self.path(value)
        raise self.error(f"unexpected '{value}'")

    def path(self, name: str) -> Run:
        steps: list[Run] = []
        written = name
        while self.at(".", "["):
            if self.take()[1] == ".":
                kind, key = self.take()
                if kind not in ("name", "number"):
                    raise self.error(f"expected a field name after '.', found '{key}'")
                steps.append((lambda k: lambda d: k)(key))  # noqa: PLC3002  binds the operands now
                written += f".{key}"
            else:
                start = self.pos
                steps.append(self.expr())
                inside = self.text[self.spans[start][0] : self.spans[self.pos - 1][1]]
                written += f"[{inside}]"
                self.take("]")
        self.paths.append((written, lambda d: _walk(d, name, [s(d) for s in steps])[0]))
        return lambda d: _walk(d, name, [s(d) for s in steps])[1]


def _walk(doc: Mapping[str, Any], name: str, keys: list[Any]) -> tuple[bool, Any]:
    """Whether the path is there in ``doc``, and its value (null when it is not)."""
    if name not in doc:
        return False, None
    value: Any = doc[name]
    for key in keys:
        if isinstance(value, dict) and str(key) in value:
            value = value[str(key)]
        elif isinstance(value, list) and _fits(index := _index(key), value):
            value = value[index]  # type: ignore[index]  # _fits: an int
        else:
            return False, None
    return True, value


def _fits(index: int | None, items: list[Any]) -> bool:
    return index is not None and -len(items) <= index < len(items)


def _index(key: Any) -> int | None:
    """``key`` as a list index: an integer, or text of ASCII digits (``"-1"``, not ``"²"``)."""
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    return digits.integer(key) if isinstance(key, str) else None


def _truthy(value: Any) -> bool:
    return bool(value)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _compare(op: str, a: Any, b: Any) -> bool:
    if op == "==":
        return bool(a == b)
    if op == "!=":
        return bool(a != b)
    if op == "in":
        if isinstance(b, dict):  # a list or an object is no key: it is unhashable
            return (not isinstance(a, list | dict) and a in b) or a in b.values()
        if isinstance(b, str):
            return isinstance(a, str) and a in b
        return isinstance(b, list) and a in b
    if (_number(a) and _number(b)) or (isinstance(a, str) and isinstance(b, str)):
        return bool({"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op])
    return False


def _arith(op: str, a: Any, b: Any) -> Any:
    if not (_number(a) and _number(b)):
        return None
    try:
        return a + b if op == "+" else a - b
    except OverflowError:  # an integer beyond a float's range met a float
        return None


# --- what an event did ----------------------------------------------------------------------------

MOVE = "move"
"""The name of the event in notation, at a step."""


def step_query(game: Game[Any], header: Header, text: str) -> Query:
    """``text`` parsed for the steps of ``game``'s logs: the fields of its ``show --json``
    document, ``move`` and its effect types."""
    start = views.step_document(game, header, 0, game.setup(header), EVERYTHING)
    return parse(text, {*start, MOVE}, set(game.events.effects))


def at_step(
    game: Game[Any],
    header: Header,
    index: int,
    state: Any,
    event: Event | None = None,
    effects: Sequence[Effect] = (),
) -> Mapping[str, Any]:
    """What an expression reads at step ``index``: ``event`` caused ``effects`` and led to
    ``state``."""
    return _Step(game, header, index, state, event, effects)


_UNREAD = object()
_HEAD = ("game", "events")
"""The keys ``step_document`` puts before the state's document."""


class _Step(Mapping[str, Any]):
    """The ``show --json`` document (made when first read, unless only its common keys are:
    ``core.views.common_value``), ``move`` and the effects by type."""

    def __init__(
        self,
        game: Game[Any],
        header: Header,
        index: int,
        state: Any,
        event: Event | None,
        effects: Sequence[Effect],
    ) -> None:
        self.game = game
        self.header = header
        self.index = index
        self.state = state
        self.event = event
        self.effects = effects
        self.document: dict[str, Any] | None = None
        self.common: dict[str, Any] = {}

    def _state(self) -> dict[str, Any]:
        if self.document is None:
            self.document = views.step_document(
                self.game, self.header, self.index, self.state, EVERYTHING
            )
        return self.document

    def __getitem__(self, name: str) -> Any:
        if name in self.game.events.effects:
            seats = self.header.seats
            return [
                effect_record(e, seats, EVERYTHING)
                for e in self.effects
                if type(e).__name__ == name
            ]
        if name == MOVE:
            return None if self.event is None else self.game.format_move(self.event)
        if self.document is None and name in views.COMMON_KEYS:
            value = self.common.get(name, _UNREAD)
            if value is _UNREAD:
                value = self.common[name] = views.common_value(
                    self.game, self.state, self.header.seats, EVERYTHING, name
                )
            return value
        if self.document is None and name in _HEAD:
            return self.header.game if name == "game" else self.index
        return self._state()[name]

    def __contains__(self, name: object) -> bool:
        if name in self.game.events.effects or name == MOVE:
            return True
        if self.document is None and (name in views.COMMON_KEYS or name in _HEAD):
            return True
        return name in self._state()

    def __iter__(self) -> Iterator[str]:
        yield from self._state()
        yield MOVE
        yield from self.game.events.effects

    def __len__(self) -> int:
        return len(self._state()) + 1 + len(self.game.events.effects)


# --- the parts the hunt's distance builds on (tribes.replay.distance) ----------------------------

Parser = _Parser
"""The parser, whose truth constructs :mod:`tribes.replay.distance` builds as nodes."""
tokenize = _tokenize
compare = _compare
is_number = _number
