// expect: 2:1: #[kernel(launch_context = name)] names the launch context parameter, got `launch_context`
#[kernel(launch_context )]
fn k( m: DisjointSlice<f32, RowMajorTiles<1 >>) {
}
