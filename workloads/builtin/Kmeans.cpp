// kmeans: Rodinia K-means (cuda/kmeans), its two kernels: invert_mapping, run once to transpose the
// points to feature-major order, then kmeansPoint, the find-nearest-center kernel, once per
// clustering iteration (the host recomputes the centers between launches):
//
//     __global__ void invert_mapping(float* input, float* output, int npoints, int nfeatures) {
//         int point_id = threadIdx.x + blockDim.x * blockIdx.x;
//         if (point_id < npoints)
//             for (int i = 0; i < nfeatures; i++) output[point_id + npoints * i] = input[point_id * nfeatures + i];
//     }
//     __global__ void kmeansPoint(float* features, int nfeatures, int npoints, int nclusters,
//                                 int* membership, float* clusters, ...) {
//         const unsigned int block_id = gridDim.x * blockIdx.y + blockIdx.x;
//         const unsigned int point_id = block_id * blockDim.x * blockDim.y + threadIdx.x;
//         int index = -1;
//         if (point_id < npoints) {
//             float min_dist = FLT_MAX;
//             for (int i = 0; i < nclusters; i++) {
//                 int cluster_base_index = i * nfeatures;
//                 float ans = 0.0;
//                 for (int j = 0; j < nfeatures; j++) {
//                     int addr = point_id + j * npoints;
//                     float diff = (tex1Dfetch(t_features, addr) - c_clusters[cluster_base_index + j]);
//                     ans += diff * diff;
//                 }
//                 if (ans < min_dist) { min_dist = ans; index = i; }
//             }
//         }
//         if (point_id < npoints) membership[point_id] = index;
//     }
//
// (GPU_DELTA_REDUCTION and GPU_NEW_CENTER_REDUCTION are off in Rodinia 3.1.) The host launches
// 256-thread blocks: num_blocks = ceil(npoints / 256) rounded up to a square, invert_mapping on a
// 1-D grid of num_blocks, kmeansPoint on a sqrt x sqrt grid. invert_mapping's load gives each lane
// its own point (lanes 4 * nfeatures bytes apart: 32 lines), its store is coalesced; kmeansPoint's
// feature loads are coalesced and the center element is one address for the warp.
//
// Modelled SASS per warp, invert_mapping:
//
//   0x00 S2R r0 <- SR_CTAID.X  0x10 S2R r1 <- SR_TID.X  0x20 IMAD r2 (point_id)  0x30 ISETP r3
//   ---- lanes with point_id < npoints; loop i = 0 .. nfeatures-1 ----
//   0x40 LD r4 <- input[point_id*nfeatures + i]   0x50 ST output[point_id + npoints*i] <- r4
//   0x60 IADD r5   0x70 ISETP r3   0x80 BRA
//   ----
//   0x90 EXIT                         (5 nfeatures + 5 instructions in range, 5 without)
//
// kmeansPoint:
//
//   0x00 S2R CTAID.X  0x10 S2R CTAID.Y  0x20 S2R TID.X  0x30 IMAD block_id  0x40 IMAD point_id
//   0x50 ISETP point_id < npoints
//   ---- lanes in range ----
//   0x60 MOV min_dist   0x70 MOV index
//   loop i = 0 .. nclusters-1:
//     0x80 IMUL cluster_base_index   0x90 MOV ans = 0
//     loop j = 0 .. nfeatures-1:
//       0xa0 LD r10 <- features[point_id + j*npoints]   (tex1Dfetch, modelled as a global load)
//       0xb0 LD r11 <- c_clusters[cluster_base + j]     (constant memory, modelled as a global
//                                                         load of a separate buffer: one address)
//       0xc0 FADD r10 <- r10, r11   0xd0 FFMA r9 <- r10, r10, r9   0xe0 IADD  0xf0 ISETP  0x100 BRA
//     0x110 FSETP ans < min_dist   0x120 SEL min_dist   0x130 SEL index   (if-converted, no branch)
//     0x140 IADD i   0x150 ISETP   0x160 BRA
//   0x170 ST membership[point_id] <- index
//   ----
//   0x180 EXIT       (nclusters (7 nfeatures + 8) + 10 instructions in range, 7 without)
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/builtin/BuiltinSupport.hpp"
#include "workloads/builtin/KernelBuilder.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"

