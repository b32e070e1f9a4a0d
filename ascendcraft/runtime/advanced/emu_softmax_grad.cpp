// AscendCraft CPU emulation runtime: SoftmaxGrad / SoftmaxGradFront (softmax_grad.h). Each row is computed in double and
// rounded to the operand type when stored; the trace charges the API's vector passes (mul, reduce, broadcast, sub, mul).
// Written from the public AscendC API reference; no vendor code.
#include <algorithm>
#include <cstring>
#include <vector>

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/race.h"
#include "ascendcraft_emu/softmax_grad.h"

namespace ascendcraft { namespace emu {

void adv_softmax_grad(Dt dt, const Local& dst, const Local& grad, const Local& src, const Local* tmp, uint32_t rows,
                      uint32_t rowStride, uint32_t cols, bool isFront, SrcLoc loc) {
    const Op op = Op::SoftmaxGrad;
    enter(op, loc);
    const uint32_t es = dt_size(dt);
    const char* hint = "fill the SoftMaxTiling with SoftMaxGradTilingFunc on the host, or pass a SoftMaxShapeInfo {srcM, srcK, "
                       "oriSrcM, oriSrcK} with srcK 32-byte aligned";
    if (rows == 0 || rowStride == 0 || cols == 0)
        Report("norm-shape", op, loc)
            .msg("SoftmaxGrad with an empty shape: %u rows of %u elements (%u valid); the tiling was never filled", rows, rowStride, cols)
            .val("rows", rows).val("row_length", rowStride).hint("%s", hint).fail();
    if ((uint64_t(rowStride) * es) % 32 != 0 || cols > rowStride)
        Report("norm-shape", op, loc)
            .msg("SoftmaxGrad: the last axis holds %u elements (%llu bytes, %u valid); it must be whole 32-byte blocks and at "
                 "least the valid length", rowStride, static_cast<unsigned long long>(uint64_t(rowStride) * es), cols)
            .val("row_length", rowStride).val("original", cols).hint("%s", hint).fail();
    const uint64_t dataBytes = uint64_t(rows) * rowStride * es;
    const uint32_t outStride = isFront ? 32 / es : rowStride;      // isFront: one 32-byte block per row
    const uint64_t outBytes = uint64_t(rows) * outStride * es;
    check_local(dst, op, loc, "dst", 32);
    check_local(grad, op, loc, "grad", 32);
    check_local(src, op, loc, "src", 32);
    check_extent(grad, dataBytes, op, loc, "grad");
    check_extent(src, dataBytes, op, loc, "src");
    check_extent(dst, outBytes, op, loc, "dst");
    if (tmp) {
        check_local(*tmp, op, loc, "sharedTmpBuffer", 32);
        const struct { const Local* t; uint64_t bytes; const char* role; } all[] = {
            {&grad, dataBytes, "gradTensor"}, {&src, dataBytes, "srcTensor"}, {&dst, outBytes, "dstTensor"}};
        for (const auto& o : all)
            if (ub_overlap(*tmp, tmp->bytes, *o.t, o.bytes))
                Report("adv-overlap", op, loc).msg("SoftmaxGrad: sharedTmpBuffer overlaps %s; the API does not allow it", o.role)
                    .hint("give the temporary buffer its own InitBuffer / TBuf").fail();
    }
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(grad.addr, dataBytes);
        race.read(src.addr, dataBytes);
        if (tmp) race.write(tmp->addr, tmp->bytes);
        race.write(dst.addr, outBytes);
    }
    const uint32_t passes = isFront ? 3 : 5;
    record(TPipe_::V, TKind::INSTR, op, dt, 0, loc, passes * dataBytes, uint64_t(rows) * rowStride,
           static_cast<uint32_t>(std::min<uint64_t>(passes * ((dataBytes + 255) / 256), 0xffffffffu)));
    if (tracing_now()) return;
    for (uint32_t r = 0; r < rows; ++r) {
        check_initialised(grad, uint64_t(r) * rowStride * es, uint64_t(rowStride) * es, op, loc, "grad");
        check_initialised(src, uint64_t(r) * rowStride * es, uint64_t(rowStride) * es, op, loc, "src");
    }
    auto load = [&](const Local& t, uint64_t i) { return load_d(dt, t.addr + i * es); };
    auto store = [&](std::vector<uint8_t>& out, uint64_t i, double v) {
        if (dt == Dt::f16) { const half h(static_cast<float>(v)); std::memcpy(out.data() + i * es, &h, 2); }
        else { const float f = static_cast<float>(v); std::memcpy(out.data() + i * es, &f, 4); }
    };
    std::vector<uint8_t> out(outBytes);   // computed whole first: dst may share bytes with src (the API allows it)
    for (uint32_t r = 0; r < rows; ++r) {
        const uint64_t base = uint64_t(r) * rowStride;
        double s = 0;
        for (uint32_t j = 0; j < cols; ++j) s += load(grad, base + j) * load(src, base + j);
        if (isFront) {
            for (uint32_t k = 0; k < outStride; ++k) store(out, uint64_t(r) * outStride + k, s);
            continue;
        }
        for (uint32_t j = 0; j < rowStride; ++j) store(out, base + j, (load(grad, base + j) - s) * load(src, base + j));
    }
    std::memcpy(dst.addr, out.data(), outBytes);
    mark_written(dst, 0, outBytes);
    if (tmp) mark_written(*tmp, 0, tmp->bytes);
}

}}  // namespace ascendcraft::emu
