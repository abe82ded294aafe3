// expect: 2:1: struct `P` refers to itself (through `P -> P`)
struct P { x: P, y: f32 }
#[kernel]
fn k() {
    let p = P { };
}
