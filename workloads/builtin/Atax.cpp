// atax: PolyBench/GPU ATAX, y = A^T (A x), as two kernels over an n x n matrix (NX = NY = n).
//
//     __global__ void atax_kernel1(float* A, float* x, float* tmp) {   // tmp = A x
//         int i = blockIdx.x * blockDim.x + threadIdx.x;
//         if (i < NX) for (int j = 0; j < NY; j++) tmp[i] += A[i * NY + j] * x[j];
//     }
//     __global__ void atax_kernel2(float* A, float* y, float* tmp) {   // y = A^T tmp
//         int j = blockIdx.x * blockDim.x + threadIdx.x;
//         if (j < NY) for (int i = 0; i < NX; i++) y[j] += A[i * NY + j] * tmp[i];
//     }
//
// Both kernels have the same shape: thread index t, loop index u, an accumulator acc[t] and a
// vector vec[u]. They differ only in how A is walked: kernel 1 reads along a row per thread
// (lanes 4n bytes apart: 32 lines per warp access, the cache-thrashing pattern the scheduling
// papers use ATAX for), kernel 2 down a column (lanes adjacent: one coalesced line).
//
// Modelled SASS: the shared matrix-vector listing in MatVecPass.hpp (accumulator loaded once
// before the loop, A element then vector element each iteration): 7n + 6 instructions per warp
// with a lane in range, 5 without.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"
#include "workloads/builtin/MatVecPass.hpp"

namespace gpusim {

namespace atax_kernel {

// Small enough that the default runs in seconds; PolyBench's own default is 4096.
constexpr int64_t kDefaultN = 1024;
// Below one warp of rows kernel 1 no longer shows its 32-lines-per-access pattern.
constexpr int64_t kMinN = 32;
constexpr int64_t kMaxN = 16384;

std::unique_ptr<Workload> makeAtax(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const uint64_t n = param(params, "n");
    // PolyBench/GPU's host code allocates in this order.
    DeviceAllocator mem;
    const uint64_t a = mem.allocateFloats(n * n);
    const uint64_t x = mem.allocateFloats(n);
    const uint64_t y = mem.allocateFloats(n);
    const uint64_t tmp = mem.allocateFloats(n);

    std::vector<std::unique_ptr<Kernel>> kernels;
    // Kernel 1, tmp = A x: A(i, j) = A[i * n + j], a row per thread.
    kernels.push_back(matVecKernel("atax_kernel1", {a, tmp, x, /*strideT=*/n, /*strideU=*/1, n, n}));
    // Kernel 2, y = A^T tmp: thread j walks column j, A[i * n + j].
    kernels.push_back(matVecKernel("atax_kernel2", {a, y, tmp, /*strideT=*/1, /*strideU=*/n, n, n}));
    return std::make_unique<BasicWorkload>("atax", nlohmann::json(params), std::move(kernels));
}

} // namespace atax_kernel

WorkloadInfo ataxWorkload() {
    using namespace atax_kernel;
    return {"atax",
            "PolyBench/GPU ATAX, y = A^T (A x): kernel 1 row-per-thread (uncoalesced A), "
            "kernel 2 column-per-thread (coalesced A)",
            {{"n", kDefaultN, kMinN, kMaxN, "matrix dimension (NX = NY = n)"}},
            makeAtax,
            "PolyBench/GPU 1.0, ATAX (atax.cu)",
            WorkloadClass::MemoryDivergent};
}

} // namespace gpusim
