#pragma once
// Global address -> memory partition -> DRAM bank, row and column. Lives in common/ because the
// SM (which stamps the destination partition into the GpuExtension), the NoC (which routes on
// it), the L2 slices and the DRAM controllers all need it, and only common/ is shared by them.
//
// Partition: the address space is cut into chunks of `addrmap.interleave_bytes`; chunk c goes to
// partition (c mod P) with `addrmap.hash = none`. With `xor`, each group of P consecutive chunks
// is rotated by a hash of the group index (XOR-folded upper bits), so strided streams spread over
// partitions (the idea of GPGPU-Sim's partition hashing, not its exact function) while the map
// stays a bijection between global addresses and (partition, local address).
//
// Local address: the address with the partition-selecting chunk bits squeezed out (group index
// and offset in the chunk), dense inside a partition. DRAM coordinates come from it:
//
//   local = | row | column-high | bank | column-low |
//                                        `- log2(addrmap.bank_interleave_bytes) bits
//           column = column-high * bank_interleave_bytes + column-low (byte offset in the row)
//
// With the default bank_interleave_bytes = dram.row_bytes a whole row is contiguous in the local
// address space (row:bank:column, best for streams); smaller values spread consecutive chunks over
// banks (row:column:bank:column). `addrmap.bank_hash = xor` XORs the bank bits with the low row
// bits (permutation-based interleaving), so rows that would conflict in one bank land in
// different banks. Every choice keeps (bank, row, column) <-> local a bijection.
// Leaves out: ranks, bank groups, channel interleaving inside a partition.
#include <cstdint>

#include "common/AddressMapParams.hpp"

namespace gpusim {

struct DramCoord {
    unsigned bank = 0;
    uint64_t row = 0;
    uint64_t column = 0;  // byte offset inside the row
    bool operator==(const DramCoord&) const = default;
};

// Where a global address lives: its partition, its partition-local address and the DRAM
// coordinates our controllers decode from that local address.
struct AddressLocation {
    unsigned partition = 0;
    uint64_t local = 0;
    DramCoord dram;
    bool operator==(const AddressLocation&) const = default;
};

class AddressMap {
public:
    using Hash = AddressHash;
    struct DramGeometry {
        unsigned banks = 16;
        uint64_t rowBytes = 2048;
        uint64_t bankInterleaveBytes = 2048;
        Hash bankHash = Hash::None;
    };
    AddressMap(unsigned partitions, uint64_t interleaveBytes, Hash hash);
    AddressMap(unsigned partitions, uint64_t interleaveBytes, Hash hash, const DramGeometry& dram);
    // The parameters read from a configuration (common/AddressMapParams.hpp).
    explicit AddressMap(const AddressMapParams& p);

    unsigned partition(uint64_t addr) const;
    // The address with the partition-selecting chunk bits squeezed out, so a slice or controller
    // indexes its sets/banks densely. Unique inside one partition; tags keep the full address.
    uint64_t localAddress(uint64_t addr) const;
    // Inverse of (partition, localAddress).
    uint64_t globalAddress(unsigned partition, uint64_t local) const;
    unsigned partitions() const { return parts_; }
    uint64_t interleaveBytes() const { return interleave_; }

    // Sub-partitions (two L2 slices in front of one controller, GPGPU-Sim's sub-partitions):
    // consecutive local chunks alternate between the n slices, and each slice's own local
    // address squeezes that choice out again.
    unsigned subPartition(uint64_t addr, unsigned n) const;
    uint64_t subLocalAddress(uint64_t addr, unsigned n) const;

    // DRAM coordinates of a global address (in its own partition), and of a local address.
    DramCoord dram(uint64_t addr) const { return decodeLocal(localAddress(addr)); }
    AddressLocation locate(uint64_t addr) const {
        const uint64_t local = localAddress(addr);
        return {partition(addr), local, decodeLocal(local)};
    }
    DramCoord decodeLocal(uint64_t local) const;
    uint64_t encodeLocal(const DramCoord& c) const;  // inverse of decodeLocal
    const DramGeometry& dramGeometry() const { return geo_; }

private:
    uint64_t rotation(uint64_t group) const;

    unsigned parts_;
    uint64_t interleave_;
    unsigned shift_;
    Hash hash_;
    DramGeometry geo_;
    unsigned bankLowBits_;   // log2(bankInterleaveBytes)
    unsigned bankBits_;      // log2(banks)
    unsigned colHighBits_;   // log2(rowBytes / bankInterleaveBytes)
};

} // namespace gpusim
