// AscendCraft CPU emulation: the devkit's block-to-block synchronisation through GM flags, the compare-mask register and
// the system counter. (asc8's header; written from the public AscendC documentation, no vendor code.)
//   - IBSet / IBWait: a core sets a flag (gmWorkspace, blockIdx, eventID); IBWait with the same three waits for it.
//   - InitDetermineComputeWorkspace / WaitPreBlock / NotifyNextBlock: block i waits until block i - 1 has notified.
//   - GroupBarrier<PipeMode>: arriveSize cores Arrive(i), waitSize cores Wait(i) until every arriver of the round came.
//   - SetNextTaskStart / WaitPreTaskEnd: the order between two kernels of a stream; one launch has no task before it.
//   - ReadGmByPassDCache / WriteGmByPassDCache: a scalar GM access past the data cache (checked like GetValue/SetValue).
//   - Compare without dst writes one repeat's bits into the compare-mask register; GetCmpMask / SetCmpMask move its
//     128 bits to / from UB.
//   - GetSystemCycle: the emulator has no clock while a kernel runs (its timing is modelled from the trace afterwards),
//     so its counter is the number of instructions this core has issued so far: monotone, differences count
//     instructions, not the NPU's 50 MHz ticks.
// The emulator runs the blocks of a launch one after another in index order (SyncAll hands over between them), so a
// wait is released only by a lower block (or an earlier point of the same one); waiting for a flag that no block has
// set yet is reported at the wait, naming the flag.
#pragma once

#include "tensor.h"
#include "vector.h"

namespace ascendcraft { namespace emu {
void ib_set(const void* gm, const Local& ub, int32_t blockIdx, int32_t eventID, SrcLoc loc);
void ib_wait(const void* gm, const Local& ub, int32_t blockIdx, int32_t eventID, SrcLoc loc);
void determine_init(const void* gm, const Local& ub, SrcLoc loc);
void determine_wait_pre(const void* gm, const Local& ub, SrcLoc loc);
void determine_notify_next(const void* gm, const Local& ub, SrcLoc loc);
void group_arrive(const void* gm, uint32_t arriveSize, uint32_t index, uint32_t round, SrcLoc loc);
void group_wait(const void* gm, uint32_t arriveSize, uint32_t waitSize, uint32_t index, uint32_t round, SrcLoc loc);
void task_order(bool wait, SrcLoc loc);
void compare_to_register(Dt dt, uint8_t mode, const Local& a, const Local& b, const Lanes& lanes, const Stride* s, SrcLoc loc);
void cmp_mask_move(const Local& t, bool to_ub, SrcLoc loc);
int64_t system_cycle(SrcLoc loc);
void data_sync_barrier(uint8_t kind, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {

template <bool isAIVOnly = true>
inline void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
                  int32_t eventID, SrcLoc loc = {}) {
    ascendcraft::emu::ib_set(gmWorkspace.GetPhyAddr(), ubWorkspace.emu(), blockIdx, eventID, loc);
}
template <bool isAIVOnly = true>
inline void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
                   int32_t eventID, SrcLoc loc = {}) {
    ascendcraft::emu::ib_wait(gmWorkspace.GetPhyAddr(), ubWorkspace.emu(), blockIdx, eventID, loc);
}

inline void InitDetermineComputeWorkspace(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace, SrcLoc loc = {}) {
    ascendcraft::emu::determine_init(gmWorkspace.GetPhyAddr(), ubWorkspace.emu(), loc);
}
inline void WaitPreBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace, SrcLoc loc = {}) {
    ascendcraft::emu::determine_wait_pre(gmWorkspace.GetPhyAddr(), ubWorkspace.emu(), loc);
}
inline void NotifyNextBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace, SrcLoc loc = {}) {
    ascendcraft::emu::determine_notify_next(gmWorkspace.GetPhyAddr(), ubWorkspace.emu(), loc);
}

enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };

template <PipeMode pipeMode> class GroupBarrier {
public:
    GroupBarrier(GM_ADDR groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn)
        : ws_(groupWorkspace), arriveSize_(arriveSizeIn), waitSize_(waitSizeIn) {}
    GroupBarrier() = delete;
    void Arrive(uint32_t arriveIndex, SrcLoc loc = {}) { ascendcraft::emu::group_arrive(ws_, arriveSize_, arriveIndex, arrived_++, loc); }
    void Wait(uint32_t waitIndex, SrcLoc loc = {}) { ascendcraft::emu::group_wait(ws_, arriveSize_, waitSize_, waitIndex, waited_++, loc); }

private:
    GM_ADDR ws_;
    uint32_t arriveSize_, waitSize_;
    uint32_t arrived_ = 0, waited_ = 0;   // this core's rounds
};

