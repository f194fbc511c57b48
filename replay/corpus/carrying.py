"""``tribes upgrade --rules CORPUS``: a corpus carried forward to the running rules, on purpose.

As for a log (:mod:`tribes.replay.carry`): the corpus must be intact (every record, every
append's digest, every game's digest) and every event of every game legal under the running
rules. Each game's recorded checkpoints are compared with the states the running rules give;
for each game where they differ, what changes is said (the first differing checkpoint, the
parts, the outcome recorded and now), and the corpus is rewritten with those games' checkpoints
recorded anew under the running rules (their version in each), every other record as it was.
A corpus of format version 1 or 2 is written in version 3 (its games replayed, their digests
checked: those versions cover the state reached, so this works only under the rules they were
written under, and says so otherwise).

The rewrite is atomic and under the corpus's lock: the new corpus is written whole beside it,
the corpus as it was kept as ``NAME.corpus.rules`` (or the first free ``.rules.N``), then the
new one renamed onto the name. A game with an event the running rules refuse leaves the whole
corpus untouched, and is named; unless ``drop_refused`` (``--drop-refused``): then such games are
left out of the carried corpus (named, and kept in ``NAME.corpus.rules`` with the rest), so that
what remains is consistent with the running rules. ``dry_run`` says all this and writes nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import attrs

from tribes.core import views
from tribes.core.errors import LogError
from tribes.core.game import Game
from tribes.events import corpus as fmt
from tribes.events import files
from tribes.events.logfile import Checkpoint, GameLog
from tribes.replay.carry import Carried, backup_for
from tribes.replay.consistency import MoveRefused, RulesDiffer, checkpoint_of
from tribes.replay.corpus import locking
from tribes.replay.corpus.checking import check
from tribes.replay.corpus.mending import carried
from tribes.replay.corpus.reader import Corpus
from tribes.replay.corpus.writer import Encoded, Encoder, Writer


@attrs.frozen
class CorpusCarried:
    """What ``upgrade --rules`` did (or would do) to a corpus: ``games``, one per game that
    changes or that the running rules refuse a move of, ``total`` its games."""

    path: Path
    total: int
    version: int
    games: tuple[Carried, ...] = ()
    backup: Path | None = None
    written: bool = False
    drop_refused: bool = False
    """Whether the games with a refused move are left out (else the corpus is left as it is)."""

    @property
    def left_as_is(self) -> bool:
        """Whether a refused move left the whole corpus as it was."""
        refused = len(self.refused)
        return refused > 0 and (not self.drop_refused or refused == self.total)

    @property
    def refused(self) -> tuple[Carried, ...]:
        """The games with a move the running rules refuse (the corpus is then left as it is)."""
        return tuple(g for g in self.games if g.refused is not None)

    def lines(self) -> list[str]:
        """A line per game that changes (or is refused), then the corpus's line."""
        refused = self.refused
        lines = [
            f"{g.path}: {g.refusal() if g.refused is not None else g.change()}"
            for g in (refused if self.left_as_is else self.games)
        ]
        count = views.count(self.total, "game")
        if self.left_as_is:
            first = refused[0]
            assert first.refused is not None
            names = ", ".join(f"#{str(g.path).rpartition('#')[2]}" for g in refused[:10])
            more = f" and {len(refused) - 10} more" if len(refused) > 10 else ""
            lines.append(
                f"{self.path}: left as it is: the running rules refuse a move of "
                f"{views.count(len(refused), 'game')} ({names}{more}); 'tribes fork "
                f"{first.path} --at {first.refused.event} -o NEW' "
                f"{'keeps one as they end it' if first.refused.ended else 'plays one on from there'}"
                ", '--drop-refused' carries the others"
            )
            return lines
        changed = len(self.games) - len(refused)
        if changed:
            said = [f"{changed} of {count} differ under the running rules"]
        elif refused:
            said = [f"the other {self.total - len(refused)} of {count} consistent with the rules"]
        else:
            said = [f"{count}, consistent with the running rules"]
        if refused:
            said.append(
                f"{views.count(len(refused), 'game')} with a refused move left out (the others "
                "renumbered)"
            )
        if self.version < fmt.FORMAT_VERSION:
            said.append(f"corpus format version {self.version} -> {fmt.FORMAT_VERSION}")
        elif not changed and not refused:
            lines.append(f"{self.path}: {said[0]}: nothing to re-record")
            return lines
        if self.written:
            end = f"re-recorded; the corpus as it was is kept as {self.backup}"
        else:
            end = "would be re-recorded (dry run: nothing written)"
        lines.append(f"{self.path}: {', '.join(said)}; {end}")
        return lines


