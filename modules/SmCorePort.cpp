// SmCore's side of its NoC port: answers taken from the NoC (nbTransportBw, takeAnswer) and
// handed to the cache that waits for them (fillPort); the request the NoC send stage chooses
// (sendToNoc: instruction, constant or texture line reads, then the L1D's miss queue) and its
// payload, built and sent in commit() so SMs stepping on several threads touch nothing shared.
#include "modules/SmCore.hpp"

#include "common/SimError.hpp"
#include "common/SimTime.hpp"

namespace gpusim {

tlm::tlm_sync_enum SmCore::nbTransportBw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    return port_.nbTransportBw(p, ph, t);
}

bool SmCore::takeAnswer(Payload& p) {
    if (answers_q_.size() >= cfg_.responseQueue) {
        answersFull_.inc();
        return false;
    }
    answers_q_.push_back(&p);
    unstall();
    clock_.wake();
    return true;
}

void SmCore::fillPort(uint64_t cycle) {
    if (answers_q_.empty()) return;
    Payload* p = answers_q_.front();
    answers_q_.pop_front();
    // An answer to nothing outstanding never gets here: the port refused it at the link.
    GpuExtension& e = gpuExt(*p);
    if (p->get_response_status() != tlm::TLM_OK_RESPONSE)
        throw ModelError(std::string(name()) + ": " + describeTransaction(*p) + " answered with " +
                         p->get_response_string());
    lastProgressCycle_ = cycle;
    if (e.instruction) {
        // The warps that waited for this instruction line fetch again (and hit).
        for (unsigned w : l1i_->fill(p->get_address())) {
            warps_[w].imissPending = false;
            markFetch(w);
        }
    } else if (e.readOnly == ReadOnlyCache::Constant) {
        ldst_.wake(constCache_.fill(p->get_address()), cycle);
    } else if (e.readOnly == ReadOnlyCache::Texture) {
        texCache_.fill(p->get_address(), cycle);  // its access leaves the FIFO in order (collect)
    } else if (e.atomic) {
        if (cfg_.atomicBlocksWarp) [[unlikely]]
            atomicAnswered(static_cast<unsigned>(e.warpId), e.atomicLanes);
        if (e.kind == AccessKind::Read) {  // ATOM's old values; RED's acknowledgement wakes no one
            const auto it = atomicTokens_.find(e.requestId);
            if (it == atomicTokens_.end())
                throw ModelError(std::string(name()) + ": answer to an atomic no load waits for: " + describeTransaction(*p));
            ldst_.wakeAtomic(it->second, cycle);
            atomicTokens_.erase(it);
        }
    } else if (e.kind == AccessKind::Read) {
        ldst_.wake(l1_.fill(p->get_address()), cycle);
    }
    // Releasing the payload (the GPU's pool) and taking a held answer (a TLM call back into the
    // NoC) touch shared state: commit() does them, in this order, as this cycle's first effects.
    releasePending_ = p;
}

void SmCore::atomicAnswered(unsigned w, unsigned lanes) {
    Warp& wp = warps_.at(w);
    if (lanes > wp.atomicLanesPending)
        throw ModelError(std::string(name()) + ": warp " + std::to_string(w) + " answered for " +
                         std::to_string(lanes) + " atomic lanes, " + std::to_string(wp.atomicLanesPending) +
                         " outstanding");
    wp.atomicLanesPending -= lanes;
    if (wp.atomicLanesPending == 0) refreshReady(w);
}

void SmCore::commit() {
    if (!tallyPending_.empty()) [[unlikely]] {
        for (const TallyDelta& d : tallyPending_) {
            d.tally->warpInstructions += d.warpInstructions;
            d.tally->ctasDone += d.ctaDone;
        }
        tallyPending_.clear();
    }
    if (releasePending_) {
        releasePending_->release();
        releasePending_ = nullptr;
        port_.retryHeldResponse();
    }
    if (sendPending_) {
        sendPending_ = false;
        switch (sendKind_) {
        case SendKind::Data: sendRequest(sendReq_); break;
        case SendKind::Instruction: sendInstructionRead(sendLine_); break;
        case SendKind::Constant:
            sendReadOnlyLine(sendLine_, constCache_.lineBytes(), ReadOnlyCache::Constant);
            break;
        case SendKind::Texture:
            sendReadOnlyLine(sendLine_, texCache_.lineBytes(), ReadOnlyCache::Texture);
            break;
        }
    }
}

