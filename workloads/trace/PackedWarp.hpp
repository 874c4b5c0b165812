#pragma once
// The instructions of one warp of a thread block, as the trace reader holds them between
// reading the block's section and the warp running: 3 words per instruction plus, for memory
// operations, 2 words when the active lanes' addresses step by a constant (most accesses) or
// one word per active lane otherwise. A WarpInstruction is ~330 bytes, so this keeps a resident
// thread block at ~25-40 bytes per instruction instead.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "workloads/WarpInstruction.hpp"

namespace gpusim {

class PackedWarp {
public:
    // Registers must be < kRegisterSpace (WarpInstruction.hpp; trace registers are); counts
    // decide which are used.
    void append(const WarpInstruction& in);
    size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    // Class of the last instruction appended; changes it (an EXIT that turned out not to be the
    // warp's last becomes ALU).
    OpClass lastOp() const;
    void setLastOp(OpClass op);
    uint64_t lastPc() const { return words_[last_]; }
    size_t bytes() const { return words_.capacity() * sizeof(uint64_t); }

    // Decodes the instruction at word offset `pos` and advances it; false at the end.
    bool read(size_t& pos, WarpInstruction& out) const;

private:
    std::vector<uint64_t> words_;
    size_t count_ = 0;
    size_t last_ = 0;  // word offset of the last instruction
};

} // namespace gpusim
