// expect: 3:5: const generic `N` is 36893488147419103232, which does not fit in `usize`
fn width<const N: usize>() -> usize {
    N
}

#[kernel]
pub fn k(mut out: DisjointSlice<usize>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) { *o = width::<36893488147419103232>(); }
}
