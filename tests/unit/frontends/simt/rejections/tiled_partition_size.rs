// expect: 4:13: `tiled_partition::<12>`: a warp tile has 1, 2, 4, 8, 16 or 32 threads
#[kernel]
pub fn k(n: u32) {
    let t = this_thread_block().tiled_partition::<12>();
}
