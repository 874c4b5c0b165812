#pragma once
// The instruction stream of one warp written as straight-line C++ (a C++20 coroutine), so a
// built-in kernel reads like the SASS it models:
//
//     WarpProgram body(WarpThreads t, ...) {
//         co_yield inst::alu(pc, t.existMask(), {r0}, {});
//         for (uint64_t j = 0; j < n; ++j) { co_yield inst::load(...); ... }
//         co_yield inst::exit(pc, t.existMask());
//     }
//
// Instructions are produced one at a time as the SM pulls them, so memory per warp is one
// coroutine frame however long the loop (an atax n=16384 warp runs ~115K instructions).
// Pass everything the body needs by value: the frame outlives the call that created it, and
// references or `this` captured by a member-function coroutine would dangle if the owner went
// away first.
//
// WarpProgramStream enforces the WarpStream contract (the program ends with exactly one Exit
// and yields nothing after it), turning a kernel-author mistake into a ModelError instead of a
// hung or silently short warp.
#include <coroutine>
#include <exception>
#include <memory>
#include <utility>

#include "common/SimError.hpp"
#include "workloads/FrameCache.hpp"
#include "workloads/Kernel.hpp"
#include "workloads/WarpInstruction.hpp"

namespace gpusim {

class WarpProgram {
public:
    struct promise_type {
        // The caller's instruction, set by next() for the duration of one resume: co_yield writes
        // into it directly instead of going through a copy.
        WarpInstruction* out = nullptr;
        std::exception_ptr error;

        // Frames from the per-thread cache: one is made and destroyed per warp started.
        static void* operator new(std::size_t n) { return FrameCache::allocate(n); }
        static void operator delete(void* p, std::size_t n) noexcept { FrameCache::release(p, n); }

        WarpProgram get_return_object() {
            return WarpProgram(std::coroutine_handle<promise_type>::from_promise(*this));
        }
        // Lazy start: constructing a stream costs nothing until the first pull.
        std::suspend_always initial_suspend() noexcept { return {}; }
        std::suspend_always final_suspend() noexcept { return {}; }
        // An instruction description from InstructionFactory.hpp.
        template <class Description>
            requires requires(const Description& d, WarpInstruction& in) { d.writeTo(in); }
        std::suspend_always yield_value(const Description& d) {
            d.writeTo(*out);
            return {};
        }
        // A ready-made instruction, for kernels that build one themselves.
        std::suspend_always yield_value(const WarpInstruction& in) {
            *out = in;
            return {};
        }
        void return_void() noexcept {}
        void unhandled_exception() noexcept { error = std::current_exception(); }
    };

    WarpProgram(WarpProgram&& other) noexcept : h_(std::exchange(other.h_, {})) {}
    WarpProgram& operator=(WarpProgram&& other) noexcept {
        if (this != &other) {
            reset();
            h_ = std::exchange(other.h_, {});
        }
        return *this;
    }
    WarpProgram(const WarpProgram&) = delete;
    WarpProgram& operator=(const WarpProgram&) = delete;
    ~WarpProgram() { reset(); }

    // Runs the body to its next co_yield. Returns false once the body has returned; rethrows
    // anything the body threw.
    bool next(WarpInstruction& out) {
        if (!h_ || h_.done()) return false;
        h_.promise().out = &out;
        h_.resume();
        h_.promise().out = nullptr;
        if (h_.promise().error) std::rethrow_exception(std::exchange(h_.promise().error, {}));
        return !h_.done();
    }

private:
    explicit WarpProgram(std::coroutine_handle<promise_type> h) : h_(h) {}
    void reset() {
        if (h_) h_.destroy();
        h_ = {};
    }
    std::coroutine_handle<promise_type> h_;
};

class WarpProgramStream final : public WarpStream {
public:
    explicit WarpProgramStream(WarpProgram program) : program_(std::move(program)) {}
    static void* operator new(std::size_t n) { return FrameCache::allocate(n); }
    static void operator delete(void* p, std::size_t n) noexcept { FrameCache::release(p, n); }

    bool next(WarpInstruction& out) override {
        if (exited_) {
            WarpInstruction extra;
            if (program_.next(extra))
                throw ModelError("built-in kernel: warp program yielded an instruction after Exit");
            return false;
        }
        if (!program_.next(out))
            throw ModelError("built-in kernel: warp program ended without an Exit instruction");
        exited_ = out.op == OpClass::Exit;
        return true;
    }

private:
    WarpProgram program_;
    bool exited_ = false;
};

inline std::unique_ptr<WarpStream> makeStream(WarpProgram program) {
    return std::make_unique<WarpProgramStream>(std::move(program));
}

} // namespace gpusim
