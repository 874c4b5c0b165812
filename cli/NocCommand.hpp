#pragma once
// `gpusim noc`: the synthetic-traffic testbench of the interconnect
// (interconnect/SyntheticTraffic.hpp) on a network built from a platform's noc.* parameters:
// one run (--rate), a sweep printing latency against offered load as CSV and reporting
// saturation (--sweep), or a soak at overload that checks every packet is delivered once
// (--soak). Returns the exit status; throws InputError on bad input, ModelError when a soak
// finds a deadlock or a lost or duplicated packet.
#include <string>
#include <vector>

namespace gpusim {

int cmdNoc(const std::vector<std::string>& args);

} // namespace gpusim
