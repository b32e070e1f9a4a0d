// AscendCraft CPU emulation runtime: the cooperative block scheduler: one block runs at a time, blocks change hands at SyncAll.
// Split out of emu_core.cpp; written from the public AscendC documentation, no vendor code.
#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <cstddef>
#include <sys/mman.h>
#include <unistd.h>

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/cube_internal.h"

namespace ascendcraft { namespace emu {

// The scheduler hands a baton between its own thread (turn_ = -1) and the blocks (turn_ = block):
// exactly one of them runs at a time. A block thread that finishes takes the next new block itself,
// so a kernel without SyncAll runs every block on one thread, in order.
void Scheduler::start(int block) {
    state_[block] = kRunning;
    turn_ = block;
    threads_.emplace_back([this, block] {
        int b = block;
        for (;;) {
            {
                std::unique_lock<std::mutex> lock(mutex_);
                cv_.wait(lock, [&] { return turn_ == b; });
            }
            body_(b);
            std::unique_lock<std::mutex> lock(mutex_);
            state_[b] = kDone;
            int next = -1;
            bool ready = false;
            for (int k = 0; k < blocks_; ++k) ready = ready || state_[k] == kReady;
            if (!ready)
                for (int k = next_new_; k < blocks_ && next < 0; ++k)
                    if (state_[k] == kNew) next = k;
            if (next < 0) {
                turn_ = -1;
                cv_.notify_all();
                return;
            }
            next_new_ = next + 1;
            state_[next] = kRunning;
            turn_ = next;
            b = next;
        }
    });
}

void Scheduler::arrive(int block, const SrcLoc& loc) {
    if (g_launch->parallel) require_sequential("SyncAll");  // the cooperative hand-over runs one block at a time
    std::unique_lock<std::mutex> lock(mutex_);
    cooperative_ = true;
    if (wait_loc_.empty()) wait_loc_.resize(blocks_);
    wait_loc_[block] = loc;
    ++epoch_[block];
    state_[block] = kWaiting;
    turn_ = -1;
    cv_.notify_all();
    cv_.wait(lock, [&] { return turn_ == block; });
}

void Scheduler::yield(int block) {
    std::unique_lock<std::mutex> lock(mutex_);
    bool others = false;
    for (int k = 0; k < blocks_; ++k) others = others || (k != block && state_[k] != kDone);
    if (!others) return;
    cooperative_ = true;
    state_[block] = kYielded;
    turn_ = -1;
    cv_.notify_all();
    cv_.wait(lock, [&] { return turn_ == block; });
}

void Scheduler::run_parallel(int threads) {
    std::atomic<int> next{0};
    auto work = [&] {
        for (int b; (b = next.fetch_add(1)) < blocks_;) body_(b);
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < std::min(threads, blocks_); ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
}

void Scheduler::run() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        int next = -1;
        for (int b = 0; b < blocks_ && next < 0; ++b)
            if (state_[b] == kReady) next = b;
        if (next >= 0) {
            state_[next] = kRunning;
            turn_ = next;
            cv_.notify_all();
        } else {
            for (int b = next_new_; b < blocks_ && next < 0; ++b)
                if (state_[b] == kNew) next = b;
            if (next >= 0) {
                next_new_ = next + 1;
                start(next);
                cv_.notify_all();
            } else {
                // blocks that handed over in DataCacheCleanAndInvalid go on once no new block is left to start
                bool yielded = false;
                for (int b = 0; b < blocks_; ++b)
                    if (state_[b] == kYielded) { state_[b] = kReady; yielded = true; }
                if (yielded) continue;
                int waiting = -1, done = -1;
                for (int b = 0; b < blocks_; ++b) {
                    if (state_[b] == kWaiting && waiting < 0) waiting = b;
                    if (state_[b] == kDone && done < 0) done = b;
                }
                if (waiting < 0) break;  // every block finished
                if (done >= 0) {
                    Report("syncall-mismatch", Op::SyncAll, wait_loc_[waiting])
                        .block(waiting)
                        .msg("block %d waits in SyncAll #%u, but block %d finished after only %u SyncAll calls: on the NPU "
                             "the waiting blocks hang",
                             waiting, epoch_[waiting], done, epoch_[done])
                        .val("waiting_block", waiting).val("finished_block", done)
                        .val("syncall_count", static_cast<int64_t>(epoch_[waiting]))
                        .hint("every block must call SyncAll the same number of times; keep SyncAll out of branches that "
                              "depend on GetBlockIdx()")
                        .fail();
                }
                for (int b = 0; b < blocks_; ++b)
                    if (state_[b] == kWaiting) state_[b] = kReady;
                gm_read_races_report();   // the phase's unordered GM reads, before its writes are forgotten
                g_launch->overlap.clear();
                ++g_launch->sync_epoch;
                continue;
            }
        }
        cv_.wait(lock, [&] { return turn_ == -1; });
    }
    lock.unlock();
    for (std::thread& t : threads_) if (t.joinable()) t.join();
    threads_.clear();
}

}}  // namespace ascendcraft::emu
