// REQUIRES: ptxas
// f16 atomics: add is atom.add.noftz.f16 (PTX has no ftz form), sub adds the negation, swap is a
// compare-and-swap loop on 16 bits (PTX has no 16-bit exchange), loads and stores are scoped b16 accesses.
// RUN: %oxide-opt %s --emit=ptx | FileCheck %s
// RUN: %oxide-opt %s --emit=ptx > %t.ptx && ptxas -arch=sm_90 %t.ptx -o /dev/null

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: .entry half_atomics(
    gpu.func @half_atomics(%p: !simt.ptr<f16, 1>, %v: f16, %out: !simt.slice_mut<f16>) kernel {
      // CHECK: atom.relaxed.gpu.global.add.noftz.f16
      %a = "simt.atomic_rmw"(%p, %v) {kind = "fadd", scope = "device", ordering = "relaxed"} : (!simt.ptr<f16, 1>, f16) -> f16
      // The negation flips the sign bit.
      // CHECK: xor.b16 %rs{{[0-9]+}}, %rs{{[0-9]+}}, -32768;
      // CHECK: atom.relaxed.cta.global.add.noftz.f16
      %b = "simt.atomic_rmw"(%p, %v) {kind = "fsub", scope = "block", ordering = "relaxed"} : (!simt.ptr<f16, 1>, f16) -> f16
      // CHECK: XCHG: atom.acq_rel.sys.global.cas.b16
      // CHECK: @p bra XCHG;
      %c = "simt.atomic_rmw"(%p, %v) {kind = "xchg", scope = "system", ordering = "acq_rel"} : (!simt.ptr<f16, 1>, f16) -> f16
      // CHECK: ld.acquire.gpu.global.b16
      %d = "simt.atomic_load"(%p) {scope = "device", ordering = "acquire"} : (!simt.ptr<f16, 1>) -> f16
      // CHECK: st.release.gpu.global.b16
      "simt.atomic_store"(%p, %d) {scope = "device", ordering = "release"} : (!simt.ptr<f16, 1>, f16) -> ()
      %zero = arith.constant 0 : index
      %one = arith.constant 1 : index
      %two = arith.constant 2 : index
      "simt.store"(%out, %zero, %a) : (!simt.slice_mut<f16>, index, f16) -> ()
      "simt.store"(%out, %one, %b) : (!simt.slice_mut<f16>, index, f16) -> ()
      "simt.store"(%out, %two, %c) : (!simt.slice_mut<f16>, index, f16) -> ()
      gpu.return
    }
  }
}
