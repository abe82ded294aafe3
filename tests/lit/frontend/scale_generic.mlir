// RUN: %oxide-opt %examples/rust/scale_generic.rs --instantiate scale=f32 --instantiate scale=i32 | FileCheck %s
// RUN: %oxide-opt %examples/rust/scale_generic.rs --instantiate scale=f64 --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: %oxide-opt %examples/rust/scale_generic.rs 2>&1 | FileCheck %s --check-prefix=NONE
// CHECK: gpu.func @scale_f32(%{{.*}}: !simt.slice<f32>, %{{.*}}: f32, %{{.*}}: !simt.disjoint<f32, "1d">)
// CHECK: arith.mulf
// CHECK: gpu.func @scale_i32(%{{.*}}: !simt.slice<i32>, %{{.*}}: i32, %{{.*}}: !simt.disjoint<i32, "1d">)
// CHECK: arith.muli
// PTX: .entry scale_f64(
// PTX: mul{{(.rn)?}}.f64
// A generic kernel that nobody instantiates is not compiled.
// NONE: gpu.module @kernels {
// NONE-NOT: gpu.func
