"""``tribes verify``, ``repair``, ``upgrade``, ``export`` and ``import``: thin commands over a
log file as a whole (checked, mended, rewritten in another version or form)."""

from __future__ import annotations

import copy
import re
import sys
from pathlib import Path
from typing import Any

import click

from tribes.cli.common import options, say, warn, work_options
from tribes.core import views
from tribes.core.errors import CorruptLog, UncommittedTail, UsageError
from tribes.events import codec
from tribes.replay import logs
from tribes.replay import verify as checking
from tribes.replay.parallel import Where

LOG = click.Path(path_type=Path)
OUT = click.Path(path_type=Path, dir_okay=False)


@click.command()
@click.argument("paths", nargs=-1, required=True, type=LOG)
@work_options
@click.option("--json", "as_json", is_flag=True, help="One JSON document: every log's findings.")
@click.option(
    "--extends",
    "old",
    type=LOG,
    metavar="OLD",
    help="Also check that the log (corpus) goes on from OLD, the one you hold: OLD's digest is "
    "the one it had at one of its commits (appends).",
)
@click.option(
    "--digest",
    "told",
    metavar="HEX",
    help="Also check that the log's (corpus's) digest is HEX, the one you were told.",
)
def verify(
    paths: tuple[Path, ...],
    jobs: int,
    cluster: str | None,
    as_json: bool,
    old: Path | None,
    told: str | None,
) -> None:
    """Replay logs: every commit matching (intact), every event legal and checkpoint matching
    (the running rules give its states), the replay deterministic, nothing after the last
    commit; prints each log's digest. Exit status 0: all intact and consistent; 1: a failure;
    3: intact, but the running rules replay a log otherwise (a RULES line says how). A corpus
    (NAME.corpus) is checked game by game and then every byte of it (CORPUS#K: game K alone);
    a folder stands for its logs and corpora. --extends OLD and --digest HEX check one log or
    corpus against what you hold or were told."""
    from tribes.replay import batch  # noqa: PLC0415  start-up: the command's machinery, when it runs

    if (old is not None or told is not None) and (len(paths) != 1 or paths[0].is_dir()):
        raise UsageError("--extends and --digest check one log or corpus, not several")
    if told is not None and not re.fullmatch(r"[0-9a-fA-F]{16,64}", told):
        raise UsageError(f"--digest '{views.printable(told)[:80]}' is no digest: hex digits")
    if as_json:
        found: list[dict[str, Any]] = []
        totals = batch.verify(
            list(paths), Where(jobs, cluster), lambda line: None, record=found.append, rows=False
        )
        summary: dict[str, Any] = {
            "ok": totals.ok,
            "failed": totals.failed,
            "rules_differ": totals.differ,
            "logs": found,
        }
        if old is not None or told is not None:
            said = _compared(paths[0], old, told) if not totals.failed else []
            summary["compared"] = [{"ok": ok, "said": line} for ok, line in said]
            summary["failed"] += sum(not ok for ok, _ in said)
        click.echo(codec.to_json(summary))
        sys.exit(1 if summary["failed"] else _status(totals))
    totals = batch.verify(list(paths), Where(jobs, cluster), say, rows=False)
    if totals.inputs > 1:
        bad = totals.failed_inputs
        differ = f", {totals.differ} intact under other rules" if totals.differ else ""
        say(f"{totals.inputs - bad} ok, {bad} failed{differ}")
    status = _status(totals)
    if status == 1:
        sys.exit(status)
    if old is not None or told is not None:
        said = _compared(paths[0], old, told)
        for ok, line in said:
            say(("ok    " if ok else "FAIL  ") + line)
        if not all(ok for ok, _ in said):
            sys.exit(1)
    if status:
        sys.exit(status)