def carry_corpus(
    path: Path,
    *,
    dry_run: bool = False,
    drop_refused: bool = False,
    wait: float = locking.LOCK_WAIT,
) -> CorpusCarried:
    """Carry the corpus at ``path`` forward (see the module)."""
    with _held(path, dry_run, wait), Corpus(path) as read:
        if read.layout.tail is not None:
            raise LogError(
                f"{read.layout.tail.describe()}; 'tribes corpus repair {path}' first",
                path=str(path),
            )
        problem = next(read.problems(), None)
        if problem is not None:
            raise problem
        if dry_run:
            found = [g for k in range(len(read)) if (g := _judged(read, k)[0]) is not None]
            return CorpusCarried(
                path, len(read), read.version, tuple(found), drop_refused=drop_refused
            )
        return _rewrite(read, path, drop_refused)


@contextmanager
def _held(path: Path, dry_run: bool, wait: float) -> Iterator[None]:
    """The corpus's writers' lock, held throughout (a dry run takes none)."""
    if dry_run:
        yield
        return
    fd = locking.open_locked(path, wait, doing="; nothing was re-recorded")
    try:
        yield
    finally:
        os.close(fd)


def _rewrite(read: Corpus, path: Path, drop_refused: bool) -> CorpusCarried:
    """Write the carried corpus beside ``path``, then keep the old one and rename it in; the
    old one untouched if a game is refused (unless ``drop_refused``) or anything fails."""
    found: list[Carried] = []
    tmp = path.with_name(f".{path.name}.rules.tmp")
    writer = Writer(tmp, new=True, force=True)
    try:
        with writer:
            for k in range(len(read)):
                judged, encoded = _judged(read, k)
                if judged is not None:
                    found.append(judged)
                if encoded is not None:
                    writer.add_encoded(encoded)
        result = CorpusCarried(
            path, len(read), read.version, tuple(found), drop_refused=drop_refused
        )
        if result.left_as_is or (not found and read.version >= fmt.FORMAT_VERSION):
            _remove(tmp)
            return result
        backup = backup_for(path)
        try:
            os.link(path, backup)  # the corpus as it was, under its other name: no byte copied
            try:
                os.replace(tmp, path)
            except OSError:
                _remove(backup)
                raise
        except OSError as exc:
            raise LogError(
                f"cannot write: {exc.strerror or exc}; nothing was re-recorded", path=str(path)
            ) from None
        files.fsync_folder(path.parent)
        return attrs.evolve(result, backup=backup, written=True)
    except BaseException:
        _remove(tmp)
        raise


def _remove(tmp: Path) -> None:
    with suppress(OSError):
        os.unlink(tmp)


def _judged(read: Corpus, k: int) -> tuple[Carried | None, Encoded | None]:
    """Game ``k`` judged under the running rules: what changes (None: nothing), and the game
    as the carried corpus holds it (None: refused)."""
    encoder = Encoder()
    raw = read.raw(k)
    decoder = read.decoder
    game, log, _ = decoder.log_and_marks(raw, k, read.layout.offsets[k])
    where = Path(f"{read.name}#{k + 1}")
    base = Carried(
        where, game.name, game.rules_version, format=read.version, seats=log.header.seats
    )
    if not raw.marks:  # an older version: its digest checked (by replay) on the way
        return None, carried(read, k, encoder)
    part, annex = decoder.part_bytes(raw.part), decoder.annex(raw)
    checked = check(game, log, raw, read.name, k, part, annex)
    if isinstance(checked.rules, MoveRefused):
        return attrs.evolve(base, refused=checked.rules), None
    if not isinstance(checked.rules, RulesDiffer):
        return None, Encoded(
            part, raw.seed, raw.events, raw.digest, annex, fmt.pack_marks(raw.marks)
        )
    after = (tuple(checked.row.scores), tuple(checked.row.winners)) if checked.row else None
    marks = _recorded(game, log)
    digest = fmt.game_digest_v3(part, raw.seed, raw.events, annex, marks)
    judged = attrs.evolve(
        base, differ=checked.rules, before=log.checkpoints[-1].outcome, after=after
    )
    return judged, Encoded(part, raw.seed, raw.events, digest, annex, fmt.pack_marks(marks))


def _recorded(game: Game[Any], log: GameLog) -> tuple[Checkpoint, ...]:
    """The game's checkpoints recorded anew under the running rules, where it had them."""
    places = {c.events for c in log.checkpoints}
    state = game.setup(log.header)
    out = [checkpoint_of(game, 0, state)] if 0 in places else []
    for index, event in enumerate(log.events, start=1):
        state, _ = game.apply(state, event)
        if index in places:
            out.append(checkpoint_of(game, index, state))
    return tuple(out)


__all__ = ["CorpusCarried", "carry_corpus"]
