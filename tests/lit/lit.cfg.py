"""lit configuration for oxide's FileCheck tests (run: lit tests/lit)."""

import os
import shutil
import sys
from pathlib import Path

import lit.formats

config.name = "oxide"  # noqa: F821 (lit injects `config`)
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(__file__), "Output")

repo = Path(__file__).resolve().parents[2]
bindir = Path(sys.executable).parent


def tool(script: str, module: str) -> str:
    """The installed console script, or the module run with this Python when oxide is not installed."""
    installed = bindir / script
    return str(installed) if installed.exists() else f'"{sys.executable}" -m {module}'


config.substitutions.append(("%oxide-opt", tool("oxide-opt", "oxide.tools.oxide_opt")))
config.substitutions.append(("%oxide", tool("oxide", "oxide.tools.oxide_cli")))
config.substitutions.append(("%python", f'"{sys.executable}"'))
config.substitutions.append(("%examples", str(repo / "examples")))

filecheck = shutil.which("filecheck", path=f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}")
if filecheck is None:
    lit_config.fatal("the `filecheck` package is not installed: pip install -e '.[test]'")  # noqa: F821
config.substitutions.append(("FileCheck", filecheck))

config.environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(repo), os.environ.get("PYTHONPATH")]))
for var in ("PATH", "HOME", "CUDA_HOME", "CUDA_PATH"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# Optional tools: tests that need them say `REQUIRES: ptxas` / `REQUIRES: mlir-opt`.
if shutil.which("ptxas"):
    config.available_features.add("ptxas")
try:
    from oxide.ir.compat import probe

    mlir_opt = probe().mlir_tool("mlir-opt")
except Exception:
    mlir_opt = None
if mlir_opt is not None:
    config.available_features.add("mlir-opt")
    config.substitutions.append(("%mlir-opt", str(mlir_opt)))
