// expect: 6:13: no field `z` on type `P`
#[derive(Clone, Copy)]
struct P { x: f32, y: f32 }
#[kernel]
pub fn k(p: P) {
    let z = p.z;
}
