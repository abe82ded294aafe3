// Scoped atomics with orderings are PTX's memory model, sm_70 and newer: an older target is a located
// error at each atomic op, not PTX that ptxas rejects.
// RUN: not %oxide-opt %s --emit=ptx --chip=sm_60 2>&1 | FileCheck %s --check-prefix=SM60
// RUN: %oxide-opt %s --emit=ptx --chip=sm_70 | FileCheck %s --check-prefix=SM70

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @count(%p: !simt.ptr<i32, 1>, %v: i32) kernel {
      // SM60: atomics-chip.mlir:[[# @LINE + 2]]:12: error: a scoped atomic with a memory ordering needs sm_70 or newer, but the target is sm_60; compile for sm_70+
      // SM70: atom.relaxed.gpu.global.add.u32
      %0 = "simt.atomic_rmw"(%p, %v) {kind = "add", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
      // SM60: atomics-chip.mlir:[[# @LINE + 2]]:12: error: a scoped atomic with a memory ordering needs sm_70
      // SM70: ld.acquire.sys.global.b32
      %1 = "simt.atomic_load"(%p) {scope = "system", ordering = "acquire"} : (!simt.ptr<i32, 1>) -> i32
      // SM60: atomics-chip.mlir:[[# @LINE + 2]]:7: error: a scoped atomic with a memory ordering needs sm_70
      // SM70: st.release.cta.global.b32
      "simt.atomic_store"(%p, %1) {scope = "block", ordering = "release"} : (!simt.ptr<i32, 1>, i32) -> ()
      // SM60: atomics-chip.mlir:[[# @LINE + 2]]:19: error: a scoped atomic with a memory ordering needs sm_70
      // SM70: atom.relaxed.gpu.global.cas.b32
      %old, %ok = "simt.atomic_cmpxchg"(%p, %v, %v) {scope = "device", success_ordering = "relaxed", failure_ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32, i32) -> (i32, i1)
      gpu.return
    }
  }
}
