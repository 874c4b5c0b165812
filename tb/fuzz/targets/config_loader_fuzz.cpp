// libFuzzer entry point for the platform configuration loader (ConfigLoaderHarness.hpp).
#include "ConfigLoaderHarness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    gpusim::fuzz::runConfigLoader(data, size);
    return 0;
}
