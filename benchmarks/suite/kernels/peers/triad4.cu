// nvcc peer of benchmarks/suite/kernels/triad4.rs: the same algorithm, grid and block, written as a CUDA C++ programmer would
// (no bounds checks beyond the algorithm's own guards). No headers, so NVRTC compiles it as it is.

extern "C" __global__ void triad4(const float4* __restrict__ b, const float4* __restrict__ c, float s,
                                  float4* __restrict__ a, size_t n4) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 x = b[i], y = c[i], r;
        r.x = x.x + s * y.x;
        r.y = x.y + s * y.y;
        r.z = x.z + s * y.z;
        r.w = x.w + s * y.w;
        a[i] = r;
    }
}
