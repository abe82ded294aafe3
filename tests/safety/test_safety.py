"""The safety corpus (issue 7): kernels that must be rejected, kernels near the same edges that must compile
cleanly, and kernels that compile with a warning. Each goes through the whole pipeline to PTX, so that both
the frontend's checks (oxide/frontends/simt/safety.py, contract.py) and the IR pass oxide-verify-aliasing
take part.

- reject/*.rs ends with `// expect: <line>:<col>: <message>`: the first error, exactly.
- warn/*.rs ends with `// expect-warning: <line>:<col>: <message>`: compiles, with exactly that warning.
- accept/*.rs and every example in examples/rust: compiles with no error and no warning.
"""

from __future__ import annotations

import contextlib
import re
import warnings as warnings_module
from pathlib import Path

import pytest

import oxide
from oxide.diagnostics import OxideError

HERE = Path(__file__).parent
_EXPECT = re.compile(r"^// (expect|expect-warning): (\d+):(\d+): (.+)$", re.M)


EXAMPLES = HERE.parents[1] / "examples" / "rust"


def _files(kind: str) -> list:
    paths = sorted((HERE / kind).glob("*.rs"))
    if kind == "accept":
        paths += sorted(EXAMPLES.glob("*.rs"))  # every example must compile without an error or a warning
    return [pytest.param(p, id=p.stem) for p in paths]


def _expectation(text: str, tag: str) -> tuple[int, int, str]:
    found = [m for m in _EXPECT.finditer(text) if m.group(1) == tag]
    assert len(found) == 1, f"one `// {tag}: L:C: message` line expected"
    match = found[0]
    return int(match.group(2)), int(match.group(3)), match.group(4)


# Generic examples are compiled for one instance each.
INSTANCES = {"sgemm_tiled.rs": {"sgemm_tiled": [["64"]]}, "sgemm_naive.rs": {"sgemm_naive": [["64"]]},
             "scale_generic.rs": {"scale": [["f32"]]}}


# Examples that use sm_90a-only instructions (wgmma, setmaxnreg) are compiled for that chip.
CHIPS = {"hopper_gemm.rs": "sm_90a"}


def _compile(path: Path) -> list:
    """The warnings of a successful compile; raises OxideError on rejection."""
    chip = {"chip": CHIPS[path.name]} if path.name in CHIPS else {}
    with pytest.warns() if "expect-warning" in path.read_text() else _no_python_warning():
        return oxide.compile(path.read_text(), path.name, instances=INSTANCES.get(path.name), **chip).warnings


@contextlib.contextmanager
def _no_python_warning():
    with warnings_module.catch_warnings():
        warnings_module.simplefilter("error", oxide.OxideWarning)
        yield


def test_corpus_sizes():
    assert len(_files("reject")) >= 40
    assert len(list((HERE / "accept").glob("*.rs"))) >= 20


@pytest.mark.parametrize("path", _files("reject"))
def test_reject(path: Path):
    line, col, message = _expectation(path.read_text(), "expect")
    with pytest.raises(OxideError) as info:
        _compile(path)
    first = info.value.diagnostics[0]
    assert first.severity == "error"
    assert (first.loc.line, first.loc.col, first.message) == (line, col, message)
    assert first.loc.file == path.name


@pytest.mark.parametrize("path", _files("warn"))
def test_warn(path: Path):
    line, col, message = _expectation(path.read_text(), "expect-warning")
    warnings = _compile(path)
    assert [(w.loc.line, w.loc.col, w.message) for w in warnings] == [(line, col, message)]


@pytest.mark.parametrize("path", _files("accept"))
def test_accept(path: Path):
    assert _compile(path) == []
