"""Corpora mended and rewritten: ``corpus repair`` (cut an interrupted append), ``corpus split``
(shards in order) and ``upgrade`` (a corpus of format version 1 or 2 written as version 3)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import attrs

from tribes.core.errors import CorruptLog, IllegalMove, LogError, UsageError
from tribes.events import corpus as fmt
from tribes.events import files
from tribes.replay.corpus import locking
from tribes.replay.corpus.annex import file_log
from tribes.replay.corpus.checking import check
from tribes.replay.corpus.reader import Corpus
from tribes.replay.corpus.writer import Encoded, Encoder, Writer


@attrs.frozen
class Repaired:
    """What ``corpus repair`` did: ``cut`` bytes after the last commit, kept in ``backup``."""

    cut: int
    games: int
    backup: Path | None = None


def repair(
    path: Path,
    *,
    force: bool = False,
    wait: float = locking.LOCK_WAIT,
    on_wait: locking.Notice | None = None,
) -> Repaired:
    """Cut what follows the last commit, under the writers' lock, first keeping the bytes cut in
    ``NAME.corpus.torn`` (an older one replaced only with ``force``). Refused when they are no
    interrupted append but a damaged last commit (a whole trailer or index there): cutting would
    drop committed games, so only ``force`` does it."""
    fd = locking.open_locked(path, wait, on_wait)
    try:
        layout = fmt.read_layout(fd, os.fstat(fd).st_size, str(path))
        games = len(layout.offsets)
        tail = layout.tail
        if tail is None:
            return Repaired(0, games)
        damage = _damaged_commit(fd, layout)
        if damage is not None and not force:
            raise CorruptLog(
                f"{tail.describe()}; but {damage}: the corpus is damaged, not interrupted, and "
                "cutting would drop committed games; take it again from whoever shared it, or "
                "pass --force to cut it all the same",
                path=str(path),
            )
        backup = path.with_name(path.name + ".torn")
        if (backup.exists() or backup.is_symlink()) and not force:
            raise UsageError(f"{backup} exists; move it away or pass --force to replace it")
        files.write_atomic(backup, fmt.pread(fd, tail.size, tail.offset), replace=force)
        files.append_at(fd, str(path), layout.end, b"")
        return Repaired(tail.size, games, backup)
    finally:
        os.close(fd)


def _damaged_commit(fd: int, layout: fmt.Layout) -> str | None:
    """What in the tail shows a whole append was written (so a commit was damaged), or None."""
    assert layout.tail is not None
    size = layout.tail.offset + layout.tail.size
    if layout.tail.size >= fmt.TRAILER_BYTES:
        end = fmt.pread(fd, fmt.TRAILER_BYTES, size - fmt.TRAILER_BYTES)
        if end.startswith(fmt.TRAILER_MARK) or fmt.trailer_at(end, 0) is not None:
            return f"it ends with a trailer (byte {size - fmt.TRAILER_BYTES})"
    pos = layout.tail.offset
    while pos < size:  # the records of the append that followed, up to where they break
        try:
            payload, stop = fmt.frame_at(fd, pos, size, fmt.MAX_INDEX_BYTES)
        except fmt.Bad:
            return None
        items = _list(payload)
        if items and items[0] == fmt.INDEX and stop + fmt.TRAILER_BYTES <= size:
            return f"a whole index follows the last commit (byte {pos}) with a trailer after it"
        pos = stop
    return None


def _list(payload: bytes) -> list[object] | None:
    try:
        return fmt.values(payload, fmt.MAX_PARTS)
    except fmt.Bad:
        return None


def split(path: Path, out: Sequence[Path], *, force: bool = False) -> list[int]:
    """The games of ``path`` in ``len(out)`` corpora of (nearly) equal size, in order; copies the
    records of a corpus of the current version as they are (no replay; an older one's games
    as :func:`carried` gives them). The games in each. Each shard is put at its name whole
    (:func:`locking.made_whole`): a split that fails leaves no shard half made."""
    with Corpus(path) as source:
        total = len(source)
        count = len(out)
        sizes = [total // count + (i < total % count) for i in range(count)]
        start = 0
        encoder = Encoder()
        for target, size in zip(out, sizes, strict=True):
            with (
                locking.made_whole(target, force=force) as whole,
                Writer(whole, new=True) as writer,
            ):
                for k in range(start, start + size):
                    writer.add_encoded(carried(source, k, encoder))
            start += size
    return sizes


def carried(read: Corpus, k: int, encoder: Encoder) -> Encoded:
    """Game ``k`` (from 0) of ``read`` as a corpus of the current version holds it: a game of
    version 3 as it is (its digest checked: bytes); an older one replayed and its digest
    checked (in those versions it covers the state reached, so the rules must be those it was
    written under), then its checkpoints recorded where its log had them."""
    raw = read.raw(k)
    part = read.decoder.part_bytes(raw.part)
    annex = read.decoder.annex(raw)
    game, log, marks = read.decoder.log_and_marks(raw, k, read.layout.offsets[k])
    if raw.marks:
        return Encoded(part, raw.seed, raw.events, raw.digest, annex, fmt.pack_marks(raw.marks))
    try:
        check(game, log, raw, read.name, k, part, annex)
    except (CorruptLog, IllegalMove) as exc:
        raise CorruptLog(
            f"{exc.message}; a corpus of format version {read.version} is carried forward by "
            "the tribes whose rules it was written under ('tribes upgrade OLD.corpus -o "
            "NEW.corpus'), then 'tribes upgrade --rules NEW.corpus' under the new rules"
        ) from None
    return encoder.encode(game, file_log(game, log, marks))


def upgrade(source: Path, output: Path, *, force: bool = False) -> int:
    """Write the corpus at ``source`` (any version) in the current format version at
    ``output``: every record checked first, each game as :func:`carried` gives it (an older
    game replayed, its digest checked, its checkpoints recorded). The games written. The new
    corpus is put at ``output`` whole (:func:`locking.made_whole`): an upgrade that fails leaves
    nothing there, and with ``force`` the corpus it was to replace as it was."""
    if output.resolve() == source.resolve():
        raise UsageError("upgrade writes a new corpus; name another output with -o")
    if output.suffix != fmt.SUFFIX:
        raise UsageError(f"{output}: a corpus is upgraded to a corpus (NAME{fmt.SUFFIX})")
    with Corpus(source) as read:
        if read.layout.tail is not None:
            raise LogError(
                f"{read.layout.tail.describe()}; 'tribes corpus repair {source}' first",
                path=str(source),
            )
        problem = next(read.problems(), None)
        if problem is not None:
            raise problem
        encoder = Encoder()
        with locking.made_whole(output, force=force) as whole, Writer(whole, new=True) as writer:
            for k in range(len(read)):
                writer.add_encoded(carried(read, k, encoder))
        return len(read)
