// AscendCraft host side: register/tuning_tiling_registry.h of the CANN SDK (AOE's tuning-tiling structs), as cann-ops'
// shared conv/matmul tiling headers include it (op_tiling/aoe/op_tuning_tiling/*.h). The structs are plain data here;
// the schema and the registration, which only the AOE tuner reads, are accepted and do nothing.
// Written from the public CANN operator sources' use of it; no vendor code.
// Guarded by the name CANN's own header has: a project's copy of that header (ops-nn common/inc/op_host/register/),
// read after this one (ascendcraft_emu/op_host.h includes it first), is the same header read twice, as in CANN.
#ifndef __INC_REGISTER_TUNING_TILING_REGISTRY_HEADER__
#define __INC_REGISTER_TUNING_TILING_REGISTRY_HEADER__
#include <cstdint>
#include <memory>
#include "register/op_def_registry.h"

namespace tuningtiling {
class TuningTilingDef {
public:
    virtual ~TuningTilingDef() = default;
};
using TuningTilingDefPtr = std::shared_ptr<TuningTilingDef>;
}  // namespace tuningtiling

#define BEGIN_TUNING_TILING_DEF(name) struct name : public ::tuningtiling::TuningTilingDef {
#define TUNING_TILING_DATA_FIELD_DEF(type, field) type field = type();
#define END_TUNING_TILING_DEF };
#define DECLARE_SCHEMA(cls, ...) static_assert(sizeof(cls) > 0, "the tuning schema's struct")
#define REGISTER_TUNING_TILING_CLASS(op, cls) static_assert(sizeof(cls) > 0, "the registered tuning struct")

#endif  // __INC_REGISTER_TUNING_TILING_REGISTRY_HEADER__
