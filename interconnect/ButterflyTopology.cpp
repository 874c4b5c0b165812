#include "interconnect/ButterflyTopology.hpp"

#include <stdexcept>

#include "common/SimError.hpp"

namespace gpusim {

namespace {
unsigned ipow(unsigned b, unsigned e) {
    uint64_t r = 1;
    for (unsigned i = 0; i < e; ++i) r *= b;
    if (r > (1u << 20)) throw InputError("noc.butterfly: radix^stages = " + std::to_string(r) + " ports is too large");
    return static_cast<unsigned>(r);
}
unsigned digit(unsigned x, unsigned pos, unsigned k) {
    for (unsigned i = 0; i < pos; ++i) x /= k;
    return x % k;
}
} // namespace

unsigned ButterflyTopology::stagesFor(unsigned radix, unsigned terminals) {
    unsigned n = 1;
    uint64_t ports = radix;
    while (ports < terminals) {
        ports *= radix;
        ++n;
    }
    return n;
}

ButterflyTopology::ButterflyTopology(unsigned radix, unsigned stages, unsigned sources, unsigned sinks)
    : k_(radix) {
    if (radix < 2) throw std::logic_error("butterfly radix below 2");
    if (sources == 0 || sinks == 0) throw std::logic_error("butterfly without terminals");
    const unsigned need = sources > sinks ? sources : sinks;
    n_ = stages ? stages : stagesFor(radix, need);
    ports_ = ipow(k_, n_);
    if (ports_ < need)
        throw InputError("noc.butterfly.stages: a " + std::to_string(k_) + "-ary " + std::to_string(n_) +
                         "-fly has " + std::to_string(ports_) + " ports per side, fewer than the " +
                         std::to_string(need) + " terminals");
    perStage_ = ports_ / k_;
    for (unsigned s = 0; s < n_; ++s)
        for (unsigned r = 0; r < perStage_; ++r)
            routers_.push_back({"s" + std::to_string(s) + "r" + std::to_string(r), k_, k_});
    auto id = [&](unsigned s, unsigned r) { return s * perStage_ + r; };
    for (unsigned s = 0; s + 1 < n_; ++s) {
        const unsigned pos = n_ - 2 - s;
        unsigned weight = 1;
        for (unsigned i = 0; i < pos; ++i) weight *= k_;
        for (unsigned r = 0; r < perStage_; ++r) {
            const unsigned old = digit(r, pos, k_);
            for (unsigned p = 0; p < k_; ++p) {
                const unsigned next = r - old * weight + p * weight;
                channels_.push_back({{id(s, r), p}, {id(s + 1, next), old}});
            }
        }
    }
    for (unsigned i = 0; i < sources; ++i) {
        const unsigned t = spread(i, sources, ports_);
        sources_.push_back({id(0, t / k_), t % k_});
    }
    for (unsigned j = 0; j < sinks; ++j) {
        const unsigned t = spread(j, sinks, ports_);
        sinkPort_.push_back(t);
        sinks_.push_back({id(n_ - 1, t / k_), t % k_});
    }
    finish();
}

unsigned ButterflyTopology::route(unsigned router, unsigned dst) const {
    const unsigned stage = router / perStage_;
    return digit(sinkPort_[dst], n_ - 1 - stage, k_);
}

std::string ButterflyTopology::describe() const {
    return std::to_string(k_) + "-ary " + std::to_string(n_) + "-fly (" + std::to_string(routers_.size()) +
           " routers of " + std::to_string(k_) + "x" + std::to_string(k_) + "), " +
           std::to_string(sources_.size()) + " sources, " + std::to_string(sinks_.size()) + " sinks";
}

} // namespace gpusim
