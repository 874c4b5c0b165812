#pragma once
// The shape of one subnet: routers with their port counts, the channels between them, where
// each source terminal injects (a router input port) and where each sink terminal is reached
// (a router output port), and the routing function. Pure description, no state: Network builds
// its routers, channels and terminals from it; tests and docs walk it (hops, path).
// Terminals are per subnet: on the request subnet the sources are SM clusters and the sinks
// memory partitions, on the reply subnet the other way round.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "interconnect/NocParams.hpp"

namespace gpusim {

struct PortRef {
    unsigned router = 0;
    unsigned port = 0;
    bool operator==(const PortRef&) const = default;
};

class Topology {
public:
    struct RouterSpec {
        std::string name;
        unsigned inPorts = 0;
        unsigned outPorts = 0;
    };
    // A channel from a router output port to a router input port.
    struct Channel {
        PortRef from;
        PortRef to;
    };

    virtual ~Topology() = default;
    virtual TopologyKind kind() const = 0;
    // One line: kind and geometry ("mesh 6x6, 28 sources, 8 sinks").
    virtual std::string describe() const = 0;

    // The output port a packet for sink `dst` takes at `router` (deterministic, oblivious).
    virtual unsigned route(unsigned router, unsigned dst) const = 0;
    // Virtual channels of a router input port; `vcs` is noc.vcs.
    virtual unsigned inputVcs(const PortRef& in, unsigned vcs) const { return vcs; }
    // The VC a source must inject a packet for `dst` into, or -1 for any.
    virtual int injectionVc(unsigned src, unsigned dst) const { return -1; }
    // Name of a router output port for statistics ("p2", "east").
    virtual std::string portName(unsigned router, unsigned outPort) const;

    const std::vector<RouterSpec>& routers() const { return routers_; }
    const std::vector<Channel>& channels() const { return channels_; }
    const std::vector<PortRef>& sources() const { return sources_; }
    const std::vector<PortRef>& sinks() const { return sinks_; }
    // Index into channels() of the channel leaving `out`, or -1 (unconnected or a sink port).
    int channelFrom(const PortRef& out) const;
    // Index into sinks() of the sink behind `out`, or -1.
    int sinkAt(const PortRef& out) const;

    // Routers a packet from `src` to `dst` traverses (the path's length in router hops; the
    // zero-load latency is hops * (router + link) + flits - 1 cycles). Throws std::logic_error
    // if the route does not reach the sink (a topology bug).
    unsigned hops(unsigned src, unsigned dst) const;
    // Router names along the path, for tests and docs.
    std::vector<std::string> path(unsigned src, unsigned dst) const;

protected:
    // Call at the end of a derived constructor: indexes channels and sinks and checks that
    // no port is used twice.
    void finish();

    std::vector<RouterSpec> routers_;
    std::vector<Channel> channels_;
    std::vector<PortRef> sources_;
    std::vector<PortRef> sinks_;

private:
    std::vector<std::vector<int>> outChannel_;  // [router][outPort]
    std::vector<std::vector<int>> outSink_;     // [router][outPort]
};

// floor(i * slots / count): `count` terminals spread evenly over `slots` positions.
inline unsigned spread(unsigned i, unsigned count, unsigned slots) {
    return static_cast<unsigned>(uint64_t(i) * slots / count);
}

} // namespace gpusim
