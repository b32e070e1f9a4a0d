"""gert::RuntimeAttrs::GetAttrPointer<char> on an attribute that is not a string. GE gives the address of the attribute's
bytes whatever the type asked, so an int attribute read as char is its first (low) byte: hicann ops-transformer
rotary_position_embedding_grad's tiling reads its int `mode` (0 half, 1 interleave) as `*GetAttrPointer<char>(0)`.
The emulated SDK gave nullptr there (it answered a char pointer with the string only), and that tiling dereferenced it
and crashed (SIGSEGV in the host run)."""
import subprocess

from ascendcraft.emu import INCLUDE_DIR

# a GetShapeAttrsInfo in the form of the public one: attribute 0 is an int mode read through a char pointer, attribute 1
# a string read the usual way; the host program fills the context as the glue does (8 bytes per scalar slot)
HOST_PROGRAM = r"""
#include <cstdio>
#include <cstring>
#include "ascendcraft_emu/op_host.h"
#include "register/op_impl_registry.h"
constexpr uint32_t MODE_ATTR_IDX = 0;
constexpr uint32_t LAYOUT_ATTR_IDX = 1;
static ge::graphStatus GetShapeAttrsInfo(const gert::TilingContext* context, uint32_t& mode, const char*& layout)
{
    auto attrs = context->GetAttrs();
    if (attrs == nullptr) return ge::GRAPH_FAILED;
    const char* modePtr = attrs->GetAttrPointer<char>(MODE_ATTR_IDX);
    if (modePtr == nullptr) return ge::GRAPH_FAILED;
    mode = static_cast<uint32_t>(*modePtr);
    layout = attrs->GetAttrPointer<char>(LAYOUT_ATTR_IDX);
    return layout == nullptr ? ge::GRAPH_FAILED : ge::GRAPH_SUCCESS;
}
static void fill(gert::TilingContext& c, int64_t mode, const char* layout) {
    c.attrs_ = gert::RuntimeAttrs();
    gert::RuntimeAttrs::Slot m, s;
    std::memcpy(m.bytes, &mode, sizeof mode);
    s.is_str = true;
    c.attrs_.slots_ = {m, s};
    c.attrs_.strs_ = {"", layout};
    c.attrs_.lists_.resize(2);
    c.attrs_.float_lists_.resize(2);
}
int main() {
    gert::TilingContext c;
    uint32_t mode = 99;
    const char* layout = nullptr;
    fill(c, 1, "BSND");
    ge::graphStatus st = GetShapeAttrsInfo(&c, mode, layout);
    std::printf("%d %u %s|", st, mode, layout ? layout : "(null)");
    fill(c, 0, "BNSD");
    st = GetShapeAttrsInfo(&c, mode, layout);
    std::printf("%d %u %s|", st, mode, layout ? layout : "(null)");
    // past the attributes: still nullptr
    std::printf("%d", c.GetAttrs()->GetAttrPointer<char>(5) == nullptr);
    return 0;
}
"""


def test_an_int_attribute_read_as_char_is_its_low_byte(tmp_path):
    (tmp_path / "t.cpp").write_text(HOST_PROGRAM)
    c = subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "t.cpp", "-o", "t"], cwd=tmp_path,
                       capture_output=True, text=True)
    assert c.returncode == 0, c.stderr[-2000:]
    out = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, check=True).stdout
    # mode 1 then 0 through the char pointer; the string attribute keeps its characters; an index past them, nullptr
    assert out == "0 1 BSND|0 0 BNSD|1"
