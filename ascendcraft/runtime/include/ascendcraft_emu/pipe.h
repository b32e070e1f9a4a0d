// AscendCraft CPU emulation: TPipe, TQue/TQueBind, TBuf, flags, barriers and core indexing.
#pragma once

#include "tensor.h"
#include "sync_cross.h"

namespace AscendC {

class TPipe;
using TBufHandle = uint8_t*;  // a queue buffer's address (the typeless DeQue's result)

// A queue's configuration (a TQue's third template argument, `TQue<pos, depth, &conf>`). The emulated queues behave
// the same whatever it says.
struct TQueConfig {
    bool nd2nz = false;
    bool nz2nd = false;
    bool scmBlockGroup = false;
    uint32_t bufferLen = 0;
    uint32_t bufferNumber = 0;
    uint32_t consumerSize = 0;
    TPosition consumer[8] = {};
    bool enableStaticEvtId = false;
    bool enableLoopQueue = false;
};

// A queue of UB buffers between two positions (VECIN → compute, compute → VECOUT, ...).
template <TPosition src, TPosition dst, int32_t depth, auto mask = 0> class TQueBind {
public:
    TQueBind() {}
    template <typename T> LocalTensor<T> AllocTensor(SrcLoc loc = {}) {
        return LocalTensor<T>(ascendcraft::emu::queue_alloc(queue_, loc));
    }
    template <typename T> void AllocTensor(LocalTensor<T>& tensor, SrcLoc loc = {}) {
        static_assert(depth == 0, "AllocTensor(LocalTensor<T>&) allocates in place, which AscendC allows only on a queue of "
                                  "depth 0 (TQue<pos, 0>); with this depth write `LocalTensor<T> t = que.AllocTensor<T>();`");
        tensor = LocalTensor<T>(ascendcraft::emu::queue_alloc(queue_, loc));
    }
    template <typename T> bool EnQue(const LocalTensor<T>& tensor, SrcLoc loc = {}) {
        return ascendcraft::emu::queue_enque(queue_, tensor.emu(), loc);
    }
    template <TPosition srcUserPos, TPosition dstUserPos, typename T> bool EnQue(const LocalTensor<T>& tensor, SrcLoc loc = {}) {
        return ascendcraft::emu::queue_enque(queue_, tensor.emu(), loc);
    }
    template <typename T> LocalTensor<T> DeQue(SrcLoc loc = {}) {
        return LocalTensor<T>(ascendcraft::emu::queue_deque(queue_, loc));
    }
    template <typename T> void DeQue(LocalTensor<T>& tensor, SrcLoc loc = {}) {
        static_assert(depth == 0, "DeQue(LocalTensor<T>&) dequeues in place, which AscendC allows only on a queue of "
                                  "depth 0 (TQue<pos, 0>); with this depth write `LocalTensor<T> t = que.DeQue<T>();`");
        tensor = LocalTensor<T>(ascendcraft::emu::queue_deque(queue_, loc));
    }
    template <TPosition srcUserPos, TPosition dstUserPos, typename T> LocalTensor<T> DeQue(SrcLoc loc = {}) {
        return LocalTensor<T>(ascendcraft::emu::queue_deque(queue_, loc));
    }
    // DeQue without a type: dequeues the front buffer and returns its address as a handle. Kernels call it to wait
    // for their EnQue and go on using the tensor they enqueued (then FreeTensor it).
    TBufHandle DeQue(SrcLoc loc = {}) { return ascendcraft::emu::queue_deque(queue_, loc).addr; }
    // As in AscendC: FreeTensor(LocalTensor<T>& tensor) takes a named, non-const tensor (not DeQue<T>()'s result).
    template <typename T> void FreeTensor(LocalTensor<T>& tensor, SrcLoc loc = {}) {
        ascendcraft::emu::queue_free(queue_, tensor.emu(), loc);
    }
    bool HasTensorInQue() const { return ascendcraft::emu::queue_count(queue_) > 0; }
    int32_t GetTensorCountInQue() const { return ascendcraft::emu::queue_count(queue_); }
    bool VacantInQue() const { return depth <= 0 || ascendcraft::emu::queue_count(queue_) < depth; }
    bool HasIdleBuffer() const { return ascendcraft::emu::queue_has_idle(queue_); }
    void FreeAllEvent() {}
    // The hooks a custom TBufPool (EXTERN_IMPL_BUFPOOL) calls to place this queue's buffers: InitStartBufHandle gives
    // their number and length, then InitBufHandle each buffer's UB address. The emulated queue is made at buffer 0's
    // address; the next ones must follow it, len bytes apart (a queue's buffers are contiguous in the emulation).
    void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len, SrcLoc loc = {}) {
        (void)startBufhandle; (void)loc;
        pool_num_ = num; pool_len_ = len;
    }
    template <typename P>
    void InitBufHandle(P* bufPool, uint32_t index, TBufHandle bufhandle, uint32_t curPoolAddr, uint32_t len, SrcLoc loc = {}) {
        (void)bufhandle;
        if (index == 0) {
            queue_ = bufPool->tBufPoolImpl.make(static_cast<uint8_t>(src), static_cast<uint8_t>(dst), depth, pool_num_,
                                                pool_len_, false, curPoolAddr, loc);
            return;
        }
        bufPool->tBufPoolImpl.check_next(queue_, index, curPoolAddr, len, loc);
    }

