// expect: 2:1: #[cluster_launch(4294967296, 1, 1)]: a cluster has at most 8 blocks in all
#[cluster_launch(4294967296, 1, 1)]
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {}
