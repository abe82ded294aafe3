// expect: 5:5: cannot assign twice to immutable variable `x`
#[kernel]
pub fn k(a: f32) {
    let x = 1.0f32;
    x = a;
}
