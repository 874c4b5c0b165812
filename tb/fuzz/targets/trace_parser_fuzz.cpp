// libFuzzer entry point for the Accel-Sim trace parser (TraceParserHarness.hpp).
#include "TraceParserHarness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    gpusim::fuzz::runTraceParser(data, size);
    return 0;
}
