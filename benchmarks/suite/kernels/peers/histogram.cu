// nvcc peer of benchmarks/suite/kernels/histogram.rs: the same algorithm, grid and block, written as a CUDA C++ programmer would
// (no bounds checks beyond the algorithm's own guards). No headers, so NVRTC compiles it as it is.

extern "C" __global__ void histogram(const unsigned char* __restrict__ data, size_t n, unsigned* bins) {
    __shared__ unsigned local[256];
    unsigned t = threadIdx.x;
    local[t] = 0;
    __syncthreads();
    size_t stride = (size_t)gridDim.x * 256;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + t; i < n; i += stride) atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    unsigned count = local[t];
    if (count > 0) atomicAdd(&bins[t], count);
}
