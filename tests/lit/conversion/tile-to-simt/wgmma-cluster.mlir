// A thread-block cluster in the persistent sm_90a GEMM (knob cluster, docs/tile-hopper.md "Clusters") on the
// kernel of wgmma-gemm.mlir: with 1x2 the two blocks of a cluster compute neighbouring tiles of one tile row, so
// they share A: each loads half of the A box (its map's box is 32 rows) by TMA multicast (an i16 mask), B as
// before. empty[s] expects 4 warps x 2 writers; the consumers release a stage on both blocks' empty barriers
// (mapa, remote arrive); cluster barriers after the initialisation and before the return.
// RUN: %oxide-opt %S/wgmma-gemm.mlir --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a cluster=1x2})' | FileCheck %s
// RUN: %oxide-opt %S/wgmma-gemm.mlir --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a cluster=1x2})' --emit=ptx --chip sm_90a | FileCheck %s --check-prefix=PTX
// With persistence off the kernel takes no cluster: its maps and barriers are the 1x1 kernel's.
// RUN: %oxide-opt %S/wgmma-gemm.mlir --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a cluster=1x2 persistent=off})' | FileCheck %s --check-prefix=FLAT

// CHECK-LABEL: gpu.func @gemm(
// CHECK-SAME: tile.tma = [{box = array<i64: 32, 64>, param = 1 : i64, swizzle = "128B"}, {box = array<i64: 64, 64>, param = 2 : i64, swizzle = "128B"}, {box = array<i64: 64, 32>, param = 0 : i64, swizzle = "128B"}]
// CHECK: %[[MASK:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK: "simt.mbarrier_init"(%{{.*}}, %c1_i32)
// CHECK: "simt.mbarrier_init"(%{{.*}}, %c8_i32)
// CHECK: "simt.fence_mbarrier_init"
// CHECK: "simt.cluster_arrive"() {aligned = false, relaxed = false}
// CHECK-NEXT: "simt.cluster_wait"() {aligned = false}
// CHECK: "simt.map_shared_rank"(%{{.*}}, %{{.*}}) : (!simt.ptr<i64, 3 : i64>, i32) -> !simt.ptr<i64, 7 : i64>
// CHECK: "simt.inline_ptx"(%{{.*}}) {asm = "cvta.to.shared.u64 $0, $1;"
// CHECK-NEXT: "simt.mbarrier_arrive_cluster"(%{{.*}}) {scope = "cta"}
// CHECK: "simt.map_shared_rank"
// CHECK: "simt.mbarrier_arrive_cluster"
// CHECK: "simt.tma_load"(%{{.*}}, %arg15, %{{.*}}, %{{.*}}, %{{.*}}, %[[MASK]])
// CHECK: "simt.tma_load"(%{{.*}}, %arg16, %{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>}
// CHECK: "simt.cluster_arrive"
// CHECK-NEXT: "simt.cluster_wait"
// CHECK-NEXT: gpu.return

// PTX-LABEL: .entry gemm(
// PTX: fence.mbarrier_init.release.cluster;
// PTX: barrier.cluster.arrive;
// PTX: barrier.cluster.wait;
// PTX-DAG: mapa.shared::cluster.u64
// PTX-DAG: mbarrier.arrive.shared::cluster.b64 _,
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{{.*}}], [{{.*}}], [{{.*}}], %rs{{[0-9]+}};
// PTX: barrier.cluster.wait;
// PTX-LABEL: .entry gemm$kmajor_b(

// FLAT-LABEL: gpu.func @gemm(
// FLAT-SAME: tile.tma = [{box = array<i64: 64, 64>, param = 1 : i64, swizzle = "128B"}
// FLAT-NOT: cluster
// FLAT: gpu.return
