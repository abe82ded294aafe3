// expect: 5:13: cannot infer the generic parameter `T` of `zero`
fn zero<T>() -> u32 { 0 }
#[kernel]
pub fn k(a: u32) {
    let z = zero();
}
