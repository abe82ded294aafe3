// expect: 2:1: struct `A` refers to itself (through `A -> B -> A`)
struct A { b: B, y: f32 }
struct B { a: *const A }
#[kernel]
pub unsafe fn k(o: &mut [f32]) {
    let p = A { b: B { a: core::ptr::null() }, y: 1.0 };
    o[0] = p.y;
}
