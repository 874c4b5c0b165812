#pragma once
// Registration entries of the built-in kernel library. WorkloadRegistry::builtin() adds them
// explicitly: self-registering statics in a static library are dropped by the linker when
// nothing references their object file.
#include "workloads/Workload.hpp"

namespace gpusim {

WorkloadInfo vectorAddWorkload();
WorkloadInfo ataxWorkload();
WorkloadInfo bicgWorkload();
WorkloadInfo mvtWorkload();
WorkloadInfo gesummvWorkload();
WorkloadInfo syrkWorkload();
WorkloadInfo syr2kWorkload();
WorkloadInfo twoMmWorkload();
WorkloadInfo conv3dWorkload();
WorkloadInfo fdtd2dWorkload();
WorkloadInfo bfsWorkload();
WorkloadInfo kmeansWorkload();
WorkloadInfo streamclusterWorkload();
WorkloadInfo sradWorkload();
WorkloadInfo backpropWorkload();
WorkloadInfo pathfinderWorkload();
WorkloadInfo hotspotWorkload();
WorkloadInfo spmvWorkload();
WorkloadInfo lpsWorkload();
WorkloadInfo matmulWorkload();
WorkloadInfo blackScholesWorkload();
WorkloadInfo invertedIndexWorkload();
WorkloadInfo histogramWorkload();

} // namespace gpusim
