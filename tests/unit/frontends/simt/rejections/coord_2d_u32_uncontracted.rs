// expect: 5:17: `thread::coord_2d_u32` needs the kernel's launch contract to state domain = 2 and coordinates = u32
#[kernel(launch_context = lc)]
#[launch_contract(domain = 1, coordinates = u32)]
pub fn k(mut m: DisjointSlice<f32, RowMajorTiles<1, 2, 64>>) {
    let coord = thread::coord_2d_u32(lc);
}
