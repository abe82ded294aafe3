"""The simt -> NVVM rule set; each family's module registers its rules into it."""

from oxide.passes.conversion.lowering import RuleSet
from oxide.passes.conversion.simt_to_nvvm.types import convert_type

SIMT_TO_NVVM = RuleSet("simt", convert_type)
lowering = SIMT_TO_NVVM.lowering
