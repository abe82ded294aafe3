// RUN: %oxide-opt %examples/rust/scale_generic.rs --instantiate scale=f32 --instantiate scale=i32 | FileCheck %s
// RUN: %oxide-opt %examples/rust/scale_generic.rs --instantiate scale=f64 --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: not %oxide-opt %examples/rust/scale_generic.rs --emit=ptx 2>&1 | FileCheck %s --check-prefix=NONE
// CHECK: gpu.func @scale_f32(%{{.*}}: !simt.slice<f32>, %{{.*}}: f32, %{{.*}}: !simt.disjoint<f32, "1d">)
// CHECK: arith.mulf
// CHECK: gpu.func @scale_i32(%{{.*}}: !simt.slice<i32>, %{{.*}}: i32, %{{.*}}: !simt.disjoint<i32, "1d">)
// CHECK: arith.muli
// PTX: .entry scale_f64(
// PTX: mul{{(.rn)?}}.f64
// A file whose kernels are all generic, none instantiated, is an error (not an empty PTX) that says how.
// NONE: error: nothing to compile in {{.*}}scale_generic.rs: its kernels (scale) are all generic and none was instantiated
// NONE-SAME: `--instantiate scale=f32`
// NONE-NOT: .entry
