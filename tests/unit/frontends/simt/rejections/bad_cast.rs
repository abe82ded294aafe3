// expect: 4:13: non-primitive cast: `f32` as `bool`
#[kernel]
pub fn k(x: f32) {
    let b = x as bool;
}
