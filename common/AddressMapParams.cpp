#include "common/AddressMapParams.hpp"

#include <bit>
#include <string>

#include "common/Config.hpp"

namespace gpusim {

namespace {
bool isPow2(int64_t v) { return v > 0 && std::has_single_bit(static_cast<uint64_t>(v)); }
AddressHash hashOf(const Config& c, const char* key) {
    return c.getChoice<AddressHash>(key, {{"none", AddressHash::None}, {"xor", AddressHash::Xor}});
}
} // namespace

void AddressMapParams::declare(ParamSchema& s) {
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
                       std::to_string(bankChunk) + " is larger than dram.row_bytes (" + std::to_string(row) + ")",
                       {"dram.row_bytes"});
        });
}

AddressMapParams AddressMapParams::from(const Config& c) {
    AddressMapParams p;
    p.partitions = static_cast<unsigned>(c.getInt("mem.partitions"));
    p.interleaveBytes = static_cast<uint64_t>(c.getInt("addrmap.interleave_bytes"));
    p.hash = hashOf(c, "addrmap.hash");
    p.banks = static_cast<unsigned>(c.getInt("dram.banks"));
    p.rowBytes = static_cast<uint64_t>(c.getInt("dram.row_bytes"));
    p.bankInterleaveBytes = static_cast<uint64_t>(c.getInt("addrmap.bank_interleave_bytes"));
    p.bankHash = hashOf(c, "addrmap.bank_hash");
    return p;
}

} // namespace gpusim