    int queue_ = -1;  // runtime handle, set by TPipe::InitBuffer
    uint8_t pool_num_ = 0;
    uint32_t pool_len_ = 0;
};

template <TPosition pos, int32_t depth, auto mask = 0> class TQue : public TQueBind<pos, pos, depth, mask> {};
// A queue into the L1 buffer that a Matmul object reads its A, B or bias from when their MatmulType's position is
// TPosition::TSCM (a tensor the kernel copies there itself): queued like an L1 queue, MTE2 in and MTE1 out.
template <TPosition pos, int32_t depth = 1, auto mask = 0> using TSCM = TQueBind<pos, TPosition::TSCM, depth, mask>;

}  // namespace AscendC
namespace ascendcraft { namespace emu { Local stack_buffer(SrcLoc loc); }}
namespace AscendC {

// PopStackBuffer: a tensor over the UB that the InitBuffer allocations leave free, from the end of the last one to the
// end of UB (false only where none is left; the emulator stops there with ub-overflow).
template <typename T, TPosition pos>
inline bool PopStackBuffer(LocalTensor<T>& popBuffer, SrcLoc loc = {}) {
    popBuffer = LocalTensor<T>(ascendcraft::emu::stack_buffer(loc));
    return true;
}

// A scratch buffer without queue semantics.
template <TPosition pos = TPosition::VECCALC> class TBuf {
public:
    TBuf() {}
    template <typename T> LocalTensor<T> Get(SrcLoc loc = {}) {
        return LocalTensor<T>(ascendcraft::emu::tbuf_get(queue_, 0, 0, true, loc));
    }
    template <typename T> LocalTensor<T> Get(uint32_t len, SrcLoc loc = {}) {
        return LocalTensor<T>(ascendcraft::emu::tbuf_get(queue_, static_cast<uint64_t>(len) * sizeof(T), 0, false, loc));
    }
    template <typename T> LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset, SrcLoc loc = {}) {
        return LocalTensor<T>(ascendcraft::emu::tbuf_get(queue_, static_cast<uint64_t>(size) * sizeof(T), bufOffset, false, loc));
    }
    // The place of the buffer from `handle` (a tensor's GetBufferHandle() inside this TBuf) to its end, for
    // LocalTensor::SetAddr; a handle outside the buffer stops the run.
    TBuffAddr GetBufferAddr(TBufHandle handle, SrcLoc loc = {}) {
        ascendcraft::emu::Local d = ascendcraft::emu::tbuf_get(queue_, 0, 0, true, loc);
        if (handle < d.addr || handle >= d.addr + d.cap)
            ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::GetValue,
                "TBuf::GetBufferAddr: the handle does not lie inside this TBuf's buffer",
                "pass the handle of a tensor this TBuf gave (tensor.GetBufferHandle())", loc);
        const uint32_t shift = static_cast<uint32_t>(handle - d.addr);
        d.addr = handle;
        d.bytes = d.bytes > shift ? d.bytes - shift : 0u;
        d.cap -= shift;
        TBuffAddr a;
        a.dataLen = d.bytes;
        a.bufferAddr = shift;
        a.bufferHandle = handle;
        a.logicPos = static_cast<uint8_t>(pos);
        a.emuDesc = d;
        return a;
    }
    // AscendC's TBuf also has the queue interface. AllocTensor gives the whole buffer (like Get) and FreeTensor
    // returns nothing; a TBuf has no queue, so EnQue / DeQue stop the run.
    template <typename T> LocalTensor<T> AllocTensor(SrcLoc loc = {}) { return Get<T>(loc); }
    template <typename T> void FreeTensor(LocalTensor<T>& tensor, SrcLoc loc = {}) { (void)tensor; (void)loc; }
    template <typename T> void EnQue(const LocalTensor<T>& tensor, SrcLoc loc = {}) {
        (void)tensor;
        ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::EnQue,
            "TBuf::EnQue: a TBuf is a scratch buffer without a queue, so it cannot hand a tensor between pipes on Ascend 910B (A2)",
            "use a TQue (TPipe::InitBuffer(que, num, len)) for tensors that move between pipes", loc);
    }
    template <typename T> LocalTensor<T> DeQue(SrcLoc loc = {}) {
        ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::DeQue,
            "TBuf::DeQue: a TBuf is a scratch buffer without a queue, so it cannot hand a tensor between pipes on Ascend 910B (A2)",
            "use a TQue (TPipe::InitBuffer(que, num, len)) for tensors that move between pipes", loc);
    }
    void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len, SrcLoc loc = {}) {
        (void)startBufhandle; (void)num; (void)loc;
        pool_len_ = len;
    }
    template <typename P>
    void InitBufHandle(P* bufPool, uint32_t index, TBufHandle bufhandle, uint32_t curPoolAddr, uint32_t len, SrcLoc loc = {}) {
        (void)bufhandle; (void)index; (void)len;
        queue_ = bufPool->tBufPoolImpl.make(static_cast<uint8_t>(pos), static_cast<uint8_t>(pos), 0, 1, pool_len_, true,
                                            curPoolAddr, loc);
    }
    int queue_ = -1;
    uint32_t pool_len_ = 0;
};

