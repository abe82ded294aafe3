// Backend errors are reported, not raised.
// RUN: not %oxide-opt %s --emit=ptx 2>&1 | FileCheck %s --check-prefix=NOGPU
// NOGPU: emit-errors.mlir:{{[0-9]+}}:1: error: nothing to compile: the input has no gpu.module; put the kernels
// RUN: not %oxide-opt %S/Inputs/vecadd.mlir --emit=ptx --chip=sm_42 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: unknown GPU architecture 'sm_42'
// RUN: not %oxide build %s 2>&1 | FileCheck %s --check-prefix=NOGPU
// RUN: not %oxide build %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: cannot read {{.*}}does-not-exist.mlir

func.func @host_only() {
  return
}
