// The Ampere mbarrier subset lowers for sm_80 (the blocking token wait spins on test_wait there); older
// chips have no mbarrier, and each op is a located error.
// RUN: %oxide-opt %s --emit=ptx --chip=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: not %oxide-opt %s --emit=ptx --chip=sm_75 2>&1 | FileCheck %s --check-prefix=SM75
module attributes {gpu.container_module} {
  gpu.module @k {
    // SM80-LABEL: .entry ampere
    gpu.func @ampere(%n: i32, %par: i32, %out: !simt.ptr<i64, 1>) kernel {
      %s = "simt.shared_array"() {align = 8 : i64} : () -> !simt.shared<i64, 1>
      %bar = "simt.shared_ptr"(%s) : (!simt.shared<i64, 1>) -> !simt.ptr<i64, 3>
      // SM80: mbarrier.init.shared.b64
      // SM75: mbarrier-ampere.mlir:[[# @LINE + 1]]:7: error: mbarrier.init needs sm_80 or newer, but the target is sm_75
      "simt.mbarrier_init"(%bar, %n) : (!simt.ptr<i64, 3>, i32) -> ()
      // SM80: mbarrier.arrive.shared.b64
      %t = "simt.mbarrier_arrive"(%bar) : (!simt.ptr<i64, 3>) -> i64
      // SM80: mbarrier.arrive.noComplete.shared.b64
      %t2 = "simt.mbarrier_arrive_no_complete"(%bar, %n) : (!simt.ptr<i64, 3>, i32) -> i64
      // SM80: mbarrier.test_wait.shared.b64
      // SM80: bra
      "simt.mbarrier_wait"(%bar, %t) : (!simt.ptr<i64, 3>, i64) -> ()
      // SM80: mbarrier.inval.shared.b64
      "simt.mbarrier_inval"(%bar) : (!simt.ptr<i64, 3>) -> ()
      "simt.ptr_store"(%out, %t2) : (!simt.ptr<i64, 1>, i64) -> ()
      gpu.return
    }
  }
}
