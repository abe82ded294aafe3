"""docs/dialects/*.md are generated from the dialect declarations: the committed files must be current."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from oxide.dialects import simt, tile
from oxide.tools import dialect_docs

ROOT = Path(__file__).resolve().parents[3]


def test_committed_dialect_docs_are_current() -> None:
    stale = dialect_docs.stale(ROOT)
    assert not stale, f"stale: {[str(p) for p in stale]}; run `python -m oxide.tools.dialect_docs`"


def test_every_op_and_type_is_documented() -> None:
    for package in (simt, tile):
        text = dialect_docs.render(package)
        for op in package.DIALECT.ops:
            assert f"### `{op.OPERATION_NAME}`" in text
            assert " ".join(op.__doc__.split()[:4]) in " ".join(text.split())
        for defn in package.DIALECT.types + package.DIALECT.attributes:
            assert f"### `{defn.mnemonic_ref()}" in text


def test_check_reports_a_stale_file(tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(dialect_docs.main, ["--root", str(tmp_path), "--check"]).exit_code == 1
    assert runner.invoke(dialect_docs.main, ["--root", str(tmp_path)]).exit_code == 0
    assert runner.invoke(dialect_docs.main, ["--root", str(tmp_path), "--check"]).exit_code == 0
    edited = tmp_path / "docs" / "dialects" / "tile.md"
    edited.write_text(edited.read_text() + "hand edit\n")
    result = runner.invoke(dialect_docs.main, ["--root", str(tmp_path), "--check"])
    assert result.exit_code == 1 and "tile.md: stale" in result.output