// ---- TBufPool: a block of UB that TPipe::InitBufPool takes once and hands out to queues and buffers; Reset gives it
// back for reuse, and a second pool can share the first one's bytes (InitBufPool(pool, len, shared)). ------------
constexpr uint32_t defaultBufIDSize = 4;
namespace detail_pool {
// A pool's state: its UB bytes [startAddr_, endAddr_), the next free offset (maxAddr_), the buffer handles it has given
// (curBufSize_ of bufIDSize) and the emulated queues made in it (released by Reset).
template <uint32_t N> struct PoolImpl {
    int pipe = -1;
    uint32_t startAddr_ = 0, maxAddr_ = 0, endAddr_ = 0, maxLen_ = 0;
    uint8_t curBufSize_ = 0;
    bool isReset_ = true;
    uint8_t buf_[N > 0 ? N : 1] = {};   // handle storage: GetBufHandle(k) is &buf_[k]
    int queues_[64] = {};
    int nq_ = 0;
    void open(int pipeId, uint32_t start, uint32_t len) {
        pipe = pipeId; startAddr_ = maxAddr_ = start; endAddr_ = start + (len + 31) / 32 * 32; maxLen_ = len;
        curBufSize_ = 0; nq_ = 0;
    }
    void need_open(SrcLoc loc) const {
        if (pipe < 0)
            ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::InitBuffer,
                "InitBuffer / InitBufPool on a TBufPool that has no memory yet",
                "give the pool its bytes first: pipe.InitBufPool(pool, len) (or parentPool.InitBufPool(pool, len))", loc);
    }
    int make(uint8_t src, uint8_t dst, int32_t depth, int32_t num, uint64_t len, bool isBuf, uint32_t at, SrcLoc loc) {
        need_open(loc);
        if (nq_ >= 64 || static_cast<uint32_t>(nq_) >= (N > 0 ? N : 1) * 16u)
            ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::InitBuffer, "too many buffers in one TBufPool",
                                               "a TBufPool holds at most its bufIDSize buffers", loc);
        int q = ascendcraft::emu::queue_init_at(pipe, src, dst, depth, num, len, isBuf, at, endAddr_, loc);
        queues_[nq_++] = q;
        return q;
    }
    void check_next(int queue, uint32_t index, uint32_t addr, uint32_t len, SrcLoc loc) {
        const uint32_t want = ascendcraft::emu::queue_base(queue) + index * ((len + 31) / 32 * 32);
        if (addr != want)
            ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::InitBuffer,
                "InitBufHandle places a queue's buffers apart: the emulation keeps a queue's buffers contiguous",
                "give buffer i the address of buffer 0 plus i * len (32-byte aligned)", loc);
    }
    void reset(SrcLoc loc) {
        for (int i = 0; i < nq_; ++i) ascendcraft::emu::queue_release(queues_[i], loc);
        nq_ = 0; curBufSize_ = 0; maxAddr_ = startAddr_; isReset_ = true;
    }
};
}  // namespace detail_pool

template <TPosition pos, uint32_t bufIDSize = defaultBufIDSize> class TBufPool;
namespace detail_pool {
template <class T> struct is_tbufpool : std::false_type {};
template <TPosition p, uint32_t n> struct is_tbufpool<TBufPool<p, n>> : std::true_type {};
// As in AscendC, a TBufPool makes pools inside it of its own type or custom pools (EXTERN_IMPL_BUFPOOL); another
// TBufPool specialisation's pool flag is private to it, so that call does not compile.
template <class Self, class T> constexpr bool nestable = std::is_same<Self, T>::value || !is_tbufpool<T>::value;
}  // namespace detail_pool

