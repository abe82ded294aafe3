// expect: 4:13: `std` is not available in device code
#[kernel]
pub fn k(a: f32) {
    let m = std::cmp::max(1, 2);
}
