// cuda_device::vector: `as_vectors::<F32x4>` / `as_vectors_mut` view f32 slices as 16-byte-aligned F32x4
// slices (None when the start is misaligned), and whole-F32x4 copies through the views are 128-bit
// accesses in the global window (the cuda-oxide vectorization example's view kernel). The input's view is
// only read, so the input stays noalias + readonly and its loads are ld.global.nc.
// RUN: %oxide-opt %S/Inputs/vector_views.rs | FileCheck %s
// RUN: %oxide-opt %S/Inputs/vector_views.rs --emit=ptx > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
// CHECK-LABEL: gpu.func @f32x4_view_copy(
// CHECK: "simt.ptr_to_int"
// CHECK: "simt.slice_from_ptr"(%{{.*}}, %{{.*}}) : (!simt.ptr<!llvm.struct<(array<4 x f32>)>, 1 : i64>, index) -> !simt.slice<!llvm.struct<(array<4 x f32>)>>
// CHECK: "simt.slice_from_ptr"(%{{.*}}, %{{.*}}) : (!simt.ptr<!llvm.struct<(array<4 x f32>)>, 1 : i64>, index) -> !simt.slice_mut<!llvm.struct<(array<4 x f32>)>>
// PTX-LABEL: .entry f32x4_view_copy(
// PTX: ld.global.nc.v4.{{[bf]}}32
// PTX: st.global.v4.{{[bf]}}32
// PTX-LABEL: .entry lanes(
// PTX: ld.global.nc.v4.{{[bf]}}32
