"""A list of legal moves that builds a move only when it is read.

A turn lists tens of moves and a random player reads one: building each event (or even the list
of them) costs more than the rest of the turn. A game's legal moves may return a subclass of
:class:`MoveList` that says how many moves there are and how to build move ``i``; it reads like
an immutable list of events (length, index, slice, iteration, equality with any sequence).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterator, Sequence
from typing import overload

from tribes.core.events import Event


class MoveList(Sequence[Event]):
    """The moves, in order, built when read: subclasses give ``_count`` and :meth:`_at`, and may
    give a faster :meth:`__iter__`. A subclass names ``_count`` in its own ``__slots__``: a
    class compiled by mypyc (the optional compiled build, ``setup.py``) may not inherit slots."""

    __slots__ = ()
    _count: int

    def __init__(self, count: int) -> None:
        self._count = count

    @abstractmethod
    def _at(self, index: int) -> Event:
        """Move ``index``, from 0 to ``len(self) - 1``."""

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        if isinstance(index, slice):
            return list(self)[index]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("move index out of range")
        return self._at(index)

    def __iter__(self) -> Iterator[Event]:
        return map(self._at, range(self._count))

    def notation(self, write: Callable[[Event], str]) -> list[str]:
        """Every move in notation, ``write`` of each in order (``tribes log --json --states``
        lists them at every step). A subclass may take again the text of a move it listed
        before (Hunters: by placement and piece), never write it another way."""
        return list(map(write, self))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # unhashable like a list; typeshed types it a method

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self)!r})"