namespace gpusim {

namespace kmeans_kernel {

constexpr unsigned kThreads = 256;  // THREADS_PER_DIM * THREADS_PER_DIM

namespace reg {
constexpr uint16_t kCtaX = 0, kCtaY = 1, kTid = 2, kBlock = 3, kPoint = 4, kPred = 5, kMin = 6, kIndex = 7,
                   kBase = 8, kAns = 9, kFeature = 10, kCenter = 11, kI = 12, kJ = 13;
constexpr unsigned kUsed = 14;
} // namespace reg

enum InvertSlot : unsigned { kILd = kIndex1dSlots, kISt, kIIadd, kIIsetpLoop, kIBra, kIExit };
enum PointSlot : unsigned {
    kPS2rCtaX, kPS2rCtaY, kPS2rTid, kPImadBlock, kPImadPoint, kPIsetp, kPMovMin, kPMovIndex,
    kPImul, kPMovAns, kPLdFeature, kPLdCenter, kPFadd, kPFfma, kPIaddJ, kPIsetpJ, kPBraJ,
    kPFsetp, kPSelMin, kPSelIndex, kPIaddI, kPIsetpI, kPBraI, kPSt, kPExit
};

struct Buffers {
    uint64_t flipped, features, membership, clusters, constClusters;
};

WarpProgram invertWarp(WarpThreads t, Buffers b, uint64_t npoints, uint64_t nfeatures) {
    const uint32_t all = t.existMask();
    for (const auto& op : globalIndex1d(all, {reg::kCtaX, reg::kTid, reg::kPoint, reg::kPred})) co_yield op;
    const uint32_t in = t.lanesWhere([&](unsigned l) { return t.globalX(l) < npoints; });
    if (in != 0) {
        for (uint64_t i = 0; i < nfeatures; ++i) {
            co_yield inst::load(sassPc(kILd), in, {reg::kFeature}, {reg::kPoint, reg::kI}, kFloatBytes,
                                [&](unsigned l) { return b.flipped + (t.globalX(l) * nfeatures + i) * kFloatBytes; });
            co_yield inst::store(sassPc(kISt), in, {reg::kPoint, reg::kI, reg::kFeature}, kFloatBytes,
                                 [&](unsigned l) { return b.features + (t.globalX(l) + npoints * i) * kFloatBytes; });
            for (const auto& op : backEdge(in, kIIadd, reg::kI, reg::kPred)) co_yield op;
        }
    }
    co_yield inst::exit(sassPc(kIExit), all);
}

WarpProgram pointWarp(WarpThreads t, Buffers b, uint64_t npoints, uint64_t nfeatures, uint64_t nclusters) {
    const uint32_t all = t.existMask();
    co_yield inst::alu(sassPc(kPS2rCtaX), all, {reg::kCtaX}, {});
    co_yield inst::alu(sassPc(kPS2rCtaY), all, {reg::kCtaY}, {});
    co_yield inst::alu(sassPc(kPS2rTid), all, {reg::kTid}, {});
    co_yield inst::alu(sassPc(kPImadBlock), all, {reg::kBlock}, {reg::kCtaX, reg::kCtaY});
    co_yield inst::alu(sassPc(kPImadPoint), all, {reg::kPoint}, {reg::kBlock, reg::kTid});
    co_yield inst::alu(sassPc(kPIsetp), all, {reg::kPred}, {reg::kPoint});
    // point_id = (gridDim.x * blockIdx.y + blockIdx.x) * 256 + threadIdx.x: the linear CTA id.
    const uint64_t blockId = uint64_t(t.blockIdx().y) * t.gridDim().x + t.blockIdx().x;
    auto point = [&](unsigned l) { return blockId * kThreads + t.threadIdx(l).x; };
    const uint32_t in = t.lanesWhere([&](unsigned l) { return point(l) < npoints; });
    if (in != 0) {
        co_yield inst::alu(sassPc(kPMovMin), in, {reg::kMin}, {});
        co_yield inst::alu(sassPc(kPMovIndex), in, {reg::kIndex}, {});
        for (uint64_t i = 0; i < nclusters; ++i) {
            co_yield inst::alu(sassPc(kPImul), in, {reg::kBase}, {reg::kI});
            co_yield inst::alu(sassPc(kPMovAns), in, {reg::kAns}, {});
            for (uint64_t j = 0; j < nfeatures; ++j) {
                co_yield inst::load(sassPc(kPLdFeature), in, {reg::kFeature}, {reg::kPoint, reg::kJ}, kFloatBytes,
                                    [&](unsigned l) { return b.features + (point(l) + j * npoints) * kFloatBytes; });
                co_yield inst::load(sassPc(kPLdCenter), in, {reg::kCenter}, {reg::kBase, reg::kJ}, kFloatBytes,
                                    [&](unsigned) { return b.constClusters + (i * nfeatures + j) * kFloatBytes; });
                co_yield inst::alu(sassPc(kPFadd), in, {reg::kFeature}, {reg::kFeature, reg::kCenter});
                co_yield inst::alu(sassPc(kPFfma), in, {reg::kAns}, {reg::kFeature, reg::kAns});
                for (const auto& op : backEdge(in, kPIaddJ, reg::kJ, reg::kPred)) co_yield op;
            }
            co_yield inst::alu(sassPc(kPFsetp), in, {reg::kPred}, {reg::kAns, reg::kMin});
            co_yield inst::alu(sassPc(kPSelMin), in, {reg::kMin}, {reg::kAns, reg::kMin, reg::kPred});
            co_yield inst::alu(sassPc(kPSelIndex), in, {reg::kIndex}, {reg::kI, reg::kIndex, reg::kPred});
            for (const auto& op : backEdge(in, kPIaddI, reg::kI, reg::kPred)) co_yield op;
        }
        co_yield inst::store(sassPc(kPSt), in, {reg::kPoint, reg::kIndex}, kIntBytes,
                             [&](unsigned l) { return b.membership + point(l) * kIntBytes; });
    }
    co_yield inst::exit(sassPc(kPExit), all);
}

std::unique_ptr<Workload> makeKmeans(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const uint64_t npoints = param(params, "points"), nfeatures = param(params, "features"),
                   nclusters = param(params, "clusters"), iterations = param(params, "iterations");
    // allocateMemory(): num_blocks rounded up to a square.
    uint64_t blocks = ceilDiv(npoints, kThreads);
    uint64_t perDim = 1;
    while (perDim * perDim < blocks) ++perDim;
    blocks = perDim * perDim;
    // allocateMemory()'s cudaMalloc order; c_clusters is a __constant__ array, placed after them.
    DeviceAllocator mem;
    Buffers b;
    b.flipped = mem.allocateFloats(npoints * nfeatures);
    b.features = mem.allocateFloats(npoints * nfeatures);
    b.membership = mem.allocate(npoints * kIntBytes);
    b.clusters = mem.allocateFloats(nclusters * nfeatures);
    b.constClusters = mem.allocateFloats(nclusters * nfeatures);

    std::vector<std::unique_ptr<Kernel>> kernels;
    kernels.push_back(makeProgramKernel(
        "invert_mapping", {static_cast<unsigned>(blocks), 1, 1}, {kThreads, 1, 1}, reg::kUsed, 0,
        [b, npoints, nfeatures](const WarpThreads& t) { return invertWarp(t, b, npoints, nfeatures); }));
    for (uint64_t it = 0; it < iterations; ++it)
        kernels.push_back(makeProgramKernel(
            "kmeansPoint", {static_cast<unsigned>(perDim), static_cast<unsigned>(perDim), 1}, {kThreads, 1, 1},
            reg::kUsed, 0, [b, npoints, nfeatures, nclusters](const WarpThreads& t) {
                return pointWarp(t, b, npoints, nfeatures, nclusters);
            }));
    return std::make_unique<BasicWorkload>("kmeans", nlohmann::json(params), std::move(kernels));
}

} // namespace kmeans_kernel

WorkloadInfo kmeansWorkload() {
    using namespace kmeans_kernel;
    return {"kmeans",
            "Rodinia K-means: invert_mapping (a point per lane, 32 lines per load) then kmeansPoint "
            "(coalesced features, broadcast centers) per iteration",
            {{"points", 4096, 1, 1 << 22, "data points (Rodinia kdd_cup: 494020)"},
             {"features", 34, 1, 256, "features per point (kdd_cup: 34)"},
             {"clusters", 5, 1, 64, "cluster centers (Rodinia default 5)"},
             {"iterations", 2, 1, 500, "kmeansPoint launches (clustering iterations)"}},
            makeKmeans,
            "Rodinia 3.1, kmeans (cuda/kmeans: kmeans_cuda_kernel.cu)",
            WorkloadClass::MemoryDivergent};
}

} // namespace gpusim
