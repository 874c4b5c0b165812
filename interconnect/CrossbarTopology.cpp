#include "interconnect/CrossbarTopology.hpp"

#include <stdexcept>

namespace gpusim {

CrossbarTopology::CrossbarTopology(unsigned sources, unsigned sinks, bool voq) : voq_(voq) {
    if (sources == 0 || sinks == 0) throw std::logic_error("crossbar without terminals");
    routers_.push_back({"xbar", sources, sinks});
    for (unsigned i = 0; i < sources; ++i) sources_.push_back({0, i});
    for (unsigned j = 0; j < sinks; ++j) sinks_.push_back({0, j});
    finish();
}

std::string CrossbarTopology::describe() const {
    return "crossbar " + std::to_string(sources_.size()) + "x" + std::to_string(sinks_.size()) +
           (voq_ ? ", virtual output queues" : ", FIFO input queues");
}

unsigned CrossbarTopology::inputVcs(const PortRef&, unsigned vcs) const {
    return voq_ ? static_cast<unsigned>(sinks_.size()) : vcs;
}

int CrossbarTopology::injectionVc(unsigned, unsigned dst) const {
    return voq_ ? static_cast<int>(dst) : -1;
}

std::string CrossbarTopology::portName(unsigned, unsigned outPort) const {
    return "out" + std::to_string(outPort);
}

} // namespace gpusim
