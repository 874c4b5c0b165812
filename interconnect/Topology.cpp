#include "interconnect/Topology.hpp"

#include <stdexcept>

namespace gpusim {

std::string Topology::portName(unsigned, unsigned outPort) const { return "p" + std::to_string(outPort); }

void Topology::finish() {
    outChannel_.assign(routers_.size(), {});
    outSink_.assign(routers_.size(), {});
    std::vector<std::vector<bool>> inUsed(routers_.size());
    for (size_t r = 0; r < routers_.size(); ++r) {
        outChannel_[r].assign(routers_[r].outPorts, -1);
        outSink_[r].assign(routers_[r].outPorts, -1);
        inUsed[r].assign(routers_[r].inPorts, false);
    }
    auto checkOut = [&](const PortRef& p, const char* what) {
        if (p.router >= routers_.size() || p.port >= routers_[p.router].outPorts)
            throw std::logic_error(std::string("topology: ") + what + " from a missing output port");
        if (outChannel_[p.router][p.port] >= 0 || outSink_[p.router][p.port] >= 0)
            throw std::logic_error(std::string("topology: output port used twice (") + what + ")");
    };
    auto useIn = [&](const PortRef& p, const char* what) {
        if (p.router >= routers_.size() || p.port >= routers_[p.router].inPorts)
            throw std::logic_error(std::string("topology: ") + what + " into a missing input port");
        if (inUsed[p.router][p.port]) throw std::logic_error(std::string("topology: input port used twice (") + what + ")");
        inUsed[p.router][p.port] = true;
    };
    for (size_t c = 0; c < channels_.size(); ++c) {
        checkOut(channels_[c].from, "channel");
        useIn(channels_[c].to, "channel");
        outChannel_[channels_[c].from.router][channels_[c].from.port] = static_cast<int>(c);
    }
    for (size_t s = 0; s < sinks_.size(); ++s) {
        checkOut(sinks_[s], "sink");
        outSink_[sinks_[s].router][sinks_[s].port] = static_cast<int>(s);
    }
    for (const auto& s : sources_) useIn(s, "source");
}

int Topology::channelFrom(const PortRef& out) const { return outChannel_[out.router][out.port]; }
int Topology::sinkAt(const PortRef& out) const { return outSink_[out.router][out.port]; }

std::vector<std::string> Topology::path(unsigned src, unsigned dst) const {
    std::vector<std::string> names;
    unsigned r = sources_.at(src).router;
    if (dst >= sinks_.size()) throw std::logic_error("topology: path to a missing sink");
    for (size_t step = 0; step <= routers_.size(); ++step) {
        names.push_back(routers_[r].name);
        const PortRef out{r, route(r, dst)};
        if (out.port >= routers_[r].outPorts) throw std::logic_error("topology: route to a missing port");
        if (sinkAt(out) == static_cast<int>(dst)) return names;
        const int c = channelFrom(out);
        if (c < 0)
            throw std::logic_error("topology: route from " + routers_[r].name + " leads nowhere for sink " +
                                   std::to_string(dst));
        r = channels_[static_cast<size_t>(c)].to.router;
    }
    throw std::logic_error("topology: route loops for sink " + std::to_string(dst));
}

unsigned Topology::hops(unsigned src, unsigned dst) const {
    return static_cast<unsigned>(path(src, dst).size());
}

} // namespace gpusim