template <TPosition pos, uint32_t bufIDSize> class TBufPool {
public:
    static constexpr TPosition poolPos = pos;
    static constexpr bool isTbufPool = true;
    TBufPool() {}
    template <TPosition src, TPosition dst, int32_t depth, auto mask>
    bool InitBuffer(TQueBind<src, dst, depth, mask>& que, uint8_t num, uint32_t len, SrcLoc loc = {}) {
        tBufPoolImpl.need_open(loc);
        const uint32_t at = tBufPoolImpl.maxAddr_;
        que.queue_ = tBufPoolImpl.make(static_cast<uint8_t>(src), static_cast<uint8_t>(dst), depth, num, len, false, at, loc);
        tBufPoolImpl.maxAddr_ = at + num * ((len + 31) / 32 * 32);
        tBufPoolImpl.curBufSize_ = static_cast<uint8_t>(tBufPoolImpl.curBufSize_ + num);
        return true;
    }
    template <TPosition bufPos> bool InitBuffer(TBuf<bufPos>& buf, uint32_t len, SrcLoc loc = {}) {
        tBufPoolImpl.need_open(loc);
        const uint32_t at = tBufPoolImpl.maxAddr_;
        buf.queue_ = tBufPoolImpl.make(static_cast<uint8_t>(bufPos), static_cast<uint8_t>(bufPos), 0, 1, len, true, at, loc);
        tBufPoolImpl.maxAddr_ = at + (len + 31) / 32 * 32;
        tBufPoolImpl.curBufSize_ = static_cast<uint8_t>(tBufPoolImpl.curBufSize_ + 1);
        return true;
    }
    // A pool inside this one: the next len bytes; with shareBuf, the bytes of that (sibling) pool again.
    template <class T, std::enable_if_t<detail_pool::nestable<TBufPool, T>, int> = 0>
    bool InitBufPool(T& bufPool, uint32_t len, SrcLoc loc = {}) {
        tBufPoolImpl.need_open(loc);
        const uint32_t at = tBufPoolImpl.maxAddr_, len32 = (len + 31) / 32 * 32;
        if (at + len32 > tBufPoolImpl.endAddr_) overflow(len, loc);
        bufPool.tBufPoolImpl.open(tBufPoolImpl.pipe, at, len);
        tBufPoolImpl.maxAddr_ = at + len32;
        return true;
    }
    template <class T, class U,
              std::enable_if_t<detail_pool::nestable<TBufPool, T> && detail_pool::nestable<TBufPool, U>, int> = 0>
    bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf, SrcLoc loc = {}) {
        tBufPoolImpl.need_open(loc);
        share(bufPool, len, shareBuf, loc);
        return true;
    }
    void Reset(SrcLoc loc = {}) { tBufPoolImpl.reset(loc); }

    template <class T, class U> static void share(T& bufPool, uint32_t len, U& shareBuf, SrcLoc loc) {
        shareBuf.tBufPoolImpl.need_open(loc);
        if (len > shareBuf.tBufPoolImpl.maxLen_)
            ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::InitBuffer,
                "InitBufPool with a shared pool asks for more bytes than the shared pool has",
                "a pool that reuses another's memory can be at most as long as that pool", loc);
        bufPool.tBufPoolImpl.open(shareBuf.tBufPoolImpl.pipe, shareBuf.tBufPoolImpl.startAddr_, len);
    }
    [[noreturn]] void overflow(uint32_t len, SrcLoc loc) const {
        ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::InitBuffer,
            "InitBufPool asks for more bytes than are left in the enclosing TBufPool",
            "the pools made inside a TBufPool must fit in its length", loc);
        (void)len;
    }
    detail_pool::PoolImpl<bufIDSize> tBufPoolImpl;
};

// A user's own pool class (`class MyPool { ... EXTERN_IMPL_BUFPOOL(MyPool, TPosition::VECCALC, 16); };`): the members
// TPipe::InitBufPool and the queues' InitBufHandle use, and the handle / address accessors its InitBuffer calls.
#define EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE)                                                          \
public:                                                                                                               \
    static constexpr AscendC::TPosition poolPos = POSITION;                                                           \
    static constexpr int bufIDSize = BUFID_SIZE;                                                                      \
    static constexpr bool isTbufPool = true;                                                                          \
    ~EXT_BUFPOOL() { Reset(); }                                                                                       \
    void Reset(ascendcraft::emu::SrcLoc loc = {}) { tBufPoolImpl.reset(loc); }                                        \
    void Init() { tBufPoolImpl.curBufSize_ = 0; tBufPoolImpl.isReset_ = true; }                                       \
    AscendC::TBufHandle GetBufHandle(uint8_t offset) { return tBufPoolImpl.buf_ + offset; }                           \
    void SetCurAddr(uint32_t curAddr) { tBufPoolImpl.maxAddr_ = curAddr; }                                           \
    uint32_t GetCurAddr() { return tBufPoolImpl.maxAddr_; }                                                           \
    void SetCurBufSize(uint8_t curBufSize) { tBufPoolImpl.curBufSize_ = curBufSize; }                                 \
    uint8_t GetCurBufSize() { return tBufPoolImpl.curBufSize_; }                                                      \
    AscendC::detail_pool::PoolImpl<BUFID_SIZE> tBufPoolImpl

