#pragma once
// Global address -> memory partition. Lives in common/ because both the SM (which stamps the
// destination into the GpuExtension) and the NoC (which routes on it) need it, and neither may
// include memory/. Interleaving at `addrmap.interleave_bytes`; with `addrmap.hash = xor` the
// chunk index is XOR-folded with higher address bits before the modulo, which spreads strided
// streams over partitions (the idea of GPGPU-Sim's partition hashing, not its exact function).
#include <cstdint>

namespace gpusim {

class Config;
class ParamSchema;

class AddressMap {
public:
    enum class Hash { None, Xor };
    AddressMap(unsigned partitions, uint64_t interleaveBytes, Hash hash);
    explicit AddressMap(const Config& cfg);
    static void declare(ParamSchema& s);

    unsigned partition(uint64_t addr) const;
    // The address with the partition-selecting chunk bits squeezed out, so a slice or controller
    // indexes its sets/banks densely. Not unique across partitions; tags keep the full address.
    uint64_t localAddress(uint64_t addr) const;
    unsigned partitions() const { return parts_; }

private:
    unsigned parts_;
    uint64_t interleave_;
    unsigned shift_;
    Hash hash_;
};

} // namespace gpusim
