"""Bad command-line input to `oxide` and `oxide-opt` is a clear error with exit status 1, never an internal
error (issue 15 item 7): a source that is not UTF-8, an `--instantiate` that names no generic kernel or is
malformed, a file whose kernels are all generic and none instantiated, and `oxide pipeline` of a file that
fails prints only the error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from oxide.diagnostics import OxideError
from oxide.tools import oxide_opt
from oxide.tools.instances import parse_instances
from oxide.tools.oxide_cli import cli

INPUTS = Path(__file__).parent / "inputs"
TILE = Path(__file__).resolve().parents[1] / "frontends" / "tile" / "cutile_style.rs"
# Line 2 is `// caf` then the Latin-1 byte 0xe9 at column 7, byte offset 56 of the file.
NOT_UTF8 = "latin1_comment.rs:2:7: error: the file is not valid UTF-8: byte 0xe9 at offset 56"


def _copy(name: str) -> str:
    shutil.copy(INPUTS / name, name)
    return name


def _opt(*args: str, stdin: bytes | None = None):
    return CliRunner().invoke(oxide_opt.cli, list(args), input=stdin)


@pytest.mark.parametrize("command", ["build", "inspect", "pipeline", "run"])
def test_oxide_names_the_byte_that_is_not_utf8(runner, command):
    source = _copy("latin1_comment.rs")
    Path("latin1_comment.py").write_text("print('never run')\n")
    result = runner.invoke(cli, [command, source])
    assert result.exit_code == 1, result.output
    assert NOT_UTF8 in result.output and "internal error" not in result.output
    assert "never run" not in result.output


def test_oxide_opt_names_the_byte_that_is_not_utf8(runner):
    result = _opt(_copy("latin1_comment.rs"), "--emit=ptx")
    assert result.exit_code == 1 and NOT_UTF8 in result.output
    result = _opt("-", stdin=b"module {}\n\xff\n")
    assert result.exit_code == 1
    assert "<stdin>:2:1: error: the file is not valid UTF-8: byte 0xff at offset 10" in result.output


def test_oxide_build_of_mlir_names_the_byte_that_is_not_utf8(runner):
    Path("k.mlir").write_bytes(b"// \xc3\x28\nmodule {}\n")
    result = runner.invoke(cli, ["build", "k.mlir"])
    assert result.exit_code == 1 and "k.mlir:1:4: error: the file is not valid UTF-8: byte 0xc3" in result.output


def test_instantiating_an_unknown_kernel_names_the_generic_ones(runner):
    source = _copy("all_generic.rs")
    for result in (_opt(source, "--instantiate", "nope=f32"),
                   runner.invoke(cli, ["build", source, "--instantiate", "nope=f32"])):
        assert result.exit_code == 1, result.output
        assert "there is no generic kernel `nope` in all_generic.rs; the generic kernels are `saxpy`, `fill`" \
            in result.output


def test_instantiate_arguments_split_outside_brackets():
    assert parse_instances(("gemm=bf16, [64, 64], (f32, u8)", "gemm=f32,[1]")) == {
        "gemm": [["bf16", "[64, 64]", "(f32, u8)"], ["f32", "[1]"]]}
    for bad in ("gemm", "=f32", "gemm=[64, 64", "gemm=f32,,f64", "gemm=f32)"):
        with pytest.raises(OxideError, match="--instantiate expects KERNEL=T1,T2"):
            parse_instances((bad,))


def test_a_tile_shape_argument_is_one_argument(runner):
    result = _opt(str(TILE), "--instantiate", "saxpy=[4, 64]")
    assert result.exit_code == 0, result.output
    assert "gpu.func @saxpy_4x64(" in result.output


def test_a_malformed_instantiate_exits_1(runner):
    result = runner.invoke(cli, ["build", _copy("all_generic.rs"), "--instantiate", "saxpy=[f32"])
    assert result.exit_code == 1 and "--instantiate expects KERNEL=T1,T2" in result.output


@pytest.mark.parametrize("argument", ["[2, 2]", "abc", "99999999999999999999999", "-1"])
def test_a_const_parameter_needs_an_integer_of_its_type(runner, argument):
    result = _opt(_copy("all_generic.rs"), "--instantiate", f"fill={argument}")
    assert result.exit_code == 1, result.output
    assert (f"all_generic.rs:9:1: error: kernel `fill`: its const parameter `N: usize` is instantiated with "
            f"`{argument}`, which is not an integer literal of type `usize`") in result.output


def test_nothing_instantiated_is_an_error_that_says_how(runner):
    source = _copy("all_generic.rs")
    for result in (_opt(source, "--emit=ptx"), runner.invoke(cli, ["inspect", source]),
                   runner.invoke(cli, ["pipeline", source])):
        assert result.exit_code == 1, result.output
        assert "nothing to compile in all_generic.rs: its kernels (saxpy, fill) are all generic and none was " \
               "instantiated" in result.output
        assert "--instantiate saxpy=f32" in result.output and "====" not in result.output
    assert _opt(source, "--instantiate", "fill=4").exit_code == 0


def test_pipeline_prints_no_headings_before_an_error(runner):
    Path("empty.rs").write_text("")
    result = runner.invoke(cli, ["pipeline", "empty.rs"])
    assert result.exit_code == 1
    assert result.output.strip() == "error: no `#[kernel]` function in empty.rs"


def test_the_python_api_reads_sources_through_the_same_reader():
    import oxide

    with pytest.raises(OxideError, match="not valid UTF-8: byte 0xe9 at offset 56") as info:
        oxide.compile_file(INPUTS / "latin1_comment.rs")
    assert (info.value.diagnostics[0].loc.line, info.value.diagnostics[0].loc.col) == (2, 7)
