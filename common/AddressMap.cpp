#include "common/AddressMap.hpp"

#include <bit>
#include <string>

namespace gpusim {

namespace {
unsigned log2u(uint64_t v) { return static_cast<unsigned>(std::countr_zero(v)); }
} // namespace

AddressMap::AddressMap(unsigned partitions, uint64_t interleaveBytes, Hash hash)
    : AddressMap(partitions, interleaveBytes, hash, DramGeometry{}) {}

AddressMap::AddressMap(unsigned partitions, uint64_t interleaveBytes, Hash hash, const DramGeometry& dram)
    : parts_(partitions), interleave_(interleaveBytes), shift_(log2u(interleaveBytes)), hash_(hash),
      geo_(dram), bankLowBits_(log2u(dram.bankInterleaveBytes)), bankBits_(log2u(dram.banks)),
      colHighBits_(log2u(dram.rowBytes / dram.bankInterleaveBytes)) {}

AddressMap::AddressMap(const AddressMapParams& p)
    : AddressMap(p.partitions, p.interleaveBytes, p.hash,
                 DramGeometry{p.banks, p.rowBytes, p.bankInterleaveBytes, p.bankHash}) {}

uint64_t AddressMap::rotation(uint64_t group) const {
    return hash_ == Hash::Xor ? group ^ (group >> 7) ^ (group >> 13) : 0;
}

unsigned AddressMap::partition(uint64_t addr) const {
    const uint64_t chunk = addr >> shift_;
    const uint64_t group = chunk / parts_;
    // A rotation of each group keeps the map a bijection whatever P is (an XOR applied before
    // the modulo is not one when P is not a power of two).
    return static_cast<unsigned>((chunk % parts_ + rotation(group) % parts_) % parts_);
}

uint64_t AddressMap::localAddress(uint64_t addr) const {
    const uint64_t chunk = addr >> shift_;
    return ((chunk / parts_) << shift_) | (addr & (interleave_ - 1));
}

uint64_t AddressMap::globalAddress(unsigned partition, uint64_t local) const {
    const uint64_t group = local >> shift_;
    const uint64_t r = (partition + parts_ - rotation(group) % parts_) % parts_;
    return ((group * parts_ + r) << shift_) | (local & (interleave_ - 1));
}

unsigned AddressMap::subPartition(uint64_t addr, unsigned n) const {
    return static_cast<unsigned>((localAddress(addr) >> shift_) % n);
}

uint64_t AddressMap::subLocalAddress(uint64_t addr, unsigned n) const {
    const uint64_t local = localAddress(addr);
    return (((local >> shift_) / n) << shift_) | (local & (interleave_ - 1));
}

DramCoord AddressMap::decodeLocal(uint64_t local) const {
    DramCoord c;
    const uint64_t colLow = local & (geo_.bankInterleaveBytes - 1);
    uint64_t rest = local >> bankLowBits_;
    unsigned bank = static_cast<unsigned>(rest & (geo_.banks - 1));
    rest >>= bankBits_;
    const uint64_t colHigh = rest & ((uint64_t(1) << colHighBits_) - 1);
    c.row = rest >> colHighBits_;
    if (geo_.bankHash == Hash::Xor) bank ^= static_cast<unsigned>(c.row & (geo_.banks - 1));
    c.bank = bank;
    c.column = (colHigh << bankLowBits_) | colLow;
    return c;
}

uint64_t AddressMap::encodeLocal(const DramCoord& c) const {
    unsigned bank = c.bank;
    if (geo_.bankHash == Hash::Xor) bank ^= static_cast<unsigned>(c.row & (geo_.banks - 1));
    const uint64_t colLow = c.column & (geo_.bankInterleaveBytes - 1);
    const uint64_t colHigh = c.column >> bankLowBits_;
    return (((((c.row << colHighBits_) | colHigh) << bankBits_) | bank) << bankLowBits_) | colLow;
}

} // namespace gpusim
