// AscendCraft host-side emulation of ge::TypeUtils (graph/utils/type_utils.h): dtype and format names for
// messages. Written from the public CANN documentation; no vendor code.
#pragma once
#include "ascendcraft_emu/type_macros_push.h"   // kernel_type.h's DT_* / FORMAT_* macros are ge enumerators here

#include <string>

#include "register/op_def_registry.h"

namespace ge {
class TypeUtils {
public:
    static std::string DataTypeToSerialString(DataType dt) {
        switch (dt) {
        case DT_FLOAT: return "DT_FLOAT";
        case DT_FLOAT16: return "DT_FLOAT16";
        case DT_BF16: return "DT_BF16";
        case DT_INT8: return "DT_INT8";
        case DT_UINT8: return "DT_UINT8";
        case DT_INT16: return "DT_INT16";
        case DT_UINT16: return "DT_UINT16";
        case DT_INT32: return "DT_INT32";
        case DT_UINT32: return "DT_UINT32";
        case DT_INT64: return "DT_INT64";
        case DT_UINT64: return "DT_UINT64";
        case DT_DOUBLE: return "DT_DOUBLE";
        case DT_BOOL: return "DT_BOOL";
        case DT_COMPLEX64: return "DT_COMPLEX64";
        case DT_COMPLEX32: return "DT_COMPLEX32";
        case DT_COMPLEX128: return "DT_COMPLEX128";
        default: return "DT_UNDEFINED";
        }
    }
    // The bytes of one element (false for a dtype without a size), as op hosts size their buffers with it.
    static bool GetDataTypeLength(DataType dt, uint32_t& length) {
        const int size = GetSizeByDataType(dt);
        if (size <= 0) return false;
        length = static_cast<uint32_t>(size);
        return true;
    }
    static std::string FormatToSerialString(Format f) {
        return f == FORMAT_NCHW ? "NCHW" : (f == FORMAT_NHWC ? "NHWC" : "ND");
    }
};
}  // namespace ge
#include "ascendcraft_emu/type_macros_pop.h"
