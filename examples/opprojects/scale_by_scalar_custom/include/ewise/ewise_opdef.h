/* Operator definitions written by a macro, as repositories with many similar operators do (cann-ops' Foreach ops):
 * the tensor dtypes are the macro's arguments and the scalar's dtypes are computed from them in a loop (half and
 * bfloat16 tensors take a float scalar, int32 tensors an int64 one). Only the compiled definition says which. */
#ifndef EWISE_OPDEF_H
#define EWISE_OPDEF_H
#include <algorithm>
#include <vector>
#include "register/op_def_registry.h"

inline ge::DataType EwiseScalarDtype(ge::DataType tensor)
{
    switch (tensor) {
        case ge::DT_FLOAT16: case ge::DT_FLOAT: case ge::DT_BF16: return ge::DT_FLOAT;
        case ge::DT_INT32: return ge::DT_INT64;
        default: return ge::DT_UNDEFINED;
    }
}

#define EWISE_TENSOR_SCALAR_OPDEF(NAME, TILING, ...)                                                          \
    class NAME : public OpDef {                                                                              \
    public:                                                                                                  \
        explicit NAME(const char* name) : OpDef(name)                                                        \
        {                                                                                                    \
            std::vector<ge::DataType> tensorDtypes = {__VA_ARGS__};                                          \
            std::vector<ge::DataType> scalarDtypes;                                                          \
            std::for_each(tensorDtypes.begin(), tensorDtypes.end(),                                          \
                          [&scalarDtypes](ge::DataType d) { scalarDtypes.push_back(EwiseScalarDtype(d)); }); \
            std::vector<ge::Format> formats(tensorDtypes.size(), ge::FORMAT_ND);                             \
            this->Input("x").ParamType(REQUIRED).DataType(tensorDtypes).Format(formats);                     \
            this->Input("scalar").ParamType(REQUIRED).DataType(scalarDtypes).Format(formats);                \
            this->Output("y").ParamType(REQUIRED).DataType(tensorDtypes).Format(formats);                    \
            this->AICore().SetTiling(TILING);                                                                \
            this->AICore().AddConfig("ascend910b");                                                          \
        }                                                                                                    \
    };                                                                                                       \
    OP_ADD(NAME)
#endif  // EWISE_OPDEF_H
