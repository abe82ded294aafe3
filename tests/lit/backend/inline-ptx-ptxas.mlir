// Inline PTX that passes oxide's checks but that ptxas refuses is reported at the op.
// REQUIRES: ptxas
// RUN: not %oxide-opt %s --emit=ptx 2>&1 | FileCheck %s
// CHECK: inline-ptx-ptxas.mlir:10:10: error: ptxas refuses this inline PTX: Parsing error near '%': syntax error (in `%s %d %`)
// CHECK-NOT: internal error

gpu.module @k {
  gpu.func @mixed(%x: f32) kernel {
    // A mutant the fuzzer found: every `$i` is an operand, the text is ASCII, the PTX is not PTX.
    %f = "simt.inline_ptx"(%x) {asm = "%s %d %", constraints = "=f,f", operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0>} : (f32) -> f32
    gpu.return
  }
}
