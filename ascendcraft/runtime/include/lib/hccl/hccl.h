// AscendCraft CPU emulation: the HCCL high-level API (collective communication between NPUs from inside a kernel,
// as the MC2 "matmul + communication" ops use it), included as in AscendC (#include "lib/hccl/hccl.h").
//
// The emulator runs one device and has no communication domain, so this header lets such kernels COMPILE and run
// their local work, and makes every call that would talk to another NPU an error at its line when it runs:
//   - Init / SetCcTiling / Finalize / GetRankId (0) / GetRankDim (1) / GetQueueNum / InterHcclGroupSync: no
//     communication, they run (a kernel may set its object up unconditionally);
//   - the task calls (AllReduce, AllGather, ReduceScatter, AlltoAll, AlltoAllV, BatchWrite), Commit, Wait, Query,
//     GetWindowsInAddr / GetWindowsOutAddr (another rank's memory window): an `unsupported` error naming the call.
// The names, enum values and tiling sizes follow the public AscendC documentation (HCCL通信类); no vendor code.
#pragma once

#include "kernel_operator.h"
#include "../../ascendcraft_emu/hccl_tiling.h"

// the handle of no task (what kernels start their handles at); in HCCL's own namespace, which the SDK's HCCL headers
// open to every kernel (a using-directive at file scope), so both spellings resolve
namespace HcclApi {
constexpr int8_t INVALID_HANDLE_ID = static_cast<int8_t>(-1);
}  // namespace HcclApi
using namespace HcclApi;

namespace AscendC {
using HcclHandle = int8_t;
constexpr uint32_t HCCL_GROUP_ID_0 = 0;   // the first communication group

enum HcclServerType { HCCL_SERVER_TYPE_AICPU = 0, HCCL_SERVER_TYPE_CCU = 5, HCCL_SERVER_TYPE_END };
enum class CoreType : uint8_t { DEFAULT, ON_AIV, ON_AIC };
struct HcclServerConfig {
    CoreType type;
    int64_t blockId;
};
constexpr HcclServerConfig DEFAULT_CFG = {CoreType::DEFAULT, 0};

enum HcclReduceOp { HCCL_REDUCE_SUM = 0, HCCL_REDUCE_PROD = 1, HCCL_REDUCE_MAX = 2, HCCL_REDUCE_MIN = 3, HCCL_REDUCE_RESERVED };
enum HcclDataType {
    HCCL_DATA_TYPE_INT8 = 0, HCCL_DATA_TYPE_INT16 = 1, HCCL_DATA_TYPE_INT32 = 2, HCCL_DATA_TYPE_FP16 = 3,
    HCCL_DATA_TYPE_FP32 = 4, HCCL_DATA_TYPE_INT64 = 5, HCCL_DATA_TYPE_UINT64 = 6, HCCL_DATA_TYPE_UINT8 = 7,
    HCCL_DATA_TYPE_UINT16 = 8, HCCL_DATA_TYPE_UINT32 = 9, HCCL_DATA_TYPE_FP64 = 10, HCCL_DATA_TYPE_BFP16 = 11,
    HCCL_DATA_TYPE_INT128 = 12, HCCL_DATA_TYPE_HIF8 = 14, HCCL_DATA_TYPE_FP8E4M3 = 15, HCCL_DATA_TYPE_FP8E5M2 = 16,
    HCCL_DATA_TYPE_FP8E8M0 = 17, HCCL_DATA_TYPE_MXFP8 = 18, HCCL_DATA_TYPE_RESERVED = 255
};
enum class HcclCMDType {
    HCCL_CMD_INVALID = 0, HCCL_CMD_BROADCAST = 1, HCCL_CMD_ALLREDUCE, HCCL_CMD_REDUCE, HCCL_CMD_SEND,
    HCCL_CMD_RECEIVE, HCCL_CMD_ALLGATHER, HCCL_CMD_REDUCE_SCATTER, HCCL_CMD_ALLTOALLV, HCCL_CMD_ALLTOALLVC,
    HCCL_CMD_ALLTOALL, HCCL_CMD_GATHER, HCCL_CMD_SCATTER, HCCL_CMD_BATCH_SEND_RECV, HCCL_CMD_BATCH_PUT,
    HCCL_CMD_BATCH_GET, HCCL_CMD_ALLGATHER_V, HCCL_CMD_REDUCE_SCATTER_V, HCCL_CMD_BATCH_WRITE,
    HCCL_CMD_HALF_ALLTOALLV = 20, HCCL_CMD_ALL
};
// where an MC2 op keeps the intermediate results of compute and communication (a tiling field)
enum class MC2_BUFFER_LOCATION {
    MC2_BUFFER_TYPE_DEFAULT = 0, MC2_BUFFER_TYPE_OUTPUT, MC2_BUFFER_TYPE_WINDOW_IN, MC2_BUFFER_TYPE_WINDOW_OUT,
    MC2_BUFFER_TYPE_WORKSPACE, MC2_BUFFER_TYPE_INPUT, MC2_BUFFER_TYPE_COMMOUT, MC2_BUFFER_TYPE_END
};

// What the MoE dispatch/combine kernels read from a group's context for RDMA between NPUs: the most ranks of one
// group, and the description of a registered memory region (its bytes, device address and access key), one each for
// the remote and local input and output windows. Declared so such kernels compile; with no context here (below) they
// are never filled.
constexpr uint32_t HCCL_MAX_RANK_NUM = 32U;
struct MemDetails {
    uint64_t size;
    uint64_t addr;
    uint32_t key;
};
struct IbVerbsData {
    MemDetails remoteInput;
    MemDetails remoteOutput;
    MemDetails localInput;
    MemDetails localOutput;
};

// The communication context of a group: the runtime hands it to the kernel on an NPU; there is none here.
template <uint32_t groupId> inline GM_ADDR GetHcclContext() { return nullptr; }
template <uint32_t groupId> inline void SetHcclContext(GM_ADDR) {}

namespace hccl_emu {
[[noreturn]] inline void no_communication(const char* call, SrcLoc loc) {
    static thread_local char msg[256];
    std::snprintf(msg, sizeof msg, "Hccl::%s talks to other NPUs (HCCL collective communication), which the emulator "
                  "does not emulate: it runs one device with no communication domain", call);
    ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::Kernel, msg,
        "run the op's local part alone (its matmul without the collective), or test the communication on an NPU",
        loc);
}
}  // namespace hccl_emu

