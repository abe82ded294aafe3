// TMA ops lower to the NVVM dialect's bulk-copy ops; a tensor-map kernel parameter becomes a by-value,
// 64-byte-aligned, grid-constant 128-byte parameter whose generic address (cvta.param) the copies take.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-simt-to-nvvm{chip=sm_90a})' | FileCheck %s --check-prefix=NVVM
// RUN: %oxide-opt %s --emit=llvm --chip sm_90a | FileCheck %s --check-prefix=LLVM
// RUN: %oxide-opt %s --emit=ptx --chip sm_90a | FileCheck %s --check-prefix=PTX

module attributes {gpu.container_module} {
  gpu.module @k {
    // NVVM-LABEL: gpu.func @copy
    // NVVM-SAME: oxide.grid_constant_params = array<i32: 0>
    // LLVM: define ptx_kernel void @copy(ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %0, i32 %1
    // PTX-LABEL: .entry copy(
    // PTX: .param .align 64 .b8 copy_param_0[128]
    // PTX: cvta.param.u64
    gpu.func @copy(%map: !simt.tensor_map, %x: i32, %y: i32, %dst: !simt.ptr<i8, 3>, %bar: !simt.ptr<i64, 3>, %mask: i16) kernel {
      // NVVM: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
      // PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd{{[0-9]+}}];
      "simt.tma_load"(%dst, %map, %x, %y, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (!simt.ptr<i8, 3>, !simt.tensor_map, i32, i32, !simt.ptr<i64, 3>) -> ()
      // NVVM: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} multicast_mask = %{{.*}}
      // PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
      "simt.tma_load"(%dst, %map, %x, %y, %bar, %mask) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>} : (!simt.ptr<i8, 3>, !simt.tensor_map, i32, i32, !simt.ptr<i64, 3>, i16) -> ()
      // PTX: cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
      "simt.tma_load"(%dst, %map, %x, %bar) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (!simt.ptr<i8, 3>, !simt.tensor_map, i32, !simt.ptr<i64, 3>) -> ()
      // PTX: cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
      "simt.tma_load"(%dst, %map, %x, %y, %x, %y, %x, %bar) {operandSegmentSizes = array<i32: 1, 1, 5, 1, 0>} : (!simt.ptr<i8, 3>, !simt.tensor_map, i32, i32, i32, i32, i32, !simt.ptr<i64, 3>) -> ()
      // NVVM: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}] : !llvm.ptr
      // PTX: cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd{{[0-9]+}}];
      "simt.tma_store"(%map, %dst, %x, %y, %x) : (!simt.tensor_map, !simt.ptr<i8, 3>, i32, i32, i32) -> ()
      // NVVM: nvvm.cp.async.bulk.commit.group
      // PTX: cp.async.bulk.commit_group;
      "simt.bulk_commit_group"() : () -> ()
      // NVVM: nvvm.cp.async.bulk.wait_group 1 {read}
      // PTX: cp.async.bulk.wait_group.read 1;
      "simt.bulk_wait_group"() {pending = 1 : i64, until = "read"} : () -> ()
      // NVVM: nvvm.cp.async.bulk.wait_group 0
      // PTX: cp.async.bulk.wait_group 0;
      "simt.bulk_wait_group"() {pending = 0 : i64, until = "complete"} : () -> ()
      // NVVM: nvvm.prefetch tensormap, %{{.*}} : !llvm.ptr
      // PTX: prefetch{{(.param)?}}.tensormap
      "simt.tma_prefetch"(%map) : (!simt.tensor_map) -> ()
      gpu.return
    }

    // A kernel without tensor maps keeps its parameters as they were.
    // LLVM: define ptx_kernel void @plain(i32 %0)
    gpu.func @plain(%x: i32) kernel {
      "simt.bulk_commit_group"() : () -> ()
      gpu.return
    }
  }
}
