// expect: 4:60: `RuntimeRowMajorTiles` size 4294967296 is out of range: a tile size or row stride is from 1 to 2147483647
#[kernel(launch_context = lc)]
#[launch_contract(domain = 2, coordinates = u32)]
pub fn k(mut m: DisjointSlice<f32, RuntimeRowMajorTiles<1, 4294967296>>) {
    let coord = thread::coord_2d_u32(lc);
    if let Some(mut t) = m.tile_2d32_rt(coord) {
        let x = t.at_const::<0, 0>().read();
    }
}
