"""How far a step of a game is from one where an expression holds: the guide of ``tribes hunt``.

The expression is the language of ``find``, ``bisect`` and ``shrink`` (:mod:`tribes.replay.query`),
parsed by the same parser; each of its truth constructs also measures a **distance**, a number
that is 0 exactly where the expression holds and grows the further it is from holding (branch
distance, as search-based testing defines it):

===================  ===========================================  ==============================
construct            distance to true                             distance to false (under not)
===================  ===========================================  ==============================
``a >= b``           ``max(0, b - a)``                            ``max(0, a - b + 1)``
``a > b``            ``max(0, b - a + 1)``                        ``max(0, a - b)``
``a <= b``           ``max(0, a - b)``                            ``max(0, b - a + 1)``
``a < b``            ``max(0, a - b + 1)``                        ``max(0, b - a)``
``a == b``           ``|a - b|``                                  0 if they differ, else 1
``a != b``           0 if they differ, else 1                     ``|a - b|``
``x and y``          the sum of the two                           the least of the two
``x or y``           the least of the two                         the sum of the two
``not x``            x's distance to false                        x's distance to true
anything else        0 if true, else 1                            0 if false, else 1
===================  ===========================================  ==============================

The numeric forms apply when both sides are numbers (``len(VillageFounded)``, ``scores.p1``,
``max(scores) - min(scores)``, an effect's field); a comparison of anything else (text, null,
lists, ``in``) has the plain 0-or-1 distance: it still works, unguided, as a plain truth value
does (``TileRemoved``, ``over``, ``move == "12>13"``). The search asks the distance of the step
an event led to (its state, the event, its effects): ``len(VillageFounded) >= 4`` is 4 less the
villages the event founded, ``over and max(scores) == min(scores)`` is 1 until the game ends plus
how far the scores are apart.
"""

from __future__ import annotations

import abc
from collections.abc import Iterator, Mapping
from typing import Any

from tribes.core.game import Game
from tribes.core.header import Header
from tribes.replay import query
from tribes.replay.query import Query, Run

NOT = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
"""Each comparison and the one that holds exactly when it does not."""


class Node(abc.ABC):
    """A truth construct of a parsed expression: its value (called, as the language's closures
    are) and its distances to true (``near``) and to false (``far``)."""

    @abc.abstractmethod
    def __call__(self, doc: Mapping[str, Any]) -> Any:
        """The construct's value in ``doc``."""

    @abc.abstractmethod
    def near(self, doc: Mapping[str, Any]) -> float:
        """How far ``doc`` is from making it true (0: it holds)."""

    @abc.abstractmethod
    def far(self, doc: Mapping[str, Any]) -> float:
        """How far ``doc`` is from making it false (0: it does not hold)."""


class Truth(Node):
    """A plain value read as true or false (a path, a function, a constant): 0 or 1."""

    def __init__(self, run: Run) -> None:
        self.run = run

    def __call__(self, doc: Mapping[str, Any]) -> Any:
        return self.run(doc)

    def near(self, doc: Mapping[str, Any]) -> float:
        return 0.0 if self.run(doc) else 1.0

    def far(self, doc: Mapping[str, Any]) -> float:
        return 1.0 if self.run(doc) else 0.0


class Compare(Node):
    def __init__(self, op: str, left: Run, right: Run) -> None:
        self.op = op
        self.left = left
        self.right = right

    def __call__(self, doc: Mapping[str, Any]) -> Any:
        return query.compare(self.op, self.left(doc), self.right(doc))

    def near(self, doc: Mapping[str, Any]) -> float:
        return _gap(self.op, self.left(doc), self.right(doc))

    def far(self, doc: Mapping[str, Any]) -> float:
        if self.op in NOT:
            return _gap(NOT[self.op], self.left(doc), self.right(doc))
        return 1.0 if self(doc) else 0.0


def _gap(op: str, a: Any, b: Any) -> float:
    """How far ``a op b`` is from holding: 0 exactly when it holds, else more than 0."""
    if query.compare(op, a, b):
        return 0.0
    if not (query.is_number(a) and query.is_number(b)) or op == "in":
        return 1.0
    gaps = {
        ">=": b - a,
        ">": b - a + 1,
        "<=": a - b,
        "<": a - b + 1,
        "==": abs(a - b),
        "!=": 0 if a != b else 1,
    }
    return float(max(0, gaps[op]))


class And(Node):
    def __init__(self, left: Node, right: Node) -> None:
        self.left = left
        self.right = right

    def __call__(self, doc: Mapping[str, Any]) -> Any:
        return bool(self.left(doc)) and bool(self.right(doc))

    def near(self, doc: Mapping[str, Any]) -> float:
        return self.left.near(doc) + self.right.near(doc)

    def far(self, doc: Mapping[str, Any]) -> float:
        return min(self.left.far(doc), self.right.far(doc))


