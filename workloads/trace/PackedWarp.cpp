#include "workloads/trace/PackedWarp.hpp"

namespace gpusim {

namespace {

// Word 1: mask | op << 32 (4 bits) | space << 36 (3) | accessBytes << 39 (5) | numDst << 44 (2) |
// numSrc << 46 (3) | address form << 49 (2) | atomic << 51 (1). Word 2: dst0, dst1, src0..src3,
// 10 bits each (register numbers of WarpInstruction.hpp's namespace are < 1024).
enum AddrForm : uint64_t { kNone = 0, kStride = 1, kList = 2 };

constexpr unsigned kOpShift = 32, kSpaceShift = 36, kBytesShift = 39, kDstShift = 44, kSrcShift = 46,
                   kFormShift = 49, kAtomicShift = 51;
constexpr unsigned kRegBits = 10, kSrcRegShift = 2 * kRegBits;
constexpr uint64_t kRegMask = (uint64_t(1) << kRegBits) - 1;
static_assert(kRegisterSpace <= kRegMask + 1, "a register number must fit its field");
static_assert(kSrcRegShift + 4 * kRegBits <= 64, "six register fields fit one word");

} // namespace

void PackedWarp::append(const WarpInstruction& in) {
    last_ = words_.size();
    ++count_;
    const bool mem = in.isMemory();
    const uint32_t mask = in.activeMask;
    AddrForm form = kNone;
    int64_t stride = 0;
    unsigned first = 0;
    if (mem && mask != 0) {
        // One constant step between consecutive active lanes (in lane order) keeps 2 words.
        first = static_cast<unsigned>(__builtin_ctz(mask));
        form = kStride;
        bool haveStride = false;
        uint64_t prev = in.addr[first];
        for (unsigned lane = first + 1; lane < kWarpSize; ++lane) {
            if (!(mask >> lane & 1u)) continue;
            const int64_t d = static_cast<int64_t>(in.addr[lane] - prev);
            if (!haveStride) {
                stride = d;
                haveStride = true;
            } else if (d != stride) {
                form = kList;
                break;
            }
            prev = in.addr[lane];
        }
    }
    words_.push_back(in.pc);
    words_.push_back(uint64_t(mask) | uint64_t(in.op) << kOpShift | uint64_t(in.space) << kSpaceShift |
                     uint64_t(in.accessBytes) << kBytesShift | uint64_t(in.numDst) << kDstShift |
                     uint64_t(in.numSrc) << kSrcShift | uint64_t(form) << kFormShift |
                     uint64_t(in.atomic) << kAtomicShift);
    uint64_t regs = 0;
    for (unsigned i = 0; i < in.numDst; ++i) regs |= (in.dst[i] & kRegMask) << (kRegBits * i);
    for (unsigned i = 0; i < in.numSrc; ++i) regs |= (in.src[i] & kRegMask) << (kSrcRegShift + kRegBits * i);
    words_.push_back(regs);
    if (form == kStride) {
        words_.push_back(in.addr[first]);
        words_.push_back(static_cast<uint64_t>(stride));
    } else if (form == kList) {
        for (unsigned lane = 0; lane < kWarpSize; ++lane)
            if (mask >> lane & 1u) words_.push_back(in.addr[lane]);
    }
}

OpClass PackedWarp::lastOp() const { return static_cast<OpClass>(words_[last_ + 1] >> kOpShift & 0xf); }

void PackedWarp::setLastOp(OpClass op) {
    uint64_t& w = words_[last_ + 1];
    w = (w & ~(uint64_t(0xf) << kOpShift)) | uint64_t(op) << kOpShift;
}

bool PackedWarp::read(size_t& pos, WarpInstruction& out) const {
    if (pos >= words_.size()) return false;
    const uint64_t w1 = words_[pos + 1], regs = words_[pos + 2];
    out.pc = words_[pos];
    out.activeMask = static_cast<uint32_t>(w1);
    out.op = static_cast<OpClass>(w1 >> kOpShift & 0xf);
    out.space = static_cast<MemSpace>(w1 >> kSpaceShift & 0x7);
    out.accessBytes = static_cast<uint8_t>(w1 >> kBytesShift & 0x1f);
    out.numDst = static_cast<uint8_t>(w1 >> kDstShift & 0x3);
    out.numSrc = static_cast<uint8_t>(w1 >> kSrcShift & 0x7);
    const auto form = static_cast<AddrForm>(w1 >> kFormShift & 0x3);
    out.atomic = (w1 >> kAtomicShift & 1u) != 0;
    out.dst = {kNoReg, kNoReg};
    out.src = {kNoReg, kNoReg, kNoReg, kNoReg};
    for (unsigned i = 0; i < out.numDst; ++i) out.dst[i] = static_cast<uint16_t>(regs >> (kRegBits * i) & kRegMask);
    for (unsigned i = 0; i < out.numSrc; ++i)
        out.src[i] = static_cast<uint16_t>(regs >> (kSrcRegShift + kRegBits * i) & kRegMask);
    pos += 3;
    if (!out.isMemory()) return true;
    const uint32_t mask = out.activeMask;
    out.addr.fill(0);
    if (form == kStride) {
        uint64_t a = words_[pos];
        const uint64_t stride = words_[pos + 1];
        for (unsigned lane = 0; lane < kWarpSize; ++lane)
            if (mask >> lane & 1u) {
                out.addr[lane] = a;
                a += stride;
            }
        pos += 2;
    } else if (form == kList) {
        for (unsigned lane = 0; lane < kWarpSize; ++lane)
            if (mask >> lane & 1u) out.addr[lane] = words_[pos++];
    }
    return true;
}

} // namespace gpusim
