// 128-bit division and remainder (LLVM expands them inline for NVPTX): signed and unsigned, against Python.
use cuda_device::{kernel, thread, DisjointSlice};

#[kernel]
pub fn wide_div(a_lo: &[u64], a_hi: &[u64], b_lo: &[u64], b_hi: &[u64], mut out: DisjointSlice<u64>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let a = ((a_hi[i] as u128) << 64) | a_lo[i] as u128;
    let b = ((b_hi[i] as u128) << 64) | b_lo[i] as u128;
    let (sa, sb) = (a as i128, b as i128);
    let uq = a / b;
    let ur = a % b;
    let sq = sa / sb;
    let sr = sa % sb;
    // One u64 per thread: a mix of every result's halves, so any wrong bit shows.
    let mix = (uq as u64) ^ ((uq >> 64) as u64).rotate_left(7) ^ (ur as u64).rotate_left(13)
        ^ ((ur >> 64) as u64).rotate_left(19) ^ (sq as u64).rotate_left(29) ^ ((sq >> 64) as u64).rotate_left(37)
        ^ (sr as u64).rotate_left(43) ^ ((sr >> 64) as u64).rotate_left(53);
    if let Some(o) = out.get_mut(idx) {
        *o = mix;
    }
}
