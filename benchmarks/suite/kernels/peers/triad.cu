// nvcc peer of benchmarks/suite/kernels/triad.rs: the same algorithm, grid and block, written as a CUDA C++ programmer would
// (no bounds checks beyond the algorithm's own guards). No headers, so NVRTC compiles it as it is.

extern "C" __global__ void triad(const float* __restrict__ b, const float* __restrict__ c, float s,
                                 float* __restrict__ a, size_t n) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = b[i] + s * c[i];
}
