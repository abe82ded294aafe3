// simt indexing lowers to special-register reads; witnesses carry validity, proven or checked.
// RUN: %oxide-opt %s --emit=ptx | FileCheck %s
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-simt-to-nvvm)' | FileCheck %s --check-prefix=NVVM

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: .entry registers(
    // CHECK-DAG: %tid.y
    // CHECK-DAG: %ctaid.z
    // CHECK-DAG: %ntid.x
    // CHECK-DAG: %nctaid.y
    // CHECK-DAG: %laneid
    // CHECK-DAG: %warpid
    // CHECK-DAG: %lanemask_lt
    // CHECK-DAG: %smid
    // CHECK-DAG: %clock64
    // CHECK-DAG: %globaltimer
    // CHECK-DAG: %dynamic_smem_size
    // NVVM-LABEL: gpu.func @registers
    // NVVM: nvvm.read.ptx.sreg.tid.y : i32
    gpu.func @registers(%out: !simt.slice_mut<i64>) kernel {
      %c0 = arith.constant 0 : index
      %t = "simt.thread_id"() {dim = #simt.dim<"y">} : () -> i32
      %b = "simt.block_id"() {dim = #simt.dim<"z">} : () -> i32
      %bd = "simt.block_dim"() {dim = #simt.dim<"x">} : () -> i32
      %g = "simt.grid_dim"() {dim = #simt.dim<"y">} : () -> i32
      %l = "simt.special_reg"() {reg = "laneid"} : () -> i32
      %w = "simt.special_reg"() {reg = "warpid"} : () -> i32
      %m = "simt.special_reg"() {reg = "lanemask_lt"} : () -> i32
      %s = "simt.special_reg"() {reg = "smid"} : () -> i32
      %c = "simt.special_reg"() {reg = "clock64"} : () -> i64
      %gt = "simt.special_reg"() {reg = "globaltimer"} : () -> i64
      %ds = "simt.special_reg"() {reg = "dynamic_smem_size"} : () -> i32
      %a1 = arith.addi %t, %b : i32
      %a2 = arith.addi %a1, %bd : i32
      %a3 = arith.addi %a2, %g : i32
      %a4 = arith.addi %a3, %l : i32
      %a5 = arith.addi %a4, %w : i32
      %a6 = arith.addi %a5, %m : i32
      %a7 = arith.addi %a6, %s : i32
      %a8 = arith.addi %a7, %ds : i32
      %wide = arith.extui %a8 : i32 to i64
      %sum = arith.addi %wide, %c : i64
      %sum2 = arith.addi %sum, %gt : i64
      "simt.store"(%out, %c0, %sum2) : (!simt.slice_mut<i64>, index, i64) -> ()
      gpu.return
    }

    // Without a contract, a 1-D witness is valid only if the launch's y and z extents are 1.
    // CHECK-LABEL: .entry unproven(
    // CHECK-DAG: %ntid.y
    // CHECK-DAG: %nctaid.y
    // CHECK-DAG: %ntid.z
    // CHECK-DAG: %nctaid.z
    // CHECK-DAG: mul.wide.u32
    gpu.func @unproven(%out: !simt.disjoint<i32, "1d">, %v: i32) kernel {
      %w = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok, %r = "simt.get_mut"(%out, %w) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok {
        "simt.ref_store"(%r, %v) : (!simt.ref<i32>, i32) -> ()
      }
      gpu.return
    }

    // A contract with domain = 1 proves it: no extent checks remain.
    // CHECK-LABEL: .entry proven(
    // CHECK-NOT: %ntid.y
    // CHECK-NOT: %nctaid.z
    // CHECK: ret;
    gpu.func @proven(%out: !simt.disjoint<i32, "1d">, %v: i32) kernel attributes {simt.contract = {domain = 1 : i64}} {
      %w = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok, %r = "simt.get_mut"(%out, %w) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok {
        "simt.ref_store"(%r, %v) : (!simt.ref<i32>, i32) -> ()
      }
      gpu.return
    }

    // u32 coordinates: the index is computed in 32 bits (one mad.lo.s32, not mul.wide + add.s64).
    // CHECK-LABEL: .entry narrow(
    // CHECK-NOT: add.s64
    // CHECK: mad.lo.s32
    gpu.func @narrow(%out: !simt.disjoint<i32, "1d">, %v: i32) kernel attributes {simt.contract = {domain = 1 : i64, coordinates = "u32"}} {
      %w = "simt.index_1d_u32"() : () -> !simt.thread_index<"1d">
      %ok, %r = "simt.get_mut"(%out, %w) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok {
        "simt.ref_store"(%r, %v) : (!simt.ref<i32>, i32) -> ()
      }
      gpu.return
    }

    // index_2d::<64>: row * 64 + col, invalid when col >= 64.
    // CHECK-LABEL: .entry two_d(
    // CHECK-DAG: %tid.y
    // CHECK-DAG: %tid.x
    // CHECK: setp.gt.u64 {{.*}}, 63;
    gpu.func @two_d(%out: !simt.disjoint<i32, "2d:64">, %v: i32) kernel attributes {simt.contract = {domain = 2 : i64}} {
      %w = "simt.index_2d"() : () -> !simt.thread_index<"2d:64">
      %ok, %r = "simt.get_mut"(%out, %w) : (!simt.disjoint<i32, "2d:64">, !simt.thread_index<"2d:64">) -> (i1, !simt.ref<i32>)
      scf.if %ok {
        "simt.ref_store"(%r, %v) : (!simt.ref<i32>, i32) -> ()
      }
      gpu.return
    }

    // A runtime 2-D disjoint slice carries its row width as a third parameter.
    // CHECK-LABEL: .entry runtime_two_d(
    // CHECK-NEXT: .param .u64 .ptr .global .align 1 runtime_two_d_param_0,
    // CHECK-NEXT: .param .u64 runtime_two_d_param_1,
    // CHECK-NEXT: .param .u32 runtime_two_d_param_2,
    gpu.func @runtime_two_d(%out: !simt.disjoint<i32, "runtime_2d">, %v: i32) kernel attributes {simt.contract = {domain = 2 : i64}} {
      %w = "simt.index_2d_runtime"() : () -> !simt.thread_index<"runtime_2d">
      %ok, %r = "simt.get_mut"(%out, %w) : (!simt.disjoint<i32, "runtime_2d">, !simt.thread_index<"runtime_2d">) -> (i1, !simt.ref<i32>)
      scf.if %ok {
        "simt.ref_store"(%r, %v) : (!simt.ref<i32>, i32) -> ()
      }
      gpu.return
    }

    // warp_index: valid on lane 0 only.
    // CHECK-LABEL: .entry per_warp(
    // CHECK: %laneid
    gpu.func @per_warp(%out: !simt.disjoint<i32, "warp">, %v: i32) kernel attributes {simt.contract = {domain = 1 : i64}} {
      %w = "simt.warp_index"() : () -> !simt.thread_index<"warp">
      %ok, %r = "simt.get_mut"(%out, %w) : (!simt.disjoint<i32, "warp">, !simt.thread_index<"warp">) -> (i1, !simt.ref<i32>)
      scf.if %ok {
        "simt.ref_store"(%r, %v) : (!simt.ref<i32>, i32) -> ()
      }
      gpu.return
    }
  }
}
