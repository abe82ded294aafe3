// GPU test kernels for the synchronisation and warp families (tests/gpu/test_sync_warp.py).
// Every kernel is launched 1-D with whole warps unless its comment says otherwise; each thread writes its
// results to its own element of DisjointSlice outputs (index_1d + get_mut + ref_store).
// Regenerate the fixture after any change:
//   oxide-opt tests/gpu/kernels/sync_warp.mlir --emit=ptx -o tests/fixtures/sync_warp.ptx
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Block sum through a static shared array: a tree reduction with a barrier after every level, then
    // every thread writes the block's sum. Block size 256. Fences at the three scopes run on the way.
    gpu.func @block_sum(%x: !simt.slice<i32>, %out: !simt.disjoint<i32, "1d">) kernel attributes {simt.contract = {domain = 1 : i64, block = array<i32: 256, 1, 1>}} {
      %sh = "simt.shared_array"() {align = 4 : i64} : () -> !simt.shared<i32, 256 : i64>
      %wi = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %i = "simt.index_value"(%wi) : (!simt.thread_index<"1d">) -> index
      %v = "simt.load"(%x, %i) : (!simt.slice<i32>, index) -> i32
      %t32 = "simt.thread_id"() {dim = #simt.dim<"x">} : () -> i32
      %t = arith.index_castui %t32 : i32 to index
      "simt.shared_store"(%sh, %t, %v) : (!simt.shared<i32, 256 : i64>, index, i32) -> ()
      "simt.thread_fence"() {scope = "block"} : () -> ()
      "simt.sync_threads"() : () -> ()
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c128 = arith.constant 128 : index
      scf.for %k = %c0 to %c8 step %c1 {
        %s = arith.shrui %c128, %k : index
        %active = arith.cmpi ult, %t, %s : index
        scf.if %active {
          %j = arith.addi %t, %s : index
          %a = "simt.shared_load"(%sh, %t) : (!simt.shared<i32, 256 : i64>, index) -> i32
          %b = "simt.shared_load"(%sh, %j) : (!simt.shared<i32, 256 : i64>, index) -> i32
          %ab = arith.addi %a, %b : i32
          "simt.shared_store"(%sh, %t, %ab) : (!simt.shared<i32, 256 : i64>, index, i32) -> ()
        }
        "simt.sync_threads"() : () -> ()
      }
      %sum = "simt.shared_load"(%sh, %c0) : (!simt.shared<i32, 256 : i64>, index) -> i32
      "simt.thread_fence"() {scope = "device"} : () -> ()
      "simt.thread_fence"() {scope = "system"} : () -> ()
      %w_sum = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_sum, %r_sum = "simt.get_mut"(%out, %w_sum) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_sum {
        "simt.ref_store"(%r_sum, %sum) : (!simt.ref<i32>, i32) -> ()
      }
      gpu.return
    }

    // Shuffles of i32, full mask: idx from lane 31 - lane (width 32), up 3 (width 32), down 5 (width 16),
    // xor 5 (width 8). A warp_sync first: every lane is here.
    gpu.func @shuffle_i32(%x: !simt.slice<i32>, %o_idx: !simt.disjoint<i32, "1d">, %o_up: !simt.disjoint<i32, "1d">, %o_down: !simt.disjoint<i32, "1d">, %o_xor: !simt.disjoint<i32, "1d">) kernel attributes {simt.contract = {domain = 1 : i64}} {
      %wi = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %i = "simt.index_value"(%wi) : (!simt.thread_index<"1d">) -> index
      %v = "simt.load"(%x, %i) : (!simt.slice<i32>, index) -> i32
      %full = arith.constant -1 : i32
      "simt.warp_sync"(%full) : (i32) -> ()
      %lane = "simt.special_reg"() {reg = "laneid"} : () -> i32
      %c31 = arith.constant 31 : i32
      %src = arith.subi %c31, %lane : i32
      %c3 = arith.constant 3 : i32
      %c5 = arith.constant 5 : i32
      %s_idx = "simt.shuffle"(%full, %v, %src) {kind = "idx", width = 32} : (i32, i32, i32) -> i32
      %s_up = "simt.shuffle"(%full, %v, %c3) {kind = "up", width = 32} : (i32, i32, i32) -> i32
      %s_down = "simt.shuffle"(%full, %v, %c5) {kind = "down", width = 16} : (i32, i32, i32) -> i32
      %s_xor = "simt.shuffle"(%full, %v, %c5) {kind = "xor", width = 8} : (i32, i32, i32) -> i32
      %w_idx = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_idx, %r_idx = "simt.get_mut"(%o_idx, %w_idx) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_idx {
        "simt.ref_store"(%r_idx, %s_idx) : (!simt.ref<i32>, i32) -> ()
      }
      %w_up = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_up, %r_up = "simt.get_mut"(%o_up, %w_up) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_up {
        "simt.ref_store"(%r_up, %s_up) : (!simt.ref<i32>, i32) -> ()
      }
      %w_down = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_down, %r_down = "simt.get_mut"(%o_down, %w_down) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_down {
        "simt.ref_store"(%r_down, %s_down) : (!simt.ref<i32>, i32) -> ()
      }
      %w_xor = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_xor, %r_xor = "simt.get_mut"(%o_xor, %w_xor) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_xor {
        "simt.ref_store"(%r_xor, %s_xor) : (!simt.ref<i32>, i32) -> ()
      }
      gpu.return
    }

    // Shuffles of f32, full mask: idx from lane 31 - lane (width 32), up 3 (width 32), down 5 (width 16),
    // xor 5 (width 8). A warp_sync first: every lane is here.
    gpu.func @shuffle_f32(%x: !simt.slice<f32>, %o_idx: !simt.disjoint<f32, "1d">, %o_up: !simt.disjoint<f32, "1d">, %o_down: !simt.disjoint<f32, "1d">, %o_xor: !simt.disjoint<f32, "1d">) kernel attributes {simt.contract = {domain = 1 : i64}} {
      %wi = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %i = "simt.index_value"(%wi) : (!simt.thread_index<"1d">) -> index
      %v = "simt.load"(%x, %i) : (!simt.slice<f32>, index) -> f32
      %full = arith.constant -1 : i32
      "simt.warp_sync"(%full) : (i32) -> ()
      %lane = "simt.special_reg"() {reg = "laneid"} : () -> i32
      %c31 = arith.constant 31 : i32
      %src = arith.subi %c31, %lane : i32
      %c3 = arith.constant 3 : i32
      %c5 = arith.constant 5 : i32
      %s_idx = "simt.shuffle"(%full, %v, %src) {kind = "idx", width = 32} : (i32, f32, i32) -> f32
      %s_up = "simt.shuffle"(%full, %v, %c3) {kind = "up", width = 32} : (i32, f32, i32) -> f32
      %s_down = "simt.shuffle"(%full, %v, %c5) {kind = "down", width = 16} : (i32, f32, i32) -> f32
      %s_xor = "simt.shuffle"(%full, %v, %c5) {kind = "xor", width = 8} : (i32, f32, i32) -> f32
      %w_idx = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_idx, %r_idx = "simt.get_mut"(%o_idx, %w_idx) : (!simt.disjoint<f32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<f32>)
      scf.if %ok_idx {
        "simt.ref_store"(%r_idx, %s_idx) : (!simt.ref<f32>, f32) -> ()
      }
      %w_up = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_up, %r_up = "simt.get_mut"(%o_up, %w_up) : (!simt.disjoint<f32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<f32>)
      scf.if %ok_up {
        "simt.ref_store"(%r_up, %s_up) : (!simt.ref<f32>, f32) -> ()
      }
      %w_down = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_down, %r_down = "simt.get_mut"(%o_down, %w_down) : (!simt.disjoint<f32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<f32>)
      scf.if %ok_down {
        "simt.ref_store"(%r_down, %s_down) : (!simt.ref<f32>, f32) -> ()
      }
      %w_xor = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_xor, %r_xor = "simt.get_mut"(%o_xor, %w_xor) : (!simt.disjoint<f32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<f32>)
      scf.if %ok_xor {
        "simt.ref_store"(%r_xor, %s_xor) : (!simt.ref<f32>, f32) -> ()
      }
      gpu.return
    }

    // Shuffles of i64, full mask: idx from lane 31 - lane (width 32), up 3 (width 32), down 5 (width 16),
    // xor 5 (width 8). A warp_sync first: every lane is here.
    gpu.func @shuffle_i64(%x: !simt.slice<i64>, %o_idx: !simt.disjoint<i64, "1d">, %o_up: !simt.disjoint<i64, "1d">, %o_down: !simt.disjoint<i64, "1d">, %o_xor: !simt.disjoint<i64, "1d">) kernel attributes {simt.contract = {domain = 1 : i64}} {
      %wi = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %i = "simt.index_value"(%wi) : (!simt.thread_index<"1d">) -> index
      %v = "simt.load"(%x, %i) : (!simt.slice<i64>, index) -> i64
      %full = arith.constant -1 : i32
      "simt.warp_sync"(%full) : (i32) -> ()
      %lane = "simt.special_reg"() {reg = "laneid"} : () -> i32
      %c31 = arith.constant 31 : i32
      %src = arith.subi %c31, %lane : i32
      %c3 = arith.constant 3 : i32
      %c5 = arith.constant 5 : i32
      %s_idx = "simt.shuffle"(%full, %v, %src) {kind = "idx", width = 32} : (i32, i64, i32) -> i64
      %s_up = "simt.shuffle"(%full, %v, %c3) {kind = "up", width = 32} : (i32, i64, i32) -> i64
      %s_down = "simt.shuffle"(%full, %v, %c5) {kind = "down", width = 16} : (i32, i64, i32) -> i64
      %s_xor = "simt.shuffle"(%full, %v, %c5) {kind = "xor", width = 8} : (i32, i64, i32) -> i64
      %w_idx = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_idx, %r_idx = "simt.get_mut"(%o_idx, %w_idx) : (!simt.disjoint<i64, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i64>)
      scf.if %ok_idx {
        "simt.ref_store"(%r_idx, %s_idx) : (!simt.ref<i64>, i64) -> ()
      }
      %w_up = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_up, %r_up = "simt.get_mut"(%o_up, %w_up) : (!simt.disjoint<i64, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i64>)
      scf.if %ok_up {
        "simt.ref_store"(%r_up, %s_up) : (!simt.ref<i64>, i64) -> ()
      }
      %w_down = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_down, %r_down = "simt.get_mut"(%o_down, %w_down) : (!simt.disjoint<i64, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i64>)
      scf.if %ok_down {
        "simt.ref_store"(%r_down, %s_down) : (!simt.ref<i64>, i64) -> ()
      }
      %w_xor = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_xor, %r_xor = "simt.get_mut"(%o_xor, %w_xor) : (!simt.disjoint<i64, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i64>)
      scf.if %ok_xor {
        "simt.ref_store"(%r_xor, %s_xor) : (!simt.ref<i64>, i64) -> ()
      }
      gpu.return
    }

    // Shuffles of f64, full mask: idx from lane 31 - lane (width 32), up 3 (width 32), down 5 (width 16),
    // xor 5 (width 8). A warp_sync first: every lane is here.
    gpu.func @shuffle_f64(%x: !simt.slice<f64>, %o_idx: !simt.disjoint<f64, "1d">, %o_up: !simt.disjoint<f64, "1d">, %o_down: !simt.disjoint<f64, "1d">, %o_xor: !simt.disjoint<f64, "1d">) kernel attributes {simt.contract = {domain = 1 : i64}} {
      %wi = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %i = "simt.index_value"(%wi) : (!simt.thread_index<"1d">) -> index
      %v = "simt.load"(%x, %i) : (!simt.slice<f64>, index) -> f64
      %full = arith.constant -1 : i32
      "simt.warp_sync"(%full) : (i32) -> ()
      %lane = "simt.special_reg"() {reg = "laneid"} : () -> i32
      %c31 = arith.constant 31 : i32
      %src = arith.subi %c31, %lane : i32
      %c3 = arith.constant 3 : i32
      %c5 = arith.constant 5 : i32
      %s_idx = "simt.shuffle"(%full, %v, %src) {kind = "idx", width = 32} : (i32, f64, i32) -> f64
      %s_up = "simt.shuffle"(%full, %v, %c3) {kind = "up", width = 32} : (i32, f64, i32) -> f64
      %s_down = "simt.shuffle"(%full, %v, %c5) {kind = "down", width = 16} : (i32, f64, i32) -> f64
      %s_xor = "simt.shuffle"(%full, %v, %c5) {kind = "xor", width = 8} : (i32, f64, i32) -> f64
      %w_idx = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_idx, %r_idx = "simt.get_mut"(%o_idx, %w_idx) : (!simt.disjoint<f64, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<f64>)
      scf.if %ok_idx {
        "simt.ref_store"(%r_idx, %s_idx) : (!simt.ref<f64>, f64) -> ()
      }
      %w_up = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_up, %r_up = "simt.get_mut"(%o_up, %w_up) : (!simt.disjoint<f64, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<f64>)
      scf.if %ok_up {
        "simt.ref_store"(%r_up, %s_up) : (!simt.ref<f64>, f64) -> ()
      }
      %w_down = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_down, %r_down = "simt.get_mut"(%o_down, %w_down) : (!simt.disjoint<f64, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<f64>)
      scf.if %ok_down {
        "simt.ref_store"(%r_down, %s_down) : (!simt.ref<f64>, f64) -> ()
      }
      %w_xor = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_xor, %r_xor = "simt.get_mut"(%o_xor, %w_xor) : (!simt.disjoint<f64, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<f64>)
      scf.if %ok_xor {
        "simt.ref_store"(%r_xor, %s_xor) : (!simt.ref<f64>, f64) -> ()
      }
      gpu.return
    }

    // Votes on the parity of x: all, any (as 0/1) and the ballot, full mask.
    gpu.func @votes(%x: !simt.slice<i32>, %o_all: !simt.disjoint<i32, "1d">, %o_any: !simt.disjoint<i32, "1d">, %o_ballot: !simt.disjoint<i32, "1d">) kernel attributes {simt.contract = {domain = 1 : i64}} {
      %wi = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %i = "simt.index_value"(%wi) : (!simt.thread_index<"1d">) -> index
      %v = "simt.load"(%x, %i) : (!simt.slice<i32>, index) -> i32
      %full = arith.constant -1 : i32
      %one = arith.constant 1 : i32
      %bit = arith.andi %v, %one : i32
      %odd_p = arith.cmpi eq, %bit, %one : i32
      %all = "simt.vote"(%full, %odd_p) {kind = "all"} : (i32, i1) -> i1
      %any = "simt.vote"(%full, %odd_p) {kind = "any"} : (i32, i1) -> i1
      %ballot = "simt.ballot"(%full, %odd_p) : (i32, i1) -> i32
      %all32 = arith.extui %all : i1 to i32
      %any32 = arith.extui %any : i1 to i32
      %w_all = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_all, %r_all = "simt.get_mut"(%o_all, %w_all) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_all {
        "simt.ref_store"(%r_all, %all32) : (!simt.ref<i32>, i32) -> ()
      }
      %w_any = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_any, %r_any = "simt.get_mut"(%o_any, %w_any) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_any {
        "simt.ref_store"(%r_any, %any32) : (!simt.ref<i32>, i32) -> ()
      }
      %w_ballot = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_ballot, %r_ballot = "simt.get_mut"(%o_ballot, %w_ballot) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_ballot {
        "simt.ref_store"(%r_ballot, %ballot) : (!simt.ref<i32>, i32) -> ()
      }
      gpu.return
    }

    // Match on x (i32) and y (i64), full mask: match_any of each, and match_all of y (lanes, and the
    // predicate as 0/1).
    gpu.func @matches(%x: !simt.slice<i32>, %y: !simt.slice<i64>, %o_any32: !simt.disjoint<i32, "1d">, %o_any64: !simt.disjoint<i32, "1d">, %o_all: !simt.disjoint<i32, "1d">, %o_all_eq: !simt.disjoint<i32, "1d">) kernel attributes {simt.contract = {domain = 1 : i64}} {
      %wi = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %i = "simt.index_value"(%wi) : (!simt.thread_index<"1d">) -> index
      %v = "simt.load"(%x, %i) : (!simt.slice<i32>, index) -> i32
      %vy = "simt.load"(%y, %i) : (!simt.slice<i64>, index) -> i64
      %full = arith.constant -1 : i32
      %any32 = "simt.match_any"(%full, %v) : (i32, i32) -> i32
      %any64 = "simt.match_any"(%full, %vy) : (i32, i64) -> i32
      %lanes, %eq = "simt.match_all"(%full, %vy) : (i32, i64) -> (i32, i1)
      %eq32 = arith.extui %eq : i1 to i32
      %w_any32 = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_any32, %r_any32 = "simt.get_mut"(%o_any32, %w_any32) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_any32 {
        "simt.ref_store"(%r_any32, %any32) : (!simt.ref<i32>, i32) -> ()
      }
      %w_any64 = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_any64, %r_any64 = "simt.get_mut"(%o_any64, %w_any64) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_any64 {
        "simt.ref_store"(%r_any64, %any64) : (!simt.ref<i32>, i32) -> ()
      }
      %w_all = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_all, %r_all = "simt.get_mut"(%o_all, %w_all) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_all {
        "simt.ref_store"(%r_all, %lanes) : (!simt.ref<i32>, i32) -> ()
      }
      %w_eq = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_eq, %r_eq = "simt.get_mut"(%o_all_eq, %w_eq) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_eq {
        "simt.ref_store"(%r_eq, %eq32) : (!simt.ref<i32>, i32) -> ()
      }
      gpu.return
    }

    // redux.sync of x over the full warp, every kind.
    gpu.func @redux(%x: !simt.slice<i32>, %o_add: !simt.disjoint<i32, "1d">, %o_min: !simt.disjoint<i32, "1d">, %o_max: !simt.disjoint<i32, "1d">, %o_umin: !simt.disjoint<i32, "1d">, %o_umax: !simt.disjoint<i32, "1d">, %o_and: !simt.disjoint<i32, "1d">, %o_or: !simt.disjoint<i32, "1d">, %o_xor: !simt.disjoint<i32, "1d">) kernel attributes {simt.contract = {domain = 1 : i64}} {
      %wi = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %i = "simt.index_value"(%wi) : (!simt.thread_index<"1d">) -> index
      %v = "simt.load"(%x, %i) : (!simt.slice<i32>, index) -> i32
      %full = arith.constant -1 : i32
      %radd = "simt.redux"(%full, %v) {kind = "add"} : (i32, i32) -> i32
      %rmin = "simt.redux"(%full, %v) {kind = "min"} : (i32, i32) -> i32
      %rmax = "simt.redux"(%full, %v) {kind = "max"} : (i32, i32) -> i32
      %rumin = "simt.redux"(%full, %v) {kind = "umin"} : (i32, i32) -> i32
      %rumax = "simt.redux"(%full, %v) {kind = "umax"} : (i32, i32) -> i32
      %rand = "simt.redux"(%full, %v) {kind = "and"} : (i32, i32) -> i32
      %ror = "simt.redux"(%full, %v) {kind = "or"} : (i32, i32) -> i32
      %rxor = "simt.redux"(%full, %v) {kind = "xor"} : (i32, i32) -> i32
      %w_add = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_add, %r_add = "simt.get_mut"(%o_add, %w_add) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_add {
        "simt.ref_store"(%r_add, %radd) : (!simt.ref<i32>, i32) -> ()
      }
      %w_min = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_min, %r_min = "simt.get_mut"(%o_min, %w_min) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_min {
        "simt.ref_store"(%r_min, %rmin) : (!simt.ref<i32>, i32) -> ()
      }
      %w_max = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_max, %r_max = "simt.get_mut"(%o_max, %w_max) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_max {
        "simt.ref_store"(%r_max, %rmax) : (!simt.ref<i32>, i32) -> ()
      }
      %w_umin = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_umin, %r_umin = "simt.get_mut"(%o_umin, %w_umin) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_umin {
        "simt.ref_store"(%r_umin, %rumin) : (!simt.ref<i32>, i32) -> ()
      }
      %w_umax = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_umax, %r_umax = "simt.get_mut"(%o_umax, %w_umax) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_umax {
        "simt.ref_store"(%r_umax, %rumax) : (!simt.ref<i32>, i32) -> ()
      }
      %w_and = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_and, %r_and = "simt.get_mut"(%o_and, %w_and) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_and {
        "simt.ref_store"(%r_and, %rand) : (!simt.ref<i32>, i32) -> ()
      }
      %w_or = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_or, %r_or = "simt.get_mut"(%o_or, %w_or) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_or {
        "simt.ref_store"(%r_or, %ror) : (!simt.ref<i32>, i32) -> ()
      }
      %w_xor = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_xor, %r_xor = "simt.get_mut"(%o_xor, %w_xor) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_xor {
        "simt.ref_store"(%r_xor, %rxor) : (!simt.ref<i32>, i32) -> ()
      }
      gpu.return
    }

    // The active mask (launched with a partial last warp), elect.sync over the active lanes, and
    // elect.sync among the active odd lanes only (mask active & 0xaaaaaaaa, inside the branch they take;
    // the others write -1 and 0).
    gpu.func @elect(%o_active: !simt.disjoint<i32, "1d">, %o_leader: !simt.disjoint<i32, "1d">, %o_elected: !simt.disjoint<i32, "1d">, %o_odd_leader: !simt.disjoint<i32, "1d">, %o_odd_elected: !simt.disjoint<i32, "1d">) kernel attributes {simt.contract = {domain = 1 : i64}} {
      %active = "simt.active_mask"() : () -> i32
      %leader, %elected = "simt.elect"(%active) : (i32) -> (i32, i1)
      %elected32 = arith.extui %elected : i1 to i32
      %lane = "simt.special_reg"() {reg = "laneid"} : () -> i32
      %one = arith.constant 1 : i32
      %bit = arith.andi %lane, %one : i32
      %odd = arith.cmpi eq, %bit, %one : i32
      %odd_lanes = arith.constant -1431655766 : i32
      %odd_mask = arith.andi %active, %odd_lanes : i32
      %minus1 = arith.constant -1 : i32
      %zero = arith.constant 0 : i32
      %odd_leader, %odd_elected = scf.if %odd -> (i32, i32) {
        %l, %e = "simt.elect"(%odd_mask) : (i32) -> (i32, i1)
        %e32 = arith.extui %e : i1 to i32
        scf.yield %l, %e32 : i32, i32
      } else {
        scf.yield %minus1, %zero : i32, i32
      }
      %w_active = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_active, %r_active = "simt.get_mut"(%o_active, %w_active) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_active {
        "simt.ref_store"(%r_active, %active) : (!simt.ref<i32>, i32) -> ()
      }
      %w_leader = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_leader, %r_leader = "simt.get_mut"(%o_leader, %w_leader) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_leader {
        "simt.ref_store"(%r_leader, %leader) : (!simt.ref<i32>, i32) -> ()
      }
      %w_elected = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_elected, %r_elected = "simt.get_mut"(%o_elected, %w_elected) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_elected {
        "simt.ref_store"(%r_elected, %elected32) : (!simt.ref<i32>, i32) -> ()
      }
      %w_odd_leader = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_odd_leader, %r_odd_leader = "simt.get_mut"(%o_odd_leader, %w_odd_leader) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_odd_leader {
        "simt.ref_store"(%r_odd_leader, %odd_leader) : (!simt.ref<i32>, i32) -> ()
      }
      %w_odd_elected = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok_odd_elected, %r_odd_elected = "simt.get_mut"(%o_odd_elected, %w_odd_elected) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok_odd_elected {
        "simt.ref_store"(%r_odd_elected, %odd_elected) : (!simt.ref<i32>, i32) -> ()
      }
      gpu.return
    }
  }
}
