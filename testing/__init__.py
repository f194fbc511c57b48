"""Testing games, bots and logs with tribes: what the project's own tests use, for anyone writing
a game of their own, a bot or a test suite over logs.

::

    from tribes.testing import Harness, effects_of

    clans = Harness("clans")  # or Harness(my_game), a Game of one's own
    state = clans.from_seed(7, ("ann", "bob", "cy"))  # or clans.from_position(document)
    state, effects = clans.play(state, "12-13", "order 37 21")  # parsed, checked, applied
    clans.refused(state, "1-60", rule="C8")  # check and apply refuse it, naming the rule
    effects_of(effects, VillageFounded)  # the effects of one type
    clans.moves(state)  # the legal moves in notation
    clans.document(state, ("ann", "bob", "cy"))  # the `tribes show --json` document

- :class:`Harness` — one game: states from a seed or a position, moves by notation, refusals,
  random legal games (:meth:`Harness.random_game`);
- :func:`effects_of` (among effects, or among every effect of a replay's steps),
  :func:`replay_log` (a log file read and replayed), :func:`document`;
- :mod:`tribes.testing.cli` — the ``tribes`` command in-process (:class:`~tribes.testing.cli.Cli`,
  for click's CliRunner) or in a real process (:func:`~tribes.testing.cli.run_process`), its
  contract (one ``tribes:`` line, never a traceback) checked on every call;
- :mod:`tribes.testing.clans`, :mod:`tribes.testing.iwari` — position builders of those games;
- :mod:`tribes.testing.logbytes` — ``.tribes`` files built by hand, to test log readers;
- the pytest plugin ``tribes_playthrough`` (:mod:`tribes.replay.pytest_plugin`): a log's every
  step pinned by a snapshot.
"""

from __future__ import annotations

from tribes.testing.harness import Harness, Played, document, effects_of, replay_log

__all__ = ["Harness", "Played", "document", "effects_of", "replay_log"]
