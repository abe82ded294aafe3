// vecadd as cuda-oxide writes it: c is a DisjointSlice written through the 1-D witness; a[i], b[i] are
// bounds-checked (Rust semantics) reads of read-only slices; the contract proves a 1-D launch.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vecadd(%a: !simt.slice<f32>, %b: !simt.slice<f32>, %c: !simt.disjoint<f32, "1d">) kernel attributes {simt.contract = {domain = 1 : i64}} {
      %w = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok, %r = "simt.get_mut"(%c, %w) : (!simt.disjoint<f32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<f32>)
      scf.if %ok {
        %i = "simt.index_value"(%w) : (!simt.thread_index<"1d">) -> index
        %x = "simt.load"(%a, %i) : (!simt.slice<f32>, index) -> f32
        %y = "simt.load"(%b, %i) : (!simt.slice<f32>, index) -> f32
        %z = arith.addf %x, %y : f32
        "simt.ref_store"(%r, %z) : (!simt.ref<f32>, f32) -> ()
      }
      gpu.return
    }
  }
}
