// AscendCraft host side: tiling/tiling_base.h, the base class many CANN operators derive their tiling from. A
// TilingBaseClass reads the shapes and attributes, the platform, decides whether it can tile the case (IsCapable),
// tiles the op and the advanced APIs, sets the workspace and the tiling key; DoTiling runs those steps in that order
// and stops at the first that fails. Written from the public CANN operator sources' use of it; no vendor code.
#pragma once

#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

class TilingBaseClass {
public:
    TilingBaseClass() = default;
    explicit TilingBaseClass(gert::TilingContext* context) : context_(context) {}
    virtual ~TilingBaseClass() = default;

    ge::graphStatus DoTiling() {
        ge::graphStatus ret = GetShapeAttrsInfo();
        if (ret == ge::GRAPH_SUCCESS) ret = GetPlatformInfo();
        if (ret == ge::GRAPH_SUCCESS && !IsCapable()) ret = ge::GRAPH_FAILED;
        if (ret == ge::GRAPH_SUCCESS) ret = DoOpTiling();
        if (ret == ge::GRAPH_SUCCESS) ret = DoLibApiTiling();
        if (ret == ge::GRAPH_SUCCESS) ret = GetWorkspaceSize();
        if (ret == ge::GRAPH_SUCCESS) ret = PostTiling();
        if (ret == ge::GRAPH_SUCCESS && context_) context_->SetTilingKey(GetTilingKey());
        return ret;
    }
    virtual void Reset(gert::TilingContext* context) { context_ = context; }

protected:
    virtual bool IsCapable() { return true; }
    virtual ge::graphStatus GetPlatformInfo() { return ge::GRAPH_SUCCESS; }
    virtual ge::graphStatus GetShapeAttrsInfo() { return ge::GRAPH_SUCCESS; }
    virtual ge::graphStatus DoOpTiling() { return ge::GRAPH_SUCCESS; }
    virtual ge::graphStatus DoLibApiTiling() { return ge::GRAPH_SUCCESS; }
    virtual uint64_t GetTilingKey() const { return 0; }
    virtual ge::graphStatus GetWorkspaceSize() { return ge::GRAPH_SUCCESS; }
    virtual ge::graphStatus PostTiling() { return ge::GRAPH_SUCCESS; }

    gert::TilingContext* context_ = nullptr;
};

}  // namespace optiling
