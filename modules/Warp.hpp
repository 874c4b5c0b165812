#pragma once
// One warp slot of an SM: the warp's instruction stream, its instruction buffer, and the facts
// policies read (kept in `view`, which is what SmView::warp() returns).
#include <cstdint>
#include <memory>

#include "modules/InstructionBuffer.hpp"
#include "scheduler/SmView.hpp"
#include "workloads/Kernel.hpp"

namespace gpusim {

struct Warp {
    std::unique_ptr<WarpStream> stream;
    InstructionBuffer ibuffer;
    bool streamDone = false;
    bool exitIssued = false;
    // With an instruction cache: the buffer's tail slot holds the next instruction, read from the
    // stream, until its fetch hits (fetchHeld); imissPending while its line is being read.
    bool fetchHeld = false;
    bool imissPending = false;
    unsigned warpInCta = 0;
    // Kept by SmCore: valid, not exited, not at a barrier, an instruction buffered and free of
    // scoreboard hazards. Refreshed whenever one of those inputs changes, so the issue stage
    // tests one flag instead of the scoreboard.
    bool ready = false;
    // Lanes of issued global atomics whose answers are not back (counted only under
    // sm.atomic_blocks_warp, where a warp with any issues nothing: GPGPU-Sim's m_n_atomic).
    uint32_t atomicLanesPending = 0;
    // The unit a ready warp's instruction needs (SmCore counts ready warps per scheduler and unit).
    uint8_t readyUnit = 0;
    WarpView view;

    void refreshHead() {
        view.hasInstruction = !ibuffer.empty();
        if (view.hasInstruction) {
            const auto& h = ibuffer.front();
            view.nextPc = h.pc;
            // Global/local only: the accesses through the L1D, which the policies that look at
            // the next load (CCWS, OAWS, CWLP, MASCAR) track. Shared, constant and texture
            // loads are not theirs, nor are global atomics (they pass the L1D to the L2).
            const bool l1d = (h.space == MemSpace::Global || h.space == MemSpace::Local) && !h.atomic;
            view.nextIsLoad = h.op == OpClass::Load && l1d;
            view.nextIsStore = h.op == OpClass::Store && l1d;
            view.nextActiveLanes = h.activeLanes();
        } else {
            view.nextIsLoad = view.nextIsStore = false;
            view.nextActiveLanes = 0;
        }
    }
};

} // namespace gpusim
