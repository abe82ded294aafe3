"""The import-graph reader itself, on a small package written to a temporary directory."""

from __future__ import annotations

from pathlib import Path

from tests.unit.layout.import_graph import cycles, read_package, reaches


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in {"oxide/__init__.py": "", **files}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_a_circle_is_found_and_type_checking_imports_are_not_edges(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "oxide/a.py": "from oxide import b\n",
        "oxide/b.py": "from oxide.c import thing\n",
        "oxide/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from oxide import d\nimport oxide.a\n",
        "oxide/d.py": "from oxide import a\n",
    })
    modules = read_package(root)
    assert cycles(modules) == [["oxide.a", "oxide.b", "oxide.c"]]
    assert not reaches(modules, "oxide.c", "oxide.d")


def test_function_local_imports_are_deferred_not_loads(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "oxide/a.py": "def f():\n    from oxide import b\n    return b\n",
        "oxide/b.py": "from . import a\n",
    })
    modules = read_package(root)
    assert modules["oxide.a"].loads == set()
    assert modules["oxide.a"].deferred == [("oxide.b", 2)]
    assert reaches(modules, "oxide.b", "oxide.a")
    assert cycles(modules) == []
