#pragma once
// One warp slot of an SM: the warp's instruction stream, its instruction buffer, and the facts
// policies read (kept in `view`, which is what SmView::warp() returns).
#include <deque>
#include <memory>

#include "scheduler/SmView.hpp"
#include "workloads/Kernel.hpp"

namespace gpusim {

struct Warp {
    std::unique_ptr<WarpStream> stream;
    std::deque<WarpInstruction> ibuffer;
    bool streamDone = false;
    bool exitIssued = false;
    unsigned warpInCta = 0;
    WarpView view;

    void refreshHead() {
        view.hasInstruction = !ibuffer.empty();
        if (view.hasInstruction) {
            const auto& h = ibuffer.front();
            view.nextPc = h.pc;
            view.nextIsLoad = h.op == OpClass::Load && h.space != MemSpace::Shared;
            view.nextIsStore = h.op == OpClass::Store && h.space != MemSpace::Shared;
            view.nextActiveLanes = h.activeLanes();
        } else {
            view.nextIsLoad = view.nextIsStore = false;
            view.nextActiveLanes = 0;
        }
    }
};

} // namespace gpusim
