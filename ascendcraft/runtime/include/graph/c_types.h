// AscendCraft host and kernel side: graph/c_types.h of the CANN SDK, the C enumerations of data types and formats that
// tiling-template declarations name (ASCENDC_TPL_DATATYPE_DECL(T, C_DT_FLOAT, C_DT_FLOAT16, ...)). The values are
// ge::DataType's and ge::Format's. Written from the public CANN documentation; no vendor code.
#pragma once

typedef enum {
    C_DT_FLOAT = 0, C_DT_FLOAT16 = 1, C_DT_INT8 = 2, C_DT_INT32 = 3, C_DT_UINT8 = 4, C_DT_INT16 = 6, C_DT_UINT16 = 7,
    C_DT_UINT32 = 8, C_DT_INT64 = 9, C_DT_UINT64 = 10, C_DT_DOUBLE = 11, C_DT_BOOL = 12, C_DT_STRING = 13,
    C_DT_COMPLEX64 = 16, C_DT_COMPLEX128 = 17, C_DT_BF16 = 27, C_DT_UNDEFINED = 28, C_DT_INT4 = 29, C_DT_UINT1 = 30,
    C_DT_INT2 = 31, C_DT_COMPLEX32 = 33, C_DT_HIFLOAT8 = 34, C_DT_FLOAT8_E5M2 = 35, C_DT_FLOAT8_E4M3FN = 36,
    C_DT_FLOAT8_E8M0 = 37, C_DT_FLOAT4_E2M1 = 40, C_DT_FLOAT4_E1M2 = 41, C_DT_MAX = 42
} C_DataType;

typedef enum {
    C_FORMAT_NCHW = 0, C_FORMAT_NHWC = 1, C_FORMAT_ND = 2, C_FORMAT_NC1HWC0 = 3, C_FORMAT_FRACTAL_Z = 4,
    C_FORMAT_NC1HWC0_C04 = 12, C_FORMAT_HWCN = 16, C_FORMAT_NDHWC = 27, C_FORMAT_FRACTAL_NZ = 29, C_FORMAT_NCDHW = 30,
    C_FORMAT_DHWCN = 31, C_FORMAT_NDC1HWC0 = 32, C_FORMAT_FRACTAL_Z_3D = 33, C_FORMAT_CN = 34, C_FORMAT_NC = 35,
    C_FORMAT_NCL = 47, C_FORMAT_MAX = 0xff
} C_Format;
