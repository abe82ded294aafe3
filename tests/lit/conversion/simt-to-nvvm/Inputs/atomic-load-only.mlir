module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @load_only(%table: !simt.slice<i64>, %out: !simt.slice_mut<i64>, %i: index) kernel {
      %p = "simt.elem_ptr"(%table, %i) : (!simt.slice<i64>, index) -> !simt.ptr<i64, 1>
      %v = "simt.atomic_load"(%p) {scope = "device", ordering = "relaxed"} : (!simt.ptr<i64, 1>) -> i64
      "simt.store"(%out, %i, %v) : (!simt.slice_mut<i64>, index, i64) -> ()
      gpu.return
    }
  }
}
