// AscendCraft: the devkit's raw-address dump header (utils/debug/asc_dump.h): asc_dump_gm, asc_dump_ubuf,
// asc_dump_l1buf and asc_dump_cbuf print `dump_size` elements of type T from a buffer address (a GM pointer, or a
// LocalTensor's GetPhyAddr() in UB, L1 or L0C), with the user's `desc` tag, like DumpTensor. In the emulation the
// address-space qualifiers are empty, so the generic asc_dump is one template for every buffer. Written from the
// public AscendC documentation; no vendor code.
#pragma once

#include "kernel_operator.h"

template <typename T>
inline void asc_dump_gm(__gm__ T* input, uint32_t desc, uint32_t dump_size, ascendcraft::emu::SrcLoc loc = {}) {
    ascendcraft::emu::dump_raw(input, ascendcraft::emu::dt_of<T>(), desc, dump_size, "GM", loc);
}
template <typename T>
inline void asc_dump_ubuf(__ubuf__ T* input, uint32_t desc, uint32_t dump_size, ascendcraft::emu::SrcLoc loc = {}) {
    ascendcraft::emu::dump_raw(input, ascendcraft::emu::dt_of<T>(), desc, dump_size, "UB", loc);
}
template <typename T>
inline void asc_dump_l1buf(__cbuf__ T* input, uint32_t desc, uint32_t dump_size, ascendcraft::emu::SrcLoc loc = {}) {
    ascendcraft::emu::dump_raw(input, ascendcraft::emu::dt_of<T>(), desc, dump_size, "L1", loc);
}
template <typename T>
inline void asc_dump_cbuf(__cc__ T* input, uint32_t desc, uint32_t dump_size, ascendcraft::emu::SrcLoc loc = {}) {
    ascendcraft::emu::dump_raw(input, ascendcraft::emu::dt_of<T>(), desc, dump_size, "L0C", loc);
}
template <typename T>
inline void asc_dump(T* input, uint32_t desc, uint32_t dump_size, ascendcraft::emu::SrcLoc loc = {}) {
    ascendcraft::emu::dump_raw(input, ascendcraft::emu::dt_of<T>(), desc, dump_size, "buffer", loc);
}
