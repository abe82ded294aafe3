// #[repr(C, align(16))] structs: rustc's layout (F3 is 16 bytes: explicit trailing padding in the LLVM
// struct), and whole-element reads and writes with their alignment stated (simt.align), which LLVM turns
// into 128-bit accesses: ld.global.nc.v4 for the read-only slices, st.global.v4 for the DisjointSlice.
// RUN: %oxide-opt %S/Inputs/repr_align.rs | FileCheck %s
// RUN: %oxide-opt %S/Inputs/repr_align.rs --emit=ptx > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
// CHECK: gpu.func @vecadd4(%{{.*}}: !simt.slice<!llvm.struct<(array<4 x f32>)>>, %{{.*}}: !simt.slice<!llvm.struct<(array<4 x f32>)>>, %{{.*}}: !simt.disjoint<!llvm.struct<(array<4 x f32>)>, "1d">) kernel
// CHECK: "simt.ptr_load"(%{{.*}}) {simt.align = 16 : i64}
// CHECK: "simt.ptr_load"(%{{.*}}) : (!simt.ptr<f32, 1 : i64>) -> f32
// CHECK: "simt.ptr_load"(%{{.*}}) {simt.align = 8 : i64}
// CHECK: "simt.ptr_store"(%{{.*}}, %{{.*}}) {simt.align = 16 : i64}
// CHECK: gpu.func @scale3(%{{.*}}: !simt.slice<!llvm.struct<(array<3 x f32>, array<4 x i8>)>>, %{{.*}}: f32, %{{.*}}: !simt.disjoint<!llvm.struct<(array<3 x f32>, array<4 x i8>)>, "1d">) kernel
// PTX-LABEL: .entry vecadd4(
// PTX-COUNT-2: ld.global.nc.v4.{{[bf]}}32
// PTX: st.global.v4.{{[bf]}}32
// PTX-LABEL: .entry scale3(
// PTX: ld.global.nc.v4.{{[bf]}}32
// PTX: st.global.v2.{{[bf]}}32
// PTX: st.global.{{[bf]}}32 [{{%rd[0-9]+}}+8]
// The shared array of F4 is 16-aligned, and its elements move as vectors too.
// PTX-LABEL: .entry reverse4(
// PTX: .shared .align 16 .b8 {{.*}}[4096];
// PTX: ld.global.nc.v4.{{[bf]}}32
// PTX: st.shared.v4.{{[bf]}}32
// PTX: ld.shared.v4.{{[bf]}}32
// PTX: st.global.v4.{{[bf]}}32
