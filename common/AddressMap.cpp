#include "common/AddressMap.hpp"

#include <bit>

#include "common/Config.hpp"

namespace gpusim {

AddressMap::AddressMap(unsigned partitions, uint64_t interleaveBytes, Hash hash)
    : parts_(partitions), interleave_(interleaveBytes),
      shift_(static_cast<unsigned>(std::countr_zero(interleaveBytes))), hash_(hash) {}

AddressMap::AddressMap(const Config& cfg)
    : AddressMap(static_cast<unsigned>(cfg.getInt("mem.partitions")),
                 static_cast<uint64_t>(cfg.getInt("addrmap.interleave_bytes")),
                 cfg.getString("addrmap.hash") == "xor" ? Hash::Xor : Hash::None) {}

void AddressMap::declare(ParamSchema& s) {
    s.addInt("mem.partitions", 6, "", 1, 64, "Memory partitions (each an L2 slice and a controller)")
        .addInt("addrmap.interleave_bytes", 256, "bytes", 32, 1 << 20,
                "Contiguous bytes mapped to one partition before moving to the next")
        .addEnum("addrmap.hash", "none", {"none", "xor"},
                 "Partition index: plain modulo of the chunk index, or XOR-folded upper bits first")
        .addCheck([](const Config& c) {
            auto v = c.getInt("addrmap.interleave_bytes");
            if (!std::has_single_bit(static_cast<uint64_t>(v)))
                c.fail("addrmap.interleave_bytes", std::to_string(v) + " is not a power of two");
        });
}

unsigned AddressMap::partition(uint64_t addr) const {
    uint64_t chunk = addr >> shift_;
    if (hash_ == Hash::Xor) chunk ^= (chunk >> 7) ^ (chunk >> 13);
    return static_cast<unsigned>(chunk % parts_);
}

uint64_t AddressMap::localAddress(uint64_t addr) const {
    const uint64_t chunk = addr >> shift_;
    return ((chunk / parts_) << shift_) | (addr & (interleave_ - 1));
}

} // namespace gpusim