class Or(Node):
    def __init__(self, left: Node, right: Node) -> None:
        self.left = left
        self.right = right

    def __call__(self, doc: Mapping[str, Any]) -> Any:
        return bool(self.left(doc)) or bool(self.right(doc))

    def near(self, doc: Mapping[str, Any]) -> float:
        return min(self.left.near(doc), self.right.near(doc))

    def far(self, doc: Mapping[str, Any]) -> float:
        return self.left.far(doc) + self.right.far(doc)


class Not(Node):
    def __init__(self, inner: Node) -> None:
        self.inner = inner

    def __call__(self, doc: Mapping[str, Any]) -> Any:
        return not self.inner(doc)

    def near(self, doc: Mapping[str, Any]) -> float:
        return self.inner.far(doc)

    def far(self, doc: Mapping[str, Any]) -> float:
        return self.inner.near(doc)


def _node(run: Run) -> Node:
    return run if isinstance(run, Node) else Truth(run)


class _Parser(query.Parser):
    """The language's parser, its truth constructs built as nodes that also measure distance
    (values, paths and functions are the language's own closures)."""

    def _or(self) -> Run:
        left = self.conj()
        while self.at("or"):
            self.take()
            left = Or(_node(left), _node(self.conj()))
        return left

    def conj(self) -> Run:
        left = self.neg()
        while self.at("and"):
            self.take()
            left = And(_node(left), _node(self.neg()))
        return left

    def neg(self) -> Run:
        if self.at("not"):
            self.take()
            return Not(_node(self.neg()))
        return self.compare()

    def compare(self) -> Run:
        left = self.sum()
        if self.at("==", "!=", "<", "<=", ">", ">=", "in"):
            op = self.take()[1]
            return Compare(op, left, self.sum())
        return left


class Guide:
    """An expression that says both whether it holds at a step and how far it is from holding."""

    def __init__(
        self, text: str, root: Node, reads_state: bool = True, reads_scores: bool = False
    ) -> None:
        self.text = text
        self.root = root
        self.reads_state = reads_state
        """Whether the expression reads the state (a field of the ``show --json`` document), not
        only what the event did (its effects, ``move``): a state's distance carries from one
        step to the next, an event's starts again from nothing at each."""
        self.reads_scores = reads_scores
        """Whether it reads ``scores``: then the game's provisional scores (:func:`steered`)
        count too."""

    def holds(self, doc: Mapping[str, Any]) -> bool:
        return bool(self.root(doc))

    def distance(self, doc: Mapping[str, Any]) -> float:
        """0 exactly where the expression holds (as ``find`` reads it), more the further it is
        (see the module's table)."""
        return self.root.near(doc)

    def steered(
        self, doc: Mapping[str, Any], provisional: Mapping[str, Any], weight: float = 0.5
    ) -> float:
        """The distance with the game's provisional scores (what each seat would score if the
        game ended now) weighed in, for an expression that reads ``scores``: the mean of its
        distance as the scores stand and as they would be, 0 exactly where it holds. Scores
        that move only at scorings (Iwari's territories, the end's meadows in Hunters) leave
        the plain distance flat between them; the provisional ones move with every piece
        placed."""
        now = self.root.near(doc)
        if not now:
            return 0.0
        return (1 - weight) * now + weight * self.root.near(_Scores(doc, provisional))


class _Scores(Mapping[str, Any]):
    """A step's document with other ``scores``."""

    def __init__(self, doc: Mapping[str, Any], scores: Mapping[str, Any]) -> None:
        self.doc = doc
        self.scores = scores

    def __getitem__(self, name: str) -> Any:
        return self.scores if name == "scores" else self.doc[name]

    def __contains__(self, name: object) -> bool:
        return name in self.doc

    def __iter__(self) -> Iterator[str]:
        return iter(self.doc)

    def __len__(self) -> int:
        return len(self.doc)


def guide(game: Game[Any], header: Header, text: str) -> Guide:
    """``text`` for the steps of ``game``'s logs (checked as ``find`` checks it: a bad
    expression is the same one-line usage error), with its distance."""
    checked: Query = query.step_query(game, header, text)
    tokens, spans = query.tokenize(text)
    parser = _Parser(tokens, text, None, spans, set())
    root = _node(parser.expr())
    event_names = {*game.events.effects, query.MOVE}
    names = {path.split(".")[0].split("[")[0] for path, _ in checked.paths}
    return Guide(checked.text, root, bool(names - event_names), "scores" in names)


def distance_of(text: str) -> Guide:
    """``text`` parsed alone (no game to check its names against): for tests and documents."""
    query.parse(text)
    tokens, spans = query.tokenize(text)
    return Guide(text, _node(_Parser(tokens, text, None, spans, set()).expr()))
