// AscendCraft kernel side: what the SDK's kernel_type.h defines for kernels. The op compiler builds each kernel with
// -DDTYPE_<NAME>=<C++ type> -DORIG_DTYPE_<NAME>=<ge dtype> -DFORMAT_<NAME>=FORMAT_<ge format> (ascendcraft.opproject's
// dtype_macros), and kernels compare them in #if and if constexpr: `#if ORIG_DTYPE_X == DT_BF16`,
// `#if FORMAT_Y == FORMAT_NC1HWC0`. For that the names are preprocessor macros with ge::DataType / ge::Format's numbers.
// The emulator's driver includes this after the tiling headers (host code, which names ge::DT_FLOAT as an enumerator),
// and the runtime's own headers that declare those enumerators are fenced with ascendcraft_emu/type_macros_push.h.
// Written from the documented enum values; no vendor code.
#ifndef ASCENDCRAFT_KERNEL_TYPE_H
#define ASCENDCRAFT_KERNEL_TYPE_H

#define DT_FLOAT                               0
#define DT_FLOAT16                             1
#define DT_INT8                                2
#define DT_INT32                               3
#define DT_UINT8                               4
#define DT_INT16                               6
#define DT_UINT16                              7
#define DT_UINT32                              8
#define DT_INT64                               9
#define DT_UINT64                              10
#define DT_DOUBLE                              11
#define DT_BOOL                                12
#define DT_STRING                              13
#define DT_DUAL_SUB_INT8                       14
#define DT_DUAL_SUB_UINT8                      15
#define DT_COMPLEX64                           16
#define DT_COMPLEX128                          17
#define DT_QINT8                               18
#define DT_QINT16                              19
#define DT_QINT32                              20
#define DT_QUINT8                              21
#define DT_QUINT16                             22
#define DT_RESOURCE                            23
#define DT_STRING_REF                          24
#define DT_DUAL                                25
#define DT_VARIANT                             26
#define DT_BF16                                27
#define DT_UNDEFINED                           28
#define DT_INT4                                29
#define DT_UINT1                               30
#define DT_INT2                                31
#define DT_UINT2                               32
#define DT_COMPLEX32                           33
#define DT_HIFLOAT8                            34
#define DT_FLOAT8_E5M2                         35
#define DT_FLOAT8_E4M3FN                       36
#define DT_FLOAT8_E8M0                         37
#define DT_FLOAT6_E3M2                         38
#define DT_FLOAT6_E2M3                         39
#define DT_FLOAT4_E2M1                         40
#define DT_FLOAT4_E1M2                         41
#define DT_MAX                                 42

#define FORMAT_NCHW                            0
#define FORMAT_NHWC                            1
#define FORMAT_ND                              2
#define FORMAT_NC1HWC0                         3
#define FORMAT_FRACTAL_Z                       4
#define FORMAT_NC1C0HWPAD                      5
#define FORMAT_NHWC1C0                         6
#define FORMAT_FSR_NCHW                        7
#define FORMAT_FRACTAL_DECONV                  8
#define FORMAT_C1HWNC0                         9
#define FORMAT_FRACTAL_DECONV_TRANSPOSE        10
#define FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS  11
#define FORMAT_NC1HWC0_C04                     12
#define FORMAT_FRACTAL_Z_C04                   13
#define FORMAT_CHWN                            14
#define FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS 15
#define FORMAT_HWCN                            16
#define FORMAT_NC1KHKWHWC0                     17
#define FORMAT_BN_WEIGHT                       18
#define FORMAT_FILTER_HWCK                     19
#define FORMAT_HASHTABLE_LOOKUP_LOOKUPS        20
#define FORMAT_HASHTABLE_LOOKUP_KEYS           21
#define FORMAT_HASHTABLE_LOOKUP_VALUE          22
#define FORMAT_HASHTABLE_LOOKUP_OUTPUT         23
#define FORMAT_HASHTABLE_LOOKUP_HITS           24
#define FORMAT_C1HWNCoC0                       25
#define FORMAT_MD                              26
#define FORMAT_NDHWC                           27
#define FORMAT_FRACTAL_ZZ                      28
#define FORMAT_FRACTAL_NZ                      29
#define FORMAT_NCDHW                           30
#define FORMAT_DHWCN                           31
#define FORMAT_NDC1HWC0                        32
#define FORMAT_FRACTAL_Z_3D                    33
#define FORMAT_CN                              34
#define FORMAT_NC                              35
#define FORMAT_DHWNC                           36
#define FORMAT_FRACTAL_Z_3D_TRANSPOSE          37
#define FORMAT_FRACTAL_ZN_LSTM                 38
#define FORMAT_FRACTAL_Z_G                     39
#define FORMAT_RESERVED                        40
#define FORMAT_ALL                             41
#define FORMAT_NULL                            42
#define FORMAT_ND_RNN_BIAS                     43
#define FORMAT_FRACTAL_ZN_RNN                  44
#define FORMAT_NYUV                            45
#define FORMAT_NYUV_A                          46
#define FORMAT_NCL                             47
#define FORMAT_MAX                             255

#endif
