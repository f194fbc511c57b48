"""The README and the docs are tests: the README's quick start and the command-line tour of
docs/commands.md run line by line as a user would type them, every Python example of either runs
against the demo's log, and every link between them leads somewhere."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tribes import games
from tribes.core import rulebook
from tribes.core.game import proper_name

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").rglob("*.md"))
PAGES = [README, *DOCS]
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.DOTALL | re.MULTILINE)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def blocks(language: str) -> list[tuple[str, str]]:
    """The code blocks of one language in every page: (page name, body)."""
    return [
        (page.relative_to(ROOT).as_posix(), body)
        for page in PAGES
        for lang, body in BLOCK.findall(page.read_text())
        if lang == language
    ]


def section(page: Path, title: str) -> str:
    text = page.read_text()
    start = (
        text.index(f"\n## {title}\n") if f"\n## {title}\n" in text else text.index(f"# {title}\n")
    )
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def env_with_tribes() -> dict[str, str]:
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}


def run_tour(tour: str, folder: Path) -> None:
    lines = [line.split("  #")[0].strip() for line in tour.splitlines() if line.strip()]
    assert lines[0].startswith("tribes new")
    for line in lines:
        ran = subprocess.run(
            ["bash", "-c", line], cwd=folder, env=env_with_tribes(), capture_output=True, text=True
        )
        assert ran.returncode == 0, (line, ran.stdout[-500:], ran.stderr[-500:])
        assert "Traceback" not in ran.stderr


def first_sh_block(text: str) -> str:
    return next(body for lang, body in BLOCK.findall(text) if lang == "sh")


def test_the_quick_start_runs_line_by_line(tmp_path):
    run_tour(first_sh_block(section(README, "Quick start")), tmp_path)


def test_the_command_line_tour_runs_line_by_line(tmp_path):
    run_tour(first_sh_block(section(ROOT / "docs" / "commands.md", "Command line")), tmp_path)


def test_writing_a_game_runs_line_by_line(tmp_path):
    """docs/writing-a-game.md's commands on the example game, which ``make test`` installed (the
    ``pip install`` line is not run again)."""
    tour = first_sh_block((ROOT / "docs" / "writing-a-game.md").read_text())
    lines = [line.split("  #")[0].strip() for line in tour.splitlines() if line.strip()]
    assert lines[0] == "pip install -e examples/dice"
    run_tour("\n".join(lines[1:]), tmp_path)


def test_the_readme_is_a_front_door():
    """The README says what tribes is, how to start and where to read on; the rest is in docs/."""
    assert len(README.read_text().splitlines()) <= 250
    linked = {target.split("#")[0] for target in LINK.findall(README.read_text())}
    missing = [
        d.relative_to(ROOT).as_posix() for d in DOCS if d.relative_to(ROOT).as_posix() not in linked
    ]
    assert not missing, f"docs the README does not lead to: {missing}"


GAME_ROW = re.compile(
    r"^\| `(\w+)` — \*\*(.+?)\*\* .*\| \[(\w+)–(\w+)\]\(games/(\w+)/rules\.md\) "
    r"\| \[docs/games/(\w+)\.md\]\(docs/games/\w+\.md\) \|$",
    re.MULTILINE,
)


def test_the_readme_names_the_registered_games():
    """Its table of games is the registry's built-in games (a game from another distribution
    may be registered too), each by its name and title, its rule ids and its guide."""
    rows = GAME_ROW.findall(README.read_text())
    built_in = [
        name
        for name in games.names()
        if rulebook.package_of(games.get(name)) == f"tribes.games.{name}"
    ]
    assert sorted(row[0] for row in rows) == built_in
    for name, title, first, last, folder, guide in rows:
        book = rulebook.rulebook(games.get(name))
        assert (title, folder, guide) == (proper_name(games.get(name)), name, name)
        assert (first, last) == (book.rules[0].id, book.rules[-1].id)
    assert not re.search(r"\b(two|three|four|five) games\b", README.read_text())


CODE_PATH = re.compile(r"`([\w<>/]+/)`|`([\w<>/]*\w+\.py)`")
"""A folder (``events/``) or a module (``events/codec.py``, or ``codec.py`` in the folder named
last) as the docs name them."""


def named_modules(page: Path) -> list[str]:
    """The modules a page names, as paths from the top (in the map of the code, a bare
    ``model.py`` is in the folder named last), ``<game>`` standing for any game."""
    found, folder = [], ""
    for match in CODE_PATH.finditer(page.read_text()):
        if match[1]:
            folder = match[1]
        elif "/" in match[2]:
            found.append(match[2])
            folder = match[2].rpartition("/")[0] + "/"
        elif page.name == "layout.md":
            found.append(folder + match[2])
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_module_the_docs_name_is_in_the_code(page):
    """``render`` is not ``rendering``: a module a page names exists, under that name (a
    ``games/<game>/`` module in some game)."""
    built_in = [n for n in games.names() if (ROOT / "games" / n).is_dir()]
    wrong = [
        path
        for path in named_modules(page)
        if not any((ROOT / path.replace("<game>", name)).is_file() for name in built_in)
    ]
    assert not wrong, f"{page.name} names modules the code does not have: {wrong}"


def test_the_modules_of_a_game_as_the_layout_lists_them():
    text = (ROOT / "docs" / "layout.md").read_text()
    listed = re.search(r"its modules are\s+((?:`\w+`,?\s+(?:and\s+)?)+)", text)
    assert listed is not None
    for name in games.names():
        if (ROOT / "games" / name).is_dir():
            for module in re.findall(r"`(\w+)`", listed[1]):
                assert (ROOT / "games" / name / f"{module}.py").is_file(), (name, module)


def anchors(page: Path) -> set[str]:
    """GitHub's anchors of a page's headings."""
    found = set()
    for line in page.read_text().splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            slug = re.sub(r"[^\w\- ]", "", title).replace(" ", "-")
            found.add(slug)
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_leads_somewhere(page):
    wrong = []
    for target in LINK.findall(page.read_text()):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path, _, anchor = target.partition("#")
        goal = (page.parent / path).resolve() if path else page
        if not goal.exists():
            wrong.append(f"{target}: no such file")
        elif anchor and goal.suffix == ".md" and anchor not in anchors(goal):
            wrong.append(f"{target}: no such heading")
    assert not wrong, wrong


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("readme")
    subprocess.run(
        ["tribes", "demo"], cwd=folder, env=env_with_tribes(), check=True, capture_output=True
    )
    return folder


@pytest.mark.parametrize(
    "example",
    [b for b in blocks("python") if "def test_" not in b[1]],
    ids=lambda b: f"{b[0]}:{b[1].splitlines()[1][:40]}",
)
def test_python_examples_run(example, demo_folder, monkeypatch, capsys):
    page, body = example
    monkeypatch.chdir(demo_folder)
    exec(compile(body, page, "exec"), {"__name__": "readme_example"})
    capsys.readouterr()


def test_there_are_examples_to_run():
    assert len([b for b in blocks("python") if "def test_" not in b[1]]) >= 2


def test_the_readme_counts_the_tests_that_skip_as_a_run_does():
    """A fresh clone (no compiled build, no ``../shared`` beside it) skips seven tests; a clone
    beside ``../shared``, three: the README says both, and this run's skips agree with it."""
    said = " ".join(README.read_text().split())
    assert "Seven tests skip in a fresh clone" in said and "(there, three skip)" in said
    files = ["tests/rules/test_rules_shipped.py", "tests/test_compiled.py"]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:randomly", *files],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    skipped = re.search(r"(\d+) skipped", run.stdout)
    count = int(skipped.group(1)) if skipped else 0
    shared = (ROOT.parent / "shared" / "rules").is_dir()
    from tribes.games.clans import rules as clans_rules

    compiled = not clans_rules.__file__.endswith(".py")
    assert count == (0 if compiled else 3) + (0 if shared else 4), run.stdout[-500:]
