"""A pytest plugin (entry point ``pytest11``): any game log becomes a regression test in one line.

    def test_my_game(tribes_playthrough):
        tribes_playthrough("logs/my-game.tribes")   # beside this test file

The first run with ``--snapshot-update`` records, through syrupy, the log's transcript
(:mod:`tribes.replay.playthrough`): at every step the event, its effects, the state's digest,
the legal moves and the rendered board. It is one text file per call, under
``__snapshots__/<test module>/<test name>.txt``; later runs fail on any difference. A failure's
first line says where: the event counts of the snapshot and of the log now, and the first step
that differs with its notation and which of its parts differ (the move, digest, effects, legal
moves, board); a line each then tells those parts as recorded and now, and syrupy's diff
follows. Review a changed snapshot before updating it.

- ``tribes_playthrough(path, viewer)`` renders the board as ``viewer`` sees it (a seat number,
  None for a spectator; everything by default);
- ``compact=True`` pins a long game or a corpus: the digest, effects (and, with ``moves=True``,
  the legal moves) at every step, the board at the start, a quarter, half-way, three quarters
  and the end; ``boards=[0, 10, -1]`` (or ``{10: "the first village"}``) chooses the steps that
  show the board; ``moves=False`` leaves the legal moves out;
- ``name="..."`` names the snapshot (``<test name>[<name>].txt``) instead of numbering the calls
  of one test, so that a loop over a corpus keeps each log's file when one is added or removed.

``tribes_baseline(*games)`` pins a whole corpus (or folders, logs, ``CORPUS#K``) in one test: the
outcome and a digest of the state after every event of every game (:mod:`tribes.replay.baseline`),
in ``__baselines__/<test module>/<test name>.baseline`` (syrupy owns ``__snapshots__``; or the
file ``baseline=`` names, beside
the test file: one ``tribes baseline`` wrote). ``--snapshot-update`` records it; later runs fail
on any game that changed, with the lines of ``tribes regress`` (the first differing event, the
outcomes before and now, the first event now illegal) and its summary.

After a rule fix a sealed fixture is still read, under the running rules: it fails only where its
snapshot does, and the failure adds one line saying under which rules version its checkpoints were
recorded, the running one and where they part; the run's summary names every such fixture, passing
or not, until ``tribes upgrade --rules`` re-seals it (the plugin never writes a fixture). An event
the running rules refuse fails in one line naming it, the rule and both versions.

A log that cannot be replayed (missing, damaged, cut, of an unknown game or version) fails its
test with one line naming the log and what is wrong (and, when no snapshot
of it exists, that nothing was ever recorded), and its snapshot is left alone: nothing about it is reported unused, and ``--snapshot-update`` neither rewrites nor deletes
it. Failure text has no colour with ``--color=no`` or ``--snapshot-no-colors``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tribes.core.errors import TribesError
from tribes.core.game import EVERYTHING, Viewer
from tribes.replay import playthrough
from tribes.replay.consistency import RulesDiffer, RulesRefuse

_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def _extension() -> type:
    """The syrupy extension of transcripts: one text file per snapshot, stored as it is (made
    on first use, so that pytest runs without syrupy where nobody asks for a playthrough)."""
    global _EXTENSION  # noqa: PLW0603  made once, on first use
    if _EXTENSION is None:
        from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode  # noqa: PLC0415  optional: syrupy, for the fixture alone

        class TranscriptExtension(SingleFileSnapshotExtension):
            file_extension = "txt"
            _file_extension = "txt"  # the attribute's name before syrupy 5
            _write_mode = WriteMode.TEXT

            def serialize(self, data: Any, **_: Any) -> str:
                return str(data)

        _EXTENSION = TranscriptExtension
    return _EXTENSION


_EXTENSION: type | None = None


def _plain(config: pytest.Config) -> bool:
    """Whether failure text goes without colour: ``--color=no`` or ``--snapshot-no-colors``."""
    return config.getoption("color", "auto") == "no" or bool(
        getattr(config.option, "no_colors", False)
    )


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    """``--color=no`` means no colour from syrupy either (its report, its diffs)."""
    if config.getoption("color", "auto") == "no" and hasattr(config.option, "no_colors"):
        config.option.no_colors = True


def _diff(assertion: Any, config: pytest.Config) -> str:
    diff_mode = getattr(config.option, "diff_mode", None)
    lines = assertion.get_assert_diff(**({"diff_mode": diff_mode} if diff_mode else {}))
    text = "\n".join(lines)
    return _COLOUR.sub("", text) if _plain(config) else text


def _stored(assertion: Any) -> str | None:
    """The text of the snapshot that ``assertion`` compares with next, or None if none was
    ever recorded (read before comparing: a comparison moves syrupy on to the next index)."""
    location = Path(
        assertion.extension.get_location(
            test_location=assertion.test_location, index=assertion.index
        )
    )
    if not location.is_file():
        return None
    with location.open(encoding="utf-8") as stored:
        return stored.read()


def _keep(assertion: Any, config: pytest.Config, kept: str) -> None:
    """Record the snapshot as used, unchanged: syrupy must neither report it unused (and suggest
    ``--snapshot-update``) nor delete it, although the log could not be read to compare it."""
    if config.option.update_snapshots or getattr(config.option, "update_new_snapshots_only", False):
        assert assertion == kept  # equal: nothing is written
    else:
        # counted as a failed snapshot, which it is: the log no longer reproduces it
        assertion == "(the log could not be replayed)"  # noqa: B015


_OTHER_RULES = "tribes: recorded under other rules"
"""The name of a test's user property (``item.user_properties``) that holds a line naming a
fixture it replayed whose checkpoints other rules recorded. Carried by the test's report, so
the end-of-run list gathers them from every report, those pytest-xdist's workers send too."""


