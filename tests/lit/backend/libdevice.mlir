// math functions are linked from libdevice: the PTX defines no external __nv_* function and calls none.
// RUN: %oxide-opt %S/Inputs/exp.mlir --emit=ptx | FileCheck %s
// RUN: %oxide-opt %S/Inputs/exp.mlir --emit=llvm | FileCheck %s --check-prefix=LLVM

// CHECK: .visible .entry exp_sin(
// CHECK-NOT: __nv_
// CHECK: ex2.approx
// CHECK-NOT: __nv_

// LLVM: target triple = "nvptx64-nvidia-cuda"
// LLVM: define ptx_kernel void @exp_sin(
// LLVM-NOT: declare {{.*}} @__nv_expf
