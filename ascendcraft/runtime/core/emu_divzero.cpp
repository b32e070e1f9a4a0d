// AscendCraft CPU emulation: integer division by zero in a kernel's scalar code.
//
// An x86 `div` / `idiv` with a zero divisor raises a divide error (SIGFPE); the NPU's scalar unit does not stop there
// (public kernels that pass on hardware compute `x % 0` in a value they never use: catlass's BlockMmad takes
// `startTileIdx % kTileCountNext` with kTileCountNext = 0 when a block has no successor). The NPU's result is not
// documented, so the emulation picks one and says so: the quotient is 0 and the remainder is the dividend (the rule of
// AArch64's SDIV/UDIV followed by MSUB), and the run reports one warning naming the last AscendC call before the first
// such division. `idiv` of the most negative value by -1 (the other divide error) gives the wrapped quotient and 0.
//
// The SIGFPE handler (emu_main.cpp) calls int_div_resume first: it decodes the faulting instruction at the signal's
// RIP (prefixes, REX, opcode F6/F7 with ModRM reg 6 or 7, its operand in a register or in memory), writes the result
// registers and moves RIP past the instruction. Anything it cannot decode (another instruction, a segment-prefixed
// operand) stays a crash. Only async-signal-safe work happens in the handler; the warning is written after the blocks.
#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <ucontext.h>

#include "ascendcraft_emu/internal.h"

