// mbarrier ops and async-proxy fences lower to the NVVM dialect's mbarrier and fence ops; the blocking waits
// are a loop around try_wait (sm_90) or test_wait (sm_80).
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-simt-to-nvvm{chip=sm_90a})' | FileCheck %s --check-prefix=NVVM
// RUN: %oxide-opt %s --emit=ptx --chip=sm_90a | FileCheck %s --check-prefix=PTX

module attributes {gpu.container_module} {
  gpu.module @k {
    // PTX-LABEL: .entry barrier_ops
    gpu.func @barrier_ops(%n: i32, %tx: i32, %par: i32, %remote: i64, %out: !simt.ptr<i64, 1>, %flags: !simt.ptr<i1, 1>) kernel {
      %s = "simt.shared_array"() {align = 8 : i64} : () -> !simt.shared<i64, 1>
      %bar = "simt.shared_ptr"(%s) : (!simt.shared<i64, 1>) -> !simt.ptr<i64, 3>
      // NVVM: nvvm.mbarrier.init %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
      // PTX: mbarrier.init.shared.b64
      "simt.mbarrier_init"(%bar, %n) : (!simt.ptr<i64, 3>, i32) -> ()
      // NVVM: nvvm.fence.mbarrier.init
      // PTX: fence.mbarrier_init.release.cluster;
      "simt.fence_mbarrier_init"() : () -> ()
      // NVVM: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      // PTX: fence.proxy.async.shared::cta;
      "simt.fence_proxy_async"() {space = "shared_cta"} : () -> ()
      // NVVM: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cluster>}
      // PTX: fence.proxy.async.shared::cluster;
      "simt.fence_proxy_async"() {space = "shared_cluster"} : () -> ()
      // NVVM: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.global>}
      // PTX: fence.proxy.async.global;
      "simt.fence_proxy_async"() {space = "global"} : () -> ()
      // NVVM: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async>}
      // PTX: fence.proxy.async;
      "simt.fence_proxy_async"() {space = "all"} : () -> ()
      // NVVM: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3> -> i64
      // PTX: mbarrier.arrive.shared.b64 {{.*}}, [{{.*}}];
      %t0 = "simt.mbarrier_arrive"(%bar) : (!simt.ptr<i64, 3>) -> i64
      // NVVM: nvvm.mbarrier.arrive %{{.*}}, %{{.*}} : !llvm.ptr<3> -> i64
      // PTX: mbarrier.arrive.shared.b64 {{.*}}, [{{.*}}], %r{{[0-9]+}};
      %t1 = "simt.mbarrier_arrive"(%bar, %n) : (!simt.ptr<i64, 3>, i32) -> i64
      // NVVM: nvvm.mbarrier.arrive.nocomplete
      // PTX: mbarrier.arrive.noComplete.shared.b64
      %t2 = "simt.mbarrier_arrive_no_complete"(%bar, %n) : (!simt.ptr<i64, 3>, i32) -> i64
      // NVVM: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32 -> i64
      // PTX: mbarrier.arrive.expect_tx.shared.b64
      %t3 = "simt.mbarrier_arrive_expect_tx"(%bar, %tx) : (!simt.ptr<i64, 3>, i32) -> i64
      // NVVM: nvvm.mbarrier.expect_tx %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
      // NVVM-NEXT: nvvm.mbarrier.arrive %{{.*}}, %{{.*}} : !llvm.ptr<3> -> i64
      // PTX: mbarrier.expect_tx.relaxed.cta.shared.b64
      // PTX: mbarrier.arrive.shared.b64
      %t4 = "simt.mbarrier_arrive_expect_tx"(%bar, %tx, %n) : (!simt.ptr<i64, 3>, i32, i32) -> i64
      // NVVM: nvvm.mbarrier.expect_tx
      // PTX: mbarrier.expect_tx.relaxed.cta.shared.b64
      "simt.mbarrier_expect_tx"(%bar, %tx) : (!simt.ptr<i64, 3>, i32) -> ()
      // NVVM: nvvm.mbarrier.test.wait %{{.*}}, %{{.*}} : !llvm.ptr<3>, i64 -> i1
      // PTX: mbarrier.test_wait.shared.b64
      %d0 = "simt.mbarrier_test_wait"(%bar, %t0) : (!simt.ptr<i64, 3>, i64) -> i1
      // NVVM: nvvm.mbarrier.try_wait %{{.*}}, %{{.*}} : !llvm.ptr<3>, i64 -> i1
      // PTX: mbarrier.try_wait.shared.b64
      %d1 = "simt.mbarrier_try_wait"(%bar, %t1) : (!simt.ptr<i64, 3>, i64) -> i1
      // NVVM: nvvm.mbarrier.try_wait %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32 -> i1
      // PTX: mbarrier.try_wait.parity.shared.b64
      %d2 = "simt.mbarrier_try_wait_parity"(%bar, %par) : (!simt.ptr<i64, 3>, i32) -> i1
      // NVVM: scf.while
      // NVVM: nvvm.mbarrier.try_wait %{{.*}}, %{{.*}} : !llvm.ptr<3>, i64 -> i1
      // NVVM: scf.condition
      // PTX: mbarrier.try_wait.shared.b64
      // PTX: bra
      "simt.mbarrier_wait"(%bar, %t3) : (!simt.ptr<i64, 3>, i64) -> ()
      // NVVM: scf.while
      // NVVM: nvvm.mbarrier.try_wait %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32 -> i1
      // PTX: mbarrier.try_wait.parity.shared.b64
      "simt.mbarrier_wait_parity"(%bar, %par) : (!simt.ptr<i64, 3>, i32) -> ()
      // NVVM: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<7>
      // NVVM: nvvm.mbarrier.arrive %{{.*}} {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
      // PTX: mbarrier.arrive.release.cluster.shared::cluster.b64 _,
      "simt.mbarrier_arrive_cluster"(%remote) {scope = "cluster"} : (i64) -> ()
      // NVVM: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<7>
      // PTX: mbarrier.arrive.shared::cluster.b64 _,
      "simt.mbarrier_arrive_cluster"(%remote) {scope = "cta"} : (i64) -> ()
      // NVVM: nvvm.mbarrier.inval %{{.*}} : !llvm.ptr<3>
      // PTX: mbarrier.inval.shared.b64
      "simt.mbarrier_inval"(%bar) : (!simt.ptr<i64, 3>) -> ()
      "simt.ptr_store"(%out, %t2) : (!simt.ptr<i64, 1>, i64) -> ()
      "simt.ptr_store"(%out, %t4) : (!simt.ptr<i64, 1>, i64) -> ()
      "simt.ptr_store"(%flags, %d0) : (!simt.ptr<i1, 1>, i1) -> ()
      "simt.ptr_store"(%flags, %d1) : (!simt.ptr<i1, 1>, i1) -> ()
      "simt.ptr_store"(%flags, %d2) : (!simt.ptr<i1, 1>, i1) -> ()
      gpu.return
    }
  }
}