def _carry(
    sources: tuple[Path, ...], output: Path | None, dry_run: bool, drop_refused: bool
) -> None:
    """``upgrade --rules``: each log and corpus (a folder: its logs and corpora) carried
    forward in order, its lines printed as it is done; exit 1 if one was left as it is."""
    from tribes.replay import batch, carry, corpus  # noqa: PLC0415  start-up: the command's machinery, when it runs
    from tribes.replay.corpus.carrying import CorpusCarried, carry_corpus  # noqa: PLC0415  start-up: the command's machinery, when it runs

    if output is not None:
        raise UsageError("upgrade --rules re-records logs in place; it takes no -o")
    done: list[Any] = []
    for path in batch.expand(list(sources)):
        if corpus.is_corpus(path):
            carried = carry_corpus(path, dry_run=dry_run, drop_refused=drop_refused)
            done.append(carried)
            for line in carried.lines():
                say(line)
        else:
            done.extend(carry.carry([path], dry_run=dry_run))
            say(done[-1].line())
    if sum(1 for one in done if isinstance(one, carry.Carried)) > 1:
        say(carry.summary(done))
    if any(one.left_as_is if isinstance(one, CorpusCarried) else one.refused for one in done):
        sys.exit(1)


def _compared(path: Path, old: Path | None, told: str | None) -> list[tuple[bool, str]]:
    """What ``verify --extends OLD`` and ``--digest HEX`` find of the (verified) ``path``."""
    from tribes.replay import mail  # noqa: PLC0415  start-up: the command's machinery, when it runs

    new = mail.held(path)
    said = []
    if told is not None:
        if told.lower() == new.digest:
            said.append((True, f"{path}: digest {new.digest} as told"))
        else:
            said.append((False, f"{path}: its digest is {new.digest}, not {told.lower()} as told"))
    if old is not None:
        before = mail.held(old)
        why = mail.extension(new, before)
        if why is None:
            said.append((True, f"{path}: {mail.extension_words(new, before)}"))
        else:
            said.append(
                (
                    False,
                    f"{path}: does not extend {old}: {why}"
                    + ("" if new.corpus else f"; 'tribes diff {old} {path}' shows how"),
                )
            )
    return said


def _status(totals: Any) -> int:
    """verify's exit status: 1 if anything failed (damaged, tampered, unreadable), else 3 if a
    log is intact but the running rules replay it otherwise (VERIFY_RULES_DIFFER), else 0."""
    from tribes.replay.consistency import VERIFY_RULES_DIFFER  # noqa: PLC0415  start-up: the command's machinery, when it runs

    if totals.failed:
        return 1
    return VERIFY_RULES_DIFFER if totals.differ else 0


@click.command()
@click.argument("log", type=LOG)
@click.option("--force", is_flag=True, help="Replace an older backup (LOG.torn) if it exists.")
def repair(log: Path, force: bool) -> None:
    """Cut an interrupted append (records after the last commit), keeping a backup."""
    try:
        repaired = checking.repair(log, force=force)
    except CorruptLog as exc:
        if isinstance(exc, UncommittedTail) or "whoever shared it" in exc.message:
            raise
        # Damage that is no interrupted append: say why repair leaves it, and what to do.
        hinted = copy.copy(exc)
        hinted.message = (
            f"{exc.message}; that is no interrupted append, so repair leaves the log alone: "
            "take it again from whoever shared it"
        )
        hinted.args = (hinted.message,)
        raise hinted from None
    say(repaired.line())


