#pragma once
// A per-thread cache of freed memory blocks for the objects every started warp allocates and
// frees once (its WarpProgram coroutine frame and its WarpProgramStream): a streaming kernel
// starts a warp every nine instructions, and malloc and free of a frame too large for glibc's
// own per-thread cache (over 1 KiB with a WarpThreads inside) cost about 400 host instructions
// a warp (issue 19).
//
// Sizes round up to a multiple of 64 bytes, up to 4 KiB: a block wastes under 64 bytes (powers
// of two made a 1.1 KiB frame 2 KiB, and a run keeps hundreds alive). Each class keeps at most
// kKeep freed blocks per thread and hands the rest back to the heap, so what a thread holds is
// bounded whichever thread frees what another allocated (with --threads, warps end on the
// worker that steps their SM). Larger sizes go straight to the heap. What is cached is freed at
// thread exit.
// Addresses never reach a statistic, so the cache cannot change a result. Under AddressSanitizer
// every block goes to the heap and back, so that a use after free stays detected.
#include <array>
#include <cstddef>
#include <new>

namespace gpusim {

class FrameCache {
public:
    // False under AddressSanitizer (see above).
    static constexpr bool enabled() { return kEnabled; }
    static void* allocate(std::size_t n) {
        const unsigned c = sizeClass(n);
        if (c >= kClasses || !kEnabled) return ::operator new(n);
        Bin& b = local().bins[c];
        if (b.count) return b.blocks[--b.count];
        return ::operator new(kMin * (c + 1));
    }
    static void release(void* p, std::size_t n) noexcept {
        const unsigned c = sizeClass(n);
        if (c >= kClasses || !kEnabled) {
            ::operator delete(p, n);
            return;
        }
        Bin& b = local().bins[c];
        if (b.count < kKeep) {
            b.blocks[b.count++] = p;
            return;
        }
        ::operator delete(p, kMin * (c + 1));
    }

private:
#if defined(__SANITIZE_ADDRESS__)
    static constexpr bool kEnabled = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    static constexpr bool kEnabled = false;
#else
    static constexpr bool kEnabled = true;
#endif
#else
    static constexpr bool kEnabled = true;
#endif
    static constexpr std::size_t kMin = 64;  // the smallest class's block
    static constexpr unsigned kClasses = 64;  // 64 B, 128 B, .. 4 KiB
    static constexpr unsigned kKeep = 64;    // freed blocks kept per class and thread

    static unsigned sizeClass(std::size_t n) {
        return n <= kMin ? 0u : static_cast<unsigned>((n - 1) / kMin);
    }
    struct Bin {
        std::array<void*, kKeep> blocks{};
        unsigned count = 0;
    };
    struct Bins {
        std::array<Bin, kClasses> bins{};
        ~Bins() {
            // Emptied as well as freed: a block asked for after this (a warp started during the
            // thread's exit) is then a valid one, never one freed here.
            for (unsigned c = 0; c < kClasses; ++c) {
                for (unsigned i = 0; i < bins[c].count; ++i) ::operator delete(bins[c].blocks[i], kMin * (c + 1));
                bins[c].count = 0;
            }
        }
    };
    static Bins& local() {
        thread_local Bins bins;
        return bins;
    }
};

} // namespace gpusim
