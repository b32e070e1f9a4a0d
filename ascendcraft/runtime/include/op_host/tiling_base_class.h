// AscendCraft host side: ops-base's op_host/tiling_base_class.h, Ops::Base::TilingBaseClass: the template-method flow
// of the newer operators' tiling classes. DoTiling runs GetShapeAttrsInfo, GetPlatformInfo, IsCapable (false: the
// class does not handle the case, GRAPH_PARAM_INVALID, so that the next registered class tries), DoOpTiling,
// DoLibApiTiling, GetWorkspaceSize, PostTiling, then sets the tiling key; it stops at the first step that fails.
// Written from the public operator sources' use of it; no vendor code.
#pragma once

#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include "ascendcraft_emu/ops_base.h"

namespace Ops { namespace Base {

struct AiCoreParams {
    uint64_t ubSize = 0;
    uint64_t numBlocks = 0;
    uint64_t aicNum = 0;
    uint64_t l1Size = 0;
    uint64_t l0aSize = 0;
    uint64_t l0bSize = 0;
    uint64_t l0cSize = 0;
};

struct CompileInfoCommon {
    uint32_t aivNum = 0;
    uint32_t aicNum = 0;
    uint64_t ubSize = 0;
    uint64_t l1Size = 0;
    uint64_t l0aSize = 0;
    uint64_t l0bSize = 0;
    uint64_t l0cSize = 0;
    uint64_t l2CacheSize = 0;
    int64_t coreNum = 0;
    int32_t socVersion = 0;
    uint32_t rsvd = 0;
};

class TilingBaseClass {
public:
    explicit TilingBaseClass(gert::TilingContext* context) : context_(context) {}
    virtual ~TilingBaseClass() = default;

    ge::graphStatus DoTiling() {
        if (context_ == nullptr) return ge::GRAPH_FAILED;
        ge::graphStatus status = GetShapeAttrsInfo();
        if (status != ge::GRAPH_SUCCESS) return status;
        if ((status = GetPlatformInfo()) != ge::GRAPH_SUCCESS) return status;
        if (!IsCapable()) return ge::GRAPH_PARAM_INVALID;
        if ((status = DoOpTiling()) != ge::GRAPH_SUCCESS) return status;
        if ((status = DoLibApiTiling()) != ge::GRAPH_SUCCESS) return status;
        if ((status = GetWorkspaceSize()) != ge::GRAPH_SUCCESS) return status;
        if ((status = PostTiling()) != ge::GRAPH_SUCCESS) return status;
        context_->SetTilingKey(GetTilingKey());
        DumpTilingInfo();
        return ge::GRAPH_SUCCESS;
    }
    virtual void Reset(gert::TilingContext* context) { context_ = context; }

protected:
    virtual bool IsCapable() = 0;
    virtual ge::graphStatus GetPlatformInfo() = 0;
    virtual ge::graphStatus GetShapeAttrsInfo() = 0;
    virtual ge::graphStatus DoOpTiling() = 0;
    virtual ge::graphStatus DoLibApiTiling() = 0;
    [[nodiscard]] virtual uint64_t GetTilingKey() const = 0;
    virtual ge::graphStatus GetWorkspaceSize() = 0;
    virtual ge::graphStatus PostTiling() = 0;
    virtual void DumpTilingInfo() {}
    int64_t DefaultTilingInfoDump() { return 0; }

    static uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) {
        if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
        const uint32_t ratio = aivCoreNum / aicCoreNum;
        return (sliceNum + ratio - 1) / ratio;
    }
    template <typename T> [[nodiscard]] std::string GetShapeDebugStr(const T& shape) const {
        std::ostringstream out;
        out << "[";
        for (size_t i = 0; i < shape.GetDimNum(); ++i) out << (i ? ", " : "") << shape.GetDim(i);
        out << "]";
        return out.str();
    }
    [[nodiscard]] std::string GetTensorDebugStr(const gert::StorageShape* shape, const gert::CompileTimeTensorDesc* desc) {
        if (shape == nullptr || desc == nullptr) return "nil ";
        return "(dtype: " + ge::TypeUtils::DataTypeToSerialString(desc->GetDataType()) + "),(shape:" +
               GetShapeDebugStr(shape->GetStorageShape()) + ") ";
    }
    [[nodiscard]] std::string GetTilingContextDebugStr() {
        std::string out;
        for (size_t i = 0; i < context_->inputs_.size(); ++i)
            out += "input" + std::to_string(i) + ": " + GetTensorDebugStr(context_->GetInputShape(i), context_->GetInputDesc(i));
        return out;
    }
    [[nodiscard]] std::string GetTilingDataDebugStr() const { return ""; }

    gert::TilingContext* context_ = nullptr;
    std::unique_ptr<platform_ascendc::PlatformAscendC> ascendcPlatform_{nullptr};
    uint32_t blockDim_{0};
    uint64_t workspaceSize_{0};
    uint64_t tilingKey_{0};
    AiCoreParams aicoreParams_;
};
}}  // namespace Ops::Base
