// expect: 4:5: grid-wide synchronisation (`grid::sync`, `this_grid()`) needs a cooperative launch
#[kernel]
pub fn k(n: u32) {
    grid::sync();
}
