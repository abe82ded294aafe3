// A `&[DeviceAtomicU32]` is a read-only slice whose elements are written through atomics: once an
// element escapes as a pointer (simt.elem_ptr / simt.slice_ptr), the parameter loses `readonly` and its
// reads stay coherent (ld.global, never ld.global.nc), so an atomic load cannot become a stale cached read.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-simt-to-nvvm)' | FileCheck %s --check-prefix=NVVM
// RUN: %oxide-opt %s --emit=ptx | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    // NVVM-LABEL: gpu.func @count(
    // NVVM-SAME: %{{.*}}: !llvm.ptr<1>, %{{.*}}: i64, %{{.*}}: !llvm.ptr<1> {llvm.noalias, llvm.readonly}
    // NVVM-NOT: invariant
    // NVVM: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> i32
    // NVVM: llvm.load %{{.*}} atomic syncscope("device") acquire
    // NVVM: llvm.load %{{.*}} invariant
    // CHECK-LABEL: .entry count(
    // CHECK-NOT: ld.global.nc.b32 {{.*}}[%rd4]
    // CHECK: ld.global.b32
    // CHECK: ld.acquire.gpu.global.b32
    // CHECK: atom.relaxed.gpu.global.add.u32
    // CHECK: ld.global.nc.b32
    gpu.func @count(%counters: !simt.slice<i32>, %weights: !simt.slice<i32>, %i: index) kernel {
      %v = "simt.load"(%counters, %i) : (!simt.slice<i32>, index) -> i32
      %p = "simt.elem_ptr"(%counters, %i) : (!simt.slice<i32>, index) -> !simt.ptr<i32, 1>
      %old = "simt.atomic_load"(%p) {scope = "device", ordering = "acquire"} : (!simt.ptr<i32, 1>) -> i32
      %o2 = "simt.atomic_rmw"(%p, %v) {kind = "add", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
      %w = "simt.load"(%weights, %i) : (!simt.slice<i32>, index) -> i32
      %o3 = "simt.atomic_rmw"(%p, %w) {kind = "add", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
      gpu.return
    }
  }
}

// An atomic-only slice (no writes NVPTX can see): still no LDG, no crash.
// RUN: %oxide-opt %S/Inputs/atomic-load-only.mlir --emit=ptx | FileCheck %s --check-prefix=LOADONLY
// LOADONLY: ld.relaxed.gpu.global.b64

