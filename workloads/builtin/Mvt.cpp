// mvt: PolyBench/GPU MVT, x1 += A y1 and x2 += A^T y2, as two kernels over an n x n matrix:
//
//     __global__ void mvt_kernel1(float* a, float* x1, float* y_1) {
//         int i = blockIdx.x * blockDim.x + threadIdx.x;
//         if (i < N) for (int j = 0; j < N; j++) x1[i] += a[i * N + j] * y_1[j];
//     }
//     __global__ void mvt_kernel2(float* a, float* x2, float* y_2) {
//         int i = blockIdx.x * blockDim.x + threadIdx.x;
//         if (i < N) for (int j = 0; j < N; j++) x2[i] += a[j * N + i] * y_2[j];
//     }
//
// The same shape as ATAX (row per thread, then column per thread) with independent vectors.
//
// Modelled SASS: the shared matrix-vector listing in MatVecPass.hpp, exactly as for ATAX:
// 7n + 6 instructions per warp with a lane in range, 5 without.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"
#include "workloads/builtin/MatVecPass.hpp"

namespace gpusim {

namespace mvt_kernel {

std::unique_ptr<Workload> makeMvt(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const uint64_t n = param(params, "n");
    // mvtCuda's cudaMalloc order.
    DeviceAllocator mem;
    const uint64_t a = mem.allocateFloats(n * n);
    const uint64_t x1 = mem.allocateFloats(n);
    const uint64_t x2 = mem.allocateFloats(n);
    const uint64_t y1 = mem.allocateFloats(n);
    const uint64_t y2 = mem.allocateFloats(n);

    std::vector<std::unique_ptr<Kernel>> kernels;
    kernels.push_back(matVecKernel("mvt_kernel1", {a, x1, y1, /*strideT=*/n, /*strideU=*/1, n, n}));
    kernels.push_back(matVecKernel("mvt_kernel2", {a, x2, y2, /*strideT=*/1, /*strideU=*/n, n, n}));
    return std::make_unique<BasicWorkload>("mvt", nlohmann::json(params), std::move(kernels));
}

} // namespace mvt_kernel

WorkloadInfo mvtWorkload() {
    using namespace mvt_kernel;
    return {"mvt",
            "PolyBench/GPU MVT, x1 += A y1 and x2 += A^T y2: kernel 1 row-per-thread (uncoalesced), "
            "kernel 2 column-per-thread (coalesced)",
            {{"n", 1024, 32, 16384, "matrix dimension N (PolyBench/GPU default 4096)"}},
            makeMvt,
            "PolyBench/GPU 1.0, MVT (mvt.cu)",
            WorkloadClass::MemoryDivergent};
}

} // namespace gpusim
