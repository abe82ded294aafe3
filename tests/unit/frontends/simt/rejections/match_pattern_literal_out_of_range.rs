// expect: 5:9: literal out of range for `u32`: the pattern's 4294967296 is outside 0..=4294967295
#[kernel]
pub fn k(n: u32, mut out: DisjointSlice<u32>) {
    let y = match n {
        0..=4294967296 => 1,
        _ => 0,
    };
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) { *o = y; }
}
