// nvcc peer of benchmarks/suite/kernels/vecadd4.rs: the same algorithm, grid and block, written as a CUDA C++ programmer would
// (no bounds checks beyond the algorithm's own guards). No headers, so NVRTC compiles it as it is.

// One float4 per thread (n4 = floats / 4): 128-bit loads (ld.global.nc.v4.f32) and stores (st.global.v4.f32).
extern "C" __global__ void vecadd4(const float4* __restrict__ a, const float4* __restrict__ b,
                                   float4* __restrict__ c, size_t n4) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 x = a[i], y = b[i], r;
        r.x = x.x + y.x;
        r.y = x.y + y.y;
        r.z = x.z + y.z;
        r.w = x.w + y.w;
        c[i] = r;
    }
}