def _versions(answer: RulesDiffer) -> str:
    said = f"{answer.game} rules version {answer.written_under}"
    if answer.written_under == answer.running:
        return f"{said}, the running one too (the rules changed without a new version)"
    return f"{said}, running version {answer.running}"


def _from_here(log: Path) -> str:
    """The fixture as a command typed where pytest runs names it (its whole path if it is
    not under that folder)."""
    try:
        return str(log.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(log)


def _recorded_under(log: str | Path, answer: RulesDiffer) -> str:
    """The failure's line that says a fixture's checkpoints were recorded under other rules
    than the running ones, and where they part."""
    parts = f" ({', '.join(answer.parts)} differ)" if answer.parts else ""
    return (
        f"  rules: the checkpoints of {log} were recorded under {_versions(answer)}; the running "
        f"rules give another state after event {answer.event}{parts}: a rule change, not damage; "
        f"review, then --snapshot-update ('tribes upgrade --rules {log}' re-seals the fixture)"
    )


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Name the fixtures whose checkpoints other rules recorded, even where their snapshots
    pass (re-recorded under the running rules): ``tribes upgrade --rules`` re-seals them."""
    reports = [r for kept in terminalreporter.stats.values() for r in kept]
    lines = sorted(
        {
            str(value)
            for report in reports
            if getattr(report, "when", None) == "call"
            for name, value in getattr(report, "user_properties", ())
            if name == _OTHER_RULES
        }
    )
    if lines:
        terminalreporter.write_sep("-", "tribes: fixtures recorded under other rules")
        for line in lines:
            terminalreporter.write_line(line)


@pytest.fixture
def tribes_playthrough(snapshot: Any, request: pytest.FixtureRequest) -> Callable[..., list[str]]:
    """Call it with a log path — relative to the test file's folder — and optionally a viewer (a
    seat number, None for a spectator), ``compact``, ``boards``, ``moves`` and ``name`` (see the
    module); it asserts the log's transcript against the test's snapshot and returns the
    transcript's blocks, one per step."""
    here = request.path.parent
    config = request.config
    assertion = snapshot.use_extension(_extension())

    def check(
        path: str | Path,
        viewer: Viewer = EVERYTHING,
        *,
        compact: bool = False,
        boards: playthrough.Boards = None,
        moves: bool | None = None,
        name: str | None = None,
    ) -> list[str]:
        target = assertion(name=name) if name else assertion
        log = here / path
        recorded = _stored(target)
        try:
            chosen = playthrough.milestones if compact and boards is None else boards
            blocks = playthrough.transcript(
                log, viewer, boards=chosen, moves=not compact if moves is None else moves
            )
        except RulesRefuse as exc:  # intact, but a move is now illegal: no damage either
            broken: str | None = str(exc)
            hint: str | None = "its snapshot is kept"
        except TribesError as exc:
            broken, hint = str(exc), "its snapshot is kept; fix or restore the log"
        else:
            broken = hint = None
        if broken is not None:
            if recorded is None:
                pytest.fail(
                    f"tribes_playthrough: {broken} (and no snapshot of it was ever recorded: "
                    "nothing was recorded now either; check the path)",
                    pytrace=False,
                )
            _keep(target, config, recorded)
            pytest.fail(f"tribes_playthrough: {broken} ({hint})", pytrace=False)
        rules = None
        if isinstance(blocks.rules, RulesDiffer):
            named = _from_here(log)
            rules = _recorded_under(named, blocks.rules)
            listed = (
                f"{named}: checkpoints recorded under {_versions(blocks.rules)}; 'tribes "
                f"upgrade --rules {named}' re-seals it"
            )
            request.node.user_properties.append((_OTHER_RULES, listed))
        if target != playthrough.text(blocks):  # syrupy records the comparison
            diff = _diff(target, config)
            said = "" if recorded is None else f": {playthrough.difference(recorded, blocks)}"
            why = "" if rules is None or recorded is None else f"\n{rules}"
            pytest.fail(
                f"the playthrough of {path} differs from its snapshot{said}{why}\n{diff}",
                pytrace=False,
            )
        return blocks

    return check


