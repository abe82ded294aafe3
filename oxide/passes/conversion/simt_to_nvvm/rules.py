"""The simt -> NVVM conversion; each family's module registers its rules into it with `@lowering(OpClass)`."""

from oxide.dialects.simt.dialect import DIALECT
from oxide.ir.rules import RuleSet
from oxide.passes.conversion.lowering import Conversion
from oxide.passes.conversion.simt_to_nvvm.types import convert_type

SIMT_TO_NVVM = Conversion(DIALECT.name, convert_type,
                          RuleSet("convert-simt-to-nvvm", "'{op}' has no lowering to NVVM yet"))
lowering = SIMT_TO_NVVM.rules.lowering
