"""The text checks before parsing fire only on text no valid MLIR contains."""

from __future__ import annotations

from pathlib import Path

from oxide.ir.text_checks import text_problems

ROOT = Path(__file__).resolve().parents[3]
# The lit file whose cases are exactly what the checks reject.
REJECTS = ROOT / "tests" / "lit" / "dialects" / "parse-rejects.mlir"


def test_no_check_fires_on_the_projects_mlir() -> None:
    paths = [p for p in sorted(ROOT.glob("tests/lit/**/*.mlir")) + sorted(ROOT.glob("examples/**/*.mlir"))
             if p != REJECTS]
    assert paths
    fired = [d.render() for p in paths for d in text_problems(p.read_text(errors="replace"), str(p))]
    assert fired == []


def test_each_problem_is_located_at_its_token() -> None:
    text = 'func.func @f(%m: i32) {\n  %0 = "simt."(%m) : (i32) -> i32\n  return\n}\n'
    [problem] = text_problems(text, "k.mlir")
    assert str(problem.loc) == "k.mlir:2:8"
    assert problem.message.startswith('op name "simt." names no operation')


def test_an_escape_is_decoded_before_the_utf8_check() -> None:
    assert text_problems('"simt.\\c3\\a9"() : () -> ()', "k.mlir") == []  # é, in UTF-8
    [problem] = text_problems('"simt.x\\c3"() : () -> ()', "k.mlir")
    assert problem.message.startswith('op name "simt.x\\c3" is not valid UTF-8 (byte 0xc3)')


def test_non_utf8_string_locates_the_first_string_that_is_not_utf8():
    from oxide.ir.text_checks import non_utf8_string

    text = 'func.func @f() {\n  %0 = "arith.constant"() {s = "ok", t = "x\\bd"} : () -> i32\n}\n'
    found = non_utf8_string(text, "k.mlir")
    assert found is not None and str(found.loc) == "k.mlir:2:42"
    assert "not valid UTF-8 (byte 0xbd)" in found.message
    assert non_utf8_string('"ok" "fine\\0a"', "k.mlir") is None
