"""README.md is the front door: its examples compile and run, its links stay inside the repository, it stays
short, and it keeps the test command CI runs (.ci/run runs tests/run, the command README gives)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import oxide

ROOT = Path(__file__).resolve().parents[3]
README = ROOT / "README.md"
TEST_COMMAND = "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' && tests/run"
_BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_CODE = re.compile(r"^```.*?^```|`[^`\n]*`", re.S | re.M)


def _blocks(language: str) -> list[str]:
    return [body for lang, body in _BLOCK.findall(README.read_text(encoding="utf-8")) if lang == language]


def test_readme_is_short() -> None:
    assert README.stat().st_size <= 25 * 1024


def test_readme_keeps_the_test_command() -> None:
    assert any(block.strip() == TEST_COMMAND for block in _blocks("sh"))
    assert (ROOT / "tests" / "run").is_file() and "tests/run" in (ROOT / ".ci" / "run").read_text()


@pytest.mark.parametrize("index", range(len(_blocks("rust"))))
def test_readme_rust_examples_compile(index: int) -> None:
    source = _blocks("rust")[index]
    generic = re.search(r"pub fn (\w+)<const S: \[i32; 1\]>", source)
    instances = {generic.group(1): [["[1024]"]]} if generic else None
    module = oxide.compile(source, f"readme_{index}.rs", instances=instances)
    assert module.kernels


@pytest.mark.parametrize("index", range(len(_blocks("python"))))
def test_readme_python_examples_run(index: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OXIDE_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("OXIDE_DEVICE", os.environ.get("OXIDE_DEVICE", "cpu"))
    monkeypatch.chdir(ROOT)
    exec(compile(_blocks("python")[index], f"README.md python block {index}", "exec"), {})


@pytest.mark.parametrize("page", [README, *sorted((ROOT / "docs").rglob("*.md"))], ids=lambda p: p.name)
def test_links_stay_inside_the_repository(page: Path) -> None:
    prose = _CODE.sub("", page.read_text(encoding="utf-8"))
    for target in _LINK.findall(prose):
        assert "://" not in target, f"{page.name} links outside the repository: {target}"
        path = (page.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT) and path.exists(), f"{page.name}: broken link {target}"
