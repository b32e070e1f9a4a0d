// The tiling of tests/torch_ext_oga's kernel: filled by the binding in a CPU byte tensor, moved to the npu device.
#ifndef OGA_SCALE_TILING_H
#define OGA_SCALE_TILING_H

#include <cstdint>

struct OgaScaleTiling {
    int32_t n;          // floats in x and y
    int32_t perVector;  // floats each vector core scales (a multiple of 8)
    float scale;
    int32_t reserved;
};

#endif