// The NoC send stage picks the request here; commit() builds the payload and sends it.
void SmCore::sendToNoc(uint64_t) {
    if (!port_.canSend()) return;
    // The instruction, constant and texture caches go first, in this order (a warp without
    // instructions issues nothing); then the L1D.
    const auto take = [this](auto& cache, SendKind kind) {
        if (!cache.hasOutgoing()) return false;
        sendLine_ = cache.frontOutgoing();
        cache.popOutgoing();
        sendKind_ = kind;
        sendPending_ = true;
        return true;
    };
    if (l1i_ && take(*l1i_, SendKind::Instruction)) return;
    if (take(constCache_, SendKind::Constant) || take(texCache_, SendKind::Texture)) return;
    if (!l1_.hasOutgoing()) return;
    sendReq_ = l1_.frontOutgoing();
    l1_.popOutgoing();
    sendKind_ = SendKind::Data;
    sendPending_ = true;
}

void SmCore::sendRequest(const MissRequest& req) {
    // An ATOM's answer carries its lanes' old values, not a line (the NoC sizes it by this).
    const unsigned length = req.atomic ? std::max(1u, req.bytes) : cfg_.l1Line;
    Payload& p = newRequest(req.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, req.lineAddr, length);
    GpuExtension& e = gpuExt(p);
    e.warpId = static_cast<int>(req.warp);
    e.pc = req.pc;
    e.kind = req.write ? AccessKind::Write : AccessKind::Read;
    e.bytes = req.bytes;
    e.chunks = req.chunks;
    if (req.atomic) {
        e.atomic = true;
        e.atomicLanes = req.lanes;
        atomicsSent_.inc();
        // Several ATOM requests of one line may be in flight (no MSHR merges them): the answer
        // finds its load by request id.
        if (req.returns) atomicTokens_.emplace(e.requestId, req.token);
    } else {
        (req.write ? writesSent_ : readsSent_).inc();
    }
    port_.send(p);
}

// A request of `length` bytes at `line` with the extension's fields every request carries: a
// GPU-unique id (the SM in the upper bits), the SM, the L2 partition and the issue time.
Payload& SmCore::newRequest(tlm::tlm_command command, uint64_t line, unsigned length) {
    Payload& p = pool_.allocate();
    p.set_command(command);
    p.set_address(line);
    p.set_data_length(length);
    p.set_streaming_width(length);
    GpuExtension& e = gpuExt(p);
    e.requestId = (uint64_t(id_) << 40) | nextRequest_++;
    e.smId = static_cast<int>(id_);
    e.partition = static_cast<int>(map_.partition(line));
    e.issueTime = simNow();
    return p;
}

// A line read of `bytes`: an L1I miss or a constant or texture cache miss.
Payload& SmCore::newLineRead(uint64_t line, unsigned bytes) {
    Payload& p = newRequest(tlm::TLM_READ_COMMAND, line, bytes);
    GpuExtension& e = gpuExt(p);
    e.kind = AccessKind::Read;
    e.bytes = bytes;
    return p;
}

// An L1I miss: a line read like an L1D miss, marked as an instruction fetch. It goes before the
// L1D's requests (a warp without instructions issues nothing).
void SmCore::sendInstructionRead(uint64_t line) {
    Payload& p = newLineRead(line, l1i_->lineBytes());
    gpuExt(p).instruction = true;
    port_.send(p);
}

void SmCore::sendReadOnlyLine(uint64_t line, unsigned bytes, ReadOnlyCache cache) {
    Payload& p = newLineRead(line, bytes);
    gpuExt(p).readOnly = cache;
    readsSent_.inc();
    port_.send(p);
}

} // namespace gpusim
