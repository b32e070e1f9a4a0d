// AscendCraft CPU emulation runtime: tiling keys. A kernel dispatches on the launch's tiling key with
// TILING_KEY_IS(k) / TILING_KEY_LIST(k1, k2, ...); the key comes from the run (tiling_key=) or from the
// host tiling function (SetTilingKey, or ascendcraft_set_tiling_key in a plain ascendcraft_tiling).
// A block that tested the key, matched no branch and wrote nothing to GM did no work on the NPU
// either: that is an error naming the key and the keys the kernel knows, never a silent success.
#include <algorithm>

#include "ascendcraft_emu/driver.h"
#include "ascendcraft_emu/internal.h"

namespace ascendcraft { namespace emu {

namespace {
// A binary compiled for one tiling key (TILING_KEY_VAR that key's literal): the key, and the keys its preprocessor
// conditions compare TILING_KEY_VAR with (empty when they test it some other way, so they are no complete list).
bool g_key_build = false;
uint64_t g_built_key = 0;
std::vector<uint64_t> g_branch_keys;
SrcLoc g_branch_loc;
}  // namespace

void declare_key_build(uint64_t key, const uint64_t* keys, int n, const char* file, int line) {
    g_key_build = true;
    g_built_key = key;
    g_branch_keys.clear();
    for (int i = 0; i < n; ++i)
        if (std::find(g_branch_keys.begin(), g_branch_keys.end(), keys[i]) == g_branch_keys.end()) g_branch_keys.push_back(keys[i]);
    g_branch_loc = SrcLoc(SrcLoc::Tag{}, file, line);
}

bool key_build_differs(uint64_t key, uint64_t* built) {
    if (built) *built = g_built_key;
    return g_key_build && key != g_built_key;
}

bool tiling_key_test(const uint64_t* keys, uint32_t n, SrcLoc loc) {
    Core& c = core();
    const uint64_t key = g_launch->tiling_key;
    bool hit = false;
    for (uint32_t i = 0; i < n; ++i) {
        hit = hit || keys[i] == key;
        if (c.keys_seen.size() < 16 && std::find(c.keys_seen.begin(), c.keys_seen.end(), keys[i]) == c.keys_seen.end())
            c.keys_seen.push_back(keys[i]);
    }
    if (!c.key_tests++) c.key_loc = loc;
    c.key_hit = c.key_hit || hit;
    return hit;
}

void check_tiling_key(const Core& c) {
    if (!c.key_tests && g_key_build && !g_branch_keys.empty() && !c.gm_writes &&
        std::find(g_branch_keys.begin(), g_branch_keys.end(), g_launch->tiling_key) == g_branch_keys.end()) {
        std::string known;
        for (uint64_t k : g_branch_keys) known += (known.empty() ? "" : ", ") + std::to_string(k);
        const unsigned long long key = static_cast<unsigned long long>(g_launch->tiling_key);
        Report("tiling-key", Op::Kernel, g_branch_loc)
            .msg("tiling key %llu matched no `#if TILING_KEY_VAR == ...` (or `if constexpr (TILING_KEY_IS(...))`) branch of "
                 "the kernel (its conditions name %s), "
                 "and the block wrote nothing: CANN builds no kernel for this key, on the NPU the launch does no work",
                 key, known.c_str())
            .val("tiling_key", static_cast<int64_t>(key)).val("keys", known.c_str())
            .hint("run with tiling_key= one of %s, or have the host tiling function call SetTilingKey with a key the "
                  "kernel has a branch for",
                  known.c_str())
            .fail();
    }
    if (!c.key_tests || c.key_hit || c.gm_writes) return;
    std::string known;
    for (uint64_t k : c.keys_seen) known += (known.empty() ? "" : ", ") + std::to_string(k);
    const unsigned long long key = static_cast<unsigned long long>(g_launch->tiling_key);
    Report("tiling-key", Op::Kernel, c.key_loc)
        .msg("tiling key %llu matched no TILING_KEY_IS / TILING_KEY_LIST branch of the kernel (it tests %s), and the "
             "block wrote nothing: on the NPU this launch does no work",
             key, known.c_str())
        .val("tiling_key", static_cast<int64_t>(key)).val("keys", known.c_str())
        .hint("run with tiling_key= one of %s, or have the host tiling function call SetTilingKey with a key the kernel "
              "handles",
              known.c_str())
        .fail();
}

void tpl_key_unmatched(const uint64_t* keys, uint32_t n, SrcLoc loc) {
    std::string known;
    for (uint32_t i = 0; i < n; ++i) known += (known.empty() ? "" : ", ") + std::to_string(keys[i]);
    const unsigned long long key = static_cast<unsigned long long>(g_launch->tiling_key);
    Report("tiling-key", Op::Kernel, loc)
        .msg("tiling key %llu selects no instance of the tiling-template kernel: its ASCENDC_TPL_SEL builds the keys %s",
             key, known.empty() ? "(none)" : known.c_str())
        .val("tiling_key", static_cast<int64_t>(key)).val("keys", known.c_str())
        .hint("the host tiling function sets the key with GET_TPL_TILING_KEY / ASCENDC_TPL_SEL_PARAM from values that one "
              "ASCENDC_TPL_ARGS_SEL selects (or run with tiling_key= one of %s)",
              known.empty() ? "the kernel's keys" : known.c_str())
        .fail();
}

}}  // namespace ascendcraft::emu

// Host side: what gert::TilingContext::SetTilingKey does, for a plain ascendcraft_tiling function.
extern "C" void ascendcraft_set_tiling_key(uint64_t key) {
    if (ascendcraft::emu::g_launch) {
        ascendcraft::emu::g_launch->tiling_key = key;
        ascendcraft::emu::g_launch->key_from_host = true;
    }
}

// Host side: gert::TilingContext::SetNeedAtomic(true) asks for an atomic clean, as GE runs before such a kernel: the
// launch's out buffers start as zeros instead of the poison (emu_main.cpp maps them as in-out buffers of zeros).
extern "C" void ascendcraft_set_atomic_clean(int clean) {
    if (ascendcraft::emu::g_launch) ascendcraft::emu::g_launch->atomic_clean = clean != 0;
}
