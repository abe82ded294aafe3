// expect: 2:1: enum `E` refers to itself (through `E -> E`)
enum E { A(E), B }
#[kernel]
pub unsafe fn k(o: &mut [f32]) {
    let e = E::B;
    o[0] = 1.0;
}
