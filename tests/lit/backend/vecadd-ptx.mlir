// The hand-written gpu-dialect vecadd kernel (examples/vecadd.mlir) lowered to PTX.
// RUN: %oxide-opt %S/Inputs/vecadd.mlir --emit=ptx | FileCheck %s
// RUN: %oxide-opt %S/Inputs/vecadd.mlir --emit=ptx --chip=sm_80 | FileCheck %s --check-prefix=SM80

// CHECK: .version 8.0
// CHECK: .target sm_90
// CHECK: .address_size 64
// CHECK: .visible .entry vecadd(
// CHECK-NEXT: .param .u64 .ptr .global .align 1 vecadd_param_0,
// CHECK-NEXT: .param .u64 .ptr .global .align 1 vecadd_param_1,
// CHECK-NEXT: .param .u64 .ptr .global .align 1 vecadd_param_2,
// CHECK-NEXT: .param .u64 vecadd_param_3
// CHECK-NEXT: )
// CHECK: mov.u32 {{.*}}%tid.x
// CHECK: ld.global
// CHECK: add.rn.f32
// CHECK: st.global
// CHECK: ret;

// SM80: .version 7.0
// SM80: .target sm_80
