"""Located diagnostics, expected-diagnostic matching and input splitting."""

from mlir import ir

from oxide.ir.declare import VerifyError
from oxide.diagnostics import Diagnostic, OxideError, SourceLoc
from oxide.ir.diagnostics import captured_diagnostics, collected_warnings, warn
from oxide.ir.parse import parse_source
from oxide.tools.expected_diagnostics import check, expectations
from oxide.tools.oxide_opt import split_input


def test_render_has_location_line_and_caret():
    diag = Diagnostic("error", "bad thing", SourceLoc("k.rs", 2, 5))
    text = diag.render({"k.rs": "fn a() {}\nlet x = y;\n"})
    assert text.splitlines() == ["k.rs:2:5: error: bad thing", "  |", "2 | let x = y;", "  |     ^"]


def test_render_without_source_is_one_line():
    assert Diagnostic("error", "m", SourceLoc("x", 1, 1)).render() == "x:1:1: error: m"
    assert OxideError("plain").render() == "error: plain"


def test_help_follows_the_notes():
    diag = Diagnostic("error", "bad thing", SourceLoc("k.rs", 2, 5),
                      [Diagnostic("note", "declared here", SourceLoc("k.rs", 1, 4))], help="write `let x = 1;`")
    assert diag.render({"k.rs": "fn a() {}\nlet x = y;\n"}).splitlines() == [
        "k.rs:2:5: error: bad thing", "  |", "2 | let x = y;", "  |     ^",
        "k.rs:1:4: note: declared here", "  |", "1 | fn a() {}", "  |    ^", "help: write `let x = 1;`"]
    assert Diagnostic("warning", "w", help="h").render() == "warning: w\nhelp: h"


def test_verifier_and_warning_reports_are_diagnostics(ctx):
    assert VerifyError("no").diagnostics == [Diagnostic("error", "no")]
    with collected_warnings() as found:
        warn(ir.Location.file("k.rs", 3, 2), "maybe")
    assert found == [Diagnostic("warning", "maybe", SourceLoc("k.rs", 3, 2))]


def test_parse_errors_carry_the_source_name(ctx):
    try:
        parse_source("func.func @f() {\n  %x = foo.bar\n}", "k.mlir", ctx)
    except OxideError as exc:
        (diag,) = exc.diagnostics
        assert (diag.loc.file, diag.loc.line) == ("k.mlir", 2)
    else:
        raise AssertionError("expected a parse error")


def test_several_top_level_ops_get_a_module_and_keep_the_name(ctx):
    parsed = parse_source("func.func @f() { return }\nfunc.func @g() { return }", "two.mlir", ctx)
    assert len(list(parsed.module.body.operations)) == 2
    try:
        parse_source("func.func @f() { return }\nfunc.func @f() { return }", "dup.mlir", ctx)
    except OxideError as exc:
        assert exc.diagnostics[0].loc.file == "dup.mlir"
    else:
        raise AssertionError("expected a redefinition error")


def test_captured_diagnostics_collects_instead_of_printing(ctx):
    with captured_diagnostics(ctx) as seen:
        ir.Location.file("a.mlir", 3, 4).emit_error("nope")
    assert seen == [Diagnostic("error", "nope", SourceLoc("a.mlir", 3, 4))]


def test_expectations_resolve_relative_lines():
    text = "a\n// expected-error@+1 {{one}}\nb\nc // expected-warning {{two}}\n// expected-note@above {{three}}\n// expected-remark@-4 {{four}}"
    found = [(e.severity, e.line, e.text) for e in expectations(text, "f")]
    assert found == [("error", 3, "one"), ("warning", 4, "two"), ("note", 4, "three"), ("remark", 2, "four")]


def test_check_reports_both_missing_and_unexpected():
    expected = expectations("x\n// expected-error@-1 {{boom}}\n", "f")
    problems = check([Diagnostic("error", "boom happened", SourceLoc("f", 1, 1)),
                      Diagnostic("error", "other", SourceLoc("f", 5, 1))], expected)
    assert [p.message for p in problems] == ["unexpected error: other"]
    problems = check([], expectations("// expected-error {{gone}}", "f"))
    assert problems[0].message == 'expected error "gone" was not produced'


def test_split_keeps_line_numbers():
    chunks = split_input("a\n// -----\nb\nc\n// -----\nd\n", split=True)
    assert [c.first_line for c in chunks] == [1, 3, 6]
    assert chunks[1].text.splitlines()[2] == "b" and chunks[2].text.splitlines()[5] == "d"
    assert len(split_input("a\n// -----\nb", split=False)) == 1


def test_cli_bug_is_an_internal_error_without_traceback(capsys, monkeypatch):
    import click
    import pytest

    from oxide.tools.entry import INTERNAL_ERROR_STATUS, run_cli

    @click.command()
    def broken():
        raise KeyError("k")

    monkeypatch.delenv("OXIDE_DEBUG", raising=False)
    monkeypatch.setattr("sys.argv", ["broken"])
    with pytest.raises(SystemExit) as info:
        run_cli(broken)
    assert info.value.code == INTERNAL_ERROR_STATUS
    err = capsys.readouterr().err
    assert err.startswith("internal error: KeyError: 'k'") and "Traceback" not in err
