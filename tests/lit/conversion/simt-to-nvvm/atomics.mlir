// simt atomics lower to scoped PTX: every kind on every element type, every ordering and scope, global,
// shared and generic memory. Read-modify-writes are inline `atom` (LLVM 22's NVPTX drops the ordering and
// scope of atomicrmw); loads, stores and compare-exchange are LLVM atomics with an NVPTX sync scope.
// RUN: %oxide-opt %s --emit=ptx | FileCheck %s
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-simt-to-nvvm)' | FileCheck %s --check-prefix=NVVM

module attributes {gpu.container_module} {
  gpu.module @k {
    // NVVM-LABEL: gpu.func @int32_kinds(
    // NVVM: llvm.inline_asm has_side_effects "atom.relaxed.gpu.global.add.u32 $0, [$1], $2;", "=r,l,r,~{memory}" %{{.*}}, %{{.*}} : (!llvm.ptr<1>, i32) -> i32
    // CHECK-LABEL: .entry int32_kinds(
    // CHECK: atom.relaxed.gpu.global.add.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
    // CHECK: neg.s32 [[NEG:%r[0-9]+]], %r{{[0-9]+}};
    // CHECK: atom.relaxed.gpu.global.add.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], [[NEG]];
    // CHECK: atom.relaxed.gpu.global.and.b32
    // CHECK: atom.relaxed.gpu.global.or.b32
    // CHECK: atom.relaxed.gpu.global.xor.b32
    // CHECK: atom.relaxed.gpu.global.min.s32
    // CHECK: atom.relaxed.gpu.global.max.s32
    // CHECK: atom.relaxed.gpu.global.min.u32
    // CHECK: atom.relaxed.gpu.global.max.u32
    // CHECK: atom.relaxed.gpu.global.exch.b32
    gpu.func @int32_kinds(%p: !simt.ptr<i32, 1>, %v: i32) kernel {
      %0 = "simt.atomic_rmw"(%p, %v) {kind = "add", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
      %1 = "simt.atomic_rmw"(%p, %v) {kind = "sub", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
      %2 = "simt.atomic_rmw"(%p, %v) {kind = "and", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
      %3 = "simt.atomic_rmw"(%p, %v) {kind = "or", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
      %4 = "simt.atomic_rmw"(%p, %v) {kind = "xor", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
      %5 = "simt.atomic_rmw"(%p, %v) {kind = "min", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
      %6 = "simt.atomic_rmw"(%p, %v) {kind = "max", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
      %7 = "simt.atomic_rmw"(%p, %v) {kind = "umin", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
      %8 = "simt.atomic_rmw"(%p, %v) {kind = "umax", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
      %9 = "simt.atomic_rmw"(%p, %v) {kind = "xchg", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
      gpu.return
    }

    // NVVM-LABEL: gpu.func @int64_kinds(
    // NVVM: llvm.inline_asm has_side_effects "atom.relaxed.gpu.global.add.u64 $0, [$1], $2;", "=l,l,l,~{memory}"
    // CHECK-LABEL: .entry int64_kinds(
    // CHECK: atom.relaxed.gpu.global.add.u64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}], %rd{{[0-9]+}};
    // CHECK: neg.s64 [[NEG:%rd[0-9]+]], %rd{{[0-9]+}};
    // CHECK: atom.relaxed.gpu.global.add.u64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}], [[NEG]];
    // CHECK: atom.relaxed.gpu.global.and.b64
    // CHECK: atom.relaxed.gpu.global.or.b64
    // CHECK: atom.relaxed.gpu.global.xor.b64
    // CHECK: atom.relaxed.gpu.global.min.s64
    // CHECK: atom.relaxed.gpu.global.max.s64
    // CHECK: atom.relaxed.gpu.global.min.u64
    // CHECK: atom.relaxed.gpu.global.max.u64
    // CHECK: atom.relaxed.gpu.global.exch.b64
    gpu.func @int64_kinds(%p: !simt.ptr<i64, 1>, %v: i64) kernel {
      %0 = "simt.atomic_rmw"(%p, %v) {kind = "add", scope = "device", ordering = "relaxed"} : (!simt.ptr<i64, 1>, i64) -> i64
      %1 = "simt.atomic_rmw"(%p, %v) {kind = "sub", scope = "device", ordering = "relaxed"} : (!simt.ptr<i64, 1>, i64) -> i64
      %2 = "simt.atomic_rmw"(%p, %v) {kind = "and", scope = "device", ordering = "relaxed"} : (!simt.ptr<i64, 1>, i64) -> i64
      %3 = "simt.atomic_rmw"(%p, %v) {kind = "or", scope = "device", ordering = "relaxed"} : (!simt.ptr<i64, 1>, i64) -> i64
      %4 = "simt.atomic_rmw"(%p, %v) {kind = "xor", scope = "device", ordering = "relaxed"} : (!simt.ptr<i64, 1>, i64) -> i64
      %5 = "simt.atomic_rmw"(%p, %v) {kind = "min", scope = "device", ordering = "relaxed"} : (!simt.ptr<i64, 1>, i64) -> i64
      %6 = "simt.atomic_rmw"(%p, %v) {kind = "max", scope = "device", ordering = "relaxed"} : (!simt.ptr<i64, 1>, i64) -> i64
      %7 = "simt.atomic_rmw"(%p, %v) {kind = "umin", scope = "device", ordering = "relaxed"} : (!simt.ptr<i64, 1>, i64) -> i64
      %8 = "simt.atomic_rmw"(%p, %v) {kind = "umax", scope = "device", ordering = "relaxed"} : (!simt.ptr<i64, 1>, i64) -> i64
      %9 = "simt.atomic_rmw"(%p, %v) {kind = "xchg", scope = "device", ordering = "relaxed"} : (!simt.ptr<i64, 1>, i64) -> i64
      gpu.return
    }

    // fsub adds the negation (PTX has no atomic float subtraction); a float swap is a bit exchange.
    // NVVM-LABEL: gpu.func @float_kinds(
    // NVVM: llvm.inline_asm has_side_effects "atom.relaxed.gpu.global.add.f32 $0, [$1], $2;", "=f,l,f,~{memory}"
    // NVVM: arith.negf
    // NVVM: "=d,l,d,~{memory}"
    // CHECK-LABEL: .entry float_kinds(
    // CHECK: atom.relaxed.gpu.global.add.f32
    // CHECK: xor.b32 [[NEG:%r[0-9]+]], %r{{[0-9]+}}, -2147483648;
    // CHECK: atom.relaxed.gpu.global.add.f32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], [[NEG]];
    // CHECK: atom.relaxed.gpu.global.exch.b32
    // CHECK: atom.relaxed.gpu.global.add.f64
    // CHECK: atom.relaxed.gpu.global.add.f64
    // CHECK: atom.relaxed.gpu.global.exch.b64
    // CHECK-NOT: atom.{{.*}}.cas
    gpu.func @float_kinds(%f: !simt.ptr<f32, 1>, %x: f32, %d: !simt.ptr<f64, 1>, %y: f64) kernel {
      %0 = "simt.atomic_rmw"(%f, %x) {kind = "fadd", scope = "device", ordering = "relaxed"} : (!simt.ptr<f32, 1>, f32) -> f32
      %1 = "simt.atomic_rmw"(%f, %x) {kind = "fsub", scope = "device", ordering = "relaxed"} : (!simt.ptr<f32, 1>, f32) -> f32
      %2 = "simt.atomic_rmw"(%f, %x) {kind = "xchg", scope = "device", ordering = "relaxed"} : (!simt.ptr<f32, 1>, f32) -> f32
      %3 = "simt.atomic_rmw"(%d, %y) {kind = "fadd", scope = "device", ordering = "relaxed"} : (!simt.ptr<f64, 1>, f64) -> f64
      %4 = "simt.atomic_rmw"(%d, %y) {kind = "fsub", scope = "device", ordering = "relaxed"} : (!simt.ptr<f64, 1>, f64) -> f64
      %5 = "simt.atomic_rmw"(%d, %y) {kind = "xchg", scope = "device", ordering = "relaxed"} : (!simt.ptr<f64, 1>, f64) -> f64
      gpu.return
    }

    // The ordering and the scope are spelled on the instruction; seq_cst is fence.sc then an acquire atom.
    // CHECK-LABEL: .entry rmw_orderings_and_scopes(
    // CHECK: atom.relaxed.cta.global.add.u32
    // CHECK: atom.acquire.gpu.global.add.u32
    // CHECK: atom.release.sys.global.add.u32
    // CHECK: atom.acq_rel.cta.global.max.s32
    // CHECK: fence.sc.gpu;
    // CHECK-NEXT: atom.acquire.gpu.global.add.f32
    // CHECK: fence.sc.sys;
    // CHECK-NEXT: atom.acquire.sys.global.exch.b64
    gpu.func @rmw_orderings_and_scopes(%p: !simt.ptr<i32, 1>, %v: i32, %f: !simt.ptr<f32, 1>, %x: f32,
                                       %q: !simt.ptr<i64, 1>, %w: i64) kernel {
      %0 = "simt.atomic_rmw"(%p, %v) {kind = "add", scope = "block", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
      %1 = "simt.atomic_rmw"(%p, %v) {kind = "add", scope = "device", ordering = "acquire"} : (!simt.ptr<i32, 1>, i32) -> i32
      %2 = "simt.atomic_rmw"(%p, %v) {kind = "add", scope = "system", ordering = "release"} : (!simt.ptr<i32, 1>, i32) -> i32
      %3 = "simt.atomic_rmw"(%p, %v) {kind = "max", scope = "block", ordering = "acq_rel"} : (!simt.ptr<i32, 1>, i32) -> i32
      %4 = "simt.atomic_rmw"(%f, %x) {kind = "fadd", scope = "device", ordering = "seq_cst"} : (!simt.ptr<f32, 1>, f32) -> f32
      %5 = "simt.atomic_rmw"(%q, %w) {kind = "xchg", scope = "system", ordering = "seq_cst"} : (!simt.ptr<i64, 1>, i64) -> i64
      gpu.return
    }

    // Shared memory (a block's array) and generic pointers keep their state space.
    // CHECK-LABEL: .entry spaces(
    // CHECK: atom.relaxed.cta.shared.add.u32
    // CHECK: atom.acq_rel.cta.shared.min.u64
    // CHECK: atom.relaxed.gpu.add.f32
    // CHECK: ld.acquire.cta.shared.b32
    gpu.func @spaces(%g: !simt.ptr<f32, 0>, %x: f32, %v: i32, %w: i64, %out: !simt.ptr<i32, 1>) kernel {
      %a = "simt.shared_array"() {align = 4 : i64} : () -> !simt.shared<i32, 32>
      %ap = "simt.shared_ptr"(%a) : (!simt.shared<i32, 32>) -> !simt.ptr<i32, 3>
      %b = "simt.shared_array"() {align = 8 : i64} : () -> !simt.shared<i64, 32>
      %bp = "simt.shared_ptr"(%b) : (!simt.shared<i64, 32>) -> !simt.ptr<i64, 3>
      %0 = "simt.atomic_rmw"(%ap, %v) {kind = "add", scope = "block", ordering = "relaxed"} : (!simt.ptr<i32, 3>, i32) -> i32
      %1 = "simt.atomic_rmw"(%bp, %w) {kind = "umin", scope = "block", ordering = "acq_rel"} : (!simt.ptr<i64, 3>, i64) -> i64
      %2 = "simt.atomic_rmw"(%g, %x) {kind = "fadd", scope = "device", ordering = "relaxed"} : (!simt.ptr<f32, 0>, f32) -> f32
      %3 = "simt.atomic_load"(%ap) {scope = "block", ordering = "acquire"} : (!simt.ptr<i32, 3>) -> i32
      "simt.atomic_store"(%out, %3) {scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> ()
      gpu.return
    }

    // NVVM-LABEL: gpu.func @loads_and_stores(
    // NVVM: llvm.load %{{.*}} atomic syncscope("device") monotonic {alignment = 4 : i64} : !llvm.ptr<1> -> i32
    // NVVM: llvm.load %{{.*}} atomic acquire {alignment = 8 : i64} : !llvm.ptr<1> -> i64
    // NVVM: llvm.store %{{.*}}, %{{.*}} atomic syncscope("block") release {alignment = 4 : i64} : f32, !llvm.ptr<1>
    // CHECK-LABEL: .entry loads_and_stores(
    // CHECK: ld.relaxed.gpu.global.b32
    // CHECK: ld.acquire.sys.global.b64
    // CHECK: fence.sc.cta;
    // CHECK-NEXT: ld.acquire.cta.global.b32
    // CHECK: ld.relaxed.gpu.global.b64
    // CHECK: st.release.cta.global.b32
    // CHECK: st.relaxed.sys.global.b64
    // CHECK: fence.sc.gpu;
    // CHECK-NEXT: st.release.gpu.global.b32
    // CHECK: st.relaxed.gpu.global.b64
    gpu.func @loads_and_stores(%p: !simt.ptr<i32, 1>, %q: !simt.ptr<i64, 1>, %f: !simt.ptr<f32, 1>, %d: !simt.ptr<f64, 1>) kernel {
      %0 = "simt.atomic_load"(%p) {scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>) -> i32
      %1 = "simt.atomic_load"(%q) {scope = "system", ordering = "acquire"} : (!simt.ptr<i64, 1>) -> i64
      %2 = "simt.atomic_load"(%f) {scope = "block", ordering = "seq_cst"} : (!simt.ptr<f32, 1>) -> f32
      %3 = "simt.atomic_load"(%d) {scope = "device", ordering = "relaxed"} : (!simt.ptr<f64, 1>) -> f64
      "simt.atomic_store"(%f, %2) {scope = "block", ordering = "release"} : (!simt.ptr<f32, 1>, f32) -> ()
      "simt.atomic_store"(%q, %1) {scope = "system", ordering = "relaxed"} : (!simt.ptr<i64, 1>, i64) -> ()
      "simt.atomic_store"(%p, %0) {scope = "device", ordering = "seq_cst"} : (!simt.ptr<i32, 1>, i32) -> ()
      "simt.atomic_store"(%d, %3) {scope = "device", ordering = "relaxed"} : (!simt.ptr<f64, 1>, f64) -> ()
      gpu.return
    }

    // NVVM-LABEL: gpu.func @compare_exchange(
    // NVVM: %[[PAIR:.*]] = llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} syncscope("device") acq_rel acquire {alignment = 4 : i64} : !llvm.ptr<1>, i32
    // NVVM: llvm.extractvalue %[[PAIR]][0] : !llvm.struct<(i32, i1)>
    // NVVM: llvm.extractvalue %[[PAIR]][1] : !llvm.struct<(i32, i1)>
    // CHECK-LABEL: .entry compare_exchange(
    // CHECK: atom.acq_rel.gpu.global.cas.b32 [[OLD:%r[0-9]+]], [%rd{{[0-9]+}}], [[EXPECTED:%r[0-9]+]], %r{{[0-9]+}};
    // CHECK: setp.eq.b32 %p{{[0-9]+}}, [[OLD]], [[EXPECTED]];
    // CHECK: atom.relaxed.cta.global.cas.b64
    // CHECK: fence.sc.sys;
    // CHECK-NEXT: atom.acquire.sys.global.cas.b32
    gpu.func @compare_exchange(%p: !simt.ptr<i32, 1>, %a: i32, %b: i32, %q: !simt.ptr<i64, 1>, %c: i64, %out: !simt.ptr<i32, 1>) kernel {
      %old, %ok = "simt.atomic_cmpxchg"(%p, %a, %b) {scope = "device", success_ordering = "acq_rel", failure_ordering = "acquire"} : (!simt.ptr<i32, 1>, i32, i32) -> (i32, i1)
      %sel = arith.select %ok, %old, %b : i32
      "simt.atomic_store"(%out, %sel) {scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> ()
      %old64, %ok64 = "simt.atomic_cmpxchg"(%q, %c, %c) {scope = "block", success_ordering = "relaxed", failure_ordering = "relaxed"} : (!simt.ptr<i64, 1>, i64, i64) -> (i64, i1)
      %old2, %ok2 = "simt.atomic_cmpxchg"(%p, %a, %b) {scope = "system", success_ordering = "seq_cst", failure_ordering = "seq_cst"} : (!simt.ptr<i32, 1>, i32, i32) -> (i32, i1)
      gpu.return
    }

    // A `&[DeviceAtomicU32]` element reaches the atomics through a bounds-checked element pointer.
    // CHECK-LABEL: .entry through_slice(
    // CHECK: setp.{{.*}}
    // CHECK: atom.relaxed.gpu.global.add.u32
    // CHECK: trap;
    gpu.func @through_slice(%counters: !simt.slice_mut<i32>, %i: index, %v: i32) kernel {
      %p = "simt.elem_ptr"(%counters, %i) : (!simt.slice_mut<i32>, index) -> !simt.ptr<i32, 1>
      %0 = "simt.atomic_rmw"(%p, %v) {kind = "add", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
      gpu.return
    }
  }
}