inline void SetNextTaskStart(SrcLoc loc = {}) { ascendcraft::emu::task_order(false, loc); }
inline void WaitPreTaskEnd(SrcLoc loc = {}) { ascendcraft::emu::task_order(true, loc); }

#define ASCENDCRAFT_EMU_DCACHE_CHECK(API, T)                                                                        \
    ASCENDCRAFT_EMU_TYPES_CHECK(API, "int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t and uint64_t", T,  \
                                int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t)
template <typename T> inline T ReadGmByPassDCache(__gm__ T* addr, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_DCACHE_CHECK(ReadGmByPassDCache, T);
    T value{};
    ascendcraft::emu::gm_read(addr, sizeof(T), &value, loc);
    return value;
}
template <typename T> inline void WriteGmByPassDCache(__gm__ T* addr, T value, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_DCACHE_CHECK(WriteGmByPassDCache, T);
    ascendcraft::emu::gm_write(addr, sizeof(T), &value, loc);
}

// Compare of one repeat into the compare-mask register (the form without dst); A2: half and float, int32_t only with
// CMPMODE::EQ (checked when it runs, as for the other Compare forms).
#define ASCENDCRAFT_EMU_CMP_REG(MASK_T)                                                                                 \
    template <typename T, bool isSetMask = true>                                                                       \
    inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, MASK_T mask,          \
                        const BinaryRepeatParams& repeatParams, SrcLoc loc = {}) {                                     \
        ASCENDCRAFT_EMU_TYPES_CHECK(Compare, "half, float and int32_t", T, half, float, int32_t);                                        \
        ascendcraft::emu::Stride s[3];                                                                                 \
        vec_detail::binary_strides(repeatParams, s);                                                                   \
        ascendcraft::emu::compare_to_register(ascendcraft::emu::dt_of<T>(), static_cast<uint8_t>(cmpMode), src0.emu(), \
                                              src1.emu(), ascendcraft::emu::mask_lanes(mask, 1, isSetMask), s, loc);  \
    }
ASCENDCRAFT_EMU_CMP_REG(const uint64_t)
ASCENDCRAFT_EMU_CMP_REG(const uint64_t*)
#undef ASCENDCRAFT_EMU_CMP_REG

template <typename T> inline void GetCmpMask(const LocalTensor<T>& dst, SrcLoc loc = {}) {
    ascendcraft::emu::cmp_mask_move(dst.emu(), true, loc);
}
template <typename T> inline void SetCmpMask(const LocalTensor<T>& src, SrcLoc loc = {}) {
    ascendcraft::emu::cmp_mask_move(src.emu(), false, loc);
}

// Compares: the devkit's newer name of CompareScalar (a tensor against a scalar), the same three forms on A2.
template <typename T, typename U>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode, uint32_t count,
                     SrcLoc loc = {}) {
    CompareScalar(dst, src0, src1Scalar, cmpMode, count, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode, const uint64_t mask,
                     uint8_t repeatTime, const UnaryRepeatParams& repeatParams, SrcLoc loc = {}) {
    CompareScalar<T, U, isSetMask>(dst, src0, src1Scalar, cmpMode, mask, repeatTime, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                     const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams& repeatParams, SrcLoc loc = {}) {
    CompareScalar<T, U, isSetMask>(dst, src0, src1Scalar, cmpMode, mask, repeatTime, repeatParams, loc);
}

// DataSyncBarrier<kind>: the scalar unit's memory barrier (ALL, DDR = GM, UB, SEQ). The emulator's scalar GM and UB
// accesses complete when they are made, so it orders nothing more; it is traced and priced as a scalar instruction.
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };
template <MemDsbT kind> inline void DataSyncBarrier(SrcLoc loc = {}) {
    ascendcraft::emu::data_sync_barrier(static_cast<uint8_t>(kind), loc);
}

inline int64_t GetSystemCycle(SrcLoc loc = {}) { return ascendcraft::emu::system_cycle(loc); }

}  // namespace AscendC
