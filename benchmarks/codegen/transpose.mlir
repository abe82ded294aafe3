// Tiled transpose: a 32x33 shared tile (padding against bank conflicts), 32x8 threads fixed by the
// contract, u32 index math as in the CUDA version; in[...] is a bounds-checked read-only slice read and
// out[...] a bounds-checked &mut [f32] write (Rust semantics), the tile accesses are proven in range.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transpose(%in: !simt.slice<f32>, %out: !simt.slice_mut<f32>, %rows: i32, %cols: i32) kernel attributes {simt.contract = {domain = 2 : i64, block = array<i32: 32, 8, 1>}} {
      %tile = "simt.shared_array"() {align = 4 : i64} : () -> !simt.shared<f32, 1056 : i64>
      %tx = "simt.thread_id"() {dim = #simt.dim<"x">} : () -> i32
      %ty = "simt.thread_id"() {dim = #simt.dim<"y">} : () -> i32
      %bx = "simt.block_id"() {dim = #simt.dim<"x">} : () -> i32
      %by = "simt.block_id"() {dim = #simt.dim<"y">} : () -> i32
      %c32 = arith.constant 32 : i32
      %c33 = arith.constant 33 : i32
      %c0 = arith.constant 0 : i32
      %c8 = arith.constant 8 : i32
      %bx32 = arith.muli %bx, %c32 : i32
      %by32 = arith.muli %by, %c32 : i32
      %x = arith.addi %bx32, %tx : i32
      %y = arith.addi %by32, %ty : i32
      scf.for %j = %c0 to %c32 step %c8 : i32 {
        %yj = arith.addi %y, %j : i32
        %xin = arith.cmpi ult, %x, %cols : i32
        %yin = arith.cmpi ult, %yj, %rows : i32
        %both = arith.andi %xin, %yin : i1
        scf.if %both {
          %row = arith.muli %yj, %cols : i32
          %src32 = arith.addi %row, %x : i32
          %src = arith.index_castui %src32 : i32 to index
          %v = "simt.load"(%in, %src) : (!simt.slice<f32>, index) -> f32
          %tyj = arith.addi %ty, %j : i32
          %trow = arith.muli %tyj, %c33 : i32
          %t32 = arith.addi %trow, %tx : i32
          %t = arith.index_castui %t32 : i32 to index
          "simt.shared_store"(%tile, %t, %v) : (!simt.shared<f32, 1056 : i64>, index, f32) -> ()
        }
      }
      "simt.sync_threads"() : () -> ()
      %x2 = arith.addi %by32, %tx : i32
      %y2 = arith.addi %bx32, %ty : i32
      scf.for %j = %c0 to %c32 step %c8 : i32 {
        %yj = arith.addi %y2, %j : i32
        %xin = arith.cmpi ult, %x2, %rows : i32
        %yin = arith.cmpi ult, %yj, %cols : i32
        %both = arith.andi %xin, %yin : i1
        scf.if %both {
          %tyj = arith.addi %ty, %j : i32
          %trow = arith.muli %tx, %c33 : i32
          %t32 = arith.addi %trow, %tyj : i32
          %t = arith.index_castui %t32 : i32 to index
          %v = "simt.shared_load"(%tile, %t) : (!simt.shared<f32, 1056 : i64>, index) -> f32
          %row = arith.muli %yj, %rows : i32
          %dst32 = arith.addi %row, %x2 : i32
          %dst = arith.index_castui %dst32 : i32 to index
          "simt.store"(%out, %dst, %v) : (!simt.slice_mut<f32>, index, f32) -> ()
        }
      }
      gpu.return
    }
  }
}