// The memory manager of one kernel: hands out UB to queues and buffers.
class TPipe {
public:
    TPipe(SrcLoc loc = {}) : pipe_(ascendcraft::emu::pipe_open(this, loc)) {}
    ~TPipe() { if (!inert_) ascendcraft::emu::pipe_close(pipe_); }
    // AscendC lets a TPipe be copied, but a kernel has exactly one: a copy stops the run. A copy of a pipe that was
    // Destroy()ed is inert, as AscendC's is (its state says destroyed, so its end does nothing): allowed.
    TPipe(const TPipe& other, SrcLoc loc = {}) : pipe_(other.pipe_), inert_(ascendcraft::emu::pipe_destroyed(other.pipe_)) {
        if (!inert_) ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::InitBuffer,
            "a copy of the TPipe: a kernel has exactly one TPipe on Ascend 910B (A2), and a copy would manage the same UB twice",
            "pass the TPipe by pointer (TPipe* pipe) or by reference", loc);
    }
    // Assigning one TPipe to another is AscendC's plain copy of its allocation state (hicann ops-nn add_layer_norm_grad
    // keeps a member `TPipe pipe_` and assigns it the kernel's pipe): the copy hands out UB from where the other one
    // stands; what either hands out afterwards, the other does not know of (their buffers may overlap, as on the NPU).
    TPipe& operator=(const TPipe& other) {
        ascendcraft::emu::pipe_assign(pipe_, other.pipe_);
        return *this;
    }

    template <TPosition src, TPosition dst, int32_t depth, auto mask>
    bool InitBuffer(TQueBind<src, dst, depth, mask>& que, uint8_t num, uint32_t len, SrcLoc loc = {}) {
        que.queue_ = ascendcraft::emu::queue_init(pipe_, static_cast<uint8_t>(src), static_cast<uint8_t>(dst), depth, num, len, false, loc);
        return true;
    }
    template <TPosition pos> bool InitBuffer(TBuf<pos>& buf, uint32_t len, SrcLoc loc = {}) {
        buf.queue_ = ascendcraft::emu::queue_init(pipe_, static_cast<uint8_t>(pos), static_cast<uint8_t>(pos), 0, 1, len, true, loc);
        return true;
    }
    // A TBufPool (or a custom pool) of len bytes, taken from the pipe like a buffer; with shareBuf, the bytes of that
    // pool again (its memory is reused once its work is done).
    template <class T> bool InitBufPool(T& bufPool, uint32_t len, SrcLoc loc = {}) {
        static_assert(T::isTbufPool, "InitBufPool takes a TBufPool (or a class with EXTERN_IMPL_BUFPOOL)");
        const int q = ascendcraft::emu::queue_init(pipe_, static_cast<uint8_t>(T::poolPos), static_cast<uint8_t>(T::poolPos), 0,
                                                   1, len, true, loc);
        bufPool.tBufPoolImpl.open(pipe_, ascendcraft::emu::queue_base(q), len);
        return true;
    }
    template <class T, class U> bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf, SrcLoc loc = {}) {
        static_assert(T::isTbufPool && U::isTbufPool, "InitBufPool takes TBufPools (or classes with EXTERN_IMPL_BUFPOOL)");
        TBufPool<T::poolPos>::share(bufPool, len, shareBuf, loc);
        return true;
    }
    void Init() {}  // the constructor already initialised the pipe
    void Reset(SrcLoc loc = {}) { ascendcraft::emu::pipe_reset(pipe_, loc); }
    void Destroy(SrcLoc loc = {}) { ascendcraft::emu::pipe_destroy(pipe_, loc); }
    template <HardEvent evt> TEventID AllocEventID(SrcLoc loc = {}) {
        return static_cast<TEventID>(ascendcraft::emu::event_alloc(static_cast<uint8_t>(evt), loc));
    }
    template <HardEvent evt> void ReleaseEventID(TEventID id, SrcLoc loc = {}) {
        ascendcraft::emu::event_release(static_cast<uint8_t>(evt), id, loc);
    }
    template <HardEvent evt> TEventID FetchEventID(SrcLoc loc = {}) {
        return static_cast<TEventID>(ascendcraft::emu::event_fetch(static_cast<uint8_t>(evt), loc));
    }
    TEventID FetchEventID(HardEvent evt, SrcLoc loc = {}) {
        return static_cast<TEventID>(ascendcraft::emu::event_fetch(static_cast<uint8_t>(evt), loc));
    }

