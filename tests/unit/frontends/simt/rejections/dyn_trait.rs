// expect: 4:14: `dyn Trait` is not supported in device code
trait Shape { fn area(&self) -> f32; }
#[kernel]
pub fn k(s: &dyn Shape) {
}
