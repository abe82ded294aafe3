"""`oxide pipeline --chip`: every stage is lowered for the chip asked for (the gpu/nvvm stage once lowered for
the default chip whatever --chip said)."""

from __future__ import annotations

from pathlib import Path

import pytest

from oxide.diagnostics import OxideError
from oxide.tools.oxide_cli import cli
from oxide.tools.stages import stages

# cluster::block_rank() reads a register that exists from sm_90 on: the NVVM lowering refuses it for sm_80.
_CLUSTER_KERNEL = ("use cuda_device::*;\n#[kernel]\npub fn k(mut out: DisjointSlice<u32>) {\n"
                   "    let r = cluster::block_rank();\n"
                   "    if let Some(o) = out.get_mut(thread::index_1d()) { *o = r; }\n}\n")


def test_the_nvvm_stage_lowers_for_the_chip(tmp_path: Path):
    path = tmp_path / "k.rs"
    path.write_text(_CLUSTER_KERNEL)
    nvvm = "gpu/nvvm IR (after convert-simt-to-nvvm)"
    assert "nvvm.read.ptx.sreg.cluster.ctarank" in dict(stages(path, "sm_90", {}))[nvvm]()
    with pytest.raises(OxideError, match="needs sm_90 or newer, but the target is sm_80"):
        dict(stages(path, "sm_80", {}))[nvvm]()


def test_pipeline_chip_reaches_every_stage(runner):
    Path("k.rs").write_text(_CLUSTER_KERNEL)
    good = runner.invoke(cli, ["pipeline", "k.rs", "--chip", "sm_90"])
    assert good.exit_code == 0, good.output
    assert "nvvm.read.ptx.sreg.cluster.ctarank" in good.output and ".target sm_90" in good.output
    bad = runner.invoke(cli, ["pipeline", "k.rs", "--chip", "sm_80"])
    assert bad.exit_code == 1
    assert "error: a thread-block cluster register needs sm_90 or newer, but the target is sm_80" in bad.output
    assert "internal error" not in bad.output