@click.command()
@click.argument("sources", metavar="SOURCE", nargs=-1, required=True, type=LOG)
@click.option("-o", "--output", type=OUT, help="The log to write (.tribes or .json).")
@click.option("--force", is_flag=True, help="Replace the output file if it exists.")
@click.option(
    "--file",
    "file_paths",
    multiple=True,
    metavar="OPTION=PATH",
    help="The file an option of a version 1 log names (board=PATH), to put in the log.",
)
@click.option(
    "--rules",
    "rules",
    is_flag=True,
    help="Re-record the checkpoints of intact logs and corpora (files, folders) under the "
    "running rules, in place, saying what changes; the files as they were kept as NAME.rules.",
)
@click.option("--dry-run", is_flag=True, help="With --rules: say what changes, write nothing.")
@click.option(
    "--drop-refused",
    is_flag=True,
    help="With --rules: leave out of a corpus the games with a move the running rules refuse "
    "(kept in NAME.corpus.rules), instead of leaving the whole corpus as it is.",
)
def upgrade(
    sources: tuple[Path, ...],
    output: Path | None,
    force: bool,
    file_paths: tuple[str, ...],
    rules: bool,
    dry_run: bool,
    drop_refused: bool,
) -> None:
    """Write a log of format version 1 or 2 in the current version (-o NEW); a corpus
    (NAME.corpus) likewise, as a corpus of format version 3. With --rules, carry intact logs
    and corpora forward to the running rules, in place: each one's checkpoints re-recorded,
    after saying per log (per game of a corpus) the first event where the states part, the
    parts that differ and the outcome before and after; the originals kept as NAME.rules; a
    log with a move the running rules refuse, or a corpus with a game that has one, is left as
    it is (exit 1), unless --drop-refused leaves such games out of the corpus."""
    from tribes.replay import corpus  # noqa: PLC0415  start-up: the command's machinery, when it runs

    if rules:
        _carry(sources, output, dry_run, drop_refused)
        return
    if dry_run or drop_refused:
        raise UsageError(f"{'--dry-run' if dry_run else '--drop-refused'} goes with --rules")
    if len(sources) != 1 or output is None:
        raise UsageError("upgrade SOURCE -o NEW writes one log (or --rules LOG... in place)")
    (source,) = sources

    if corpus.is_corpus(source):
        games = corpus.upgrade(source, output, force=force)
        say(f"{output}: {views.count(games, 'game')}, corpus format version 3")
        return
    log = checking.upgrade(source, output, force=force, file_paths=options(file_paths))
    say(f"{output}: {len(log.events)} events, format version {log.version}")


# --- export, import -------------------------------------------------------------------------------


@click.command()
@click.argument("log", type=LOG)
@click.option(
    "--json", "as_json", is_flag=True, help="The JSON form (the only one, and the default)."
)
@click.option(
    "-o",
    "--output",
    type=OUT,
    help="Write to this file instead of standard output (.tribes: the binary form).",
)
@click.option("--force", is_flag=True, help="Replace the output file if it exists.")
def export(log: Path, as_json: bool, output: Path | None, force: bool) -> None:
    """Write a log in its JSON form: stable, diffable, lossless."""
    opened = logs.open_log(log)
    steps = logs.shown(opened.game, opened.log, str(log), warn)
    sealed = logs.seal(opened.game, opened.log, steps, _ends(opened), recorded=opened.log)
    if output is None:
        click.echo(logs.to_json(sealed), nl=False)
    else:
        logs.create(output, opened.log, opened.game, force=force, kept=True)


def _ends(opened: logs.Opened) -> list[int | tuple[int, int]]:
    return [*logs.ends_of(opened.log)]


@click.command(name="import")
@click.argument("source", type=LOG)
@click.option("-o", "--output", type=OUT, required=True, help="The .tribes log to write.")
@click.option("--force", is_flag=True, help="Replace the output file if it exists.")
def import_(source: Path, output: Path, force: bool) -> None:
    """Read a JSON log (or a hand-written scenario) and write it as a .tribes log."""
    opened = logs.open_log(source)
    if opened.end is not None:
        raise UsageError(f"{source} is already a .tribes log; import reads the JSON form")
    logs.shown(opened.game, opened.log, str(source), warn)
    if output.suffix == ".json":
        raise UsageError("import writes a .tribes log; name the output *.tribes")
    logs.create(output, opened.log, opened.game, force=force, kept=True)
    say(f"{output}: {views.count(len(opened.log.events), 'event')}")