SHOWN = 20
"""The changed games a failing ``tribes_baseline`` names (the summary counts them all)."""


@pytest.fixture
def tribes_baseline(request: pytest.FixtureRequest) -> Callable[..., int]:
    """Call it with games — logs, folders, corpora, ``CORPUS#K``, relative to the test file's
    folder — and optionally ``baseline=`` (a file made by ``tribes baseline``, relative to that
    folder too); it fails when a game replays differently from the baseline, and returns how
    many games it compared (or recorded, with ``--snapshot-update``)."""
    from tribes.replay import baseline as baselines  # noqa: PLC0415  start-up: pytest loads this plugin in every run
    from tribes.replay import baseline_file  # noqa: PLC0415  start-up: pytest loads this plugin in every run
    from tribes.replay import regress as regressing  # noqa: PLC0415  start-up: pytest loads this plugin in every run
    from tribes.replay.parallel import Where  # noqa: PLC0415  start-up: pytest loads this plugin in every run
    from tribes.replay.regress_summary import Tally  # noqa: PLC0415  start-up: pytest loads this plugin in every run

    here = request.path.parent
    config = request.config

    def check(*games: str | Path, baseline: str | Path | None = None) -> int:
        if not games:
            raise TypeError("tribes_baseline needs the games to compare: logs, folders, corpora")
        paths = [here / g for g in games]
        if baseline is not None:
            file = here / baseline
        else:
            file = here / "__baselines__" / request.path.stem / f"{request.node.name}.baseline"
        try:
            if getattr(config.option, "update_snapshots", False):
                file.parent.mkdir(parents=True, exist_ok=True)
                with file.open("wb") as out:
                    made = baselines.make(paths, Where(), out.write)
                if made.failed:
                    file.unlink()
                    pytest.fail(f"tribes_baseline: {made.failed[0]['error']}", pytrace=False)
                return made.games
            if not file.exists():
                pytest.fail(
                    f"tribes_baseline: no baseline at {file}: record it with pytest "
                    "--snapshot-update (or tribes baseline GAMES -o FILE)",
                    pytrace=False,
                )
            recorded = baseline_file.read(file)
            tally = Tally()
            lines: list[str] = []

            def missing(n: int) -> None:
                tally.missing = n

            for item in regressing.regress(paths, recorded, Where(), missing=missing):
                if not isinstance(item, regressing.Comparison):
                    pytest.fail(f"tribes_baseline: {item.error}", pytrace=False)
                tally.add(item)
                if item.changed and len(lines) < SHOWN:
                    lines.append(item.line())
        except TribesError as exc:
            pytest.fail(f"tribes_baseline: {exc}", pytrace=False)
        summary = tally.summary()
        if summary.changed:
            pytest.fail(
                f"the games differ from the baseline {file}: " + "\n".join(summary.lines() + lines),
                pytrace=False,
            )
        return summary.games

    return check
