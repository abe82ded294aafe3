// RUN: %oxide-opt %examples/rust/vecadd.rs | FileCheck %s
// RUN: %oxide-opt %examples/rust/vecadd.rs --emit=ptx | FileCheck %s --check-prefix=PTX
// CHECK: gpu.func @vecadd(%{{.*}}: !simt.slice<f32>, %{{.*}}: !simt.slice<f32>, %{{.*}}: !simt.disjoint<f32, "1d">) kernel
// CHECK: "simt.index_1d"
// CHECK: "simt.get_mut"
// CHECK: scf.if
// CHECK-COUNT-2: "simt.load"
// CHECK: arith.addf
// CHECK: "simt.ref_store"
// PTX: .visible .entry vecadd(
// PTX-COUNT-2: ld.global.nc.b32
// PTX: add{{(.rn)?}}.f32
// PTX: st.global.b32
