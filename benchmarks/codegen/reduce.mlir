// Shared-memory block sum with a contract fixing the block at 256 threads (.reqntid), so threadIdx.x < 256
// is known and the shared-array bounds checks fold away; out[blockIdx.x] is an unsafe &mut [f32] write.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @block_sum(%x: !simt.slice<f32>, %out: !simt.slice_mut<f32>) kernel attributes {simt.contract = {domain = 1 : i64, block = array<i32: 256, 1, 1>}} {
      %s = "simt.shared_array"() {align = 4 : i64} : () -> !simt.shared<f32, 256 : i64>
      %t32 = "simt.thread_id"() {dim = #simt.dim<"x">} : () -> i32
      %t = arith.index_cast %t32 : i32 to index
      %w = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %i = "simt.index_value"(%w) : (!simt.thread_index<"1d">) -> index
      %n = "simt.len"(%x) : (!simt.slice<f32>) -> index
      %inb = arith.cmpi ult, %i, %n : index
      %v = scf.if %inb -> f32 {
        %xi = "simt.load"(%x, %i) : (!simt.slice<f32>, index) -> f32
        scf.yield %xi : f32
      } else {
        %zero = arith.constant 0.0 : f32
        scf.yield %zero : f32
      }
      "simt.shared_store"(%s, %t, %v) : (!simt.shared<f32, 256 : i64>, index, f32) -> ()
      "simt.sync_threads"() : () -> ()
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c128 = arith.constant 128 : index
      scf.for %k = %c0 to %c8 step %c1 {
        %stride = arith.shrui %c128, %k : index
        %active = arith.cmpi ult, %t, %stride : index
        scf.if %active {
          %other = arith.addi %t, %stride : index
          %a = "simt.shared_load"(%s, %t) : (!simt.shared<f32, 256 : i64>, index) -> f32
          %b = "simt.shared_load"(%s, %other) : (!simt.shared<f32, 256 : i64>, index) -> f32
          %sum = arith.addf %a, %b : f32
          "simt.shared_store"(%s, %t, %sum) : (!simt.shared<f32, 256 : i64>, index, f32) -> ()
        }
        "simt.sync_threads"() : () -> ()
      }
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %total = "simt.shared_load"(%s, %c0) : (!simt.shared<f32, 256 : i64>, index) -> f32
        %bid32 = "simt.block_id"() {dim = #simt.dim<"x">} : () -> i32
        %bid = arith.index_cast %bid32 : i32 to index
        "simt.store"(%out, %bid, %total) : (!simt.slice_mut<f32>, index, f32) -> ()
      }
      gpu.return
    }
  }
}
