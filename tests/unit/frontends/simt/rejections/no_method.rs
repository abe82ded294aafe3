// expect: 4:13: no method named `frobnicate` found for `f32` in device code
#[kernel]
pub fn k(x: f32) {
    let y = x.frobnicate();
}