private:
    int pipe_;
    bool inert_ = false;   // a copy of a destroyed pipe (the copy constructor)
};

}  // namespace AscendC
// The device headers declare GetTPipePtr at global scope (catlass-style kernels call it unqualified inside templates);
// AscendC:: names the same function, so `using namespace AscendC;` code is not ambiguous.
inline AscendC::TPipe* GetTPipePtr() { return static_cast<AscendC::TPipe*>(ascendcraft::emu::current_pipe_object()); }
// kernel_common.h's per-core pipe pointers: a kernel may set them itself (asc-devkit's IterateNBatch page shows
// `g_cubeTPipePtr = &pipe;` before REGIST_MATMUL_OBJ). One per block, as __BLOCK_LOCAL__ is; the emulation's pipe lookups
// (GetTPipePtr, the Matmul's buffers) do not read them.
inline thread_local AscendC::TPipe* g_cubeTPipePtr = nullptr;
inline thread_local AscendC::TPipe* g_vecTPipePtr = nullptr;
inline thread_local AscendC::TPipe* g_tPipePtr = nullptr;
namespace AscendC {
using ::GetTPipePtr;

// ---- flags and barriers ---------------------------------------------------------------------
template <HardEvent event> inline void SetFlag(int32_t eventID, SrcLoc loc = {}) {
    ascendcraft::emu::flag_set(static_cast<uint8_t>(event), eventID, loc);
}
template <HardEvent event> inline void WaitFlag(int32_t eventID, SrcLoc loc = {}) {
    ascendcraft::emu::flag_wait(static_cast<uint8_t>(event), eventID, loc);
}
template <pipe_t pipe> inline void PipeBarrier(SrcLoc loc = {}) { ascendcraft::emu::pipe_barrier(pipe, loc); }

// The HardEvent that orders pipe `src` before pipe `dst` (HardEvent::MAX if there is none).
constexpr HardEvent HardEventOf(pipe_t src, pipe_t dst) {
    return src == PIPE_MTE2 && dst == PIPE_V ? HardEvent::MTE2_V
         : src == PIPE_V && dst == PIPE_MTE2 ? HardEvent::V_MTE2
         : src == PIPE_MTE3 && dst == PIPE_V ? HardEvent::MTE3_V
         : src == PIPE_V && dst == PIPE_MTE3 ? HardEvent::V_MTE3
         : src == PIPE_V && dst == PIPE_V ? HardEvent::V_V
         : src == PIPE_MTE3 && dst == PIPE_MTE2 ? HardEvent::MTE3_MTE2
         : src == PIPE_MTE2 && dst == PIPE_MTE3 ? HardEvent::MTE2_MTE3
         : src == PIPE_S && dst == PIPE_V ? HardEvent::S_V
         : src == PIPE_V && dst == PIPE_S ? HardEvent::V_S
         : src == PIPE_S && dst == PIPE_MTE2 ? HardEvent::S_MTE2
         : src == PIPE_MTE2 && dst == PIPE_S ? HardEvent::MTE2_S
         : src == PIPE_S && dst == PIPE_MTE3 ? HardEvent::S_MTE3
         : src == PIPE_MTE3 && dst == PIPE_S ? HardEvent::MTE3_S
         : src == PIPE_MTE2 && dst == PIPE_MTE1 ? HardEvent::MTE2_MTE1
         : src == PIPE_MTE1 && dst == PIPE_MTE2 ? HardEvent::MTE1_MTE2
         : src == PIPE_MTE1 && dst == PIPE_M ? HardEvent::MTE1_M
         : src == PIPE_M && dst == PIPE_MTE1 ? HardEvent::M_MTE1
         : src == PIPE_M && dst == PIPE_V ? HardEvent::M_V
         : src == PIPE_V && dst == PIPE_M ? HardEvent::V_M
         : src == PIPE_M && dst == PIPE_FIX ? HardEvent::M_FIX
         : src == PIPE_FIX && dst == PIPE_M ? HardEvent::FIX_M
         : src == PIPE_FIX && dst == PIPE_S ? HardEvent::FIX_S
         : src == PIPE_M && dst == PIPE_S ? HardEvent::M_S
         : src == PIPE_FIX && dst == PIPE_MTE3 ? HardEvent::FIX_MTE3
         : src == PIPE_MTE3 && dst == PIPE_MTE1 ? HardEvent::MTE3_MTE1
         : src == PIPE_MTE1 && dst == PIPE_MTE3 ? HardEvent::MTE1_MTE3
         : src == PIPE_MTE1 && dst == PIPE_V ? HardEvent::MTE1_V
         : src == PIPE_V && dst == PIPE_MTE1 ? HardEvent::V_MTE1
         : src == PIPE_MTE2 && dst == PIPE_M ? HardEvent::MTE2_M
         : src == PIPE_M && dst == PIPE_MTE2 ? HardEvent::M_MTE2
         : src == PIPE_MTE2 && dst == PIPE_FIX ? HardEvent::MTE2_FIX
         : src == PIPE_FIX && dst == PIPE_MTE2 ? HardEvent::FIX_MTE2
         : src == PIPE_MTE1 && dst == PIPE_FIX ? HardEvent::MTE1_FIX
         : src == PIPE_FIX && dst == PIPE_MTE1 ? HardEvent::FIX_MTE1
         : HardEvent::MAX;
}

// Flags between two pipes, named by the pipes instead of a HardEvent.
template <pipe_t src, pipe_t dst> class TQueSync {
    static_assert(HardEventOf(src, dst) != HardEvent::MAX, "TQueSync: there is no hardware event between these two pipes");
public:
    void SetFlag(TEventID id, SrcLoc loc = {}) { ascendcraft::emu::flag_set(static_cast<uint8_t>(HardEventOf(src, dst)), id, loc); }
    void WaitFlag(TEventID id, SrcLoc loc = {}) { ascendcraft::emu::flag_wait(static_cast<uint8_t>(HardEventOf(src, dst)), id, loc); }
};

// ---- cores ----------------------------------------------------------------------------------
inline int64_t GetBlockIdx() { return ascendcraft::emu::block_idx(); }
inline int64_t GetBlockNum() { return ascendcraft::emu::block_num(); }
// The system workspace: what the kernel gave SetSysWorkspace (every block gives the launch's one workspace), else the
// launch's workspace argument, as CANN's kernel wrapper sets it before the kernel runs (null for a launch without one).
// The Matmul client and server of the emulation need none of it.
namespace detail_ws { inline GM_ADDR& sys_workspace() { static thread_local GM_ADDR p = nullptr; return p; } }
inline GM_ADDR GetSysWorkSpacePtr() {
    GM_ADDR set = detail_ws::sys_workspace();
    return set ? set : reinterpret_cast<GM_ADDR>(ascendcraft::emu::launch_workspace());
}
inline int64_t GetSubBlockIdx() { return ascendcraft::emu::cross_sub_block_idx(); }
// The implementation function behind GetSubBlockIdx that kernels also call by name (ops-transformer's mc2 kernels): on
// an AIV of a 1:2 group its sub-block (0 or 1), on an AIC 0.
inline int64_t GetSubBlockIdxImpl() { return ascendcraft::emu::cross_sub_block_idx(); }
inline int64_t GetSubBlockNum() { return ascendcraft::emu::cross_task_ration(); }
inline int64_t GetTaskRation() { return ascendcraft::emu::cross_task_ration(); }
inline int64_t GetTaskRatio() { return ascendcraft::emu::cross_task_ration(); }
inline constexpr int64_t GetDataBlockSizeInBytes() { return ONE_BLK_SIZE; }

// SyncAll<false>() (a fused kernel's): first each core type's barrier, then the AIC and AIV cores' with each other, so
// one barrier among all the launch's cores; SyncAll<true>() (the default): among the vector cores (the caller's type)
template <bool isAIVOnly = true> inline void SyncAll(SrcLoc loc = {}) { ascendcraft::emu::sync_all(loc, !isAIVOnly); }
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, const int32_t usedCores = 0,
                    SrcLoc loc = {}) {
    ascendcraft::emu::sync_all_soft(gmWorkspace.address_, gmWorkspace.GetSize() * sizeof(int32_t), ubWorkspace.emu(), usedCores, loc);
}

