"""The register budget of kernels without tensor-core products (register_budget.py): large row tiles get more
warps, the artifact records the block the PTX requires, and the widened kernels stay correct."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import oxide
import oxide.tile
from oxide.runtime.module import load

ROOT = Path(__file__).resolve().parents[5]
FIXTURES = ROOT / "tests" / "fixtures"


@pytest.mark.parametrize("stem", ["softmax", "layernorm", "rmsnorm"])
def test_large_row_tiles_get_more_warps(stem):
    kernels = {k["entry"]: k["tile"]["warps"] for k in
               json.loads((FIXTURES / "tile" / f"{stem}.oxide.json").read_text())["kernels"]}
    # 4 x 1024 f32 tiles are 32 values per thread at 4 warps (the hint); 4 x 4096 would be 128, and 32 at 16
    # warps; one row of 4096 is a row vector, held at 16 values per thread.
    assert kernels == {f"{stem}_4_1024": 4, f"{stem}_1_4096": 8, f"{stem}_4_4096": 16}


@pytest.mark.parametrize("folder", ["tile", "tile_sm90a"])
def test_every_tile_artifact_records_the_block_its_ptx_requires(folder):
    for path in sorted((FIXTURES / folder).glob("*.oxide.json")):
        ptx = next(path.parent.glob(path.name.replace(".oxide.json", ".*.ptx"))).read_text()
        required = dict(re.findall(r"\.entry (\S+)\(.*?\.reqntid (\d+), 1, 1", ptx, re.S))
        for kernel in json.loads(path.read_text())["kernels"]:
            tile = kernel["tile"]
            assert int(required[kernel["entry"]]) == tile.get("threads", 32 * tile["warps"]), (path.name, kernel)


def test_the_widened_softmax_matches_numpy_on_the_emulator():
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((5, 3001)) * 4).astype(np.float32)
    y = np.zeros_like(x)
    load(FIXTURES / "tile" / "softmax.oxide.json", target="cpu").softmax(oxide.tile.partition(y, (4, 4096)), x)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(y, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)


def test_four_row_tiles_reduce_inside_warps_unless_a_row_vector_is_loaded():
    """At 4 x 1024 softmax gives every warp a row (layouts.blocked's warps_outer): its row reductions are lane
    shuffles, with no shared memory and no block barrier. LayerNorm and RMSNorm load row vectors (w, b), which
    every warp would load whole, so their warps split the rows and reduce through shared memory. One row of
    4096 spreads over the warps and reduces across them; 4 x 4096 at 16 warps has fewer rows than warps and
    keeps the common layout."""
    for stem in ("softmax", "layernorm", "rmsnorm"):
        ptx = (FIXTURES / "tile" / f"{stem}.sm_90.ptx").read_text()
        bodies = dict(re.findall(r"\.entry (\S+)\((.*?)\n}\n", ptx, re.S))
        split = "bar.sync" in bodies[f"{stem}_4_1024"] and "st.shared" in bodies[f"{stem}_4_1024"]
        assert split == (stem != "softmax"), stem
        assert "bar.sync" in bodies[f"{stem}_1_4096"] and "bar.sync" in bodies[f"{stem}_4_4096"]


@pytest.mark.parametrize("stem, auto_split", [("softmax", False), ("layernorm", True)])
def test_knob_warp_rows(stem, auto_split):
    """"off" splits the rows of any kernel; "on" gives warps whole rows even where a row vector is loaded
    (LayerNorm: the layout of the previous rule)."""
    source = (ROOT / "examples" / "tile" / f"{stem}.rs").read_text()
    for knobs, split in (({}, auto_split), ({"warp_rows": "off"}, True), ({"warp_rows": "on"}, False)):
        ptx = oxide.compile(source, f"{stem}.rs", "sm_90", {stem: [["4", "1024"]]}, knobs=knobs).ptx["sm_90"]
        assert ("bar.sync" in ptx) == split, knobs


@pytest.mark.parametrize("stem", ["softmax", "layernorm", "rmsnorm"])
def test_row_kernels_at_four_rows_per_block_match_numpy_on_the_emulator(stem):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal((7, 1000)) * 3).astype(np.float32)
    w, b = rng.standard_normal(1000).astype(np.float32), rng.standard_normal(1000).astype(np.float32)
    y = np.zeros_like(x)
    mod = load(FIXTURES / "tile" / f"{stem}.oxide.json", target="cpu")
    part = oxide.tile.partition(y, (4, 1024))
    if stem == "softmax":
        mod.softmax(part, x)
        e = np.exp(x - x.max(axis=1, keepdims=True))
        expected = e / e.sum(axis=1, keepdims=True)
    elif stem == "layernorm":
        mod.layernorm(part, x, w, b, 1e-5)
        d = x - x.mean(axis=1, keepdims=True)
        expected = d / np.sqrt((d * d).mean(axis=1, keepdims=True) + 1e-5) * w + b
    else:
        mod.rmsnorm(part, x, w, 1e-5)
        expected = x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-5) * w
    np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-5)


def _ptxas_facts(stem: str, tmp_path: Path) -> dict[str, str]:
    """{entry: "N bytes spill stores ... Used R registers"} from `ptxas -v` on the fixture of tile example `stem`."""
    result = subprocess.run(["ptxas", "-arch=sm_90", "-v", str(FIXTURES / "tile" / f"{stem}.sm_90.ptx"),
                             "-o", str(tmp_path / "out.cubin")], capture_output=True, text=True, check=True)
    facts = dict(re.findall(r"Compiling entry function '(\S+)'.*?(\d+ bytes spill stores.*?Used \d+ registers)",
                            result.stdout + result.stderr, re.S))
    return facts


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
@pytest.mark.parametrize("stem", ["softmax", "layernorm", "rmsnorm"])
def test_four_row_tiles_at_sixteen_warps_fit_two_blocks_per_sm(stem, tmp_path):
    """4 x 4096 at 16 warps: the entry declares two blocks per SM (.minnctapersm 2), so ptxas holds each thread to
    64 registers (65536 per SM), and it does without spills. Undeclared, LayerNorm took 76 and ran one block per
    SM (0.83x Triton on the H200). The cross-warp reductions read one slot per lane (reduce._total_by_lanes)."""
    ptx = (FIXTURES / "tile" / f"{stem}.sm_90.ptx").read_text()
    assert re.search(rf"\.entry {stem}_4_4096\(.*?\.reqntid 512, 1, 1\n\.minnctapersm 2\n", ptx, re.S)
    fact = _ptxas_facts(stem, tmp_path)[f"{stem}_4_4096"]
    assert fact.startswith("0 bytes spill stores"), fact
    assert int(re.search(r"Used (\d+) registers", fact).group(1)) <= 64, fact


def test_min_blocks_are_declared_only_where_a_thread_fits_half_the_registers():
    """Two blocks per SM only for 512-thread blocks whose largest tile leaves room in 64 registers: an 8 x 4096
    tile at 16 warps (64 values a thread) would spill under the cap, and 8-warp blocks fit two per SM up to 128."""
    source = (ROOT / "examples" / "tile" / "softmax.rs").read_text()
    for shape, knobs, declared in ((["4", "4096"], {}, True), (["8", "4096"], {}, False),
                                   (["1", "4096"], {}, False), (["4", "1024"], {"warps": 16}, True),
                                   (["4", "4096"], {"warps": 8}, False)):
        ptx = oxide.compile(source, "softmax.rs", "sm_90", {"softmax": [shape]}, knobs=knobs).ptx["sm_90"]
        assert (".minnctapersm 2" in ptx) == declared, (shape, knobs)


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
@pytest.mark.parametrize("stem, registers", [("softmax", 64), ("layernorm", 72), ("rmsnorm", 64)])
def test_four_row_tiles_at_four_warps_fit_seven_or_eight_blocks_per_sm(stem, registers, tmp_path):
    """4 x 1024 at 4 warps: eight blocks of 128 threads per SM need at most 64 registers per thread, seven at
    most 72, without spills. w and b load and store one run at a time (run_sinking.py: RMSNorm 78 -> 56,
    LayerNorm 96 -> 80 with a warp per row) and LayerNorm's column mask is computed next to its selects
    (coordinate_sinking.py: 80 -> 64). With its rows split over the warps (register_budget._rows_fill_warps),
    LayerNorm takes 72 and RMSNorm 64."""
    fact = _ptxas_facts(stem, tmp_path)[f"{stem}_4_1024"]
    assert fact.startswith("0 bytes spill stores"), fact
    assert int(re.search(r"Used (\d+) registers", fact).group(1)) <= registers, fact
