"""oxide.passes: the OxidePass base, the pass registry, the pipeline parser, transforms and conversions.

Importing this package registers its passes (transforms/ and conversion/); the backend's passes and named
pipelines register when oxide.backend is imported.
"""

from oxide.passes import transforms  # noqa: F401  (the passes register on import)
from oxide.passes.base import OxidePass, PassError
from oxide.passes.conversion import simt_to_nvvm, tile_to_simt  # noqa: F401  (the passes register on import)
from oxide.passes.pipeline import build_pass_manager, parse_pipeline
from oxide.passes.registry import register_pass, registered_passes

__all__ = ["OxidePass", "PassError", "build_pass_manager", "parse_pipeline", "register_pass", "registered_passes"]