// ---- global memory helpers --------------------------------------------------------------------
// The system's share at the start of an op's workspace on A2 (16 MiB, the size the host's GetLibApiWorkSpaceSize gives):
// on the NPU the user's part starts that far in; in the CPU debug build GetUserWorkspace returns the pointer it gets.
constexpr size_t RESERVED_WORKSPACE = 16 * 1024 * 1024;
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) { return workspace; }
inline void InitSocState() {}
inline void SetSysWorkspace(GM_ADDR workspace) { detail_ws::sys_workspace() = workspace; }
// SetSysWorkspaceForce: the system workspace is `workspace` whatever was set before (ATB's laser attention kernels call
// it first thing with their workspace argument; CANN's kernel wrapper calls it with the launch's workspace).
inline void SetSysWorkspaceForce(GM_ADDR workspace) { SetSysWorkspace(workspace); }
// As in AscendC, every template argument is given: DataCacheCleanAndInvalid<T, CacheLine, DcciDst>(tensor).
// The emulated GM has no cache, so no byte changes; the GM forms let the other blocks run first when the blocks run one
// at a time (gm_cache_clean_invalid), so that a block polling another's flag in GM sees it set.
template <typename T, CacheLine cl, DcciDst dst> inline void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {
    ascendcraft::emu::gm_cache_clean_invalid();
}
template <typename T, CacheLine cl, DcciDst dst> inline void DataCacheCleanAndInvalid(const LocalTensor<T>&) {}
// The GM form without a DcciDst (the whole cache line(s) of the tensor): the same.
template <typename T, CacheLine cl> inline void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {
    ascendcraft::emu::gm_cache_clean_invalid();
}
// Loading the next `preFetchLen` x 2 KiB of the kernel's instructions into the core's instruction cache ahead of use
// (ops-transformer's fused_infer_attention_score), and its state (0: done): timing only, nothing the emulation keeps.
inline void ICachePreLoad(const int64_t preFetchLen) { (void)preFetchLen; }
// Declares a GM range for CANN's out-of-memory checker (an ASCENDC_OOM build): the emulator checks every GM access
// against the launch's buffers, so the declaration adds nothing here.
template <typename T> inline void OOMCheckAddrRange(__gm__ T* gmAddr, const uint64_t gmSize) { (void)gmAddr; (void)gmSize; }
inline int64_t GetICachePreloadStatus() { return 0; }
// Loads the data-cache line at `cacheOffset` bytes into `src` ahead of the scalar reads (a contest ArgMin preloads its
// input, viewed as uint64_t): timing only, no byte changes. The official template takes any offset type and reports
// the ones A2 lacks (int16_t and int64_t are A2's) when the call runs; so does the emulator.
template <typename T> inline void DataCachePreload(const GlobalTensor<uint64_t>& src, const T cacheOffset, SrcLoc loc = {}) {
    (void)src; (void)cacheOffset;
    ASCENDCRAFT_EMU_RUNTIME_TYPES_CHECK(DataCachePreload, "an int16_t or int64_t cacheOffset", T, int16_t, int64_t);
}
// A compiler barrier (A2's KFC header: an empty asm statement, no instruction): the scalar code's memory accesses are
// not moved across it; the emulation runs them in program order already (hicann ops-math reduce_prod_v2, after SyncAll).
inline void Barrier() {}
template <typename T>
inline void InitGlobalMemory(const GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value, SrcLoc loc = {}) {
    ascendcraft::emu::gm_fill(gmWorkspaceAddr.address_, size, sizeof(T), &value, loc);
}
// Any T compiles, as with the official headers (their type check is a run-time assert): a kernel may instantiate
// SetAtomicAdd<uint8_t> in a branch its dtype never takes (hicann ops-nn scatter_add_with_sorted); running it is the error.
template <typename T> inline void SetAtomicAdd(SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_RUNTIME_TYPES_CHECK(SetAtomicAdd, "half, bfloat16_t, int16_t, int32_t and float", T, half, float, int16_t,
                                        int32_t, bfloat16_t);
    ascendcraft::emu::atomic_set(true, ascendcraft::emu::dt_of<T>(), loc);
}
inline void SetAtomicNone(SrcLoc loc = {}) { ascendcraft::emu::atomic_set(false, ascendcraft::emu::Dt::none, loc); }
// SetAtomicMax / SetAtomicMin (A2: int8_t, int16_t, half, bfloat16_t, int32_t, float): later copies to GM (DataCopy,
// DataCopyPad) keep the larger / smaller of GM's value and the copied one, element by element in type T.
template <typename T> inline void SetAtomicMax(SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_RUNTIME_TYPES_CHECK(SetAtomicMax, "int8_t, int16_t, half, bfloat16_t, int32_t and float", T, int8_t,
                                        int16_t, half, bfloat16_t, int32_t, float);
    ascendcraft::emu::atomic_set_mode(ascendcraft::emu::AtomicMode::max, ascendcraft::emu::dt_of<T>(), loc);
}
template <typename T> inline void SetAtomicMin(SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_RUNTIME_TYPES_CHECK(SetAtomicMin, "int8_t, int16_t, half, bfloat16_t, int32_t and float", T, int8_t,
                                        int16_t, half, bfloat16_t, int32_t, float);
    ascendcraft::emu::atomic_set_mode(ascendcraft::emu::AtomicMode::min, ascendcraft::emu::dt_of<T>(), loc);
}
// SetAtomicType<T>: the element type the atomic mode combines in (SetAtomicAdd/Max/Min<T> already set it).
template <typename T> inline void SetAtomicType(SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_RUNTIME_TYPES_CHECK(SetAtomicType, "int8_t, int16_t, half, bfloat16_t, int32_t and float", T, int8_t,
                                        int16_t, half, bfloat16_t, int32_t, float);
    ascendcraft::emu::atomic_set_type(ascendcraft::emu::dt_of<T>(), loc);
}
// DisableDmaAtomic: the devkit's name for ending SetAtomicAdd/Max/Min (copies to GM overwrite again).
inline void DisableDmaAtomic(SrcLoc loc = {}) { SetAtomicNone(loc); }

