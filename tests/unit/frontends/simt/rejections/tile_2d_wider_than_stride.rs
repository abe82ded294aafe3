// expect: 3:36: `RowMajorTiles` needs tile rows and columns of at least 1 and no more columns than the row stride
#[kernel]
pub fn k(mut m: DisjointSlice<f32, RowMajorTiles<1, 8, 4>>) {
}