template <HcclServerType serverType = HCCL_SERVER_TYPE_AICPU, const auto& config = DEFAULT_CFG>
class Hccl {
public:
    void Init(GM_ADDR context, __gm__ void* initTiling = nullptr, SrcLoc = {}) { context_ = context; (void)initTiling; }
    void InitV2(GM_ADDR context, const void* initTiling = nullptr, SrcLoc = {}) { context_ = context; (void)initTiling; }
    int32_t SetCcTiling(__gm__ void* ccTiling, SrcLoc = {}) { (void)ccTiling; return 0; }
    int32_t SetCcTilingV2(uint64_t offset, SrcLoc = {}) { (void)offset; return 0; }
    void Finalize(SrcLoc = {}) {}
    uint32_t GetRankId(SrcLoc = {}) const { return 0; }     // the only device
    uint32_t GetRankDim(SrcLoc = {}) const { return 1; }
    uint16_t GetQueueNum(SrcLoc = {}) const { return 0; }
    void InterHcclGroupSync(int8_t, HcclHandle, SrcLoc = {}) {}

    template <bool commit = false>
    HcclHandle AllReduce(GM_ADDR, GM_ADDR, uint64_t, HcclDataType, HcclReduceOp, uint8_t = 1, SrcLoc loc = {}) {
        hccl_emu::no_communication("AllReduce", loc);
    }
    template <bool commit = false>
    HcclHandle AllGather(GM_ADDR, GM_ADDR, uint64_t, HcclDataType, uint64_t, uint8_t = 1, SrcLoc loc = {}) {
        hccl_emu::no_communication("AllGather", loc);
    }
    template <bool commit = false>
    HcclHandle ReduceScatter(GM_ADDR, GM_ADDR, uint64_t, HcclDataType, HcclReduceOp, uint64_t, uint8_t = 1, SrcLoc loc = {}) {
        hccl_emu::no_communication("ReduceScatter", loc);
    }
    template <bool commit = false>
    HcclHandle AlltoAll(GM_ADDR, GM_ADDR, uint64_t, HcclDataType, uint64_t = 0, uint8_t = 1, SrcLoc loc = {}) {
        hccl_emu::no_communication("AlltoAll", loc);
    }
    template <bool commit = false>
    HcclHandle AlltoAllV(GM_ADDR, void*, void*, HcclDataType, GM_ADDR, void*, void*, HcclDataType, uint8_t = 1, SrcLoc loc = {}) {
        hccl_emu::no_communication("AlltoAllV", loc);
    }
    template <bool commit = false>
    HcclHandle BatchWrite(GM_ADDR, uint32_t, SrcLoc loc = {}) { hccl_emu::no_communication("BatchWrite", loc); }
    void Commit(HcclHandle, SrcLoc loc = {}) { hccl_emu::no_communication("Commit", loc); }
    int32_t Wait(HcclHandle, SrcLoc loc = {}) { hccl_emu::no_communication("Wait", loc); }
    int32_t Query(HcclHandle, SrcLoc loc = {}) { hccl_emu::no_communication("Query", loc); }
    GM_ADDR GetWindowsInAddr(uint32_t, SrcLoc loc = {}) { hccl_emu::no_communication("GetWindowsInAddr", loc); }
    GM_ADDR GetWindowsOutAddr(uint32_t, SrcLoc loc = {}) { hccl_emu::no_communication("GetWindowsOutAddr", loc); }

private:
    GM_ADDR context_ = nullptr;
};
}  // namespace AscendC
