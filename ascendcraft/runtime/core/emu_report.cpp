// AscendCraft CPU emulation runtime: the op names and the one place every error and warning is written (Report).
// Split out of emu_core.cpp; written from the public AscendC documentation, no vendor code.
#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <cstddef>
#include <sys/mman.h>
#include <unistd.h>

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/cube_internal.h"

namespace ascendcraft { namespace emu {

// ---- names -------------------------------------------------------------------------------------
const char* op_name(Op op) {
    static const char* const names[] = {
#define ASCENDCRAFT_EMU_NAME(name) #name,
        ASCENDCRAFT_EMU_OPS(ASCENDCRAFT_EMU_NAME)
#undef ASCENDCRAFT_EMU_NAME
    };
    size_t i = static_cast<size_t>(op);
    return i < sizeof(names) / sizeof(names[0]) ? names[i] : "?";
}
const char* dt_name(Dt dt) {
    static const char* const names[] = {"?", "half", "bfloat16_t", "float", "double", "int8_t", "uint8_t", "int16_t",
                                        "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "bool"};
    return names[static_cast<size_t>(dt) < 14 ? static_cast<size_t>(dt) : 0];
}
uint32_t dt_size(Dt dt) {
    static const uint32_t sizes[] = {1, 2, 2, 4, 8, 1, 1, 2, 2, 4, 4, 8, 8, 1};
    return sizes[static_cast<size_t>(dt) < 14 ? static_cast<size_t>(dt) : 0];
}
const char* position_name(uint8_t pos) {
    static const char* const names[] = {"GM", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "VECIN", "VECOUT", "VECCALC",
                                        "SPM", "TSCM", "C2PIPE2GM", "C2PIPE2LOCAL"};
    return pos < 16 ? names[pos] : "?";
}
const char* event_name(uint8_t event) {
    static const char* const names[] = {
        "MTE2_MTE1", "MTE1_MTE2", "MTE1_M", "M_MTE1", "MTE2_V", "V_MTE2", "MTE3_V", "V_MTE3", "M_V", "V_M", "V_V",
        "MTE3_MTE1", "MTE1_MTE3", "MTE1_V", "MTE2_M", "M_MTE2", "V_MTE1", "M_FIX", "FIX_M", "MTE3_MTE2", "MTE2_MTE3",
        "S_V", "V_S", "S_MTE2", "MTE2_S", "S_MTE3", "MTE3_S", "MTE2_FIX", "FIX_MTE2", "FIX_S", "M_S", "FIX_MTE3",
        "MTE1_FIX", "FIX_MTE1", "FIX_FIX"};
    return event < sizeof(names) / sizeof(names[0]) ? names[event] : "?";
}

std::string fmt(const char* f, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return buf;
}

// ---- reports -------------------------------------------------------------------------------------
std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') { out += '\\'; out += static_cast<char>(c); }
        else if (c == '\n') out += "\\n";
        else if (c < 0x20) { char b[8]; snprintf(b, sizeof b, "\\u%04x", c); out += b; }
        else out += static_cast<char>(c);
    }
    return out + "\"";
}

void write_line(const std::string& line) {
    if (!g_launch || g_launch->report_fd < 0) { fputs(line.c_str(), stderr); fputc('\n', stderr); return; }
    std::string text = line + "\n";
    const char* p = text.data();
    size_t left = text.size();
    while (left) {
        ssize_t n = ::write(g_launch->report_fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        p += n;
        left -= static_cast<size_t>(n);
    }
}

[[noreturn]] void die(int code) {
    // an out buffer whose poison was deferred holds it wherever nothing was written, as if it had been poisoned up
    // front (not in a parallel launch: the other blocks may still be writing, and its end only asks for a sequential run)
    if (g_launch && code != kSequentialExit && !g_launch->parallel)
        for (const GmBuffer& b : g_launch->gm.buffers())
            if (b.alias) g_launch->api_writes.fill_unwritten(b, b.alias, g_launch->poison);
    fflush(stdout);
    fflush(stderr);
    _exit(code);
}

[[noreturn]] void require_sequential(const char* why) {
    static std::atomic<bool> once{false};
    if (!once.exchange(true)) write_line(std::string("{\"type\":\"sequential\",\"why\":") + json_string(why) + "}");
    else for (;;) pause();  // another thread is ending the process
    die(kSequentialExit);
}

Report::Report(const char* kind, Op op, const SrcLoc& loc) : kind_(kind), op_(op), loc_(loc) {}

Report& Report::msg(const char* f, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    message_ = buf;
    return *this;
}
Report& Report::hint(const char* f, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    hint_ = buf;
    return *this;
}
Report& Report::val(const char* key, int64_t v) {
    values_ += (values_.empty() ? "" : ",") + json_string(key) + ":" + std::to_string(v);
    return *this;
}
Report& Report::val(const char* key, const char* v) {
    values_ += (values_.empty() ? "" : ",") + json_string(key) + ":" + json_string(v ? v : "");
    return *this;
}
Report& Report::block(int b) {
    block_ = b;
    return *this;
}
void Report::write(const char* severity) {
    // with blocks in parallel, which report comes first (and whether later ones are made at all) depends on timing
    if (g_launch && g_launch->parallel) require_sequential("report");
    int block = block_ != -2 ? block_ : (current_core() ? current_core()->idx : -1);
    std::string line = "{\"type\":\"diag\",\"kind\":" + json_string(kind_) + ",\"severity\":" + json_string(severity) +
                       ",\"message\":" + json_string(message_) + ",\"hint\":" + json_string(hint_) +
                       ",\"file\":" + json_string(loc_.file ? loc_.file : "") + ",\"line\":" + std::to_string(loc_.line) +
                       ",\"block\":" + std::to_string(block) + ",\"api\":" + json_string(op_name(op_)) +
                       ",\"values\":{" + values_ + "}}";
    write_line(line);
}
void Report::fail() {
    write("error");
    die(3);
}
void Report::warn() { write("warning"); }
void Report::note() { write("note"); }

}}  // namespace ascendcraft::emu