namespace ascendcraft { namespace emu {

namespace {
std::atomic<uint32_t> g_div_count{0};
uint16_t g_div_op = 0;          // the last AscendC call before the first division by zero (from the status page)
uint32_t g_div_line = 0;
char g_div_file[136] = {};

#if defined(__x86_64__)
// gregs index of x86 register number 0..15 (RAX RCX RDX RBX RSP RBP RSI RDI R8..R15)
constexpr int kReg[16] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
                          REG_R8,  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};

struct Decoded {
    int len = 0;            // instruction length in bytes (0: not a div / idiv this code resumes)
    bool is_signed = false;
    int width = 0;          // operand bits: 8, 16, 32, 64
    uint64_t divisor = 0;   // zero-extended to 64 bits
};

Decoded decode(const uint8_t* ip, const greg_t* g) {
    Decoded d;
    int i = 0;
    bool opsize = false;
    for (;; ++i) {  // legacy prefixes
        const uint8_t p = ip[i];
        if (p == 0x66) opsize = true;
        else if (p == 0xF0 || p == 0xF2 || p == 0xF3 || p == 0x2E || p == 0x3E || p == 0x26 || p == 0x36) {}
        else if (p == 0x64 || p == 0x65 || p == 0x67) return d;   // FS/GS-based or 32-bit addressing: not resumed
        else break;
        if (i > 4) return d;
    }
    uint8_t rex = 0;
    if ((ip[i] & 0xF0) == 0x40) rex = ip[i++];
    const uint8_t op = ip[i++];
    if (op != 0xF6 && op != 0xF7) return d;
    const uint8_t modrm = ip[i++];
    const int mod = modrm >> 6, reg = (modrm >> 3) & 7, rm = modrm & 7;
    if (reg != 6 && reg != 7) return d;
    d.is_signed = reg == 7;
    d.width = op == 0xF6 ? 8 : (rex & 8) ? 64 : opsize ? 16 : 32;
    auto reg_value = [&](int r) { return static_cast<uint64_t>(g[kReg[r]]); };
    const uint64_t mask = d.width == 64 ? ~0ull : (1ull << d.width) - 1;
    if (mod == 3) {
        const int r = rm | ((rex & 1) << 3);
        if (d.width == 8 && !rex && r >= 4) d.divisor = (reg_value(r - 4) >> 8) & 0xFF;   // AH, CH, DH, BH
        else d.divisor = reg_value(r) & mask;
        d.len = i;
        return d;
    }
    uint64_t addr = 0;
    if (rm == 4) {  // SIB
        const uint8_t sib = ip[i++];
        const int scale = sib >> 6, index = ((sib >> 3) & 7) | ((rex & 2) << 2), base = (sib & 7) | ((rex & 1) << 3);
        if (index != 4) addr += reg_value(index) << scale;
        if ((base & 7) == 5 && mod == 0) { int32_t disp; std::memcpy(&disp, ip + i, 4); i += 4; addr += static_cast<int64_t>(disp); }
        else addr += reg_value(base);
    } else if (rm == 5 && mod == 0) {  // RIP-relative: from the end of the instruction
        int32_t disp; std::memcpy(&disp, ip + i, 4); i += 4;
        addr = reinterpret_cast<uint64_t>(ip) + static_cast<uint64_t>(i) + static_cast<int64_t>(disp);
    } else {
        addr = reg_value(rm | ((rex & 1) << 3));
    }
    if (mod == 1) { addr += static_cast<int64_t>(static_cast<int8_t>(ip[i])); i += 1; }
    else if (mod == 2) { int32_t disp; std::memcpy(&disp, ip + i, 4); i += 4; addr += static_cast<int64_t>(disp); }
    uint64_t v = 0;
    std::memcpy(&v, reinterpret_cast<const void*>(addr), static_cast<size_t>(d.width / 8));   // the operand is mapped: a divide error, not a page fault
    d.divisor = v & mask;
    d.len = i;
    return d;
}

// Write quotient and remainder into the width's result registers (AL/AH for 8 bits, AX/DX, EAX/EDX zero-extended, RAX/RDX).
void put(greg_t* g, int width, uint64_t quot, uint64_t rem) {
    uint64_t& rax = reinterpret_cast<uint64_t&>(g[REG_RAX]);
    uint64_t& rdx = reinterpret_cast<uint64_t&>(g[REG_RDX]);
    switch (width) {
    case 8: rax = (rax & ~0xFFFFull) | (quot & 0xFF) | ((rem & 0xFF) << 8); break;
    case 16: rax = (rax & ~0xFFFFull) | (quot & 0xFFFF); rdx = (rdx & ~0xFFFFull) | (rem & 0xFFFF); break;
    case 32: rax = quot & 0xFFFFFFFFull; rdx = rem & 0xFFFFFFFFull; break;
    default: rax = quot; rdx = rem;
    }
}
#endif
}  // namespace

bool int_div_resume(void* context) {
#if defined(__x86_64__)
    if (!context) return false;
    ucontext_t* uc = static_cast<ucontext_t*>(context);
    greg_t* g = uc->uc_mcontext.gregs;
    const uint8_t* ip = reinterpret_cast<const uint8_t*>(g[REG_RIP]);
    const Decoded d = decode(ip, g);
    if (!d.len) return false;
    const uint64_t mask = d.width == 64 ? ~0ull : (1ull << d.width) - 1;
    const uint64_t low = static_cast<uint64_t>(g[REG_RAX]) & mask;   // the dividend's low half (AL, AX, EAX, RAX)
    if (d.divisor == 0) {
        put(g, d.width, 0, low);   // quotient 0, remainder the (low half of the) dividend
    } else if (d.is_signed && d.divisor == mask) {
        put(g, d.width, (0 - low) & mask, 0);   // the most negative value / -1: the wrapped quotient
        g[REG_RIP] += d.len;
        return true;               // not a division by zero: no warning
    } else {
        return false;              // a quotient that does not fit (128-by-64 division): stays a crash
    }
    if (g_div_count.fetch_add(1) == 0 && g_launch && g_launch->status) {
        const Status* s = g_launch->status;
        g_div_op = s->op;
        g_div_line = s->line;
        std::memcpy(g_div_file, s->file, sizeof(g_div_file));
        g_div_file[sizeof(g_div_file) - 1] = 0;
    }
    g[REG_RIP] += d.len;
    return true;
#else
    (void)context;
    return false;
#endif
}

void int_div_report() {
    const uint32_t n = g_div_count.load();
    if (!n) return;
    SrcLoc loc;
    loc.file = g_div_file;
    loc.line = static_cast<int>(g_div_line);
    Report("int-div-by-zero", static_cast<Op>(g_div_op), loc)
        .msg("the kernel's scalar code divided an integer by zero %u time%s (the first %s%s): the NPU's scalar unit does "
             "not stop there and its result is not documented; the emulator carried on with a quotient of 0 and the "
             "dividend as the remainder", n, n == 1 ? "" : "s", g_div_line ? "after " : "before any AscendC call",
             g_div_line ? op_name(static_cast<Op>(g_div_op)) : "")
        .hint("if the kernel uses that value, guard the division (`d == 0 ? ... : x / d`); a value the kernel never "
              "uses is harmless")
        .warn();
}

}}  // namespace ascendcraft::emu