// ---- printing ---------------------------------------------------------------------------------
template <typename... Args> inline void printf(const char* fmt, Args... args) { std::printf(fmt, args...); }
template <typename... Args> inline void PRINTF(const char* fmt, Args... args) { std::printf(fmt, args...); }
template <typename T> inline void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize, SrcLoc loc = {}) {
    ascendcraft::emu::dump_tensor(tensor.emu(), ascendcraft::emu::dt_of<T>(), desc, dumpSize, loc);
}
// InitDump: sets up the device's dump buffer for DumpTensor / printf; on A2 AscendC's own implementation does nothing
// (ops-nn weight_quant_batch_matmul_v2 calls it), and the emulation's dumps print directly, so neither does this.
inline void InitDump(bool mixFlag, uint32_t gmLen) { (void)mixFlag; (void)gmLen; }
inline void InitDump(bool mixFlag, GM_ADDR dumpStartAddr, uint32_t gmLen) { (void)mixFlag; (void)dumpStartAddr; (void)gmLen; }

}  // namespace AscendC

// ---- the older intrinsic spellings ----------------------------------------------------------------
inline void pipe_barrier(pipe_t pipe, ascendcraft::emu::SrcLoc loc = {}) { ascendcraft::emu::pipe_barrier(pipe, loc); }
inline void set_flag(pipe_t src, pipe_t dst, event_t id, ascendcraft::emu::SrcLoc loc = {}) {
    ascendcraft::emu::flag_set(static_cast<uint8_t>(AscendC::HardEventOf(src, dst)), id, loc);
}
inline void wait_flag(pipe_t src, pipe_t dst, event_t id, ascendcraft::emu::SrcLoc loc = {}) {
    ascendcraft::emu::flag_wait(static_cast<uint8_t>(AscendC::HardEventOf(src, dst)), id, loc);
}
// ... with the event id as an integer (the compiler's intrinsics take one too: AscendC's own SetFlag<T> passes its T on;
// cann-ops conv3dv2 keeps its ping-pong event in a uint16_t)
inline void set_flag(pipe_t src, pipe_t dst, uint64_t id, ascendcraft::emu::SrcLoc loc = {}) {
    ascendcraft::emu::flag_set(static_cast<uint8_t>(AscendC::HardEventOf(src, dst)), static_cast<int32_t>(id), loc);
}
inline void wait_flag(pipe_t src, pipe_t dst, uint64_t id, ascendcraft::emu::SrcLoc loc = {}) {
    ascendcraft::emu::flag_wait(static_cast<uint8_t>(AscendC::HardEventOf(src, dst)), static_cast<int32_t>(id), loc);
}
// The raw block index is the core's AIC:AIV group, the same on the group's cube core and on each of its vector cores (the
// devkit: "get_block_idx: 0 ~ 23 in aic/aiv"), as opposed to GetBlockIdx(), which numbers the vector cores of a mixed
// launch one by one (group * get_subblockdim() + get_subblockid(), raw_vector_arith.h); the two agree in a launch of one
// core type.
inline int64_t get_block_idx() {
    return (ascendcraft::emu::block_idx() - ascendcraft::emu::cross_sub_block_idx()) / ascendcraft::emu::cross_task_ration();
}
inline int64_t get_block_num() { return ascendcraft::emu::block_num(); }
