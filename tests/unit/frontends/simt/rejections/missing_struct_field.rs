// expect: 6:13: missing field `y` in initializer of `P`
#[derive(Clone, Copy)]
struct P { x: f32, y: f32 }
#[kernel]
pub fn k(a: f32) {
    let p = P { x: a };
}
