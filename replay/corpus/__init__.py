"""Corpora as users handle them: write, append, read game k, stream, check, split, repair,
upgrade.

The format is :mod:`tribes.events.corpus`; this is the library under ``tribes corpus`` and
``simulate --save NAME.corpus``, in small modules:

- :mod:`~tribes.replay.corpus.refs`: ``NAME.corpus`` and ``CORPUS#K`` (game K, from 1,
  wherever a log is read: :func:`split_ref`, used by :func:`tribes.replay.logs.open_log`);
- :mod:`~tribes.replay.corpus.reader`: :class:`Corpus` (game k in one read, chunks, streams);
- :mod:`~tribes.replay.corpus.annex`: a game's tags, notes and marks, so a log comes back
  byte for byte;
- :mod:`~tribes.replay.corpus.checking`: each game replayed and checked (:func:`check_chunk`);
- :mod:`~tribes.replay.corpus.locking` and :mod:`~tribes.replay.corpus.writer`:
  :class:`Writer`, one at a time, never orphaned, never through a link;
- :mod:`~tribes.replay.corpus.mending`: :func:`repair`, :func:`split`, :func:`upgrade`.
"""

from tribes.replay.corpus.checking import Checked, check, check_chunk
from tribes.replay.corpus.locking import LOCK_WAIT
from tribes.replay.corpus.mending import Repaired, repair, split, upgrade
from tribes.replay.corpus.reader import COMMIT_EVERY, Chunk, Corpus, Decoder, chunk_games
from tribes.replay.corpus.refs import SUFFIX, is_corpus, refuse_append, split_ref
from tribes.replay.corpus.writer import Encoded, Encoder, Writer, encode_game

__all__ = [
    "COMMIT_EVERY",
    "LOCK_WAIT",
    "SUFFIX",
    "Checked",
    "Chunk",
    "Corpus",
    "Decoder",
    "Encoded",
    "Encoder",
    "Repaired",
    "Writer",
    "check",
    "check_chunk",
    "chunk_games",
    "encode_game",
    "is_corpus",
    "refuse_append",
    "repair",
    "split",
    "split_ref",
    "upgrade",
]
