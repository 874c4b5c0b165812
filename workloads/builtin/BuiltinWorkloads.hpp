#pragma once
// Registration entries of the built-in kernel library. WorkloadRegistry::builtin() adds them
// explicitly: self-registering statics in a static library are dropped by the linker when
// nothing references their object file.
#include "workloads/Workload.hpp"

namespace gpusim {

WorkloadInfo vectorAddWorkload();
WorkloadInfo ataxWorkload();

} // namespace gpusim
