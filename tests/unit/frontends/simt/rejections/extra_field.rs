// expect: 6:13: struct `P` has no field named `z`
#[derive(Clone, Copy)]
struct P { x: f32, y: f32 }
#[kernel]
pub fn k(a: f32) {
    let p = P { x: a, y: a, z: a };
}
