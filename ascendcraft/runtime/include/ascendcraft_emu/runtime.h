// AscendCraft CPU emulation: the interface between the API headers (templates that kernels
// instantiate) and the precompiled runtime library (checks, data work, trace, scheduling).
#pragma once

#include "base.h"

namespace ascendcraft { namespace emu {

// Element types; the order matches ascendcraft.trace.DTYPE_NAMES.
enum class Dt : uint8_t { none = 0, f16, bf16, f32, f64, i8, u8, i16, u16, i32, u32, i64, u64, b8 };

template <typename T> struct DtOf { static constexpr Dt value = Dt::none; };
template <> struct DtOf<half> { static constexpr Dt value = Dt::f16; };
template <> struct DtOf<bfloat16_t> { static constexpr Dt value = Dt::bf16; };
template <> struct DtOf<float> { static constexpr Dt value = Dt::f32; };
template <> struct DtOf<double> { static constexpr Dt value = Dt::f64; };
template <> struct DtOf<char> { static constexpr Dt value = Dt::i8; };
template <> struct DtOf<signed char> { static constexpr Dt value = Dt::i8; };
template <> struct DtOf<unsigned char> { static constexpr Dt value = Dt::u8; };
template <> struct DtOf<short> { static constexpr Dt value = Dt::i16; };
template <> struct DtOf<unsigned short> { static constexpr Dt value = Dt::u16; };
template <> struct DtOf<int> { static constexpr Dt value = Dt::i32; };
template <> struct DtOf<unsigned int> { static constexpr Dt value = Dt::u32; };
template <> struct DtOf<long> { static constexpr Dt value = Dt::i64; };
template <> struct DtOf<unsigned long> { static constexpr Dt value = Dt::u64; };
template <> struct DtOf<long long> { static constexpr Dt value = Dt::i64; };
template <> struct DtOf<unsigned long long> { static constexpr Dt value = Dt::u64; };
template <> struct DtOf<bool> { static constexpr Dt value = Dt::b8; };
template <typename T> constexpr Dt dt_of() { return DtOf<typename std::remove_cv<T>::type>::value; }

template <typename T, typename... Ts> struct OneOf : std::false_type {};
template <typename T, typename U, typename... Ts>
struct OneOf<T, U, Ts...> : std::integral_constant<bool, std::is_same<T, U>::value || OneOf<T, Ts...>::value> {};

// The AscendC API names, in the order of trace records' `op` field (Trace.op_names).
#define ASCENDCRAFT_EMU_TYPES_CHECK(API, TEXT, T, ...) \
    static_assert(::ascendcraft::emu::OneOf<T, __VA_ARGS__>::value, #API " on Ascend 910B (A2) supports " TEXT " only")
// The same rule for element types the official headers accept at compile time and AscendC checks only when the
// kernel runs: the call compiles, and running it stops with an `unsupported` error at the call (a function, not
// a static_assert, so that the emulator accepts exactly the kernels CANN's compiler accepts).
#define ASCENDCRAFT_EMU_RUNTIME_TYPES_CHECK(API, TEXT, T, ...)                                                  \
    do {                                                                                                      \
        if (!::ascendcraft::emu::OneOf<T, __VA_ARGS__>::value)                                                \
            ::ascendcraft::emu::unsupported_type(::ascendcraft::emu::Op::API, ::ascendcraft::emu::dt_of<T>(), TEXT, loc); \
    } while (0)

#define ASCENDCRAFT_EMU_OPS(X)                                                                        \
    X(DataCopy) X(DataCopyPad) X(Add) X(Sub) X(Mul) X(Div) X(Max) X(Min) X(Adds) X(Muls) X(Maxs)      \
    X(Mins) X(Exp) X(Ln) X(Abs) X(Sqrt) X(Rsqrt) X(Reciprocal) X(Relu) X(LeakyRelu) X(Axpy)           \
    X(Duplicate) X(Cast) X(Compare) X(CompareScalar) X(Select) X(ReduceSum) X(ReduceMax) X(ReduceMin) \
    X(WholeReduceSum) X(WholeReduceMax) X(WholeReduceMin) X(BlockReduceSum) X(BlockReduceMax)         \
    X(BlockReduceMin) X(Gather) X(CreateVecIndex) X(Tanh) X(Sigmoid) X(Erf) X(GetValue) X(SetValue)   \
    X(InitBuffer) X(AllocTensor) X(EnQue) X(DeQue) X(FreeTensor) X(TBufGet) X(SetSize) X(SetFlag)     \
    X(WaitFlag) X(PipeBarrier) X(SyncAll) X(AllocEventID) X(ReleaseEventID) X(FetchEventID)           \
    X(SetVectorMask) X(SetMaskCount) X(SetMaskNorm) X(ResetMask) X(SetAtomicAdd) X(SetAtomicNone)     \
    X(InitGlobalMemory) X(GET_TILING_DATA) X(DumpTensor) X(Kernel) X(SetGlobalBuffer) X(And) X(Or) X(Not)        \
    X(ShiftLeft) X(ShiftRight) X(AddRelu) X(SubRelu) X(MulAddDst) X(FusedMulAdd) X(Brcb) X(Gatherb)            \
    X(Transpose) X(Sin) X(Cos) X(Floor) X(Ceil) X(Round) X(Trunc)                                \
    X(CrossCoreSetFlag) X(CrossCoreWaitFlag)                                                    \
    X(LoadData) X(Mmad) X(Fixpipe) X(Matmul) X(Tan) X(Asin) X(Acos) X(Atan) X(Sinh) X(Cosh)          \
    X(Erfc) X(Sign) X(Frac) X(Silu) X(Gelu) X(FasterGelu) X(FasterGeluV2) X(Swish) X(Power)          \
    X(SoftMax) X(SimpleSoftMax) X(SoftmaxFlash) X(SoftmaxFlashV2) X(LayerNorm) X(RmsNorm) X(Log) X(Log2)  \
    X(Log10) X(GetReduceMaxMinCount) X(Copy) X(PairReduceSum) X(SetDeqScale) X(GatherMask) X(BroadCast) X(TransDataTo5HD) X(Sum) X(Mean) X(Sort32) X(MrgSort) X(Sort) X(SelectWithBytesMask) X(Fill) X(SetAtomicMax) X(SetAtomicMin) X(SetAtomicType) X(Pad) X(UnPad) X(SoftmaxGrad) \
    X(SwiGLU) X(GeGLU) X(AscendQuant) X(AscendDequant) X(AscendAntiQuant) X(CumSum) X(WelfordUpdate) X(WelfordFinalize) X(Normalize) X(DeepNorm) X(LayerNormGrad) X(LayerNormGradBeta) X(TopK) \
    X(Asinh) X(Acosh) X(Atanh) X(ClampMax) X(ClampMin) X(ReduceMean) X(ReduceProd) X(ReduceAny) X(ReduceAll) X(Fmod) X(Xor) X(LogSoftMax) X(AdjustSoftMaxRes) X(DropOut) \
    X(LoadDataWithSparse) X(MmadWithSparse) X(SoftmaxFlashV3) X(TransData) X(ReGlu) X(DataCachePreload)

enum class Op : uint16_t {
#define ASCENDCRAFT_EMU_ENUM(name) name,
    ASCENDCRAFT_EMU_OPS(ASCENDCRAFT_EMU_ENUM)
#undef ASCENDCRAFT_EMU_ENUM
    Count
};

// A LocalTensor as the runtime sees it: a byte range of the block's Unified Buffer.
constexpr int16_t kStaticTensorSlot = -2;   // Local::slot of a static tensor (a position, an address and a count)
struct Local {
    uint8_t* addr = nullptr;  // host address inside the block's UB
    uint32_t bytes = 0;       // bytes the view covers (GetSize() * sizeof(T))
    uint32_t cap = 0;         // bytes from addr to the end of the buffer it came from
    int32_t queue = -1;       // queue (or TBuf) the buffer belongs to (its index in Core::queues), -1 = none
    int16_t slot = -1;        // buffer index inside that queue (kStaticTensorSlot: a LocalTensor(pos, addr, count))
    uint8_t pos = static_cast<uint8_t>(AscendC::TPosition::VECCALC);
};

// A scalar operand, whatever its type.
struct Scalar {
    double f = 0;
    int64_t i = 0;
};
template <typename T> inline Scalar scalar_of(T v) {
    Scalar s;
    s.f = static_cast<double>(static_cast<float>(v));
    s.i = static_cast<int64_t>(static_cast<double>(static_cast<float>(v)));
    return s;
}
template <> inline Scalar scalar_of<double>(double v) { Scalar s; s.f = v; s.i = static_cast<int64_t>(v); return s; }
#define ASCENDCRAFT_EMU_INT_SCALAR(T) \
    template <> inline Scalar scalar_of<T>(T v) { Scalar s; s.f = static_cast<double>(v); s.i = static_cast<int64_t>(v); return s; }
ASCENDCRAFT_EMU_INT_SCALAR(int8_t) ASCENDCRAFT_EMU_INT_SCALAR(uint8_t) ASCENDCRAFT_EMU_INT_SCALAR(int16_t)
ASCENDCRAFT_EMU_INT_SCALAR(uint16_t) ASCENDCRAFT_EMU_INT_SCALAR(int32_t) ASCENDCRAFT_EMU_INT_SCALAR(uint32_t)
ASCENDCRAFT_EMU_INT_SCALAR(int64_t) ASCENDCRAFT_EMU_INT_SCALAR(uint64_t) ASCENDCRAFT_EMU_INT_SCALAR(bool)
#undef ASCENDCRAFT_EMU_INT_SCALAR

// Which lanes a vector instruction covers: `count` contiguous elements (level 2), or `repeats`
// repeats of 256 bytes under a lane mask (level 0).
struct Lanes {
    bool level0 = false;
    uint64_t count = 0;      // level 2
    bool negative = false;   // level 2: the kernel passed a negative count
    uint32_t repeats = 0;    // level 0
    bool setMask = true;     // level 0: the mask comes with the call (isSetMask = true)
    bool bitMask = false;    // level 0: mask[] form
    uint64_t mask[1] = {0};  // level 0: the lane count, or mask[0] of the mask[] form
    const uint64_t* maskHigh = nullptr;  // mask[] form: &mask[1], read only for 16-bit lanes (32-bit masks are one word)
};
inline Lanes count_lanes(int64_t n) { Lanes l; l.count = n < 0 ? 0 : static_cast<uint64_t>(n); l.negative = n < 0; return l; }
inline Lanes mask_lanes(uint64_t mask, int64_t repeats, bool setMask) {
    Lanes l; l.level0 = true; l.repeats = static_cast<uint32_t>(repeats); l.setMask = setMask; l.mask[0] = mask; return l;
}
inline Lanes mask_lanes(const uint64_t mask[], int64_t repeats, bool setMask) {
    Lanes l; l.level0 = true; l.repeats = static_cast<uint32_t>(repeats); l.setMask = setMask; l.bitMask = true;
    if (mask) { l.mask[0] = mask[0]; l.maskHigh = mask + 1; }
    return l;
}

// Strides of one operand of a level-0 instruction, in 32-byte blocks.
struct Stride {
    uint32_t blk = 1;
    uint32_t rep = 8;
};

// DataCopy geometry: `count` elements, or bursts.
struct CopyShape {
    bool countForm = true;
    uint64_t count = 0;
    uint32_t blockCount = 1;
    uint32_t blockLen = 0;   // DataCopy: 32-byte blocks; DataCopyPad: bytes
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
};
struct PadSpec {
    bool isPad = false;
    uint32_t left = 0, right = 0;  // elements
    uint64_t valueBits = 0;        // padding value, bit pattern of T
    bool legacy = false;           // DataCopyParams + DataCopyPadParams overload
};

// ---- runtime entry points (libascendcraft_emu) ---------------------------------------------
int64_t block_idx();
int64_t block_num();
uint8_t* launch_workspace();   // the launch's Workspace argument (null without one): emu_workspace.cpp
int64_t launch_param_base(SrcLoc loc);   // get_para_base(): the launch's parameter area (emu_param_base.cpp)
bool tracing();

int pipe_open(void* object, SrcLoc loc);
void pipe_close(int pipe);
void pipe_reset(int pipe, SrcLoc loc);
void pipe_destroy(int pipe, SrcLoc loc);
bool pipe_destroyed(int pipe);
void pipe_assign(int pipe, int from);
void* current_pipe_object();
int queue_init(int pipe, uint8_t srcPos, uint8_t dstPos, int32_t depth, int32_t num, uint64_t len, bool isBuf, SrcLoc loc);
int queue_init_at(int pipe, uint8_t srcPos, uint8_t dstPos, int32_t depth, int32_t num, uint64_t len, bool isBuf,
                  uint32_t at, uint32_t poolEnd, SrcLoc loc);
uint32_t queue_base(int queue);
void queue_release(int queue, SrcLoc loc);
Local queue_alloc(int queue, SrcLoc loc);
bool queue_enque(int queue, const Local& t, SrcLoc loc);
Local queue_deque(int queue, SrcLoc loc);
void queue_free(int queue, const Local& t, SrcLoc loc);
int32_t queue_count(int queue);
bool queue_has_idle(int queue);
Local tbuf_get(int queue, uint64_t bytes, uint64_t offsetBytes, bool whole, SrcLoc loc);
void local_set_size(Local& t, uint64_t bytes, SrcLoc loc);

void flag_set(uint8_t event, int32_t id, SrcLoc loc);
void flag_wait(uint8_t event, int32_t id, SrcLoc loc);
int32_t event_alloc(uint8_t event, SrcLoc loc);
int32_t event_fetch(uint8_t event, SrcLoc loc);
void event_release(uint8_t event, int32_t id, SrcLoc loc);
void pipe_barrier(uint8_t pipe, SrcLoc loc);
void sync_all(SrcLoc loc, bool all_cores = false);
// DataCacheCleanAndInvalid of GM: with the blocks run one at a time, the other unfinished blocks run first
// (Scheduler::yield), so that a block polling GM for another block's write sees it
void gm_cache_clean_invalid();
void sync_all_soft(const void* gm, uint64_t gmBytes, const Local& ub, int32_t usedCores, SrcLoc loc);

void local_read(const Local& t, uint64_t index, uint32_t size, void* out, SrcLoc loc);
void local_write(const Local& t, uint64_t index, uint32_t size, const void* in, SrcLoc loc);
void* local_ref(const Local& t, uint64_t index, uint32_t size, SrcLoc loc);
// GlobalTensor::operator(): a reference to `size` bytes of GM at p, checked as a scalar read (bounds, the S pipe)
void* gm_ref(void* p, uint32_t size, SrcLoc loc);
void gm_read(const void* p, uint32_t size, void* out, SrcLoc loc);
// The fast path of a scalar GM read, inlined into GlobalTensor::GetValue: a kernel that walks GM element by element
// calls it up to 10^11 times (a GEMM written with GetValue), and a call into the runtime cost more than the read.
// Per thread: the GM ranges of the running block whose scalar reads need no check past their bounds (gm_read decides
// which and fills them in: an input, or an output no other block can be writing, without deferred poison, outside
// trace mode and cross-core launches), the S-pipe work of the reads made here (added to the block's work counts by
// scalar_reads_flush, emu_core.cpp, before anything reads them), and the status page's place of the last API call.
// A read inside a range updates the place and the counts and copies the value, as gm_read's own fast path does; any
// other read, or one from another kernel file than the status page names, calls gm_read.
// A range is its start and its bytes less 7 (`room`): a scalar of up to 8 bytes at offset d from the start lies inside
// when d < room, one unsigned comparison (a read in the range's last 7 bytes calls gm_read, which tests it exactly);
// room 0: no range (the state of a thread before its first block, too).
// The work of the inlined reads is one counter per scalar size (`reads[size - 1]`: one increment a read), turned into
// the S pipe's instructions and bytes by scalar_reads_flush. The value is returned, not written through a pointer, so
// that it stays in a register (a kernel built at -O1 kept every read's value in memory), and the ranges are tested
// unrolled (-O1 does not unroll the loop).
class RaceChecker;
struct ScalarReads {
    static constexpr int kSpans = 4;
    const uint8_t* lo[kSpans];  // the latest found first; the oldest of four drops out
    uint64_t room[kSpans];
    uint64_t reads[8];          // S-pipe reads since the last flush, by the scalar's size (1..8 bytes)
    uint32_t* line;             // the status page's line and op of the last API call (scratch without a status page)
    uint16_t* op;
    const char* file;           // the kernel file the status page names now
    // LocalTensor::GetValue's inlined read (local_get): the running block's UB [ub, ub_end] (ub past ub_end: no inlined
    // UB reads: trace mode, no block), and the race check's words that tell whether a scalar read has anything to
    // check (RaceChecker::newest_writes / scalar_known; zeros without a race check)
    const uint8_t* ub;
    const uint8_t* ub_end;
    const uint32_t* newest;
    const uint32_t* known;
    // LocalTensor::SetValue's inlined write (local_set): for up to four places (set_file[i]:set_line[i]; a loop unrolled
    // by hand writes from two or four lines in turn), the scalars of set_size[i] bytes at set_lo[i] + k * stride below
    // set_hi[i] (stride = set_step[i] + 1, a power of two: the place's own elements when the lines write every other or
    // every fourth one) that scalar writes of that place recorded with the race check while its word *epoch read
    // set_epoch (RaceChecker::scalar_epoch; a constant zero without a race check), all marked written (local_write keeps
    // the ranges; none: set_lo == set_hi); and the S-pipe work of the inlined writes, by size, added to the block's
    // counts with the reads' (scalar_reads_flush).
    static constexpr int kSetPlaces = 4;
    const uint8_t* set_lo[kSetPlaces];
    const uint8_t* set_hi[kSetPlaces];
    uint64_t set_step[kSetPlaces];
    uint32_t set_size[kSetPlaces];
    const char* set_file[kSetPlaces];
    int set_line[kSetPlaces];
    uint32_t set_site[kSetPlaces];   // the place's race-check site index (RaceChecker::site), for local_write's appends
    uint64_t set_epoch;
    const uint64_t* epoch;
    uint64_t writes[8];
    // GlobalTensor::SetValue's fast path (gm_set, no runtime call): up to two ranges of this block's GM writes as the
    // gm-overlap tracker holds them (OverlapTracker::own_range, while its version reads gm_seen; gm_write fills them in
    // after a write it checked and recorded: execute mode, a buffer the kernel may write, no atomic accumulation, no
    // cross-core launch): the range's start (not below the buffer's), its end in the tracker (a fast-path write that
    // continues the range moves it), the address a write must end below (the next range's start, the buffer's last
    // byte), the buffer's base, its deferred-poison alias (read at each write: gm_materialise drops it) and its byte
    // bitmap of API writes (null: not watched). An unused slot: gm_lo 1, gm_hi at a zero (no address lies in it); no
    // block running (scalar_writes_forget): gm_version at a zero that gm_seen (1) never reads. And the fast path's GM
    // writes since the last flush (Core::gm_writes, added by scalar_reads_flush).
    static constexpr int kGmSetRanges = 2;
    uint64_t gm_lo[kGmSetRanges];
    uint64_t* gm_hi[kGmSetRanges];
    uint64_t gm_limit[kGmSetRanges];
    uint64_t gm_base[kGmSetRanges];
    uint8_t* const* gm_alias[kGmSetRanges];
    uint8_t* gm_bits[kGmSetRanges];
    const uint64_t* gm_version;
    uint64_t gm_seen;
    uint64_t gm_writes;
    bool gm_read_ok;   // GlobalTensor::GetValue may read inside these ranges inline (gm_get): blocks one at a time
    // LocalTensor::SetValue's appends without a record (local_set, local_set_appends): one place's range (run_end points at its
    // set_hi) grows by its next element, the write checked as local_write's append is (the epoch unchanged, the race
    // check settled, below run_limit: the block's UB end and every other place's range), its bytes marked written in
    // run_written (the block's bitmap), and the race records of the elements [run_from, *run_end) are made later, all
    // at once and in order, by settle_scalar_run (emu_core.cpp) for run_race: at every entry point of that checker
    // (race.h, RaceChecker::settle) and before local_write or a block switch. run_race null: no run (run_end at a null
    // pointer no address equals).
    RaceChecker* run_race;
    const uint8_t** run_end;
    const uint8_t* run_from;
    const uint8_t* run_limit;
    uint64_t run_stride;
    const char* run_file;
    int run_line;
    uint32_t run_size;
    uint32_t run_site;
    uint64_t* run_written;
    const uint8_t* run_ub;
};
extern __thread ScalarReads t_scalar_reads;
// The read gm_get does not make inline. First, out of line (a test inside gm_get made a kernel's -O1 loop slower: its
// GEMM of GM reads went from 1.2 to 2.0 ns a read): a read of bytes this block wrote and recorded (one of GlobalTensor::
// SetValue's fast-path ranges, gm_set) in a buffer with deferred poison: inside the buffer, every byte an API write (so
// none needs the poison), read where the poison's alias keeps them; blocks one at a time (gm_read_ok: in parallel
// gm_read records an output's reads). No other block can be writing them (its write would be a gm-overlap), so
// gm_read's poll check has nothing to find there. Anything else: gm_read.
template <typename T> __attribute__((noinline)) T gm_get_checked(const T* p, SrcLoc loc) {
#if !defined(__SANITIZE_ADDRESS__)
    ScalarReads& r = t_scalar_reads;
    if (sizeof(T) <= 8 && loc.file == r.file && r.gm_read_ok && *r.gm_version == r.gm_seen) {
        const uint64_t at = reinterpret_cast<uintptr_t>(p);
        auto inside = [&](int k) {   // the range's bytes that lie in its buffer (gm_lo, gm_limit)
            return at >= r.gm_lo[k] && at + sizeof(T) <= *r.gm_hi[k] && at + sizeof(T) <= r.gm_limit[k];
        };
        const int i = inside(0) ? 0 : inside(1) ? 1 : -1;
        const uint8_t* alias = i >= 0 ? *r.gm_alias[i] : nullptr;
        if (alias) {   // (a buffer without it: gm_read gives gm_get a range, for the reads after this one)
            *r.op = static_cast<uint16_t>(Op::GetValue);
            *r.line = static_cast<uint32_t>(loc.line);
            ++r.reads[sizeof(T) - 1];
            T value;
            std::memcpy(static_cast<void*>(&value), alias + (at - r.gm_base[i]), sizeof(T));
            return value;
        }
    }
#endif
    T value{};
    gm_read(p, sizeof(T), &value, loc);
    return value;
}
template <typename T> __attribute__((always_inline)) inline T gm_get(const T* p, SrcLoc loc) {
#if !defined(__SANITIZE_ADDRESS__)   // the sanitized build checks the runtime's own accesses: every read calls gm_read
    if (sizeof(T) <= 8) {
        ScalarReads& r = t_scalar_reads;
        const uint8_t* a = reinterpret_cast<const uint8_t*>(p);
        static_assert(ScalarReads::kSpans == 4, "the test below is unrolled for four ranges");
        if (__builtin_expect(loc.file == r.file, 1) &&
            __builtin_expect(static_cast<uint64_t>(a - r.lo[0]) < r.room[0] || static_cast<uint64_t>(a - r.lo[1]) < r.room[1] ||
                             static_cast<uint64_t>(a - r.lo[2]) < r.room[2] || static_cast<uint64_t>(a - r.lo[3]) < r.room[3], 1)) {
            *r.op = static_cast<uint16_t>(Op::GetValue);
            *r.line = static_cast<uint32_t>(loc.line);
            ++r.reads[sizeof(T) - 1];
            T value;
            std::memcpy(static_cast<void*>(&value), a, sizeof(T));
            return value;
        }
    }
#endif
    return gm_get_checked<T>(p, loc);
}
// The fast path of a scalar UB read, inlined into LocalTensor::GetValue (a convolution that gathers its patch into UB
// and multiplies it there reads UB once a product): local_read's checks made inline for the usual case, the tensor in
// this block's UB, the element below GetSize() and nothing a scalar read can race with pending (RaceChecker::
// scalar_read_settled: every V and MTE2 write known complete by the S pipe, or no race check); the status page's place
// and the S pipe's work kept as local_read keeps them. Anything else calls local_read, which checks and reports it.
template <typename T> __attribute__((noinline)) T local_get_checked(const Local& t, uint64_t index, SrcLoc loc) {
    T value{};
    local_read(t, index, sizeof(T), &value, loc);
    return value;
}
template <typename T> __attribute__((always_inline)) inline T local_get(const Local& t, uint64_t index, SrcLoc loc) {
#if !defined(__SANITIZE_ADDRESS__)
    if (sizeof(T) <= 8) {
        ScalarReads& r = t_scalar_reads;
        if (__builtin_expect(loc.file == r.file && t.addr >= r.ub && t.addr <= r.ub_end &&
                             (index + 1) * sizeof(T) <= t.bytes && r.newest[1] <= r.known[1] && r.newest[2] <= r.known[2], 1)) {
            *r.op = static_cast<uint16_t>(Op::GetValue);
            *r.line = static_cast<uint32_t>(loc.line);
            ++r.reads[sizeof(T) - 1];
            T value;
            std::memcpy(static_cast<void*>(&value), t.addr + index * sizeof(T), sizeof(T));
            return value;
        }
    }
#endif
    return local_get_checked<T>(t, index, loc);
}
// The fast path of a scalar UB write, inlined into LocalTensor::SetValue (a kernel that accumulates in UB writes it once
// a product: `acc.SetValue(co, acc.GetValue(co) + x * w)`). local_write's checks and records made inline when they are
// settled: the tensor in this block's UB and the element below GetSize() (as local_get), nothing a scalar write can race
// with pending (RaceChecker::scalar_write_settled's four comparisons: V and MTE2 writes, V and MTE3 reads all known
// complete by the S pipe), and the scalar one of the range's elements (set_lo[i] + k * stride, below set_hi[i]) that
// writes of this same place recorded while nothing observed the S pipe's clock (the epoch unchanged). Such a write's race record would be the one already
// there (same place; a clock no flag, barrier or wait tells apart from a new one: race.h, scalar_epoch) and its bytes
// are marked written already, so it only writes the value, the status page's place and the S pipe's work. Or the scalar
// is the next element of the place's run of appends (local_set_appends), whose record is made later. Anything else
// calls local_write, which checks, records and reports it, and grows or moves the range.
template <typename T> __attribute__((noinline)) void local_set_checked(const Local& t, uint64_t index, T value, SrcLoc loc) {
    local_write(t, index, sizeof(T), &value, loc);
}
template <typename T> __attribute__((always_inline)) inline bool local_set_in_range(const ScalarReads& r, int i, const uint8_t* at,
                                                                                   const SrcLoc& loc) {
    const uint64_t d = static_cast<uint64_t>(at - r.set_lo[i]);
    return loc.line == r.set_line[i] && loc.file == r.set_file[i] && sizeof(T) == r.set_size[i] &&
           d < static_cast<uint64_t>(r.set_hi[i] - r.set_lo[i]) && (d & r.set_step[i]) == 0;
}
// A write that continues the run of appends local_write started (ScalarReads::run_*): the place, size and address the
// run's next element, below its limit (the UB's end, the other places' ranges). With local_set's other tests (the
// tensor in this block's UB and the element below GetSize(), the epoch unchanged, nothing the write can race with
// pending) these are the tests local_write's append makes; the write then needs only the value, the written mark, the
// status page's place and the S pipe's work here, and its race record is made with the run's (settle_scalar_run).
template <typename T> __attribute__((always_inline)) inline bool local_set_appends(const ScalarReads& r, const uint8_t* at,
                                                                                  const SrcLoc& loc) {
    return at == *r.run_end && at + sizeof(T) <= r.run_limit && loc.line == r.run_line && loc.file == r.run_file &&
           sizeof(T) == r.run_size;
}
template <typename T> __attribute__((always_inline)) inline void local_set(const Local& t, uint64_t index, T value, SrcLoc loc) {
#if !defined(__SANITIZE_ADDRESS__)
    if (sizeof(T) <= 8) {
        ScalarReads& r = t_scalar_reads;
        uint8_t* at = t.addr + index * sizeof(T);
        static_assert(ScalarReads::kSetPlaces == 4, "the test below is unrolled for four places");
        // The run's next element is tested first: a run of appends is the loop this path is for, and its element is in
        // none of the four ranges (its own range ends there; start_scalar_run put the run's limit below every other
        // range above it and opened no run inside one; the ranges change only in local_write, which ends the run
        // first), so the order decides nothing but how many tests an append makes.
        bool append = false;
        if (__builtin_expect(loc.file == r.file && t.addr >= r.ub && t.addr <= r.ub_end && (index + 1) * sizeof(T) <= t.bytes &&
                             ((append = local_set_appends<T>(r, at, loc)) ||
                              local_set_in_range<T>(r, 0, at, loc) || local_set_in_range<T>(r, 1, at, loc) ||
                              local_set_in_range<T>(r, 2, at, loc) || local_set_in_range<T>(r, 3, at, loc)) &&
                             *r.epoch == r.set_epoch && r.newest[1] <= r.known[1] && r.newest[2] <= r.known[2] &&
                             r.newest[3] <= r.known[1] && r.newest[4] <= r.known[3], 1)) {
            if (append) {   // the run's next element: the range grows by it, its bytes marked written
                *r.run_end = at + r.run_stride;
                const uint64_t off = static_cast<uint64_t>(at - r.run_ub);   // aligned to the size (the run's start was)
                r.run_written[off / 64] |= ((uint64_t{1} << sizeof(T)) - 1) << (off % 64);
            }
            *r.op = static_cast<uint16_t>(Op::SetValue);
            *r.line = static_cast<uint32_t>(loc.line);
            ++r.writes[sizeof(T) - 1];
            std::memcpy(at, static_cast<const void*>(&value), sizeof(T));
            return;
        }
    }
#endif
    local_set_checked<T>(t, index, value, loc);
}
void gm_write(void* p, uint32_t size, const void* in, SrcLoc loc);
// The fast path of a scalar GM write, GlobalTensor::SetValue's (a kernel that computes on the scalar unit writes each
// output element with it). gm_write's checks and records made here, without a call into the runtime, when they are
// settled: the bytes lie in one of the (up to two) ranges this block's checked writes made in the gm-overlap tracker, or
// continue it from its end, short of the next range and of the buffer's last byte, with the tracker unchanged since
// (its version): so the buffer is one the kernel may write, bounds hold, no other block's range is touched (nothing to
// compare) and the tracker's record is that range's end moved, as OverlapTracker::add would move it; the bytes are
// marked as an API write in the buffer's byte bitmap (inside one byte of it: the scalar does not cross an 8-byte
// boundary), the S pipe's work and the write counted, the value written where the buffer's deferred poison puts it.
// Anything else calls gm_write, which checks, records and reports it and fills the ranges in. Out of line, not inlined
// into the kernel, and called as gm_write was (the same four arguments, `size` being sizeof(T)): at -O1 the inlined
// test's registers, or another call's form, changed the register allocation of the kernel's other loops
// (bench_scalar_access.py kind 2, a loop of GM reads in the same function, kept its counter in memory: 1.1 -> 1.3 ns a
// read; kind 5's GEMM loop, 1.2 -> 1.3).
template <typename T> __attribute__((always_inline)) inline bool gm_set_in_range(const ScalarReads& r, int i, uint64_t a) {
    return a >= r.gm_lo[i] && a <= *r.gm_hi[i] && a + sizeof(T) < r.gm_limit[i];
}
template <typename T> __attribute__((noinline)) void gm_set(T* p, uint32_t size, const T* value, SrcLoc loc) {
#if !defined(__SANITIZE_ADDRESS__)
    if (sizeof(T) <= 8 && size == sizeof(T)) {
        ScalarReads& r = t_scalar_reads;
        const uint64_t a = reinterpret_cast<uintptr_t>(p);
        static_assert(ScalarReads::kGmSetRanges == 2, "the test below is unrolled for two ranges");
        if (__builtin_expect(loc.file == r.file && *r.gm_version == r.gm_seen && (a & 7) + sizeof(T) <= 8, 1)) {
            const int i = gm_set_in_range<T>(r, 0, a) ? 0 : gm_set_in_range<T>(r, 1, a) ? 1 : -1;
            if (__builtin_expect(i >= 0, 1)) {
                if (a + sizeof(T) > *r.gm_hi[i]) *r.gm_hi[i] = a + sizeof(T);   // the range continued
                const uint64_t off = a - r.gm_base[i];
                if (uint8_t* bits = r.gm_bits[i]) {   // ApiWrites::mark of these bytes: their bits, in one byte
                    const uint8_t mask = static_cast<uint8_t>(((1u << sizeof(T)) - 1u) << (off % 8));
                    if ((bits[off / 8] & mask) != mask) __atomic_fetch_or(&bits[off / 8], mask, __ATOMIC_RELAXED);
                }
                *r.op = static_cast<uint16_t>(Op::SetValue);
                *r.line = static_cast<uint32_t>(loc.line);
                ++r.writes[sizeof(T) - 1];
                ++r.gm_writes;
                uint8_t* alias = *r.gm_alias[i];
                std::memcpy(alias ? alias + off : reinterpret_cast<uint8_t*>(p), static_cast<const void*>(value), sizeof(T));
                return;
            }
        }
    }
#endif
    gm_write(p, size, value, loc);
}
void gm_fill(void* p, uint64_t count, uint32_t size, const void* value, SrcLoc loc);

void data_copy(Dt dt, const Local* ubDst, const Local* ubSrc, void* gm, const CopyShape& shape, SrcLoc loc);
void data_copy_pad(Dt dt, const Local* ubDst, const Local* ubSrc, void* gm, const CopyShape& shape, const PadSpec& pad, SrcLoc loc);

void vec_binary(Op op, Dt dt, const Local& d, const Local& a, const Local& b, const Lanes& lanes, const Stride* s, SrcLoc loc);
void vec_unary(Op op, Dt dt, const Local& d, const Local& a, const Lanes& lanes, const Stride* s, SrcLoc loc);
void vec_scalar(Op op, Dt dt, const Local& d, const Local& a, Scalar v, const Lanes& lanes, const Stride* s, SrcLoc loc);
void vec_axpy(Dt dstDt, Dt srcDt, const Local& d, const Local& a, Scalar v, const Lanes& lanes, const Stride* s, SrcLoc loc);
void vec_duplicate(Dt dt, const Local& d, Scalar v, const Lanes& lanes, const Stride& s, SrcLoc loc);
void vec_cast(Dt dstDt, Dt srcDt, uint8_t round, const Local& d, const Local& a, const Lanes& lanes, const Stride* s, SrcLoc loc);
// The reserved-count register: the elements the last GatherMask of this core kept
int64_t gather_mask_rsvd_cnt();
// Cast half -> int4b_t (toInt4) or int4b_t -> half: the int4b_t side two per byte, the even element in the low half;
// `s` (dst, src) the level-0 strides, in 32-byte blocks for both operands (nullptr: level 2)
void vec_cast_int4(bool toInt4, uint8_t round, const Local& d, const Local& a, const Lanes& lanes, const Stride* s, SrcLoc loc);
void vec_compare(Op op, Dt dt, uint8_t mode, const Local& d, const Local& a, const Local* b, Scalar v, const Lanes& lanes,
                 const Stride* s, SrcLoc loc);
void vec_select(Dt dt, Dt maskDt, uint8_t mode, const Local& d, const Local& sel, const Local& a, const Local* b, Scalar v,
                const Lanes& lanes, const Stride* s, SrcLoc loc);
void vec_select_cmpmask(Dt dt, uint8_t mode, const Local& d, const Local& a, const Local& b, const Lanes& lanes, const Stride* s,
                        SrcLoc loc);
void vec_gather(Dt dt, const Local& d, const Local& src, const Local& offsets, uint32_t base, const Lanes& lanes,
                uint32_t dstRepStride, SrcLoc loc);
void vec_index(Dt dt, const Local& d, Scalar first, const Lanes& lanes, const Stride& s, SrcLoc loc);
void vec_adv(Op op, Dt dt, const Local& d, const Local& a, const Local* tmp, uint64_t count, SrcLoc loc);
void vec_shift(Op op, Dt dt, const Local& d, const Local& a, Scalar distance, bool roundEn, const Lanes& lanes, const Stride* s,
               SrcLoc loc);
void vec_muladd_dst(Dt dstDt, Dt srcDt, const Local& d, const Local& a, const Local& b, const Lanes& lanes, const Stride* s,
                    SrcLoc loc);
void vec_brcb(Dt dt, const Local& d, const Local& a, uint32_t repeats, const Stride& dstStride, SrcLoc loc);
void vec_gatherb(Dt dt, const Local& d, const Local& src, const Local& offsets, uint32_t repeats, const Stride& dstStride, SrcLoc loc);
void vec_transpose16(Dt dt, const Local& d, const Local& a, SrcLoc loc);
// Transpose with TransposeParamsExt: [N, C, H, W] -> [N, H, W, C] (to_nhwc) or back, through sharedTmpBuffer.
void vec_transpose4d(Dt dt, const Local& d, const Local& a, const Local& tmp, uint32_t n, uint32_t c, uint32_t h, uint32_t w,
                     bool to_nhwc, SrcLoc loc);

void reduce_all(Op op, Dt dt, const Local& d, const Local& a, const Local& tmp, const Lanes& lanes, uint32_t srcRepStride,
                bool calIndex, SrcLoc loc);
void reduce_whole(Op op, Dt dt, const Local& d, const Local& a, const Lanes& lanes, uint32_t dstRepStride,
                  uint32_t srcBlkStride, uint32_t srcRepStride, uint8_t order, SrcLoc loc);
void reduce_block(Op op, Dt dt, const Local& d, const Local& a, const Lanes& lanes, uint32_t dstRepStride,
                  uint32_t srcBlkStride, uint32_t srcRepStride, SrcLoc loc);
void reduce_pair(Dt dt, const Local& d, const Local& a, const Lanes& lanes, uint32_t dstRepStride, uint32_t srcBlkStride,
                 uint32_t srcRepStride, SrcLoc loc);

void mask_set(Dt dt, bool counterTemplate, uint64_t hi, uint64_t lo, bool lenForm, SrcLoc loc);
void mask_mode(bool counter, SrcLoc loc);
uint64_t ctrl_read();                       // the core's CTRL word (bit 56: the mask's counter mode)
void ctrl_write(uint64_t value, SrcLoc loc);
void mask_reset(SrcLoc loc);
void atomic_set(bool add, Dt dt, SrcLoc loc);
// SetAtomicMax / SetAtomicMin: later copies to GM keep the larger / smaller of the value there and the value copied.
enum class AtomicMode : uint8_t { add, max, min };
void atomic_set_mode(AtomicMode mode, Dt dt, SrcLoc loc);
void atomic_set_type(Dt dt, SrcLoc loc);   // SetAtomicType: the element type of the atomic operation

// A call the official headers accept at compile time that cannot run on A2 (or in the emulation): an
// `unsupported` error at the call, and the run stops. `supported` lists the element types the instruction takes.
[[noreturn]] void unsupported_type(Op op, Dt dt, const char* supported, SrcLoc loc);
// And / Or with a count on an element type other than int16_t / uint16_t (AscendC's A2 code hands every type to the
// int16_t instruction with the count as its counter-mode mask, so `count` int16_t lanes, 2 * count bytes, are combined):
// int32_t / uint32_t are documented so (the API reference: pass twice the element count), silent; any other type
// (uint8_t, int8_t, half, float, bfloat16_t) is outside the documented types: under run option vector_mask "warning" a
// `vector-mask` warning once per place, run as A2 runs it; otherwise `unsupported` (`supported` lists the types).
void bitwise_count_as_int16(Op op, Dt dt, int64_t count, const char* supported, SrcLoc loc);
// A mask-side element type outside the documented ones (a Compare / CompareScalar result tensor that is not uint8_t):
// AscendC's NPU build writes the mask's bytes through it (its type check is CPU-debug only). Under vector_mask "warning"
// a `vector-mask` warning once per place and the call runs so; otherwise `unsupported`. `a2`: what the chip does.
void mask_type_as_a2(Op op, Dt dt, const char* supported, const char* a2, SrcLoc loc);
// Select with an int8_t selMask: the documented mask types are unsigned, but the NPU reads the mask's bits whatever
// their type (a warning, once per call site).
void signed_select_mask(SrcLoc loc);
// SetDeqScale(half): the core's DEQSCALE register, the factor of Cast int32_t -> half (dst = src * scale).
void set_deq_scale(float scale, SrcLoc loc);
bool deq_scale_set();
[[noreturn]] void unsupported_call(Op op, const char* message, const char* hint, SrcLoc loc);

void tiling_read(void* dst, const void* gm, uint64_t bytes, SrcLoc loc);
// COPY_TILING_WITH_STRUCT's copy: from the tiling in GM (read as GET_TILING_DATA reads it), or from a struct the kernel
// holds (a member of one GET_TILING_DATA_PTR_WITH_STRUCT copied)
void tiling_copy(void* dst, const void* src, uint64_t bytes, SrcLoc loc);
uint64_t tiling_key();
bool tiling_key_test(const uint64_t* keys, uint32_t n, SrcLoc loc);  // TILING_KEY_IS / TILING_KEY_LIST (emu_tiling.cpp)
// a tiling-template kernel (ASCENDC_TPL_SEL) has no instance of the launch's key (`keys`: the ones it has): an error
[[noreturn]] void tpl_key_unmatched(const uint64_t* keys, uint32_t n, SrcLoc loc);
template <typename... K> inline bool tiling_key_list(SrcLoc loc, K... keys) {
    const uint64_t ks[] = {static_cast<uint64_t>(keys)...};
    return tiling_key_test(ks, static_cast<uint32_t>(sizeof...(K)), loc);
}
// TILING_KEY_IS / TILING_KEY_LIST of a per-key build (TILING_KEY_VAR a literal, build_macros.h): a constant expression
// when one is needed (`if constexpr (TILING_KEY_IS(1))`: whether the built key is one of `keys`), else the run-time
// test above, recorded as in any other build.
template <typename... K> constexpr bool tiling_key_built(uint64_t built, SrcLoc loc, K... keys) {
    if (__builtin_is_constant_evaluated()) {
        bool hit = false;
        for (uint64_t k : {static_cast<uint64_t>(keys)...}) hit = hit || k == built;
        return hit;
    }
    return tiling_key_list(loc, keys...);
}
void dump_tensor(const Local& t, Dt dt, uint32_t desc, uint32_t count, SrcLoc loc);
// asc_dump_gm / _ubuf / _l1buf / _cbuf: `count` elements from a raw buffer address, labelled with the buffer.
void dump_raw(const void* p, Dt dt, uint32_t desc, uint32_t count, const char* where, SrcLoc loc);

}}  // namespace ascendcraft::emu
