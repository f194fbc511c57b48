"""The summary of ``tribes regress``, counted as the comparisons come (a million games are never
held): games changed, first differing events, games whose winners changed, games now illegal by
rule, score shifts by seat (mean, largest) and length changes — what a person decides from."""

from __future__ import annotations

from typing import Any

import attrs

from tribes.replay.regress import CHANGED, NEW, OTHER_LOG, Comparison


@attrs.define
class Shift:
    """The score of one seat of one game type across the changed games: how many, the sum
    of the shifts, the largest (by size; the first game of that size) and its game."""

    games: int = 0
    total: int = 0
    largest: int = 0
    where: str = ""

    def add(self, shift: int, name: str) -> None:
        self.games += 1
        self.total += shift
        if abs(shift) > abs(self.largest):
            self.largest, self.where = shift, name

    @property
    def mean(self) -> float:
        return self.total / self.games if self.games else 0.0


@attrs.define
class Tally:
    """The summary as the comparisons come."""

    games: int = 0
    changed: int = 0
    new: int = 0
    other: int = 0
    missing: int = 0
    """Games of the baseline that were not among the inputs (told at the end)."""
    firsts: set[int] = attrs.field(factory=set)
    winners: int = 0
    illegal: dict[str, int] = attrs.field(factory=dict)
    """Games now illegal by the rule their first refused event breaks ("" when it names none)."""
    shifts: dict[tuple[str, int], Shift] = attrs.field(factory=dict)
    """Score shifts by (game, seat) of the changed games that still replay to the end."""
    shorter: int = 0
    longer: int = 0
    length: Shift = attrs.field(factory=Shift)
    """The change of length (events replayed) of the games whose length changed."""

    def add(self, comparison: Comparison) -> None:
        self.games += 1
        self.changed += comparison.changed
        self.new += comparison.status == NEW
        self.other += comparison.status == OTHER_LOG
        before, now = comparison.before, comparison.now
        if comparison.status != CHANGED or before is None:
            return
        if comparison.first is not None:
            self.firsts.add(comparison.first)
        self.winners += comparison.winners_changed
        if now.illegal is not None:
            rule = now.illegal[2] or ""
            self.illegal[rule] = self.illegal.get(rule, 0) + 1
        elif len(before.scores) == len(now.scores):
            for seat, (was, is_) in enumerate(zip(before.scores, now.scores, strict=True)):
                self.shifts.setdefault((now.game, seat), Shift()).add(is_ - was, now.name)
        if now.steps != before.steps:
            self.shorter += now.steps < before.steps
            self.longer += now.steps > before.steps
            self.length.add(now.steps - before.steps, now.name)

    def summary(self) -> Summary:
        return Summary(
            games=self.games,
            changed=self.changed,
            new=self.new,
            other=self.other,
            missing=self.missing,
            firsts=tuple(sorted(self.firsts)),
            winners_changed=self.winners,
            illegal=tuple(sorted(self.illegal.items())),
            shifts=tuple(
                (game, seat, s.games, s.mean, s.largest, s.where)
                for (game, seat), s in sorted(self.shifts.items())
            ),
            shorter=self.shorter,
            longer=self.longer,
            largest_length=(self.length.largest, self.length.where),
        )


@attrs.frozen
class Summary:
    games: int
    changed: int
    new: int
    other: int
    missing: int
    firsts: tuple[int, ...]
    """The first differing events of the changed games, each once, in order."""
    winners_changed: int = 0
    illegal: tuple[tuple[str, int], ...] = ()
    """(rule id, games), by rule."""
    shifts: tuple[tuple[str, int, int, float, int, str], ...] = ()
    """(game, seat from 0, games, mean shift, largest shift, its game), by game and seat."""
    shorter: int = 0
    longer: int = 0
    largest_length: tuple[int, str] = (0, "")

    def line(self) -> str:
        """The first line: games changed and where."""
        shown = ", ".join(map(str, self.firsts[:10])) + (", …" if len(self.firsts) > 10 else "")
        games = f"{self.games:,} game{'' if self.games == 1 else 's'}"
        text = f"{self.changed:,} of {games} changed"
        if self.firsts:
            many = "s" if len(self.firsts) > 1 else ""
            text += f"; first difference{many} at event{many} {shown}"
        if self.new:
            text += f"; {self.new:,} not in the baseline"
        if self.other:
            text += f"; {self.other:,} under a name the baseline gave another log"
        if self.missing:
            text += f"; {self.missing:,} games of the baseline were not given"
        return text

    def lines(self) -> list[str]:
        """The summary a person decides from: the first line, then (when games changed)
        winners and illegal games, score shifts by seat, lengths."""
        out = [self.line()]
        if not self.changed - self.new - self.other:
            return out
        illegal = sum(n for _, n in self.illegal)
        text = f"winners changed in {_games(self.winners_changed)}; {_games(illegal)} now illegal"
        if self.illegal:
            text += (
                " ("
                + ", ".join(f"{rule or 'no rule named'}: {n:,}" for rule, n in self.illegal)
                + ")"
            )
        out.append(text)
        for game, seat, games, mean, largest, where in self.shifts:
            if largest:
                out.append(
                    f"scores of {game} seat {seat + 1}: mean {mean:+.2f} over {_games(games)}, "
                    f"largest {largest:+d} ({where})"
                )
        if self.shorter or self.longer:
            largest, where = self.largest_length
            out.append(
                f"length: {_games(self.shorter)} shorter, {_games(self.longer)} longer; "
                f"largest {largest:+d} events ({where})"
            )
        return out

    def document(self) -> dict[str, Any]:
        largest, where = self.largest_length
        return {
            "games": self.games,
            "changed": self.changed,
            "new": self.new,
            "other": self.other,
            "missing": self.missing,
            "firsts": list(self.firsts),
            "winners_changed": self.winners_changed,
            "illegal": {
                "games": sum(n for _, n in self.illegal),
                "rules": dict(self.illegal),
            },
            "scores": [
                {
                    "game": game,
                    "seat": seat + 1,
                    "games": games,
                    "mean": round(mean, 4),
                    "largest": largest,
                    "largest_game": where or None,
                }
                for game, seat, games, mean, largest, where in self.shifts
            ],
            "length": {
                "shorter": self.shorter,
                "longer": self.longer,
                "largest": largest,
                "largest_game": where or None,
            },
        }


def _games(n: int) -> str:
    return f"{n:,} game{'' if n == 1 else 's'}"
