"""The suite's ordering list names real tests: a renamed or deleted test would otherwise fall out
of the front of ``make test`` silently, and the run would end with one worker idle."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _slowest_first() -> tuple[str, ...]:
    """``SLOWEST_FIRST`` as tests/conftest.py writes it (read, not imported: under
    pytest-xdist ``conftest`` may name another folder's conftest module)."""
    tree = ast.parse((ROOT / "tests" / "conftest.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [
            t.id for t in node.targets if isinstance(t, ast.Name)
        ] == ["SLOWEST_FIRST"]:
            return tuple(ast.literal_eval(node.value))
    raise AssertionError("tests/conftest.py defines no SLOWEST_FIRST")


SLOWEST_FIRST = _slowest_first()


def test_every_name_of_the_slowest_first_list_is_a_test_function_of_its_file() -> None:
    missing = []
    for name in SLOWEST_FIRST:
        path, _, function = name.partition("::")
        source = ROOT / path
        defined = (
            {
                node.name
                for node in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
                if isinstance(node, ast.FunctionDef)
            }
            if source.is_file()
            else set()
        )
        if function not in defined:
            missing.append(name)
    assert missing == [], f"SLOWEST_FIRST names tests that do not exist: {missing}"


def test_the_slowest_first_list_names_each_test_once() -> None:
    assert len(set(SLOWEST_FIRST)) == len(SLOWEST_FIRST)
