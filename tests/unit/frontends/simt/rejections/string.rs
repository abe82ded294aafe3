// expect: 4:13: string values are not supported in device code (only as a gpu_printf! format)
#[kernel]
pub fn k(n: usize) {
    let s = "hello";
}
