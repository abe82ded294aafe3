"""The rejection suite: every file under rejections/ is a kernel the frontend must refuse with one located
diagnostic. Its first line says where and what: `// expect: <line>:<col>: <message substring>`; an optional
`// xfail: <reason>` line marks a known frontend bug (the expectation states the correct behaviour)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from oxide.frontends.simt.compile import compile_rust
from oxide.dialects.context import make_context
from oxide.diagnostics import OxideError

REJECTIONS = Path(__file__).parent / "rejections"
_EXPECT = re.compile(r"^// expect: (\d+):(\d+): (.+)$")
_XFAIL = re.compile(r"^// xfail: (.+)$", re.M)


def _cases() -> list:
    cases = []
    for path in sorted(REJECTIONS.glob("*.rs")):
        text = path.read_text()
        xfail = _XFAIL.search(text)
        marks = [pytest.mark.xfail(strict=True, reason=xfail.group(1))] if xfail else []
        cases.append(pytest.param(path, id=path.stem, marks=marks))
    return cases


def _expectation(text: str) -> tuple[int, int, str]:
    match = _EXPECT.match(text.splitlines()[0])
    assert match, "a rejection file starts with `// expect: <line>:<col>: <message substring>`"
    return int(match.group(1)), int(match.group(2)), match.group(3).strip()


def test_the_suite_covers_the_listed_constructs():
    names = {p.stem for p in REJECTIONS.glob("*.rs")}
    for required in ("dyn_trait", "vec_heap", "box", "string", "println", "format_macro", "asm",
                     "recursion", "try_operator", "iterator_chain", "impl_trait_param", "char",
                     "mismatched_types", "unknown_name", "unknown_function", "unknown_type", "assign_immutable",
                     "disjoint_direct_index", "write_readonly_slice", "shared_without_unsafe",
                     "raw_pointer_deref_without_unsafe", "wrong_index_space", "get_mut_with_integer",
                     "kernel_returns_value", "std_use_in_kernel", "struct_pattern",
                     "break_outside_loop", "undeclared_label", "literal_out_of_range", "missing_struct_field",
                     "enum_with_fields", "async_fn", "syntax_error"):
        assert required in names, required
    assert len(names) >= 60


@pytest.mark.parametrize("path", _cases())
def test_rejection(path: Path):
    text = path.read_text()
    line, col, substring = _expectation(text)
    with pytest.raises(OxideError) as info:
        compile_rust(text, path.name, make_context())
    error = info.value
    diag = error.diagnostics[0]
    assert diag.severity == "error"
    assert diag.loc is not None, f"no location: {diag.message}"
    assert (diag.loc.file, diag.loc.line, diag.loc.col) == (path.name, line, col), diag.message
    assert substring in diag.message

    rendered = error.render({path.name: text})
    lines = rendered.splitlines()
    assert lines[0].startswith(f"{path.name}:{line}:{col}: error: ")
    source_line = text.splitlines()[line - 1]
    assert lines[2] == f"{line} | {source_line}"
    caret = lines[3]
    assert caret.endswith("^") and len(caret) - len(caret.split("|", 1)[0]) - 2 == col, caret
    assert "Traceback" not in rendered and "File \"" not in rendered
    assert "Error:" not in rendered.split(": error: ", 1)[1]  # no Python exception name leaked into the text
