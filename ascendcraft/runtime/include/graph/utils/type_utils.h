// AscendCraft host-side emulation of ge::TypeUtils (graph/utils/type_utils.h): dtype and format names for
// messages. Written from the public CANN documentation; no vendor code.
#pragma once
#include "ascendcraft_emu/type_macros_push.h"   // kernel_type.h's DT_* / FORMAT_* macros are ge enumerators here

// The public metadef header brings these standard containers along, and op_host code relies on them
// (ops-transformer prompt_flash_attention_tiling.cpp names std::unordered_set with no include of its own).
#include <map>
#include <set>
#include <string>
#include <unordered_set>

#include "register/op_def_registry.h"

namespace ge {
// a format's name: its enumerator without FORMAT_ (conv ops find the axes in it: cann-ops conv3dv2 looks for 'D' / 'H' /
// 'W' in the NCDHW / NDHWC origin format's name); RESERVED for a value outside the list. GE declares it in
// graph/types.h; ops-transformer mla_prolog's tiling checks print formats with it.
inline const char* GetFormatName(Format f) {
    switch (f) {
    case FORMAT_NCHW: return "NCHW";
    case FORMAT_NHWC: return "NHWC";
    case FORMAT_ND: return "ND";
    case FORMAT_NC1HWC0: return "NC1HWC0";
    case FORMAT_FRACTAL_Z: return "FRACTAL_Z";
    case FORMAT_NC1C0HWPAD: return "NC1C0HWPAD";
    case FORMAT_NHWC1C0: return "NHWC1C0";
    case FORMAT_FSR_NCHW: return "FSR_NCHW";
    case FORMAT_FRACTAL_DECONV: return "FRACTAL_DECONV";
    case FORMAT_C1HWNC0: return "C1HWNC0";
    case FORMAT_FRACTAL_DECONV_TRANSPOSE: return "FRACTAL_DECONV_TRANSPOSE";
    case FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS: return "FRACTAL_DECONV_SP_STRIDE_TRANS";
    case FORMAT_NC1HWC0_C04: return "NC1HWC0_C04";
    case FORMAT_FRACTAL_Z_C04: return "FRACTAL_Z_C04";
    case FORMAT_CHWN: return "CHWN";
    case FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS: return "FRACTAL_DECONV_SP_STRIDE8_TRANS";
    case FORMAT_HWCN: return "HWCN";
    case FORMAT_NC1KHKWHWC0: return "NC1KHKWHWC0";
    case FORMAT_BN_WEIGHT: return "BN_WEIGHT";
    case FORMAT_FILTER_HWCK: return "FILTER_HWCK";
    case FORMAT_C1HWNCoC0: return "C1HWNCoC0";
    case FORMAT_MD: return "MD";
    case FORMAT_NDHWC: return "NDHWC";
    case FORMAT_FRACTAL_ZZ: return "FRACTAL_ZZ";
    case FORMAT_FRACTAL_NZ: return "FRACTAL_NZ";
    case FORMAT_NCDHW: return "NCDHW";
    case FORMAT_DHWCN: return "DHWCN";
    case FORMAT_NDC1HWC0: return "NDC1HWC0";
    case FORMAT_FRACTAL_Z_3D: return "FRACTAL_Z_3D";
    case FORMAT_CN: return "CN";
    case FORMAT_NC: return "NC";
    case FORMAT_DHWNC: return "DHWNC";
    case FORMAT_FRACTAL_Z_3D_TRANSPOSE: return "FRACTAL_Z_3D_TRANSPOSE";
    case FORMAT_FRACTAL_ZN_LSTM: return "FRACTAL_ZN_LSTM";
    case FORMAT_FRACTAL_Z_G: return "FRACTAL_Z_G";
    case FORMAT_ND_RNN_BIAS: return "ND_RNN_BIAS";
    case FORMAT_FRACTAL_ZN_RNN: return "FRACTAL_ZN_RNN";
    case FORMAT_NYUV: return "NYUV";
    case FORMAT_NYUV_A: return "NYUV_A";
    case FORMAT_NCL: return "NCL";
    default: return "RESERVED";
    }
}

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
    // the same names as a std::string (GetFormatName)
    static std::string FormatToSerialString(Format f) { return GetFormatName(f); }
    // the same names as AscendString (cann-ops conv3d_backprop_input_v2's checks print DataTypeToAscendString)
    static AscendString DataTypeToAscendString(DataType dt) { return AscendString(DataTypeToSerialString(dt).c_str()); }
    static AscendString FormatToAscendString(Format f) { return AscendString(FormatToSerialString(f).c_str()); }
};
}  // namespace ge
#include "ascendcraft_emu/type_macros_pop.h"
