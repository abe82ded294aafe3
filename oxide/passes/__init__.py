"""oxide.passes: the OxidePass base, the pass registry, the pipeline parser, transforms and conversions."""

from oxide.passes.base import OxidePass, PassError
from oxide.passes.pipeline import PipelineError, build_pass_manager, parse_pipeline
from oxide.passes.registry import register_pass, registered_passes

__all__ = ["OxidePass", "PassError", "PipelineError", "build_pass_manager", "parse_pipeline", "register_pass",
           "registered_passes"]
