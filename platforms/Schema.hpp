#pragma once
// The whole parameter schema of a GPU: every folder's declarations plus the top-level ones.
#include "common/Config.hpp"

namespace gpusim {

const ParamSchema& gpuSchema();

} // namespace gpusim
