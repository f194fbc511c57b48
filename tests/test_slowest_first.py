"""The suite's ordering list names real tests: a renamed or deleted test would otherwise fall out
of the front of ``make test`` silently, and the run would end with one worker idle."""

import ast
from pathlib import Path

from conftest import SLOWEST_FIRST

ROOT = Path(__file__).resolve().parent.parent


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
