#pragma once
// The address map's parameters as plain data (mem.partitions, addrmap.*, dram.banks,
// dram.row_bytes): declared once with their checks, read from a Config in one place, and handed
// to AddressMap's constructor, so a test builds a map without a Config. The member defaults are
// the schema's defaults.
#include <cstdint>

namespace gpusim {

class Config;
class ParamSchema;

enum class AddressHash { None, Xor };

struct AddressMapParams {
    unsigned partitions = 6;                 // mem.partitions
    uint64_t interleaveBytes = 256;          // addrmap.interleave_bytes
    AddressHash hash = AddressHash::None;    // addrmap.hash
    unsigned banks = 16;                     // dram.banks
    uint64_t rowBytes = 2048;                // dram.row_bytes
    uint64_t bankInterleaveBytes = 2048;     // addrmap.bank_interleave_bytes
    AddressHash bankHash = AddressHash::None;  // addrmap.bank_hash

    bool operator==(const AddressMapParams&) const = default;

    // Declares the keys above with their checks (powers of two, bank chunk within a row).
    static void declare(ParamSchema& s);
    static AddressMapParams from(const Config& c);
};

} // namespace gpusim
