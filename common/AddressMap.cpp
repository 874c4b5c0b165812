#include "common/AddressMap.hpp"

#include <bit>
#include <string>

#include "common/Config.hpp"

namespace gpusim {

namespace {
unsigned log2u(uint64_t v) { return static_cast<unsigned>(std::countr_zero(v)); }
bool isPow2(int64_t v) { return v > 0 && std::has_single_bit(static_cast<uint64_t>(v)); }
} // namespace

AddressMap::AddressMap(unsigned partitions, uint64_t interleaveBytes, Hash hash)
    : AddressMap(partitions, interleaveBytes, hash, DramGeometry{}) {}

AddressMap::AddressMap(unsigned partitions, uint64_t interleaveBytes, Hash hash, const DramGeometry& dram)
    : parts_(partitions), interleave_(interleaveBytes), shift_(log2u(interleaveBytes)), hash_(hash),
      geo_(dram), bankLowBits_(log2u(dram.bankInterleaveBytes)), bankBits_(log2u(dram.banks)),
      colHighBits_(log2u(dram.rowBytes / dram.bankInterleaveBytes)) {}

AddressMap::AddressMap(const Config& cfg)
    : AddressMap(static_cast<unsigned>(cfg.getInt("mem.partitions")),
                 static_cast<uint64_t>(cfg.getInt("addrmap.interleave_bytes")),
                 cfg.getString("addrmap.hash") == "xor" ? Hash::Xor : Hash::None,
                 DramGeometry{static_cast<unsigned>(cfg.getInt("dram.banks")),
                              static_cast<uint64_t>(cfg.getInt("dram.row_bytes")),
                              static_cast<uint64_t>(cfg.getInt("addrmap.bank_interleave_bytes")),
                              cfg.getString("addrmap.bank_hash") == "xor" ? Hash::Xor : Hash::None}) {}

void AddressMap::declare(ParamSchema& s) {
    s.addInt("mem.partitions", 6, "", 1, 64, "Memory partitions (each an L2 slice and a controller)")
        .addInt("addrmap.interleave_bytes", 256, "bytes", 32, 1 << 20,
                "Contiguous bytes mapped to one partition before moving to the next")
        .addEnum("addrmap.hash", "none", {"none", "xor"},
                 "Partition index: plain modulo of the chunk index, or each group of "
                 "mem.partitions chunks rotated by XOR-folded upper bits")
        .addInt("dram.banks", 16, "", 1, 64,
                "Banks per memory controller (power of two; 16 for the GDDR5 Fermi baselines, 4 "
                "for GDDR3 owl28)")
        .addInt("dram.row_bytes", 2048, "bytes", 64, 1 << 16,
                "Row (page) size of one bank across the controller's data bus (power of two)")
        .addInt("addrmap.bank_interleave_bytes", 2048, "bytes", 32, 1 << 16,
                "Contiguous partition-local bytes in one bank before moving to the next bank "
                "(power of two, at most dram.row_bytes; equal to it: a whole row is contiguous)")
        .addEnum("addrmap.bank_hash", "none", {"none", "xor"},
                 "Bank index: plain, or XORed with the low row bits (permutation interleaving)")
        .addCheck([](const Config& c) {
            auto v = c.getInt("addrmap.interleave_bytes");
            if (!std::has_single_bit(static_cast<uint64_t>(v)))
                c.fail("addrmap.interleave_bytes", std::to_string(v) + " is not a power of two");
            const int64_t banks = c.getInt("dram.banks");
            const int64_t row = c.getInt("dram.row_bytes");
            const int64_t bankChunk = c.getInt("addrmap.bank_interleave_bytes");
            if (!isPow2(banks)) c.fail("dram.banks", std::to_string(banks) + " is not a power of two");
            if (!isPow2(row)) c.fail("dram.row_bytes", std::to_string(row) + " is not a power of two");
            if (!isPow2(bankChunk))
                c.fail("addrmap.bank_interleave_bytes", std::to_string(bankChunk) + " is not a power of two");
            if (bankChunk > row)
                c.fail("addrmap.bank_interleave_bytes",
                       std::to_string(bankChunk) + " is larger than dram.row_bytes (" + std::to_string(row) + ")");
        });
}

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
