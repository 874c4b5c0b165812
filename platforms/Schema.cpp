#include "platforms/Schema.hpp"

#include "common/AddressMapParams.hpp"
#include "common/TlmLinkParams.hpp"
#include "interconnect/NocParams.hpp"
#include "memory/DramConfig.hpp"
#include "memory/IdealMemoryParams.hpp"
#include "memory/L2SliceParams.hpp"
#include "modules/SmConfig.hpp"
#include "platforms/GpuParams.hpp"

namespace gpusim {

const ParamSchema& gpuSchema() {
    static const ParamSchema schema = [] {
        ParamSchema s;
        GpuParams::declare(s);
        AddressMapParams::declare(s);
        SmConfig::declare(s);
        NocParams::declare(s);
        L2SliceParams::declare(s);
        IdealMemoryParams::declare(s);
        DramConfig::declare(s);
        TlmLinkParams::declare(s);
        return s;
    }();
    return schema;
}

} // namespace gpusim
