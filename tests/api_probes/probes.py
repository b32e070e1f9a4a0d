"""The API probe set: one-line AscendC usages, each compiled as a tiny kernel (PRELUDE + the line + EPILOGUE).

A probe is a real usage of an API the emulator implements, or a near-miss an LLM writes (wrong argument
count, wrong parameter-struct family, wrong template arguments, an unsupported dtype, an invented name,
swapped scalar and tensor arguments). Whether CANN's official headers accept each line is recorded in
`official_verdicts.csv` (made by `oracle.py` with the api-oracle); `tests/test_api_parity.py` requires our
emulation header to give the same verdict.

Add a probe: append a `P(id, code, group)` (or extend one of the generator loops) below, run
`python tests/api_probes/oracle.py` to record its official verdict, and run the parity test. A probe
whose official verdict is "accept" but which the emulator checks at run time instead (an API the
official headers only check at run time, or one the emulator cannot run) names the run-time
diagnostic kind in `runtime=`; the test then runs the probe and requires that diagnostic at its line.
`SAYS` (at the end) is text that our compile error must contain (the official signature or rule), for the
near-misses whose message matters most.

Names in the prelude (a probe's own variables must not reuse them): tensors `<p>0 <p>1 <p>2` and a scalar `<p>s` for every dtype prefix below,
GlobalTensors `gh gf gi gb`, queues `qin qout qbind`, buffer `buf`, the pipe `pipe`, masks `mask`
(uint64_t) and `mask2` (uint64_t[2]), repeat params `brp urp`, copy params `dcp dce pph ppf ppl`.
"""
from __future__ import annotations

from dataclasses import dataclass

# dtype -> tensor/scalar name prefix in the prelude
DT = {"half": "h", "float": "f", "int32_t": "i", "int16_t": "s", "uint16_t": "w", "uint32_t": "u",
      "uint8_t": "b", "int8_t": "c", "bfloat16_t": "e", "int64_t": "l", "uint64_t": "q", "double": "d"}
_SCALAR_INIT = {"half": "1", "float": "1.0f", "bfloat16_t": "1.0f", "double": "1.0"}


def _tensors() -> str:
    lines, offset = [], 0
    for t, p in DT.items():
        decl = []
        for k in range(3):
            decl.append(f"{p}{k} = buf.GetWithOffset<{t}>(2048 / sizeof({t}), {offset})")
            offset += 2048
        lines.append(f"    LocalTensor<{t}> {', '.join(decl)};")
        lines.append(f"    {t} {p}s = {_SCALAR_INIT.get(t, '1')};")
    return "\n".join(lines)


HEADER = '''#include "kernel_operator.h"
using namespace AscendC;
'''
SIGNATURE = 'extern "C" __global__ __aicore__ void {name}(GM_ADDR x, GM_ADDR y, GM_ADDR z{extra}) {{\n'
BODY = '''    TPipe pipe;
    TQue<TPosition::VECIN, 1> qin;
    TQue<TPosition::VECOUT, 1> qout;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> qbind;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(qin, 2, 2048);
    pipe.InitBuffer(qout, 2, 2048);
    pipe.InitBuffer(qbind, 1, 2048);
    pipe.InitBuffer(buf, 81920);
    GlobalTensor<half> gh; gh.SetGlobalBuffer((__gm__ half*)x, 1024);
    GlobalTensor<float> gf; gf.SetGlobalBuffer((__gm__ float*)y, 1024);
    GlobalTensor<int32_t> gi; gi.SetGlobalBuffer((__gm__ int32_t*)z, 256);
    GlobalTensor<uint8_t> gb; gb.SetGlobalBuffer((__gm__ uint8_t*)z, 1024);
''' + _tensors() + '''
    uint64_t mask = 64;
    uint64_t mask2[2] = {~0ULL, ~0ULL};
    BinaryRepeatParams brp;
    UnaryRepeatParams urp;
    DataCopyParams dcp(1, 8, 0, 0);
    DataCopyExtParams dce(1, 64, 0, 0, 0);
    DataCopyPadExtParams<half> pph(false, 0, 0, 0);
    DataCopyPadExtParams<float> ppf(false, 0, 0, 0);
    DataCopyPadParams ppl(false, 0, 0, 0);
'''
PRELUDE = HEADER + SIGNATURE.format(name="probe", extra="") + BODY
# The cube core's kernel (probes with core="aic", checked by the oracle for the AIC core): L1, L0A/L0B, L0C.
CUBE_BODY = '''    TPipe pipe;
    TQue<TPosition::A1, 1> qa1;
    TQue<TPosition::B1, 1> qb1;
    TQue<TPosition::A2, 1> qa2;
    TQue<TPosition::B2, 1> qb2;
    TQue<TPosition::CO1, 1> qc1;
    pipe.InitBuffer(qa1, 1, 16384);
    pipe.InitBuffer(qb1, 1, 16384);
    pipe.InitBuffer(qa2, 1, 8192);
    pipe.InitBuffer(qb2, 1, 8192);
    pipe.InitBuffer(qc1, 1, 16384);
    GlobalTensor<half> gh; gh.SetGlobalBuffer((__gm__ half*)x, 4096);
    GlobalTensor<float> gf; gf.SetGlobalBuffer((__gm__ float*)y, 4096);
    LocalTensor<half> a1 = qa1.AllocTensor<half>();
    LocalTensor<half> b1 = qb1.AllocTensor<half>();
    LocalTensor<half> a2 = qa2.AllocTensor<half>();
    LocalTensor<half> b2 = qb2.AllocTensor<half>();
    LocalTensor<float> c1 = qc1.AllocTensor<float>();
    Nd2NzParams nd;
    LoadData2DParams ld;
    MmadParams mm;
    FixpipeParamsV220 fp;
'''
CUBE_PRELUDE = HEADER + SIGNATURE.format(name="probe", extra="") + CUBE_BODY
EPILOGUE = "\n}\n"
# GM arguments of the probe kernel for the run-time probes: x (half), y (float), z (bytes)
RUN_ARGS = (("x", "float16", 1024), ("y", "float32", 1024), ("z", "uint8", 1024))


@dataclass(frozen=True)
class Probe:
    id: str
    code: str
    group: str           # api | argc | family | template | dtype | name | swap | known
    runtime: str = ""     # the official headers accept it; the emulator checks it at run time: the diagnostic kind
    unemulated: str = ""  # the official headers accept it; the emulator does not provide it: why, and what to use
    says: str = ""        # text our compile error must contain
    core: str = "aiv"     # aiv: the vector core's prelude; aic: the cube core's (CUBE_BODY)

    @property
    def body(self) -> str: return CUBE_BODY if self.core == "aic" else BODY

    def source(self) -> str:
        return (CUBE_PRELUDE if self.core == "aic" else PRELUDE) + "    " + self.code + EPILOGUE

    @property
    def line(self) -> int:
        "Line of the probe's code in `source()` (1-based)."
        return (CUBE_PRELUDE if self.core == "aic" else PRELUDE).count("\n") + 1


PROBES: list[Probe] = []


def P(id: str, code: str, group: str = "api", runtime: str = "", unemulated: str = "", says: str = "", core: str = "aiv"):
    PROBES.append(Probe(id, code, group, runtime, unemulated, says, core))


def C(id: str, code: str, group: str = "api"):
    "A probe on the cube core."
    P(id, code, group, core="aic")


def T(dtype: str, k: int = 0) -> str: return f"{DT[dtype]}{k}"
def S(dtype: str) -> str: return f"{DT[dtype]}s"


# ---- elementwise binary: every dtype in level 2, both mask forms in level 0 --------------------------------
BINARY = ["Add", "Sub", "Mul", "Div", "Max", "Min", "And", "Or", "AddRelu", "SubRelu", "FusedMulAdd"]
BIN_DTYPES = ["half", "float", "int32_t", "int16_t", "uint16_t", "uint8_t", "bfloat16_t"]
for op in BINARY:
    for t in BIN_DTYPES:
        P(f"{op}.l2.{t}", f"{op}({T(t)}, {T(t, 1)}, {T(t, 2)}, 256);", "api" if t in ("half", "float") else "dtype")
    P(f"{op}.l0.mask", f"{op}(h0, h1, h2, mask, 2, brp);")
    P(f"{op}.l0.mask2", f"{op}(h0, h1, h2, mask2, 2, {{1, 1, 1, 8, 8, 8}});")
    P(f"{op}.argc.3", f"{op}(h0, h1, h2);", "argc")
    P(f"{op}.family.unary", f"{op}(h0, h1, h2, mask, 2, urp);", "family")
    P(f"{op}.swap.scalar", f"{op}(h0, h1, hs, 256);", "swap")
P("Add.template.explicit", "Add<half>(h0, h1, h2, 256);")
P("Add.template.wrong", "Add<float>(h0, h1, h2, 256);", "template")
P("Add.template.issetmask", "Add<half, false>(h0, h1, h2, MASK_PLACEHOLDER, 2, brp);")
P("Add.mixed", "Add(f0, h1, h2, 256);", "dtype")
P("Add.argc.7", "Add(h0, h1, h2, mask, 2, brp, 1);", "argc")
P("Add.l0.no_params", "Add(h0, h1, h2, mask, 2);", "argc")
P("Add.operator", "h0 = h1 + h2;")
P("Mul.operator", "f0 = f1 * f2;")
P("And.int16.l0", "And(s0, s1, s2, mask, 2, brp);")
P("Or.uint16.l0", "Or(w0, w1, w2, mask2, 2, brp);")

# ---- elementwise unary ----------------------------------------------------------------------------------------
UNARY = ["Exp", "Ln", "Abs", "Sqrt", "Rsqrt", "Reciprocal", "Relu", "Not"]
UN_DTYPES = ["half", "float", "int32_t", "int16_t", "uint16_t", "bfloat16_t"]
for op in UNARY:
    for t in UN_DTYPES:
        P(f"{op}.l2.{t}", f"{op}({T(t)}, {T(t, 1)}, 256);", "api" if t in ("half", "float") else "dtype")
    P(f"{op}.l0.mask", f"{op}(h0, h1, mask, 2, urp);")
    P(f"{op}.l0.mask2", f"{op}(h0, h1, mask2, 2, {{1, 1, 8, 8}});")
    P(f"{op}.argc.2", f"{op}(h0, h1);", "argc")
    P(f"{op}.family.binary", f"{op}(h0, h1, mask, 2, brp);", "family")
P("Exp.template.issetmask", "Exp<float, false>(f0, f1, MASK_PLACEHOLDER, 2, urp);")
P("Exp.mixed", "Exp(f0, h1, 256);", "dtype")
P("Exp.argc.3tensors", "Exp(h0, h1, h2, 256);", "argc")
P("Not.int16.l0", "Not(s0, s1, mask, 2, urp);")

# ---- tensor op scalar -----------------------------------------------------------------------------------------
SCALAR = ["Adds", "Muls", "Maxs", "Mins", "LeakyRelu", "ShiftLeft", "ShiftRight"]
SC_DTYPES = ["half", "float", "int32_t", "int16_t", "uint16_t", "uint32_t"]
for op in SCALAR:
    for t in SC_DTYPES:
        P(f"{op}.l2.{t}", f"{op}({T(t)}, {T(t, 1)}, {S(t)}, 256);", "api" if t in ("half", "float") else "dtype")
    lt = "int16_t" if op.startswith("Shift") else "half"
    P(f"{op}.l0.mask", f"{op}({T(lt)}, {T(lt, 1)}, {S(lt)}, mask, 2, urp);")
    P(f"{op}.l0.mask2", f"{op}({T(lt)}, {T(lt, 1)}, {S(lt)}, mask2, 2, urp);")
    P(f"{op}.swap", f"{op}({T(lt)}, {S(lt)}, {T(lt, 1)}, 256);", "swap")
    P(f"{op}.argc.3", f"{op}({T(lt)}, {T(lt, 1)}, {S(lt)});", "argc")
    P(f"{op}.family.binary", f"{op}({T(lt)}, {T(lt, 1)}, {S(lt)}, mask, 2, brp);", "family")
    P(f"{op}.tensor_scalar", f"{op}({T(lt)}, {T(lt, 1)}, {T(lt, 2)}, 256);", "swap")
P("Adds.float_literal.half", "Adds(h0, h1, 2.0f, 256);", "swap")
P("Adds.double_literal.float", "Adds(f0, f1, 2.0, 256);", "swap")
P("Adds.float_scalar.float", "Adds(f0, f1, 2.0f, 256);")
P("Adds.int_literal.int32", "Adds(i0, i1, 2, 256);")
P("Adds.int_literal.int16", "Adds(s0, s1, 2, 256);", "swap")
P("Muls.half_cast", "Muls(h0, h1, (half)0.5f, 256);")
P("Muls.float_var.half", "Muls(h0, h1, fs, 256);", "swap")
P("Muls.template.explicit", "Muls<half>(h0, h1, 0.5f, 256);")
P("Maxs.int_literal.float", "Maxs(f0, f1, 0, 256);", "swap")
P("LeakyRelu.float_literal.half", "LeakyRelu(h0, h1, 0.1f, 256);", "swap")
P("ShiftRight.roundEn", "ShiftRight(s0, s1, ss, mask, 2, urp, true);")
P("ShiftLeft.roundEn", "ShiftLeft(s0, s1, ss, mask, 2, urp, true);", "argc")
P("ShiftRight.int_literal.int32", "ShiftRight(i0, i1, 3, 256);")

# ---- Axpy / MulAddDst -----------------------------------------------------------------------------------------
PAIRS = [("half", "half"), ("float", "float"), ("float", "half"), ("half", "float"), ("int32_t", "int32_t"),
         ("int16_t", "int16_t")]
for d, s in PAIRS:
    P(f"Axpy.l2.{d}.{s}", f"Axpy({T(d)}, {T(s, 1)}, {S(s)}, 256);", "api" if (d, s) in PAIRS[:3] else "dtype")
    P(f"MulAddDst.l2.{d}.{s}", f"MulAddDst({T(d)}, {T(s, 1)}, {T(s, 2)}, 256);", "api" if (d, s) in PAIRS[:3] else "dtype")
P("Axpy.l0.mask", "Axpy(f0, h1, hs, mask, 2, urp);")
P("Axpy.l0.mask2", "Axpy(h0, h1, hs, mask2, 2, urp);")
P("Axpy.swap", "Axpy(h0, hs, h1, 256);", "swap")
P("Axpy.scalar_type", "Axpy(f0, h1, fs, 256);", "swap")
P("Axpy.family.binary", "Axpy(h0, h1, hs, mask, 2, brp);", "family")
P("MulAddDst.l0.mask", "MulAddDst(f0, h1, h2, mask, 2, brp);")
P("MulAddDst.l0.mask2", "MulAddDst(h0, h1, h2, mask2, 2, brp);")
P("MulAddDst.family.unary", "MulAddDst(h0, h1, h2, mask, 2, urp);", "family")
P("FusedMulAdd.l0.float", "FusedMulAdd(f0, f1, f2, mask, 2, brp);")

# ---- Duplicate / CreateVecIndex -------------------------------------------------------------------------------
DUP_DTYPES = ["half", "float", "int32_t", "int16_t", "uint16_t", "uint32_t", "bfloat16_t", "uint8_t", "int8_t", "int64_t"]
for t in DUP_DTYPES:
    P(f"Duplicate.l2.{t}", f"Duplicate({T(t)}, {S(t)}, 256);", "api" if t in ("half", "float") else "dtype")
P("Duplicate.l0.mask", "Duplicate(h0, hs, mask, 2, 1, 8);")
P("Duplicate.l0.mask2", "Duplicate(f0, fs, mask2, 2, 1, 8);")
P("Duplicate.float_literal.half", "Duplicate(h0, 1.0f, 256);", "swap")
P("Duplicate.int_literal.float", "Duplicate(f0, 0, 256);", "swap")
P("Duplicate.float_literal.float", "Duplicate(f0, 0.0f, 256);")
P("Duplicate.half_cast", "Duplicate(h0, (half)0, 256);")
P("Duplicate.template.explicit", "Duplicate<float>(f0, 0, 256);")
P("Duplicate.swap", "Duplicate(f0, 256, fs);", "swap")
P("Duplicate.argc.2", "Duplicate(f0, fs);", "argc")
P("Duplicate.family.unary", "Duplicate(f0, fs, mask, 2, urp);", "family")
P("Duplicate.tensor_src", "Duplicate(f0, f1, 256);", "swap")
for t in ["half", "float", "int32_t", "int16_t", "uint32_t"]:
    P(f"CreateVecIndex.l2.{t}", f"CreateVecIndex({T(t)}, {S(t)}, 256);", "api" if t in ("half", "float", "int32_t") else "dtype")
P("CreateVecIndex.l0.mask", "CreateVecIndex(i0, is, mask, 2, 1, 8);")
P("CreateVecIndex.l0.mask2", "CreateVecIndex(h0, hs, mask2, 2, 1, 8);")
P("CreateVecIndex.int_literal.int32", "CreateVecIndex(i0, 0, 256);")
P("CreateVecIndex.int_literal.float", "CreateVecIndex(f0, 0, 256);", "swap")
P("CreateVecIndex.argc.2", "CreateVecIndex(i0, is);", "argc")

# ---- Cast: the A2 conversion table, rounding modes and the usual slips -----------------------------------------
CASTS = [("float", "half", "CAST_NONE"), ("half", "float", "CAST_RINT"), ("half", "float", "CAST_ODD"),
         ("half", "float", "CAST_NONE"), ("int32_t", "half", "CAST_RINT"), ("int16_t", "half", "CAST_TRUNC"),
         ("int8_t", "half", "CAST_FLOOR"), ("uint8_t", "half", "CAST_CEIL"), ("float", "float", "CAST_ROUND"),
         ("int32_t", "float", "CAST_RINT"), ("int64_t", "float", "CAST_RINT"), ("int16_t", "float", "CAST_RINT"),
         ("bfloat16_t", "float", "CAST_RINT"), ("float", "bfloat16_t", "CAST_NONE"), ("int32_t", "bfloat16_t", "CAST_RINT"),
         ("float", "int16_t", "CAST_NONE"), ("half", "int16_t", "CAST_RINT"), ("float", "int32_t", "CAST_NONE"),
         ("half", "int32_t", "CAST_NONE"), ("int16_t", "int32_t", "CAST_NONE"), ("int64_t", "int32_t", "CAST_NONE"),
         ("int32_t", "int64_t", "CAST_NONE"), ("half", "int8_t", "CAST_NONE"), ("half", "uint8_t", "CAST_NONE"),
         ("half", "half", "CAST_NONE"), ("int32_t", "int32_t", "CAST_NONE"), ("uint8_t", "float", "CAST_RINT"),
         ("float", "uint8_t", "CAST_NONE"), ("int32_t", "uint8_t", "CAST_NONE"), ("double", "float", "CAST_RINT"),
         ("float", "double", "CAST_NONE"), ("uint16_t", "half", "CAST_RINT")]
for d, s, mode in CASTS:
    P(f"Cast.{s}.to.{d}.{mode}", f"Cast({T(d)}, {T(s, 1)}, RoundMode::{mode}, 256);",
      "api" if (d, s) in [("float", "half"), ("half", "float"), ("int32_t", "float"), ("float", "int32_t")] else "dtype")
P("SetDeqScale.half", "SetDeqScale((half)1.0f);")
P("SetDeqScale.then_cast", "SetDeqScale((half)0.5f); Cast(h0, i1, RoundMode::CAST_NONE, 256);")
P("SetDeqScale.argc.2", "SetDeqScale((half)1.0f, 0);", "argc")
P("Cast.l0.mask", "Cast(f0, h1, RoundMode::CAST_NONE, mask, 2, {1, 1, 8, 4});")
P("Cast.l0.mask2", "Cast(h0, f1, RoundMode::CAST_RINT, mask2, 2, {1, 1, 4, 8});")
P("Cast.template.dst_src", "Cast<float, half>(f0, h1, RoundMode::CAST_NONE, 256);")
P("Cast.template.src_dst", "Cast<half, float>(f0, h1, RoundMode::CAST_NONE, 256);", "template")
P("Cast.no_round", "Cast(f0, h1, 256);", "argc")
P("Cast.round_last", "Cast(f0, h1, 256, RoundMode::CAST_NONE);", "swap")
P("Cast.round_unscoped", "Cast(f0, h1, CAST_NONE, 256);", "name")
P("Cast.family.binary", "Cast(f0, h1, RoundMode::CAST_NONE, mask, 2, brp);", "family")
P("Cast.round_int", "Cast(f0, h1, 0, 256);", "swap")

# ---- Compare / CompareScalar / Select --------------------------------------------------------------------------
for t in ["half", "float", "int32_t", "int16_t", "uint8_t"]:
    P(f"Compare.l2.{t}", f"Compare(b0, {T(t, 1)}, {T(t, 2)}, CMPMODE::LT, 256);", "api" if t in ("half", "float") else "dtype")
    P(f"CompareScalar.l2.{t}", f"CompareScalar(b0, {T(t, 1)}, {S(t)}, CMPMODE::GE, 256);", "api" if t in ("half", "float") else "dtype")
P("Compare.int32.eq", "Compare(b0, i1, i2, CMPMODE::EQ, 256);")
P("Compare.dst.half", "Compare(h0, h1, h2, CMPMODE::LT, 256);", "dtype")
P("Compare.dst.uint16", "Compare(w0, h1, h2, CMPMODE::LT, 256);", "dtype")
# a float tensor kept as a mask's bytes (linnlh/ascendc-perf-s2 BallQuery): official accepts; CPU debug asserts uint8_t
P("Compare.dst.float", "Compare(f0, f1, f2, CMPMODE::LT, 256);", "dtype")
P("CompareScalar.dst.float.l0", "CompareScalar(f0, f1, fs, CMPMODE::GE, 64, 1, urp);", "dtype")
P("CompareScalar.dst.int32", "CompareScalar(i0, f1, fs, CMPMODE::GE, 256);", "dtype")
P("Compare.l0.mask", "Compare(b0, h1, h2, CMPMODE::GT, mask, 2, brp);")
P("Compare.l0.mask2", "Compare(b0, f1, f2, CMPMODE::NE, mask2, 2, brp);")
P("Compare.no_dst.l0", "Compare(h1, h2, CMPMODE::LT, mask, brp);")
P("Compare.argc.no_mode", "Compare(b0, h1, h2, 256);", "argc")
P("Compare.mode_last", "Compare(b0, h1, h2, 256, CMPMODE::LT);", "swap")
P("Compare.family.unary", "Compare(b0, h1, h2, CMPMODE::GT, mask, 2, urp);", "family")
P("Compare.mode_name", "Compare(b0, h1, h2, CMPMODE::LESS, 256);", "name")
P("CompareScalar.l0.mask", "CompareScalar(b0, h1, hs, CMPMODE::LT, mask, 2, urp);")
P("CompareScalar.l0.mask2", "CompareScalar(b0, f1, fs, CMPMODE::EQ, mask2, 2, urp);")
P("CompareScalar.float_literal.half", "CompareScalar(b0, h1, 0.0f, CMPMODE::GT, 256);", "swap")
P("CompareScalar.tensor", "CompareScalar(b0, h1, h2, CMPMODE::GT, 256);", "swap")
P("CompareScalar.family.binary", "CompareScalar(b0, h1, hs, CMPMODE::LT, mask, 2, brp);", "family")
P("CompareScalar.swap", "CompareScalar(b0, hs, h1, CMPMODE::GT, 256);", "swap")
for t in ["half", "float", "int32_t", "int16_t"]:
    P(f"Select.tt.{t}", f"Select({T(t)}, b0, {T(t, 1)}, {T(t, 2)}, SELMODE::VSEL_TENSOR_TENSOR_MODE, 256);",
      "api" if t in ("half", "float") else "dtype")
    P(f"Select.ts.{t}", f"Select({T(t)}, b0, {T(t, 1)}, {S(t)}, SELMODE::VSEL_TENSOR_SCALAR_MODE, 256);",
      "api" if t in ("half", "float") else "dtype")
for m in ["uint16_t", "uint32_t", "uint64_t", "int8_t", "half"]:
    P(f"Select.mask.{m}", f"Select(h0, {T(m)}, h1, h2, SELMODE::VSEL_TENSOR_TENSOR_MODE, 256);",
      "api" if m.startswith("uint") else "dtype")
P("Select.l0.mask", "Select(h0, b0, h1, h2, SELMODE::VSEL_CMPMASK_SPR, mask, 2, brp);")
P("Select.l0.mask2", "Select(f0, b0, f1, f2, SELMODE::VSEL_TENSOR_TENSOR_MODE, mask2, 2, brp);")
P("Select.l0.scalar", "Select(h0, b0, h1, hs, SELMODE::VSEL_TENSOR_SCALAR_MODE, mask, 2, brp);")
P("Select.float_literal.half", "Select(h0, b0, h1, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 256);", "swap")
P("Select.scalar_first", "Select(h0, b0, hs, h1, SELMODE::VSEL_TENSOR_SCALAR_MODE, 256);", "swap")
P("Select.no_mode", "Select(h0, b0, h1, h2, 256);", "argc")
P("Select.mask_last", "Select(h0, h1, h2, b0, SELMODE::VSEL_TENSOR_TENSOR_MODE, 256);", "swap")
P("Select.family.unary", "Select(h0, b0, h1, h2, SELMODE::VSEL_CMPMASK_SPR, mask, 2, urp);", "family")
P("Select.cmpmask_register", "Select<float, SELMODE::VSEL_CMPMASK_SPR>(f0, f1, f2, 2, brp);")
P("Select.cmpmask_register.int32", "Select<int32_t, SELMODE::VSEL_CMPMASK_SPR>(i0, i1, i2, 2, brp);", "dtype")
P("Select.cmpmask_register.tensor_mode", "Select<half, SELMODE::VSEL_TENSOR_TENSOR_MODE>(h0, h1, h2, 2, brp);")

# ---- reductions -----------------------------------------------------------------------------------------------
for op in ["ReduceSum", "ReduceMax", "ReduceMin"]:
    for t in ["half", "float", "int32_t", "int16_t"]:
        P(f"{op}.l2.{t}", f"{op}({T(t)}, {T(t, 1)}, {T(t, 2)}, 256);", "api" if t in ("half", "float") else "dtype")
    P(f"{op}.l0.mask", f"{op}(f0, f1, f2, mask, 2, 8);")
    P(f"{op}.l0.mask2", f"{op}(h0, h1, h2, mask2, 2, 8);")
    P(f"{op}.no_tmp", f"{op}(f0, f1, 256);", "argc")
    P(f"{op}.mixed_tmp", f"{op}(f0, f1, h2, 256);", "dtype")
    P(f"{op}.argc.brp", f"{op}(f0, f1, f2, mask, 2, brp);", "family")
P("ReduceMax.calIndex", "ReduceMax(f0, f1, f2, 256, true);")
P("ReduceMin.l0.calIndex", "ReduceMin(h0, h1, h2, mask, 2, 8, true);")
P("ReduceSum.calIndex", "ReduceSum(f0, f1, f2, 256, true);", "argc")
P("ReduceSum.template.explicit", "ReduceSum<float>(f0, f1, f2, 256);")
P("ReduceSum.uint8_tmp", "ReduceSum(f0, f1, b0, 256);", "dtype")
for op in ["WholeReduceSum", "WholeReduceMax", "WholeReduceMin"]:
    for t in ["half", "float", "int32_t"]:
        P(f"{op}.{t}", f"{op}({T(t)}, {T(t, 1)}, mask, 2, 1, 1, 8);", "api" if t != "int32_t" else "dtype")
    P(f"{op}.mask2", f"{op}(h0, h1, mask2, 2, 1, 1, 8);")
    P(f"{op}.l2", f"{op}(f0, f1, 256);", "argc")
    P(f"{op}.argc.6", f"{op}(f0, f1, mask, 2, 1, 1);", "argc")
    P(f"{op}.brp", f"{op}(f0, f1, mask, 2, brp);", "family")
P("WholeReduceMax.order", "WholeReduceMax(f0, f1, mask, 2, 2, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);")
P("WholeReduceMin.order_index", "WholeReduceMin(h0, h1, mask, 2, 2, 1, 8, ReduceOrder::ORDER_INDEX_VALUE);")
P("WholeReduceSum.order", "WholeReduceSum(f0, f1, mask, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);", "argc")
P("WholeReduceSum.template.issetmask", "WholeReduceSum<float, false>(f0, f1, MASK_PLACEHOLDER, 2, 1, 1, 8);")
for op in ["BlockReduceSum", "BlockReduceMax", "BlockReduceMin"]:
    for t in ["half", "float", "int32_t"]:
        P(f"{op}.{t}", f"{op}({T(t)}, {T(t, 1)}, 2, mask, 1, 1, 8);", "api" if t != "int32_t" else "dtype")
    P(f"{op}.mask2", f"{op}(h0, h1, 2, mask2, 1, 1, 8);")
    P(f"{op}.mask_first", f"{op}(f0, f1, mask2, 2, 1, 1, 8);", "swap")
    P(f"{op}.l2", f"{op}(f0, f1, 256);", "argc")
P("PairReduceSum.half", "PairReduceSum(h0, h1, 2, mask, 1, 1, 8);")
P("RepeatReduceSum.half", "RepeatReduceSum(h0, h1, 2, mask, 0, 1, 1, 8);")
# the devkit's ReduceType-templated spellings of the level-0 reductions (asc-devkit examples reduce_repeat & co)
for rt in ["SUM", "MAX", "MIN"]:
    P(f"ReduceRepeat.{rt}.half", f"ReduceRepeat<ReduceType::{rt}, half>(h0, h1, 128, 2, 1, 1, 8);")
    P(f"ReduceRepeat.{rt}.mask2", f"ReduceRepeat<ReduceType::{rt}, float>(f0, f1, mask2, 2, 1, 1, 8);")
    P(f"ReduceDataBlock.{rt}.float", f"ReduceDataBlock<ReduceType::{rt}, float>(f0, f1, 64, 2, 1, 1, 8);")
    P(f"ReduceDataBlock.{rt}.mask2", f"ReduceDataBlock<ReduceType::{rt}, half>(h0, h1, mask2, 2, 1, 1, 8);")
P("ReduceRepeat.MAX.order", "ReduceRepeat<ReduceType::MAX, float, float, true>(f0, f1, 64, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);")
P("ReduceRepeat.SUM.nosetmask", "ReduceRepeat<ReduceType::SUM, float, float, false>(f0, f1, MASK_PLACEHOLDER, 2, 1, 1, 8);")
P("ReduceRepeat.mixed", "ReduceRepeat<ReduceType::SUM>(f0, h1, 64, 2, 1, 1, 8);", "dtype")
P("ReduceRepeat.no_type", "ReduceRepeat(f0, f1, 64, 2, 1, 1, 8);", "template")
P("ReduceRepeat.argc.6", "ReduceRepeat<ReduceType::SUM>(f0, f1, 64, 2, 1, 1);", "argc")
P("ReducePairElem.SUM.half", "ReducePairElem<ReduceType::SUM, half>(h0, h1, 128, 2, 1, 1, 8);")
P("ReducePairElem.SUM.mask2", "ReducePairElem<ReduceType::SUM, float>(f0, f1, mask2, 2, 1, 1, 8);")
P("ReduceDataBlock.repeat_first", "ReduceDataBlock<ReduceType::SUM, float>(f0, f1, 2, 64, 1, 1, 8, 8);", "argc")
P("GetReduceRepeatSumSpr.half", "ReduceSum(h0, h1, h2, 256); half v = GetReduceRepeatSumSpr<half>(); (void)v;")
P("GetReduceRepeatSumSpr.float", "ReduceSum(f0, f1, f2, 64); float v = GetReduceRepeatSumSpr<float>(); (void)v;")
P("Conditional.type", "using CT = Conditional<true, float, half>::type; CT v = 1.0f; (void)v;")
# block-to-block flags, the compare-mask register, the scalar memory barrier and the system counter (block_sync.h)
P("IBSet.IBWait", "IBSet(gi, i0, 0, 0); IBWait(gi, i1, 0, 0);")
P("IBSet.template", "IBSet<true>(gi, i0, 1, 0); IBWait<true>(gi, i0, 1, 0);")
P("IBSet.half_gm", "IBSet(gh, i0, 0, 0);", "dtype")
P("IBWait.argc", "IBWait(gi, i0, 0);", "argc")
P("DetermineCompute", "InitDetermineComputeWorkspace(gi, i0); WaitPreBlock(gi, i0); NotifyNextBlock(gi, i0);")
P("WaitPreBlock.float", "WaitPreBlock(gf, f0);", "dtype")
P("GroupBarrier.mte3", "GroupBarrier<PipeMode::MTE3_MODE> bar(x, 2, 6); bar.Arrive(0); bar.Wait(0);")
P("GroupBarrier.scalar", "GroupBarrier<PipeMode::SCALAR_MODE> bar(x, 1, 1); bar.Arrive(0);")
P("GroupBarrier.default_ctor", "GroupBarrier<PipeMode::MTE3_MODE> bar;", "argc")
P("TaskOrder", "WaitPreTaskEnd(); SetNextTaskStart();")
P("GmByPassDCache", "int32_t v = ReadGmByPassDCache<int32_t>((__gm__ int32_t*)z); WriteGmByPassDCache<int32_t>((__gm__ int32_t*)z + 1, v);")
P("GmByPassDCache.float", "float v = ReadGmByPassDCache<float>((__gm__ float*)y); (void)v;", "dtype")
P("GmByPassDCache.deduced", "WriteGmByPassDCache((__gm__ int32_t*)z, 3);", "template")
P("DataSyncBarrier.DDR", "DataSyncBarrier<MemDsbT::DDR>();")
P("DataSyncBarrier.ALL", "DataSyncBarrier<MemDsbT::ALL>();")
P("DataSyncBarrier.no_arg", "DataSyncBarrier();", "template")
P("Compare.register", "Compare(f0, f1, CMPMODE::LT, mask, brp); GetCmpMask(b0);")
P("Compare.register.mask2", "Compare(h0, h1, CMPMODE::GE, mask2, brp); SetCmpMask(b1);")
P("Compare.register.int32", "Compare(i0, i1, CMPMODE::EQ, mask, brp);", "dtype")
P("GetCmpMask.half", "GetCmpMask(h0);")
P("Compares.l2", "Compares(b0, f0, fs, CMPMODE::GT, 256);")
P("Compares.l0", "Compares(b0, h0, hs, CMPMODE::LE, mask, 2, urp);")
P("Compares.l0.mask2", "Compares(b0, h0, hs, CMPMODE::NE, mask2, 2, urp);")
P("Compares.brp", "Compares(b0, h0, hs, CMPMODE::NE, mask, 2, brp);", "family")
P("GetSystemCycle", "int64_t t0 = GetSystemCycle(); (void)t0;")
P("DivCeil.uint32", "uint32_t q = DivCeil(100u, 32u); (void)q;")
P("AlignUp.uint32", "constexpr uint32_t q = AlignUp(100u, 32u); (void)q;")
P("ConstCeil.uint32", "uint32_t q = ConstCeil(100u, 32u); (void)q;")
P("min.mixed", "uint32_t m = min(8u, (int32_t)3); (void)m;")
P("max.mixed", "int64_t m = max((int64_t)8, 3); (void)m;")
P("RepeatReduceSum.float.no_mask", "RepeatReduceSum<float, false>(f0, f1, 1, 64, 0, 0, 1, 8);")
P("RepeatReduceSum.argc.7", "RepeatReduceSum(f0, f1, 1, 64, 0, 1, 8);", "argc")

# ---- Copy (level 0, UB -> UB on the vector pipe) ---------------------------------------------------------------
for t in ["half", "float", "int16_t", "uint32_t", "uint8_t"]:
    P(f"Copy.{t}", f"Copy({T(t)}, {T(t, 1)}, mask, 2, {{1, 1, 8, 8}});")
P("Copy.mask2", "Copy(f0, f1, mask2, 1, CopyRepeatParams(1, 1, 8, 8));")
P("Copy.l2", "Copy(f0, f1, 64);", "argc")

# ---- Gather / Gatherb / Brcb / Transpose ----------------------------------------------------------------------
for t in ["half", "float", "int32_t", "int16_t", "uint16_t", "uint32_t", "bfloat16_t", "uint8_t"]:
    P(f"Gather.l2.{t}", f"Gather({T(t)}, {T(t, 1)}, u2, 0, 64);", "api" if t in ("half", "float") else "dtype")
P("Gather.l0.mask", "Gather(f0, f1, u2, 0, mask, 2, 8);")
P("Gather.l0.mask2", "Gather(h0, h1, u2, 0, mask2, 2, 8);")
P("Gather.int32_offsets", "Gather(f0, f1, i2, 0, 64);", "dtype")
P("Gather.no_base", "Gather(f0, f1, u2, 64);", "argc")
for t in ["uint16_t", "uint32_t", "half", "float", "int16_t", "int32_t", "uint8_t"]:
    P(f"Gatherb.{t}", f"Gatherb({T(t)}, {T(t, 1)}, u2, 1, {{1, 8}});", "api" if t.startswith("uint") else "dtype")
P("Gatherb.int32_offsets", "Gatherb(w0, w1, i2, 1, {1, 8});", "dtype")
P("Gatherb.family.brcb", "Gatherb(w0, w1, u2, 1, BrcbRepeatParams(1, 8));", "family")
P("Gatherb.family.unary", "Gatherb(w0, w1, u2, 1, urp);", "family")
P("Gatherb.params", "Gatherb(u0, u1, u2, 1, GatherRepeatParams(1, 8));")
for t in ["half", "float", "int32_t", "int16_t", "uint16_t", "uint32_t", "bfloat16_t", "uint8_t"]:
    P(f"Brcb.{t}", f"Brcb({T(t)}, {T(t, 1)}, 1, {{1, 8}});", "api" if t in ("half", "float") else "dtype")
P("Brcb.params", "Brcb(f0, f1, 2, BrcbRepeatParams(1, 8));")
P("TQue.DeQue.handle", "{ LocalTensor<half> t = qin.AllocTensor<half>(); qin.EnQue(t); TBufHandle hd = qin.DeQue(); (void)hd; qin.FreeTensor(t); }")
P("assert.message", 'assert(fs > 0.0f, "value %d", 1);')
P("assert.message.double", 'assert(fs > 0.0f, "value %f", 1.0);', "dtype")
P("assert.plain", "assert(fs > 0.0f);")
P("PopStackBuffer.uint8", "{ LocalTensor<uint8_t> sb; bool got = PopStackBuffer<uint8_t, TPosition::LCM>(sb); (void)got; }")
P("PopStackBuffer.no_template", "{ LocalTensor<uint8_t> sb; PopStackBuffer(sb); }", "template")
P("TQueConfig.queue", "{ static constexpr TQueConfig qc{false, false, false, 0, 1, 0, {}}; TQue<TPosition::VECIN, 1, &qc> q2; (void)q2; }")
P("intrinsic.mask_count", "set_mask_count(); set_vector_mask(0, 100); Adds<float, false>(f0, f1, 1.0f, MASK_PLACEHOLDER, 1, urp); set_mask_norm();")
P("intrinsic.max_min_cnt", "{ ReduceMax(f0, f1, f2, 64, true); int64_t r = get_max_min_cnt(); (void)r; }")
P("intrinsic.vector_mask", "set_vector_mask(0, 0xFFull); Adds<float, false>(f0, f1, 1.0f, MASK_PLACEHOLDER, 1, urp);")
# ---- GatherMask (built-in pattern 1..7 or a pattern tensor: uint16_t bits for 2-byte, uint32_t for 4-byte) ---------
for t in ["half", "float", "int32_t", "int16_t", "uint16_t", "uint32_t", "bfloat16_t", "uint8_t"]:
    P(f"GatherMask.builtin.{t}", f"{{ uint64_t n = 0; GatherMask({T(t)}, {T(t, 1)}, 1, false, 0, {{1, 1, 8, 0}}, n); }}",
      "api" if t != "uint8_t" else "dtype")
P("GatherMask.tensor.float", "{ uint64_t n = 0; GatherMask(f0, f1, u2, true, 64, {1, 1, 8, 1}, n); }")
P("GatherMask.tensor.half", "{ uint64_t n = 0; GatherMask(h0, h1, w2, false, 0, {1, 2, 8, 1}, n); }")
P("GatherMask.params", "{ uint64_t n = 0; GatherMaskParams gp; gp.repeatTimes = 1; GatherMask(f0, f1, 7, false, 0, gp, n); }")
P("GatherMask.params.ctor", "{ uint64_t n = 0; GatherMask(f0, f1, 3, false, 0, GatherMaskParams(1, 2, 8, 0), n); }")
P("GatherMask.tensor.wrong_width", "{ uint64_t n = 0; GatherMask(f0, f1, w2, true, 64, {1, 1, 8, 1}, n); }", "dtype")
P("GatherMask.no_count", "GatherMask(f0, f1, 1, false, 0, {1, 1, 8, 0});", "argc")
P("GatherMask.int_count", "{ uint32_t n = 0; GatherMask(f0, f1, 1, false, 0, {1, 1, 8, 0}, n); }", "argc")
P("GatherMask.family.gather", "{ uint64_t n = 0; GatherMask(f0, f1, 1, false, 0, GatherRepeatParams(1, 8), n); }", "family")
# ---- TransDataTo5HD (16 block addresses in, 16 out; LocalTensor lists, address lists, address tensors) ----------------
P("TransDataTo5HD.list.half", "{ LocalTensor<half> dl[16], sl[16]; for (int k = 0; k < 16; ++k) { dl[k] = h0[16 * k]; sl[k] = h1[16 * k]; } TransDataTo5HDParams tp(false, false, 1, 0, 0); TransDataTo5HD<half>(dl, sl, tp); }")
P("TransDataTo5HD.addr.float", "{ uint64_t dl[16], sl[16]; for (int k = 0; k < 16; ++k) { dl[k] = f0[8 * k].GetPhyAddr(); sl[k] = f1[8 * k].GetPhyAddr(); } TransDataTo5HDParams tp; tp.repeatTimes = 1; TransDataTo5HD<float>(dl, sl, tp); }")
P("TransDataTo5HD.tensor.b8", "{ TransDataTo5HDParams tp(true, false, 1, 0, 0); TransDataTo5HD<uint8_t>(q0, q1, tp); }")
P("TransDataTo5HDImpl.half", "{ __ubuf__ half* dl[16]; __ubuf__ half* sl[16]; for (int k = 0; k < 16; ++k) { dl[k] = (__ubuf__ half*)h0[16 * k].GetPhyAddr(); sl[k] = (__ubuf__ half*)h1[16 * k].GetPhyAddr(); } TransDataTo5HDImpl(dl, sl, TransDataTo5HDParams(false, false, 1, 0, 0)); }")
P("TransDataTo5HD.addr.no_template", "{ uint64_t dl[16], sl[16]; TransDataTo5HDParams tp; TransDataTo5HD(dl, sl, tp); }", "template")
P("TransDataTo5HD.list.bfloat16", "{ LocalTensor<bfloat16_t> dl[16], sl[16]; TransDataTo5HDParams tp; TransDataTo5HD<bfloat16_t>(dl, sl, tp); }", "dtype")
P("TransDataTo5HD.params.family", "{ LocalTensor<half> dl[16], sl[16]; TransDataTo5HD<half>(dl, sl, urp); }", "family")
# ---- Sum / Mean (advanced API: last-axis reductions of outter rows of n elements, inner = n padded to 32 bytes) ---------
P("Sum.float", "{ SumParams sp{2, 64, 60}; Sum(f0, f1, sp); }")
P("Sum.tmp.half", "{ SumParams sp{1, 128, 100}; LocalTensor<uint8_t> tb = b2; Sum<half>(h0, h1, tb, sp); }")
P("Sum.int32", "{ SumParams sp{1, 64, 64}; Sum(i0, i1, sp); }", "dtype")
P("Mean.float", "{ MeanParams mp; mp.outter = 2; mp.inner = 64; mp.n = 60; Mean<float>(f0, f1, mp); }")
P("Mean.acc.half", "{ MeanParams mp; mp.outter = 1; mp.inner = 128; mp.n = 128; LocalTensor<uint8_t> tb = b2; Mean<half, float>(h0, h1, tb, mp); }")
P("Mean.int32", "{ MeanParams mp; mp.outter = 1; mp.inner = 64; mp.n = 64; Mean<int32_t>(i0, i1, mp); }", "dtype")
P("Mean.family.sum", "{ SumParams sp{1, 64, 64}; Mean<float>(f0, f1, sp); }", "family")
# ---- BroadCast / Broadcast (advanced API, dim 1 or 2, axis 0 or 1) ------------------------------------------------
P("BroadCast.col.float", "{ const uint32_t ds[2] = {8, 16}, ss[2] = {8, 1}; LocalTensor<uint8_t> tb = b2; BroadCast<float, 2, 1>(f0, f1, ds, ss, tb); }")
P("BroadCast.row.half", "{ const uint32_t ds[2] = {8, 16}, ss[2] = {1, 16}; BroadCast<half, 2, 0>(h0, h1, ds, ss); }")
P("BroadCast.dim1.float", "{ const uint32_t ds[1] = {64}, ss[1] = {1}; BroadCast<float, 1, 0>(f0, f1, ds, ss); }")
P("Broadcast.col.float", "{ const uint32_t ds[2] = {8, 16}, ss[2] = {8, 1}; Broadcast<float, 2, 1>(f0, f1, ds, ss); }")
P("Broadcast.tmp.half", "{ const uint32_t ds[2] = {8, 16}, ss[2] = {1, 16}; LocalTensor<uint8_t> tb = b2; Broadcast<half, 2, 0>(h0, h1, ds, ss, tb); }")
P("BroadCast.int32", "{ const uint32_t ds[2] = {8, 16}, ss[2] = {8, 1}; BroadCast<int32_t, 2, 1>(i0, i1, ds, ss); }", "dtype")
P("BroadCast.dim3", "{ const uint32_t ds[3] = {2, 8, 16}, ss[3] = {2, 8, 1}; BroadCast<float, 3, 1>(f0, f1, ds, ss); }", "template")
P("BroadCast.no_template", "{ const uint32_t ds[2] = {8, 16}, ss[2] = {8, 1}; BroadCast(f0, f1, ds, ss); }", "template")
# ---- LocalTensor operator overloads (dst = a op b on dst's whole size; mask = a cmp b from half / float on A2) -------
P("Symbol.sub_div.float", "f0 = f1 - f2; f0 = f1 / f2;")
P("Symbol.and_or.int16", "s0 = s1 & s2; s0 = s1 | s2;")
P("Symbol.cmp.ge.float", "b0 = f1 >= f2;")
P("Symbol.cmp.lt_ne.half", "b0 = h1 < h2; b0 = h1 != h2;")
P("Symbol.mixed_types", "f0 = h1 * h2;", "dtype")
P("Symbol.cmp.int32", "b0 = i1 < i2;", "dtype")
# ---- the sort family: Sort32 / MrgSort / GetMrgSortResult and the advanced Concat / Sort / Extract / GetSortLen ------
P("Sort32.float", "Sort32(f0, f1, u2, 2);")
P("Sort32.half", "Sort32<half>(h0, h1, u2, 1);")
P("Sort32.index_int32", "Sort32(f0, f1, i2, 2);", "dtype")
P("MrgSort.info.float", "{ MrgSortSrcList<float> sl(f1[0], f1[64], f1[128], f1[192]); uint16_t el[4] = {32, 32, 32, 32}; MrgSort4Info mi(el, false, 15, 1); MrgSort(f0, sl, mi); }")
P("MrgSort.fields.half", "{ MrgSortSrcList<half> sl; sl.src1 = h1[0]; sl.src2 = h1[128]; MrgSort4Info mi; mi.elementLengths[0] = 32; mi.elementLengths[1] = 32; mi.validBit = 3; mi.repeatTimes = 1; MrgSort<half>(h0, sl, mi); }")
P("MrgSort.counts.float", "{ MrgSortSrcList<float> sl(f1[0], f1[64], f1[128], f1[192]); const uint16_t el[4] = {32, 32, 32, 32}; uint32_t sn[4]; MrgSort<float, true>(f0, sl, el, sn, 15, 1); }")
P("MrgSort.no_list", "{ MrgSort4Info mi; MrgSort(f0, f1, mi); }", "family")
P("GetMrgSortResult", "{ uint16_t a, b, c, d; GetMrgSortResult(a, b, c, d); }")
P("Sort.full.float", "{ LocalTensor<float> cc; Concat(cc, f1, f2, 8); Sort<float, true>(f0, cc, u2, f2, 4); }")
P("Sort.no_template", "{ Sort(f0, f1, u2, f2, 4); }", "template")
# the SortConfig forms: declared on every NPU, a body only on Ascend 950; on A2 they compile and the emulator stops at the call
P("Sort.config.tmp.float", "{ Sort<float, false, DEFAULT_SORT_CONFIG>(f0, f1, b2, 64); }")
P("Sort.config.index.float", "{ Sort<float, uint32_t, false, DEFAULT_SORT_CONFIG>(f0, u0, f1, u1, 64); }")
P("Sort.config.index_tmp.half", "{ Sort<half, uint32_t>(h0, u0, h1, u1, b2, 64); }")
P("Sort.config.no_tmp.float", "{ Sort<float>(f0, f1, 64); }")
# the region-proposal APIs: declared on every NPU, run on Ascend 310P only (the A2 headers report them unsupported when
# they run); on A2 they compile and the emulator stops at the call (NPUKernelBench TopKV3). ProposalConcat.half and
# RpSort16.half are further down, with the other "known" probes
P("ProposalExtract.float", "ProposalExtract(f0, f1, 2, 4);")
P("MrgSort4.half", "{ MrgSortSrcList<half> sl(h1[0], h1[64], h1[128], h1[192]); const uint16_t el[4] = {16, 16, 16, 16}; "
  "MrgSort4Info mi(el, false, 15, 1); MrgSort4(h0, sl, mi); }")
# ---- the reserved-count register and the scalar bit counts ------------------------------------------------------------
P("AscendCUtils.GetRsvdCnt", "{ int64_t n = AscendCUtils::GetRsvdCnt(); (void)n; }")
P("ScalarBits.count", "{ int64_t n = GetBitCount<1>(0xF0ull) + ScalarGetCountOfValue<0>(0xF0ull); (void)n; }")
P("ScalarBits.leading_zero", "{ int64_t n = CountLeadingZero(1ull) + ScalarCountLeadingZero(2ull) + CountBitsCntSameAsSignBit(5); (void)n; }")
P("ScalarBits.sff", "{ int64_t n = GetSFFValue<1>(8ull) + ScalarGetSFFValue<0>(7ull); (void)n; }")
# the scalar abs of kernel code on a float and a 64-bit integer (the devkit's Std::abs<float> returns ::abs(value))
P("abs.float", "{ float a = abs(fs - 2.0f); (void)a; }")
P("abs.int64", "{ int64_t a = abs(ls - 5000000000LL); (void)a; }")
P("Extract.float", "Extract(f0, u2, f1, 4);")
P("Extract.value_index_swapped", "Extract(u2, f0, f1, 4);", "swap")
P("DataCacheCleanAndInvalid.gm_two_args", "DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE>(gf);")
P("DataCacheCleanAndInvalid.local_two_args", "DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE>(f0);", "template")
P("GetSortLen.half", "{ uint32_t n = GetSortLen<half>(64) + GetSortOffset<float>(8); (void)n; }")
# ---- SelectWithBytesMask / Select with SelectWithBytesMaskShapeInfo, the advanced Taylor Exp ------------------------
P("SelectWithBytesMask.tensor_scalar", "{ SelectWithBytesMaskShapeInfo si; si.firstAxis = 1; si.srcLastAxis = 64; si.maskLastAxis = 64; SelectWithBytesMask(f0, f1, fs, b2, b1, si); }")
P("SelectWithBytesMask.scalar_tensor", "{ SelectWithBytesMaskShapeInfo si; si.firstAxis = 2; si.srcLastAxis = 32; si.maskLastAxis = 64; SelectWithBytesMask<half, uint8_t, false>(h0, hs, h1, b2, b1, si); }")
P("Select.bytes_mask.float", "{ SelectWithBytesMaskShapeInfo si; si.firstAxis = 1; si.srcLastAxis = 64; si.maskLastAxis = 64; Select(f0, f1, fs, b2, b1, si); }")
P("SelectWithBytesMask.no_tmp", "{ SelectWithBytesMaskShapeInfo si; SelectWithBytesMask(f0, f1, fs, b2, si); }", "argc")
P("SelectWithBytesMask.two_tensors", "{ SelectWithBytesMaskShapeInfo si; SelectWithBytesMask(f0, f1, f2, b2, b1, si); }", "family")
P("Exp.taylor.float", "Exp<float, 15, false>(f0, f1, 64);")
P("Exp.taylor.half.tmp", "Exp<half, 4>(h0, h1, b2, 64);")
# ---- static Tensor programming: LocalMemAllocator<Hardware> and LocalTensor(TPosition, addr, tileSize) ---------------
P("LocalMemAllocator.Alloc.const", "{ LocalMemAllocator<Hardware::UB> ua; LocalTensor<float> st = ua.Alloc<float, 256>(); }")
P("LocalMemAllocator.Alloc.pos_const", "{ LocalMemAllocator<Hardware::UB> ua; LocalTensor<half> st = ua.Alloc<TPosition::VECIN, half, 128>(); }")
P("LocalMemAllocator.Alloc.count", "{ LocalMemAllocator<> ua; LocalTensor<int32_t> st = ua.Alloc<int32_t>(64); }")
P("LocalMemAllocator.Alloc.pos_count", "{ LocalMemAllocator<Hardware::UB> ua; LocalTensor<float> st = ua.Alloc<TPosition::VECOUT, float>(64); }")
P("LocalMemAllocator.GetCurAddr", "{ LocalMemAllocator<Hardware::UB> ua; uint32_t at = ua.GetCurAddr(); (void)at; }")
P("LocalMemAllocator.Alloc.other_memory", "{ LocalMemAllocator<Hardware::UB> ua; LocalTensor<float> st = ua.Alloc<TPosition::A1, float, 64>(); }", "known")
P("LocalMemAllocator.Alloc.no_type", "{ LocalMemAllocator<Hardware::UB> ua; LocalTensor<float> st = ua.Alloc(64); }", "template")
P("LocalMemAllocator.GM", "{ LocalMemAllocator<Hardware::GM> ua; (void)ua; }", "known")
P("LocalMemAllocator.Alloc.misaligned", "{ LocalMemAllocator<Hardware::UB> ua; LocalTensor<half> st = ua.Alloc<half>(40); }")
C("Cube.LocalMemAllocator.L1", "{ LocalMemAllocator<Hardware::L1> l1a; LocalTensor<half> st = l1a.Alloc<TPosition::A1, half>(256); }")
C("Cube.LocalMemAllocator.L0C", "{ LocalMemAllocator<Hardware::L0C> l0c; LocalTensor<float> st = l0c.Alloc<float, 256>(); }")
P("LocalTensor.ctor.pos_addr_size", "{ LocalTensor<float> st(TPosition::VECCALC, 0, 64); }")
P("LocalTensor.ctor.u64_addr", "{ uint64_t at = 1024; uint16_t n = 32; LocalTensor<half> st(TPosition::VECIN, at, n); }")
P("LocalTensor.ctor.no_size", "{ LocalTensor<float> st(TPosition::VECCALC, 0); }", "argc")
P("LocalTensor.ctor.past_ub", "{ LocalTensor<float> st(TPosition::VECCALC, 196608 - 128, 64); }")
C("Cube.LocalTensor.ctor.A2", "{ LocalTensor<half> st(TPosition::A2, 0, 512); }")
# ---- AscendC::Std type traits: the standard's, but half is floating point and is_integral lists the integer types -----
P("Std.is_same_v", "static_assert(Std::is_same_v<half, half> && !Std::is_same_v<half, float>);")
P("Std.is_floating_point.half", "static_assert(Std::is_floating_point<half>::value && !Std::is_floating_point<int32_t>::value);")
P("Std.is_floating_point.bf16", "static_assert(Std::is_floating_point<bfloat16_t>::value);", "known")
P("Std.is_integral.char16", "static_assert(!Std::is_integral<char16_t>::value && Std::is_integral<const int8_t>::value);")
P("Std.conditional_t", "{ Std::conditional_t<sizeof(half) == 2, float, half> v = 1.0f; Std::remove_cv_t<const float> w = v; (void)w; }")
P("Std.forward", "{ float v = 1.0f; float w = Std::forward<float&>(v); (void)w; }")
P("Std.enable_if", "{ typename Std::enable_if<Std::is_pointer<float*>::value, int>::type n = 0; (void)n; }")
# ---- the devkit's implementation functions on raw pointers, as kernels call them -------------------------------------
P("DuplicateImpl.count", "DuplicateImpl<int16_t>((__ubuf__ int16_t*)s0.GetPhyAddr(), (int16_t)0, 64);")
P("DuplicateImpl.mask", "DuplicateImpl<float>((__ubuf__ float*)f0.GetPhyAddr(), 1.0f, (uint64_t)64, 1, 1, 8);")
P("DuplicateIntrinsicsImpl.float", "DuplicateIntrinsicsImpl((__ubuf__ float*)f0.GetPhyAddr(), 1.0f, 1, 1, 8);")
P("BlockReduceMaxIntrinsicsImpl.float",
  "BlockReduceMaxIntrinsicsImpl((__ubuf__ float*)f0.GetPhyAddr(), (__ubuf__ float*)f1.GetPhyAddr(), 1, 1, 1, 8);")
P("BlockReduceSumIntrinsicsImpl.half",
  "BlockReduceSumIntrinsicsImpl((__ubuf__ half*)h0.GetPhyAddr(), (__ubuf__ half*)h1.GetPhyAddr(), 1, 1, 1, 8);")
P("BlockReduceMinIntrinsicsImpl.float",
  "BlockReduceMinIntrinsicsImpl((__ubuf__ float*)f0.GetPhyAddr(), (__ubuf__ float*)f1.GetPhyAddr(), 2, 1, 1, 8);")
P("DataCopyUB2GMImpl.half", "DataCopyUB2GMImpl((__gm__ half*)gh.GetPhyAddr(0), (__ubuf__ half*)h0.GetPhyAddr(), {1, 2, 0, 0});")
P("DataCopyGM2UBImpl.half", "DataCopyGM2UBImpl((__ubuf__ half*)h0.GetPhyAddr(), (__gm__ half*)gh.GetPhyAddr(0), dcp);")
P("DataCopyPadGm2UBImpl.ext", "DataCopyPadGm2UBImpl((__ubuf__ float*)f0.GetPhyAddr(), (__gm__ float*)gf.GetPhyAddr(0), dce, ppf);")
P("DataCopyUB2UBImpl.float", "DataCopyUB2UBImpl((__ubuf__ float*)f0.GetPhyAddr(), (__ubuf__ float*)f1.GetPhyAddr(), dcp);")
P("DataCopyPadUB2GMImpl.ext", "DataCopyPadUB2GMImpl((__gm__ float*)gf.GetPhyAddr(0), (__ubuf__ float*)f0.GetPhyAddr(), dce);")
P("AscendCUtils.GetBitSize", "{ int32_t bits = AscendCUtils::GetBitSize(sizeof(half)); (void)bits; }")
P("DataCopyUB2GMImpl.family.ext", "DataCopyUB2GMImpl((__gm__ half*)gh.GetPhyAddr(0), (__ubuf__ half*)h0.GetPhyAddr(), dce);", "family")
# ---- helpers: AscendCUtils mask modes, ASSERT_MSG, kernel types, the devkit's block constants, bit patterns ---------
P("AscendCUtils.mask_modes", "AscendCUtils::SetMaskCount<float>(); AscendCUtils::SetMask<float>(0, 100); AscendCUtils::SetMaskNorm<float>(); AscendCUtils::ResetMask();")
P("ASSERT_MSG", 'ASSERT_MSG(fs > 0.0f, "value %d", 1);')
P("ASCENDC_ASSERT", 'ASCENDC_ASSERT(fs > 0.0f, { KERNEL_LOG(KERNEL_ERROR, "value %f", fs); });')
P("KERNEL_LOG", 'KERNEL_LOG(KERNEL_INFO, "block %d", 1); ASCENDC_REPORT_NOT_SUPPORT(fs > 0.0f, "x"); ASCENDC_CHECK_VALUE_RANGE(1, 0, 2, "n", "x");')
P("KernelType.mix_vector_core", "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_VECTOR_CORE);")
P("DataNumPerRepeat", "{ uint32_t n = B16_DATA_NUM_PER_REPEAT + B32_DATA_NUM_PER_REPEAT + HALF_REPEAT_SIZE + FLOAT_REPEAT_SIZE + B64_BYTE_SIZE + B32_BYTE_SIZE + B16_BYTE_SIZE + B8_BYTE_SIZE; (void)n; }")
P("DataNumPerRepeat.b64", "{ uint32_t n = B64_DATA_NUM_PER_REPEAT; (void)n; }", "name")
P("DataNumPerBlock", "{ uint32_t n = B32_DATA_NUM_PER_BLOCK + B16_DATA_NUM_PER_BLOCK + FULL_MASK; (void)n; }")
P("GetScalarBitcodeValue.float", "{ uint32_t bits = GetScalarBitcodeValue(fs); (void)bits; }")

P("Brcb.family.unary", "Brcb(f0, f1, 2, urp);", "family")
P("Brcb.family.gather", "Brcb(f0, f1, 2, GatherRepeatParams(1, 8));", "family")
P("Brcb.argc.l2", "Brcb(f0, f1, 256);", "argc")
for t in ["half", "float", "int16_t", "uint16_t", "int32_t", "uint8_t", "bfloat16_t"]:
    P(f"Transpose.{t}", f"Transpose({T(t)}, {T(t, 1)});", "api" if t in ("half", "int16_t", "uint16_t") else "dtype")
P("Transpose.argc.count", "Transpose(h0, h1, 256);", "argc")
P("Transpose.mixed", "Transpose(h0, s1);", "dtype")

# ---- advanced math (activation, rounding) ---------------------------------------------------------------------
ADV = ["Tanh", "Sigmoid", "Erf", "Sin", "Cos", "Trunc", "Floor", "Ceil", "Round"]
for op in ADV:
    for t in ["half", "float", "int32_t"]:
        P(f"{op}.{t}", f"{op}({T(t)}, {T(t, 1)}, 256);", "api" if t != "int32_t" else "dtype")
    P(f"{op}.tmp", f"{op}(f0, f1, b0, 256);")
    P(f"{op}.tmp.nocount", f"{op}(f0, f1, b0);")
    P(f"{op}.nocount", f"{op}(f0, f1);")
    P(f"{op}.tmp.float", f"{op}(f0, f1, f2, 256);", "dtype")
    P(f"{op}.template.reuse", f"{op}<float, true>(f0, f1, 256);")
P("Exp.adv.taylor", "Exp<float, 2, false>(f0, f1, b0, 256);")
P("Exp.adv.taylor.nocount", "Exp<half, 0, true>(h0, h1, 256);")

# ---- data movement ----------------------------------------------------------------------------------------------
for t, g in [("half", "gh"), ("float", "gf"), ("int32_t", "gi"), ("uint8_t", "gb")]:
    P(f"DataCopy.gm2ub.{t}", f"DataCopy({T(t)}, {g}, 256);")
    P(f"DataCopy.ub2gm.{t}", f"DataCopy({g}, {T(t)}, 256);")
    P(f"DataCopy.gm2ub.params.{t}", f"DataCopy({T(t)}, {g}, dcp);")
P("DataCopy.ub2ub", "DataCopy(h0, h1, 256);")
P("DataCopy.ub2ub.params", "DataCopy(f0, f1, dcp);")
P("DataCopy.ub2gm.params", "DataCopy(gh, h0, dcp);")
P("DataCopy.params.brace", "DataCopy(h0, gh, {1, 8, 0, 0});")
P("DataCopy.params.ctor", "DataCopy(h0, gh, DataCopyParams(2, 4, 0, 0));")
P("DataCopy.gm_offset", "DataCopy(h0, gh[128], 256);")
P("DataCopy.swapped", "DataCopy(gh, h0, h1, 256);", "argc")
P("DataCopy.argc.2", "DataCopy(h0, gh);", "argc")
P("DataCopy.mixed", "DataCopy(f0, gh, 256);", "dtype")
P("DataCopy.gm2gm", "DataCopy(gh, gh, 256);", "swap")
P("DataCopy.family.ext", "DataCopy(h0, gh, dce);", "family")
P("DataCopy.family.ext.brace", "DataCopy(h0, gh, DataCopyExtParams{1, 64, 0, 0, 0});", "family")
P("DataCopy.family.pad", "DataCopy(h0, gh, dcp, pph);", "family")
P("DataCopy.count_param_struct", "DataCopy(h0, gh, DataCopyParams{1, 8});")
P("DataCopyParams.argc.5", "DataCopyParams p(1, 8, 0, 0, 0);", "argc")
P("DataCopyParams.argc.3", "DataCopyParams p(1, 8, 0);", "argc")
P("DataCopyParams.fields", "DataCopyParams p; p.blockCount = 2; p.blockLen = 4; p.srcStride = 0; p.dstStride = 0;")
P("DataCopyParams.gap_alias", "DataCopyParams p; p.srcGap = 1; p.dstGap = 1;")
P("DataCopyParams.field_typo", "DataCopyParams p; p.blockNum = 2;", "name")
P("DataCopyExtParams.argc.5", "DataCopyExtParams p(1, 64, 0, 0, 0);")
P("DataCopyExtParams.argc.4", "DataCopyExtParams p(1, 64, 0, 0);", "known")
P("DataCopyExtParams.brace.4", "DataCopyExtParams p{1, 64, 0, 0};", "known")
P("DataCopyExtParams.brace.5", "DataCopyExtParams p{1, 64, 0, 0, 0};")
P("DataCopyExtParams.default", "DataCopyExtParams p; p.blockLen = 64;")
P("SetSyncBaseAddr", "SetSyncBaseAddr(0x1000);")
P("SetSyncBaseAddr.argc", "SetSyncBaseAddr();", "argc")
P("set_ffts_base_addr", "set_ffts_base_addr(0x1000);")
P("get_ffts_base_addr", "int64_t a = get_ffts_base_addr(); set_ffts_base_addr(a);")
P("HALF_DEFAULT_REPEAT_STRIDE", "UnaryRepeatParams up(1, 1, DEFAULT_REPEAT_STRIDE, HALF_DEFAULT_REPEAT_STRIDE); (void)up;")
# the constants of Tanh's formula, visible in namespace AscendC (cann-ops bidirection_lstm)
P("FP32_MAX_V2", "float c = (FP32_MAX_V2 - FP32_MIN_V2) * DOUBLE_X; (void)c;")
# InitDump: the dump buffer's set-up (a no-op on A2); the two-argument form takes the length, not an address
P("RESERVED_WORKSPACE", "static_assert(RESERVED_WORKSPACE == 16 * 1024 * 1024, \"A2\");")
P("ReduceLastND", "ReduceLastND r = {4, 30, 4, 32, 4, 1}; (void)r.originalSrcK;")
P("ReduceLastND.field", "ReduceLastND r; r.srcN = 4;", "name")
P("InitDump", "InitDump(false, 1024); InitDump(true, x, 1024);")
P("InitDump.swapped", "InitDump(x, 1024, false);", "swap")
# the A2 TopK implementation's constants, file-scope names every kernel sees (ops-nn top_k_top_p_sample's SIXTEEN); the
# numbers the implementation does not use are no such names
P("TopK.constants", "uint32_t c = SIXTEEN * TWO + THIRTY_TWO + FORTYEIGHT + MIN_SORT32_SIZE + TOPK_NORMAL_INNER_MAX_LEN; "
  "(void)c;")
P("TopK.constants.absent", "uint32_t c = FIFTEEN; (void)c;", "name")
# DataCopy with DataCopyEnhancedParams: the plain copy on A2's paths; the enhanced fields act on 310P's L0C <-> UB only
P("DataCopy.enhanced.gm2ub", "DataCopy(h0, gh, dcp, DataCopyEnhancedParams());")
P("DataCopy.enhanced.ub2gm", "DataCopy(gh, h0, dcp, DataCopyEnhancedParams());")
P("DataCopy.enhanced.ub2ub", "DataCopy(f0, f1, dcp, DataCopyEnhancedParams());")
P("DataCopyEnhancedParams.ctor", "DataCopyEnhancedParams e(BlockMode::BLOCK_MODE_MATRIX, DeqScale::DEQ_NONE, 0, 0, false, "
  "pad_t::PAD_NONE, 0); (void)e;")
P("DataCopyEnhancedParams.fields", "DataCopyEnhancedParams e; e.blockMode = BlockMode::BLOCK_MODE_VECTOR; "
  "e.deqScale = DeqScale::VDEQ16; e.deqTensorAddr = 0; e.padMode = PAD_NONE; (void)e;")
P("DataCopyEnhancedParams.argc.6", "DataCopyEnhancedParams e(BlockMode::BLOCK_MODE_MATRIX, DeqScale::DEQ_NONE, 0, 0, false, "
  "pad_t::PAD_NONE); (void)e;", "argc")
P("DataCopy.enhanced.int32_to_half", "DataCopy(h0, i1, dcp, DataCopyEnhancedParams());")
P("DataCopy.enhanced.int32_to_float", "DataCopy(f0, i1, dcp, DataCopyEnhancedParams());", "dtype")
P("DataCopyExtParams.inline.4", "DataCopyPad(h0, gh, {1, 64, 0, 0}, pph);", "known")
P("DataCopyExtParams.argc.3", "DataCopyExtParams p(1, 64, 0);", "argc")
P("DataCopyPad.gm2ub", "DataCopyPad(h0, gh, dce, pph);")
P("DataCopyPad.ub2gm", "DataCopyPad(gh, h0, dce);")
P("DataCopyPad.gm2ub.float", "DataCopyPad(f0, gf, dce, ppf);")
P("DataCopyPad.gm2ub.inline", "DataCopyPad(f0, gf, {1, 64, 0, 0, 0}, {false, 0, 0, 0});")
P("DataCopyPad.gm2ub.padtype", "DataCopyPad(f0, gf, dce, pph);", "dtype")
P("DataCopyPad.gm2ub.nopad", "DataCopyPad(h0, gh, dce);", "argc")
P("DataCopyPad.ub2gm.pad", "DataCopyPad(gh, h0, dce, pph);", "argc")
P("DataCopyPad.legacy.gm2ub", "DataCopyPad(h0, gh, dcp, ppl);")
P("DataCopyPad.legacy.ub2gm", "DataCopyPad(gh, h0, dcp);")
P("DataCopyPad.mixed.ext_legacy", "DataCopyPad(h0, gh, dce, ppl);", "family")
P("DataCopyPad.mixed.legacy_ext", "DataCopyPad(h0, gh, dcp, pph);", "family")
P("DataCopyPad.count", "DataCopyPad(h0, gh, 100);", "family")
P("DataCopyPad.ub2ub", "DataCopyPad(h0, h1, dce);", "swap")
P("DataCopyPadExtParams.argc.3", "DataCopyPadExtParams<half> p(false, 0, 0);", "argc")
P("DataCopyPadExtParams.notemplate", "DataCopyPadExtParams p(false, 0, 0, 0);", "template")
P("DataCopyPadExtParams.fields", "DataCopyPadExtParams<float> p; p.isPad = true; p.leftPadding = 1; p.rightPadding = 1; p.paddingValue = 0;")
P("DataCopyPadParams.fields", "DataCopyPadParams p; p.isPad = true; p.paddingValue = 0;")

# ---- TPipe / TQue / TBuf ----------------------------------------------------------------------------------------
P("TPipe.InitBuffer.que", "TQue<TPosition::VECIN, 2> que; pipe.InitBuffer(que, 2, 1024);")
P("TPipe.InitBuffer.que.argc", "TQue<TPosition::VECIN, 1> que; pipe.InitBuffer(que, 1024);", "argc")
P("TPipe.InitBuffer.buf.argc", "TBuf<TPosition::VECCALC> t2; pipe.InitBuffer(t2, 1, 1024);", "argc")
P("TPipe.InitBuffer.buf", "TBuf<TPosition::VECCALC> t2; pipe.InitBuffer(t2, 1024);")
P("TPipe.InitBuffer.bind", "TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> bind; pipe.InitBuffer(bind, 2, 1024);")
P("TPipe.Reset", "pipe.Reset();")
P("TPipe.Destroy", "pipe.Destroy();")
P("TPipe.AllocEventID", "TEventID id = pipe.AllocEventID<HardEvent::V_MTE3>(); pipe.ReleaseEventID<HardEvent::V_MTE3>(id);")
P("TPipe.FetchEventID", "TEventID id = pipe.FetchEventID<HardEvent::MTE2_V>();")
P("TPipe.FetchEventID.arg", "TEventID id = pipe.FetchEventID(HardEvent::MTE2_V);")
P("TPipe.AllocEventID.notemplate", "TEventID id = pipe.AllocEventID();", "template")
P("TPipe.ReleaseEventID.notemplate", "pipe.ReleaseEventID(0);", "template")
P("TPipe.GetTPipePtr", "TPipe* p = GetTPipePtr();")
P("TPipe.copy", "TPipe p2 = pipe;", "swap")
P("TPipe.assign", "{ TPipe p2; p2 = pipe; TBuf<TPosition::VECCALC> t2; p2.InitBuffer(t2, 1024); }")
P("TPipe.InitBufPool", "pipe.InitBufPool();", "name")
P("TBufPool.reuse", "{ TBufPool<TPosition::VECCALC> p1, p2; pipe.InitBufPool(p1, 4096); pipe.InitBufPool(p2, 4096, p1); TQue<TPosition::VECIN, 1> q; p1.InitBuffer(q, 1, 1024); p1.Reset(); }")
P("TBufPool.nested.other_size", "{ TBufPool<TPosition::VECCALC, 8> o; TBufPool<TPosition::VECCALC> a, b; TBuf<TPosition::VECCALC> t; pipe.InitBufPool(o, 8192); o.InitBufPool(a, 2048); o.InitBuffer(t, 1024); o.InitBufPool(b, 2048, a); o.Reset(); }")
P("TBufPool.extern", "{ struct MyP { EXTERN_IMPL_BUFPOOL(MyP, TPosition::VECCALC, 4); }; MyP p; pipe.InitBufPool(p, 1024); TQue<TPosition::VECIN, 1> q; uint8_t n = p.GetCurBufSize(); auto h = p.GetBufHandle(n); q.InitStartBufHandle(h, 1, 512); q.InitBufHandle(&p, 0, h, p.GetCurAddr(), 512); p.SetCurAddr(p.GetCurAddr() + 512); p.SetCurBufSize(n + 1); p.Reset(); }")
P("TBufPool.nested.same", "{ TBufPool<TPosition::VECCALC> o, a, b; TBuf<TPosition::VECCALC> t; pipe.InitBufPool(o, 8192); o.InitBufPool(a, 2048); o.InitBuffer(t, 1024); o.InitBufPool(b, 2048, a); a.Reset(); o.Reset(); }")
P("TBufPool.no_pos", "{ TBufPool p; }", "template")
P("TQue.depth0", "TQue<TPosition::VECIN, 0> que;")
P("TQue.no_depth", "TQue<TPosition::VECIN> que;", "template")
P("TQue.swapped", "TQue<1, TPosition::VECIN> que;", "template")
P("TQue.VECCALC", "TQue<TPosition::VECCALC, 1> que;")
P("TQue.unscoped", "TQue<VECIN, 1> que;", "name")
P("TQue.QuePosition", "TQue<QuePosition::VECIN, 1> que;")
P("TQue.AllocTensor", "LocalTensor<half> t = qin.AllocTensor<half>();")
P("TQue.AllocTensor.ref", "LocalTensor<half> t; qin.AllocTensor<half>(t);")
P("TQue.AllocTensor.deduced", "LocalTensor<half> t; qin.AllocTensor(t);")
P("TQue.AllocTensor.notype", "auto t = qin.AllocTensor();", "template")
P("TQue.AllocTensor.size", "LocalTensor<half> t = qin.AllocTensor<half>(256);", "argc")
P("TQue.EnQue", "qin.EnQue(h0);")
P("TQue.EnQue.template", "qin.EnQue<half>(h0);")
P("TQue.EnQue.bool", "bool ok = qin.EnQue(h0);")
P("TQue.DeQue", "LocalTensor<half> t = qin.DeQue<half>();")
P("TQue.DeQue.ref", "LocalTensor<half> t; qin.DeQue<half>(t);")
P("TQue.DeQue.notype", "LocalTensor<half> t = qin.DeQue();", "template")
P("TQue.FreeTensor", "qin.FreeTensor(h0);")
P("TQue.FreeTensor.rvalue", "qin.FreeTensor(qin.DeQue<half>());", "known")
P("TQue.FreeTensor.const", "const LocalTensor<half> t = h0; qin.FreeTensor(t);", "known")
P("TQue.HasTensorInQue", "bool b = qin.HasTensorInQue();")
P("TQue.GetTensorCountInQue", "int32_t n = qin.GetTensorCountInQue();")
P("TQue.VacantInQue", "bool b = qin.VacantInQue();")
P("TQue.HasIdleBuffer", "bool b = qin.HasIdleBuffer();")
P("TQue.FreeAllEvent", "qin.FreeAllEvent();")
P("TQue.Get", "LocalTensor<half> t = qin.Get<half>();", "name")
P("TQue.Size", "int n = qin.GetSize();", "name")
P("TQueBind.EnQue.pos", "qbind.EnQue<TPosition::GM, TPosition::VECIN, half>(h0);")
P("TQueBind.DeQue.pos", "LocalTensor<half> t = qbind.DeQue<TPosition::GM, TPosition::VECIN, half>();")
P("TQueBind.AllocTensor", "LocalTensor<float> t = qbind.AllocTensor<float>();")
P("TBuf.Get", "LocalTensor<float> t = buf.Get<float>();")
P("TBuf.Get.len", "LocalTensor<float> t = buf.Get<float>(128);")
P("TBuf.GetWithOffset", "LocalTensor<float> t = buf.GetWithOffset<float>(128, 512);")
P("TBuf.GetWithOffset.argc", "LocalTensor<float> t = buf.GetWithOffset<float>(128);", "argc")
P("TBuf.Get.notype", "auto t = buf.Get();", "template")
P("TBuf.AllocTensor", "LocalTensor<float> t = buf.AllocTensor<float>();", "known")
P("TBuf.FreeTensor", "buf.FreeTensor(f0);", "known")
P("TBuf.EnQue", "buf.EnQue(f0);")
P("TBuf.DeQue", "LocalTensor<float> t = buf.DeQue<float>();")
P("TBuf.default_pos", "TBuf<> t2; pipe.InitBuffer(t2, 1024);")
P("TBuf.VECIN", "TBuf<TPosition::VECIN> t2; pipe.InitBuffer(t2, 1024);")
P("TBuf.depth", "TBuf<TPosition::VECCALC, 1> t2;", "template")

# ---- LocalTensor / GlobalTensor -------------------------------------------------------------------------------
P("LocalTensor.GetValue", "half v = h0.GetValue(3);")
P("LocalTensor.SetValue", "h0.SetValue(3, hs);")
P("LocalTensor.SetValue.float", "h0.SetValue(3, 1.5f);")
P("LocalTensor.call", "f0(3) = 2.0f;")
P("LocalTensor.index", "LocalTensor<float> t = f0[64];")
P("LocalTensor.GetSize", "uint32_t n = f0.GetSize();")
P("LocalTensor.SetSize", "f0.SetSize(64);")
P("LocalTensor.GetLength", "uint32_t n = f0.GetLength();")
P("LocalTensor.ReinterpretCast", "LocalTensor<int32_t> t = f0.ReinterpretCast<int32_t>();")
P("LocalTensor.ReinterpretCast.notype", "auto t = f0.ReinterpretCast();", "template")
P("LocalTensor.GetPosition.auto", "auto p = f0.GetPosition();")
P("LocalTensor.GetPosition.int32", "int32_t p = f0.GetPosition();", "known")
P("LocalTensor.GetPosition.TPosition", "TPosition p = f0.GetPosition();", "known")
P("LocalTensor.GetPosition.compare", "bool b = f0.GetPosition() == static_cast<int32_t>(TPosition::VECCALC);", "known")
P("LocalTensor.GetPhyAddr.cast", "__ubuf__ float* p = (__ubuf__ float*)f0.GetPhyAddr();")
P("LocalTensor.GetPhyAddr.ptr", "__ubuf__ float* p = f0.GetPhyAddr();", "known")
P("LocalTensor.GetPhyAddr.u64", "uint64_t a = f0.GetPhyAddr();", "known")
P("LocalTensor.GetPhyAddr.offset", "uint64_t a = f0.GetPhyAddr(16);", "known")
P("LocalTensor.GetValue.argc", "half v = h0.GetValue();", "argc")
P("LocalTensor.SetValue.argc", "h0.SetValue(hs);", "argc")
P("LocalTensor.Size", "uint32_t n = f0.Size();", "name")
P("LocalTensor.GetShape", "auto s = f0.GetShape();", "name")
P("LocalTensor.default", "LocalTensor<float> t;")
P("LocalTensor.copy", "LocalTensor<float> t = f0; t = f1;")
P("LocalTensor.convert", "LocalTensor<half> t = f0;", "dtype")
P("GlobalTensor.SetGlobalBuffer.1", "GlobalTensor<float> g; g.SetGlobalBuffer((__gm__ float*)y);")
P("GlobalTensor.SetGlobalBuffer.uint8", "GlobalTensor<float> g; g.SetGlobalBuffer(y, 256);", "swap")
P("GlobalTensor.SetGlobalBuffer.argc", "GlobalTensor<float> g; g.SetGlobalBuffer();", "argc")
P("GlobalTensor.GetValue", "float v = gf.GetValue(7);")
P("GlobalTensor.SetValue", "gf.SetValue(7, 1.0f);")
P("GlobalTensor.index", "GlobalTensor<float> g = gf[64];")
P("GlobalTensor.call", "float v = gf(3);")
P("GlobalTensor.GetSize", "uint64_t n = gf.GetSize();")
P("GlobalTensor.GetPhyAddr.const", "const __gm__ float* p = gf.GetPhyAddr();")
P("GlobalTensor.GetPhyAddr.nonconst", "__gm__ float* p = gf.GetPhyAddr();", "known")
P("GlobalTensor.GetPhyAddr.offset", "__gm__ float* p = gf.GetPhyAddr(16);")
P("GlobalTensor.GetPhyAddr.auto_write", "auto p = gf.GetPhyAddr(); p[0] = 1.0f;", "known")
P("GlobalTensor.SetL2CacheHint", "gf.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);", "known")
P("GlobalTensor.SetL2CacheHint.rw", "gf.SetL2CacheHint<CacheRwMode::READ>(CacheMode::CACHE_MODE_NORMAL);", "known")
P("GlobalTensor.SetL2CacheHint.int", "gf.SetL2CacheHint(0);", "known")
P("GlobalTensor.SetL2CacheHint.argc", "gf.SetL2CacheHint();", "known")
P("CacheMode.value", "CacheMode m = CacheMode::CACHE_MODE_NORMAL;", "known")
P("CacheMode.last", "CacheMode m = CacheMode::CACHE_MODE_LAST;", "known")
P("GlobalTensor.ReinterpretCast", "GlobalTensor<int32_t> g = gf.ReinterpretCast<int32_t>();", "name")
P("GlobalTensor.SetShapeInfo", "ShapeInfo si; gf.SetShapeInfo(si);")

# ---- synchronisation, cores, atomics, masks ------------------------------------------------------------------------
for ev in ["MTE2_V", "V_MTE3", "MTE3_MTE2", "S_V", "V_S", "MTE2_S", "S_MTE3", "MTE3_V", "V_MTE2"]:
    P(f"SetFlag.{ev}", f"SetFlag<HardEvent::{ev}>(EVENT_ID0); WaitFlag<HardEvent::{ev}>(EVENT_ID0);")
P("SetFlag.int", "SetFlag<HardEvent::MTE2_V>(0);")
P("SetFlag.tevent", "TEventID id = 1; SetFlag<HardEvent::MTE2_V>(id);")
P("SetFlag.pipe", "SetFlag<PIPE_V>(EVENT_ID0);", "template")
P("SetFlag.noid", "SetFlag<HardEvent::MTE2_V>();", "argc")
P("SetFlag.runtime_event", "SetFlag(HardEvent::MTE2_V, EVENT_ID0);", "template")
P("SetFlag.unscoped", "SetFlag<MTE2_V>(EVENT_ID0);", "name")
P("WaitFlag.pipe", "WaitFlag<PIPE_MTE2>(EVENT_ID0);", "template")
P("PipeBarrier.V", "PipeBarrier<PIPE_V>();")
P("PipeBarrier.ALL", "PipeBarrier<PIPE_ALL>();")
P("PipeBarrier.MTE3", "PipeBarrier<PIPE_MTE3>();")
P("PipeBarrier.event", "PipeBarrier<HardEvent::V_S>();", "template")
P("PipeBarrier.arg", "PipeBarrier(PIPE_V);", "template")
P("pipe_barrier", "pipe_barrier(PIPE_ALL);")
P("set_flag", "set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0); wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);")
P("set_flag.integer", "uint16_t e = 1; set_flag(PIPE_MTE2, PIPE_V, e); wait_flag(PIPE_MTE2, PIPE_V, e);")
P("TQueSync", "TQueSync<PIPE_V, PIPE_MTE3> sync; sync.SetFlag(0); sync.WaitFlag(0);")
P("TQueSync.event", "TQueSync<HardEvent::V_MTE3> sync;", "template")
# the deprecated LocalTensor::InitBuffer(offset, size), placed by a write of address_.logicPos, and address_ read whole
# (ops-transformer's AsdopsBuffer in flash_attention_score_grad / nsa_selected_attention_grad, flash_attention_score's L1 cache)
P("LocalTensor.InitBuffer.logicPos", "LocalTensor<uint8_t> t; t.InitBuffer(0, 1024); "
  "t.address_.logicPos = static_cast<uint8_t>(TPosition::VECIN); TBuffAddr a = t.address_; b1.SetAddr(a);")
P("LocalTensor.InitBuffer.argc", "LocalTensor<uint8_t> t; t.InitBuffer(1024);", "argc")
# the HCCL API comes with kernel_operator.h, as in the SDK (ops-transformer's mc2 kernels include nothing more)
P("Hccl.from_kernel_operator", "Hccl<HCCL_SERVER_TYPE_AICPU> hc; HcclHandle handle = INVALID_HANDLE_ID; "
  "int8_t none = HcclApi::INVALID_HANDLE_ID; (void)handle; (void)none;")
P("GetBlockIdx", "int64_t i = GetBlockIdx();")
P("GetBlockNum", "int64_t n = GetBlockNum();")
P("GetSubBlockIdx", "int64_t i = GetSubBlockIdx();")
P("GetSubBlockIdxImpl", "int64_t i = GetSubBlockIdxImpl();")
P("ICachePreLoad", "AscendC::ICachePreLoad(2);")
P("ICachePreLoad.argc", "AscendC::ICachePreLoad();", "argc")
P("GetICachePreloadStatus", "int64_t s = AscendC::GetICachePreloadStatus();")
# a data-cache hint (a contest ArgMin preloads its input viewed as uint64_t): int16_t / int64_t offsets are A2's
P("DataCachePreload", "{ GlobalTensor<uint64_t> gq; gq.SetGlobalBuffer((__gm__ uint64_t*)x, 64); "
  "DataCachePreload(gq, (int64_t)0); }")
P("DataCachePreload.int16", "{ GlobalTensor<uint64_t> gq; gq.SetGlobalBuffer((__gm__ uint64_t*)x, 64); "
  "DataCachePreload(gq, (int16_t)64); }")
P("DataCachePreload.int32", "{ GlobalTensor<uint64_t> gq; gq.SetGlobalBuffer((__gm__ uint64_t*)x, 64); "
  "DataCachePreload(gq, (int32_t)0); }", "dtype")
P("DataCachePreload.src_float", "DataCachePreload(gf, (int64_t)0);", "template")
P("DataCachePreload.argc", "{ GlobalTensor<uint64_t> gq; DataCachePreload(gq); }", "argc")
P("OOMCheckAddrRange", "AscendC::OOMCheckAddrRange((__gm__ uint8_t*)x, 64);")
P("OOMCheckAddrRange.argc", "AscendC::OOMCheckAddrRange((__gm__ uint8_t*)x);", "argc")
P("SizeOfBits", "static_assert(AscendC::SizeOfBits<int4b_t>::value == 4 && SizeOfBits<half>::value == 16, \"bits\");")
P("SizeOfBits.argc", "uint32_t bits = SizeOfBits<half, float>::value;", "argc")
P("Barrier", "AscendC::Barrier();")
P("Barrier.argc", "AscendC::Barrier(1);", "argc")
P("GetSubBlockNum", "int64_t n = GetSubBlockNum();")
P("GetTaskRation", "int64_t n = GetTaskRation();")
P("GetTaskRatio", "int64_t n = GetTaskRatio();")
P("GetDataBlockSizeInBytes", "int64_t n = GetDataBlockSizeInBytes();")
P("get_block_idx", "int64_t i = get_block_idx(); int64_t n = get_block_num();")
P("GetBlockId.invented", "int64_t i = GetBlockId();", "name")
P("GetCoreIdx.invented", "int64_t i = GetCoreIdx();", "name")
P("GetCoreNum.invented", "int64_t n = GetCoreNum();", "name")
P("GetBlockDim.invented", "int64_t n = GetBlockDim();", "name")
P("SyncAll", "SyncAll();")
P("SyncAll.aiv", "SyncAll<true>();")
P("SyncAll.soft", "GlobalTensor<int32_t> g; g.SetGlobalBuffer((__gm__ int32_t*)z, 256); SyncAll(g, i0, 8);")
P("SyncAll.soft.nocores", "GlobalTensor<int32_t> g; g.SetGlobalBuffer((__gm__ int32_t*)z, 256); SyncAll(g, i0);")
P("SyncAll.soft.float", "SyncAll(gf, f0);", "dtype")
P("SetAtomicAdd.float", "SetAtomicAdd<float>(); SetAtomicNone();")
for t in ["half", "int32_t", "int16_t", "bfloat16_t", "int8_t", "uint32_t", "double"]:
    P(f"SetAtomicAdd.{t}", f"SetAtomicAdd<{t}>();", "api" if t in ("half", "int32_t") else "dtype")
P("SetAtomicAdd.notype", "SetAtomicAdd();", "template")
P("SetPadValue.half", "SetPadValue((half)1.0f); DataCopyPad(h0, gh, dce, pph);")
P("SetPadValue.pos", "SetPadValue<float, TPosition::VECIN>(2.0f);")
P("SetPadValue.bool", "SetPadValue(true);", "dtype")
P("SetPadValue.argc", "SetPadValue();", "argc")
P("DisableDmaAtomic", "SetAtomicAdd<float>(); DataCopy(gf, f0, 256); DisableDmaAtomic();")
P("DisableDmaAtomic.argc", "DisableDmaAtomic(1);", "argc")
P("SetAtomicMax", "SetAtomicMax<float>();")
P("SetAtomicMin", "SetAtomicMin<half>();")
P("SetAtomicType", "SetAtomicType<float>();")
for t in ["int8_t", "int16_t", "bfloat16_t", "int32_t", "uint32_t", "double"]:
    P(f"SetAtomicMax.{t}", f"SetAtomicMax<{t}>();", "dtype")
    P(f"SetAtomicMin.{t}", f"SetAtomicMin<{t}>();", "dtype")
P("SetAtomicMax.copy", "SetAtomicMax<float>(); DataCopy(gf, f0, 256); DisableDmaAtomic();")
P("SetAtomicMin.copy_pad", "SetAtomicMin<half>(); DataCopyPad(gh, h0, dce); SetAtomicNone();")
P("SetAtomicType.int16_t", "SetAtomicAdd<half>(); SetAtomicType<int16_t>();", "dtype")
P("SetAtomicMax.notype", "SetAtomicMax();", "template")
P("SetAtomicMax.arg", "SetAtomicMax<float>(gf);", "argc")
# lib/pad: Pad / UnPad with the shape in their tiling structs
P("Pad.half", "AscendC::tiling::PadTiling pt; PadParams pp{0, 1, 0}; Pad(h0, h1, pp, b2, pt);")
P("Pad.float.notmp", "AscendC::tiling::PadTiling pt; PadParams pp; Pad(f0, f1, pp, pt);")
P("Pad.global_tiling", "PadTiling pt; PadParams pp; Pad(h0, h1, pp, pt);")
P("Pad.int32_t", "AscendC::tiling::PadTiling pt; PadParams pp; Pad(i0, i1, pp, pt);")
P("Pad.int8_t", "AscendC::tiling::PadTiling pt; PadParams pp; Pad(c0, c1, pp, pt);", "dtype")
P("Pad.temporary_params", "AscendC::tiling::PadTiling pt; Pad(h0, h1, PadParams{0, 1, 0}, pt);", "argc")
P("Pad.swapped", "AscendC::tiling::PadTiling pt; PadParams pp; Pad(h0, h1, pt, pp);", "swap")
P("PadParams.fields", "PadParams pp; pp.leftPad = 1; pp.rightPad = 2; pp.padValue = -3;")
P("UnPad.half", "AscendC::tiling::UnPadTiling ut; UnPadParams up{0, 1}; UnPad(h0, h1, up, b2, ut);")
P("UnPad.float.notmp", "AscendC::tiling::UnPadTiling ut; UnPadParams up; UnPad(f0, f1, up, ut);")
P("UnPad.pad_tiling", "AscendC::tiling::PadTiling pt; UnPadParams up; UnPad(h0, h1, up, pt);", "family")
P("UnPadParams.fields", "UnPadParams up; up.leftPad = 0; up.rightPad = 1;")
P("SoftmaxGrad.float", "SoftMaxTiling t; SoftmaxGrad<float>(f0, f1, f2, t);")
P("SoftmaxGrad.half.tmp_front_info", "SoftMaxTiling t; SoftMaxShapeInfo si = {8, 64, 8, 64}; SoftmaxGrad<half, false>(h0, h1, h2, b0, t, true, si);")
P("SoftmaxGrad.deduced", "SoftMaxTiling t; SoftmaxGrad(f0, f1, f2, t, false);")
P("SoftmaxGrad.int32_t", "SoftMaxTiling t; SoftmaxGrad<int32_t>(i0, i1, i2, t);", "dtype")
P("SoftmaxGrad.mixed", "SoftMaxTiling t; SoftmaxGrad(f0, h1, f2, t);", "dtype")
P("SoftmaxGrad.notiling", "SoftmaxGrad<float>(f0, f1, f2);", "argc")
P("SoftmaxGradFront.float", "SoftMaxTiling t; SoftmaxGradFront<float>(f0, f1, f2, t);")
P("SoftmaxGradFront.half.tmp", "SoftMaxTiling t; SoftmaxGradFront<half>(h0, h1, h2, b0, t);")
P("SoftmaxGradFront.isFront", "SoftMaxTiling t; SoftmaxGradFront<float>(f0, f1, f2, t, true);", "argc")
P("ReduceSum.count.isSetMask", "ReduceSum<float, true>(f0, f1, f2, 64);")
P("ReduceMax.count.isSetMask", "ReduceMax<half, false>(h0, h1, h2, 128, true);")
P("ReduceMin.mask.isSetMask", "ReduceMin<float, true>(f0, f1, f2, mask, 1, 8);")
P("ReduceSum.mask2.isSetMask", "ReduceSum<half, false>(h0, h1, h2, mask2, 1, 8);")
P("Trap", "if (GetBlockIdx() > 100) { Trap(); }")
P("Trap.argc", "Trap(1);", "argc")
P("Ceil.uint32", "uint32_t cd = Ceil(ws, 7U);".replace("ws", "us"))
P("Ceil.int64", "int64_t a = 100, b = 7; int64_t cd = Ceil(a, b);")
P("Ceil.int32_int64", "int32_t a = 100; const int64_t b = 7; int32_t cd = Ceil(a, b);")
P("DropOutShapeInfo.fields", "DropOutShapeInfo di; di.firstAxis = 8; di.srcLastAxis = 16; di.maskLastAxis = 1;")
P("DropOutShapeInfo.invented_field", "DropOutShapeInfo di; di.srcM = 8;", "name")
P("ProposalConcat.half", "ProposalConcat(h0, h1, 2, 4);", "known")
P("RpSort16.half", "RpSort16(h0, h1, 2);", "known")
P("is_same.unqualified", "bool same = is_same<float, float>::value;")
P("ScalarCast.float_half", "half hv = ScalarCast<float, half, RoundMode::CAST_ROUND>(fs);")
P("ScalarCast.float_int32", "int32_t iv = ScalarCast<float, int32_t, RoundMode::CAST_ROUND>(fs);")
P("Cast.scalar.float_int32", "int32_t iv = Cast<float, int32_t, RoundMode::CAST_FLOOR>(fs);")
P("BRCB_BROADCAST_NUMBER", "uint32_t n = BRCB_BROADCAST_NUMBER;")
P("SetVectorMask.hilo", "SetVectorMask<half, MaskMode::NORMAL>(0, 0xff);")
P("SetVectorMask.len", "SetVectorMask<float, MaskMode::COUNTER>(300);")
P("SetVectorMask.default_mode", "SetVectorMask<half>(~0ULL, ~0ULL);")
P("SetVectorMask.notype", "SetVectorMask(0, 0xff);", "template")
P("SetVectorMask.argc.3", "SetVectorMask<half>(0, 0, 0xff);", "argc")
P("SetMaskCount", "SetMaskCount(); SetVectorMask<half, MaskMode::COUNTER>(0, 1000); SetMaskNorm(); ResetMask();")
P("SetMask.invented", "SetMask(128);", "name")
P("ResetMask.typed", "ResetMask<half>();", "template")
P("GetUserWorkspace", "GM_ADDR w = GetUserWorkspace(z);")
P("SetSysWorkspace", "SetSysWorkspace(z);")
P("SetSysWorkspaceForce", "SetSysWorkspaceForce(z);")
P("DataCacheCleanAndInvalid", "DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(gf);")
P("DataCacheCleanAndInvalid.entire", "DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(gf);")
P("DataCacheCleanAndInvalid.deduced", "DataCacheCleanAndInvalid(gf);", "template")
P("InitGlobalMemory", "InitGlobalMemory(gf, 256, 0.0f);")
P("InitGlobalMemory.int_value", "InitGlobalMemory(gf, 256, 0);", "swap")
P("InitGlobalMemory.argc", "InitGlobalMemory(gf, 256);", "argc")
P("printf", "printf(\"%d\\n\", 1);")
P("PRINTF", "PRINTF(\"%f\\n\", 1.0f);")
P("DumpTensor", "DumpTensor(f0, 1, 64);")
P("DumpTensor.argc", "DumpTensor(f0, 1);", "argc")
P("assert", "assert(GetBlockIdx() >= 0);")
P("ascendc_assert", "ascendc_assert(GetBlockIdx() >= 0, \"idx\");")
P("constants", "int32_t a = ONE_BLK_SIZE + ONE_REPEAT_BYTE_SIZE + DEFAULT_BLK_NUM + MAX_REPEAT_TIMES + BLOCK_CUBE;")
# cann-ops conv3d_backprop_*: UB halved by AscendC's HALF_FACTOR; the deterministic-build request as a statement
P("constants.HALF_FACTOR", "int32_t halfUb = TOTAL_UB_SIZE / HALF_FACTOR; (void)halfUb;")
P("ENABLE_DETERMINISTIC", "ENABLE_DETERMINISTIC();")
P("ENABLE_DETERMINISTIC.argc", "ENABLE_DETERMINISTIC(1);", "argc")
P("constants.repeat_stride", "int32_t a = DEFAULT_REPEAT_STRIDE + DEFAULT_BLK_STRIDE;")
# the fractal size beside BLOCK_CUBE (kernel_utils_constants.h; the host tiling declares the three unsigned)
P("constants.CUBE_MAX_SIZE", "int32_t fractal = CUBE_MAX_SIZE / BLOCK_CUBE; (void)fractal;")
P("constants.QUE_MAX_EVENT", "int32_t a = QUE_MAX_EVENT;")
P("constants.invented", "int32_t a = ONE_BLOCK_SIZE;", "name")
P("TPosition.enum", "TPosition p = TPosition::VECCALC; p = TPosition::LCM; p = TPosition::A1;")
P("HardEvent.enum", "HardEvent e = HardEvent::MTE3_MTE2;")
P("RoundMode.enum", "RoundMode r = RoundMode::CAST_TRUNC;")
P("BinaryRepeatParams.ctor", "BinaryRepeatParams p(1, 1, 1, 8, 8, 8);")
P("BinaryRepeatParams.argc.4", "BinaryRepeatParams p(1, 1, 8, 8);", "family")
P("BinaryRepeatParams.fields", "BinaryRepeatParams p; p.dstRepStride = 4; p.src0BlkStride = 2;")
P("UnaryRepeatParams.ctor", "UnaryRepeatParams p(1, 1, 8, 8);")
P("UnaryRepeatParams.argc.6", "UnaryRepeatParams p(1, 1, 1, 8, 8, 8);", "family")
P("UnaryRepeatParams.halfBlock", "UnaryRepeatParams p(1, 1, 8, 8, true);")
P("UnaryRepeatParams.fields", "UnaryRepeatParams p; p.srcRepStride = 4; p.dstBlkStride = 1;")
P("BrcbRepeatParams.argc.3", "BrcbRepeatParams p(1, 8, 0);", "argc")
P("KERNEL_TASK_TYPE_DEFAULT", "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);")
P("TILING_KEY_IS", "if (TILING_KEY_IS(1)) { Add(h0, h1, h2, 256); }")
P("SetKernelMode", "SetKernelMode(KernelMode::AIV_MODE);", "name")

# ---- the patterns of ordinary kernels (official samples and LLM-written code) ---------------------------------------
P("pattern.namespace", "AscendC::DataCopy(h0, gh, 256); AscendC::Add(h0, h0, h1, 256);")
P("pattern.block_offset", "GlobalTensor<half> g; g.SetGlobalBuffer((__gm__ half*)x + 128 * GetBlockIdx(), 128);")
P("pattern.block_offset.uint32", "uint32_t off = GetBlockIdx() * 128; DataCopy(h0, gh[off], 128);")
P("pattern.set_global.wrong_type", "GlobalTensor<float> g; g.SetGlobalBuffer((__gm__ half*)y, 256);", "dtype")
P("pattern.set_global.gm_addr", "GlobalTensor<uint8_t> g; g.SetGlobalBuffer(x, 256);")
P("pattern.fetch_event", "event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3)); "
  "SetFlag<HardEvent::V_MTE3>(e); WaitFlag<HardEvent::V_MTE3>(e);")
P("pattern.fetch_event.pipe", "TEventID e = pipe.FetchEventID(HardEvent::MTE3_V); SetFlag<HardEvent::MTE3_V>(e); WaitFlag<HardEvent::MTE3_V>(e);")
P("pattern.event_id7", "SetFlag<HardEvent::V_MTE3>(EVENT_ID7); WaitFlag<HardEvent::V_MTE3>(EVENT_ID7);")
P("pattern.counter_mode", "SetMaskCount(); SetVectorMask<half, MaskMode::COUNTER>(256); "
  "Add<half, false>(h0, h1, h2, MASK_PLACEHOLDER, 1, brp); SetMaskNorm(); ResetMask();")
P("pattern.adds_issetmask", "Adds<half, false>(h0, h1, hs, MASK_PLACEHOLDER, 1, urp);")
P("pattern.explicit.exp", "Exp<half>(h0, h1, 256);")
P("pattern.explicit.reducesum", "ReduceSum<half>(h0, h1, h2, 256);")
P("pattern.explicit.axpy", "Axpy<float, half>(f0, h1, hs, 256);")
P("pattern.explicit.muladddst", "MulAddDst<float, half>(f0, h1, h2, 256);")
P("pattern.explicit.duplicate_int", "Duplicate<half>(h0, 0, 256);")
P("pattern.explicit.adds_int", "Adds<float>(f0, f1, 1, 256);")
P("pattern.explicit.compare", "Compare<half, uint8_t>(b0, h1, h2, CMPMODE::LT, 256);")
P("pattern.explicit.compare.swapped", "Compare<uint8_t, half>(b0, h1, h2, CMPMODE::LT, 256);", "template")
P("pattern.explicit.select", "Select<half, uint8_t>(h0, b0, h1, h2, SELMODE::VSEL_TENSOR_TENSOR_MODE, 256);")
P("pattern.whole_reduce.int_mask", "WholeReduceSum<half>(h0, h1, 128, 4, 1, 1, 8);")
P("pattern.whole_reduce.uint8_args", "WholeReduceMax(f0, f1, 64, (uint8_t)2, (uint8_t)2, (uint8_t)1, (uint8_t)8);")
P("pattern.select.mode0.l2", "Select(h0, b0, h1, h2, SELMODE::VSEL_CMPMASK_SPR, 256);")
P("pattern.compare_select", "CompareScalar(b0, f1, 0.0f, CMPMODE::GT, 256); Select(f0, b0, f1, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 256);")
P("pattern.tbuf.uint8", "TBuf<TPosition::VECCALC> t2; pipe.InitBuffer(t2, 1024); LocalTensor<uint8_t> tmp = t2.Get<uint8_t>(); Sigmoid(f0, f1, tmp, 256);")
P("pattern.copy.gm_index", "DataCopy(gh[128], h0, 256);")
P("pattern.copy.local_index", "DataCopy(h0[128], gh, 128);")
P("pattern.params.brace", "DataCopyParams p{1, 8, 0, 0}; DataCopy(h0, gh, p);")
P("pattern.pad.brace", "DataCopyPad(h0, gh, {1, 64, 0, 0, 0}, {false, 0, 0, 0});")
P("pattern.pad.struct_init", "DataCopyExtParams p{1, static_cast<uint32_t>(100 * sizeof(half)), 0, 0, 0}; DataCopyPad(h0, gh, p, pph);")
P("pattern.pad.uint8_len", "DataCopyExtParams p{1, 100 * sizeof(half), 0, 0, 0};", "swap")
P("pattern.primtype", "GlobalTensor<half>::PrimType v = 0; LocalTensor<float>::PrimType w = 0;")
P("pattern.queue.alloc_enque", "LocalTensor<half> t = qin.AllocTensor<half>(); DataCopy(t, gh, 256); qin.EnQue(t); "
  "LocalTensor<half> u = qin.DeQue<half>(); qin.FreeTensor(u);")
P("pattern.queue.enque_template", "LocalTensor<half> t = qout.AllocTensor<half>(); qout.EnQue<half>(t);")
P("pattern.queue.depth2", "TQue<TPosition::VECIN, 2> que; pipe.InitBuffer(que, 2, 512);")
P("pattern.buffer_num", "constexpr int32_t BUFFER_NUM = 2; TQue<TPosition::VECOUT, BUFFER_NUM> que; pipe.InitBuffer(que, BUFFER_NUM, 512);")
P("pattern.pipe_pointer", "TPipe* p = &pipe; TBuf<TPosition::VECCALC> t2; p->InitBuffer(t2, 256);")
P("pattern.getvalue.float_from_half", "float v = h0.GetValue(0);")
P("pattern.setvalue.int", "f0.SetValue(0, 1);")
P("pattern.getvalue.gm.index", "float v = gf.GetValue(GetBlockIdx());")
P("pattern.local_index.assign", "f0[3] = 2.0f;", "swap")
P("pattern.sizeof_local", "uint32_t n = f0.GetSize() * sizeof(float);")
P("pattern.kernel_type.mix", "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);")
P("pattern.get_block_idx.arg", "int64_t i = GetBlockIdx(0);", "argc")
P("pattern.alloc_free_function", "LocalTensor<half> t = AllocTensor<half>(qin);", "name")
# (No probe for `float16_t`: it is the device compiler's own spelling of half, which public kernels that passed on a
# 910B use (corpus, issue 13); the api-oracle's compiler stub does not declare it, so its "reject" was the stub's.)
P("pattern.half_type.half_t", "half_t v = 0;", "name")
P("pattern.bf16_type", "bfloat16 v = 0;", "name")
P("pattern.cross_core", "CrossCoreSetFlag<0x2, PIPE_MTE3>(0); CrossCoreWaitFlag(0);")
P("pattern.ibset", "IBSet(gi, i0, 0, 0);")
P("pattern.sync_all_mix", "SyncAll<false>();")
P("pattern.local_copy_ctor", "LocalTensor<float> t(f0);")
P("pattern.data_copy_float_count", "DataCopy(f0, gf, 256.0f);")
P("pattern.data_copy_int64_count", "int64_t n = 256; DataCopy(f0, gf, n);")
P("pattern.vector_count_uint32", "uint32_t n = 256; Add(f0, f1, f2, n);")
P("pattern.vector_count_int64", "int64_t n = 256; Add(f0, f1, f2, n);")
P("pattern.cast_roundmode_var", "RoundMode r = RoundMode::CAST_RINT; Cast(i0, f1, r, 256);")
P("pattern.leakyrelu.half_cast", "LeakyRelu(h0, h1, (half)0.01f, 256);")
P("pattern.muls.in_place", "Muls(f0, f0, 0.5f, 256);")
P("pattern.max_scalar_tensor", "Max(f0, f1, fs, 256);", "swap")
P("pattern.reduce_max.index_read", "ReduceMax(f0, f1, f2, 256, true); float v = f0.GetValue(0); uint32_t idx = f0.ReinterpretCast<uint32_t>().GetValue(1);")
P("pattern.brcb.after_reduce", "WholeReduceSum(f0, f1, 64, 8, 1, 1, 8); Brcb(f2, f0, 1, {1, 8});")
P("pattern.gather.offsets", "CreateVecIndex(i0, 0, 64); Muls(i0, i0, 4, 64); Gather(f0, f1, i0.ReinterpretCast<uint32_t>(), 0, 64);")
P("pattern.init_global_memory.half", "InitGlobalMemory(gh, 256, (half)0);")
P("pattern.atomic_copy", "SetAtomicAdd<float>(); DataCopy(gf, f0, 256); SetAtomicNone();")
P("pattern.dump_tensor.half", "DumpTensor(h0, 0, 128);")
P("pattern.printf.block", "printf(\"block %ld\\n\", GetBlockIdx());")

P("KERNEL_TASK_TYPE", "KERNEL_TASK_TYPE(1, KERNEL_TYPE_AIV_ONLY);")

# ---- the wider math / activation API (advanced API of kernel_operator.h) ----------------------------------------------
WIDER_UNARY = ["Acos", "Asin", "Atan", "Cosh", "Sinh", "Tan", "Erfc", "Frac", "Sign", "Log", "Log2", "Log10", "Gelu",
               "FasterGelu", "FasterGeluV2", "Silu", "Acosh", "Asinh", "Atanh", "Exp2", "Digamma", "Lgamma"]
for op in WIDER_UNARY:
    P(f"{op}.float", f"{op}(f0, f1, 256);")
    P(f"{op}.half", f"{op}(h0, h1, 256);")
    P(f"{op}.int32_t", f"{op}(i0, i1, 256);", "dtype")
    P(f"{op}.tmp", f"{op}(f0, f1, b0, 256);")
    P(f"{op}.nocount", f"{op}(f0, f1);")
    P(f"{op}.tmp.float", f"{op}(f0, f1, f2, 256);", "dtype")
    P(f"{op}.scalar", f"{op}(f0, fs, 256);", "swap")
P("Power.tensor_tensor", "Power(f0, f1, f2, 256);")
P("Power.tensor_scalar", "Power(f0, f1, fs, 256);")
P("Power.scalar_tensor", "Power(f0, fs, f1, 256);")
P("Power.tmp", "Power(f0, f1, f2, b0, 256);")
P("Power.int32", "Power(i0, i1, i2, 256);")
P("Power.half", "Power(h0, h1, h2, 256);")
P("Power.nocount", "Power(f0, f1, f2);")
P("Power.int_literal", "Power(f0, f1, 2, 256);", "swap")
P("Power.mixed", "Power(f0, h1, f2, 256);", "dtype")
P("Swish.float", "Swish(f0, f1, 256, fs);")
P("Swish.half", "Swish(h0, h1, 256, hs);")
P("Swish.beta_first", "Swish(f0, f1, fs, 256);", "swap")
P("Swish.no_beta", "Swish(f0, f1, 256);", "argc")
P("Swish.float_beta.half", "Swish(h0, h1, 256, 1.0f);", "swap")
P("ClampMax.float", "ClampMax(f0, f1, fs, 256);")
P("ClampMin.tmp", "ClampMin(f0, f1, b0, fs, 256);")
P("ClampMax.int32", "ClampMax(i0, i1, is, 256);", "dtype")
P("Clamp.invented", "Clamp(f0, f1, 0.0f, 1.0f, 256);", "name")
P("Log.int_tmp", "Log(f0, f1, i2, 256);", "dtype")
# the pattern reductions (adv_api/reduce/reduce.h): AR / RA, a srcShape array and srcInnerPad
_SHP = "uint32_t shp[] = {8, 64}; "
P("ReduceSum.pattern.AR", _SHP + "ReduceSum<float, Pattern::Reduce::AR>(f0, f1, b0, shp, true);")
P("ReduceSum.pattern.RA.notmp", _SHP + "ReduceSum<float, Pattern::Reduce::RA, true>(f0, f1, shp, true);")
P("ReduceSum.pattern.half", _SHP + "ReduceSum<half, Pattern::Reduce::AR>(h0, h1, b0, shp, true);", "dtype")
P("ReduceMean.pattern.half", _SHP + "ReduceMean<half, Pattern::Reduce::RA>(h0, h1, b0, shp, true);")
P("ReduceMax.pattern.AR", _SHP + "ReduceMax<float, Pattern::Reduce::AR>(f0, f1, b0, shp, true);")
P("ReduceMax.pattern.ARA", _SHP + "ReduceMax<float, Pattern::Reduce::ARA>(f0, f1, b0, shp, true);", "dtype")
P("ReduceMin.pattern.half.notmp", _SHP + "ReduceMin<half, Pattern::Reduce::AR>(h0, h1, shp, true);")
P("ReduceMin.pattern.int32", _SHP + "ReduceMin<int32_t, Pattern::Reduce::AR>(i0, i1, b0, shp, true);", "dtype")
P("ReduceProd.pattern.RA", _SHP + "ReduceProd<float, Pattern::Reduce::RA>(f0, f1, b0, shp, true);")
P("ReduceAny.pattern.uint8", _SHP + "ReduceAny<uint8_t, Pattern::Reduce::RA>(b1, b2, b0, shp, true);")
P("ReduceAll.pattern.float", _SHP + "ReduceAll<float, Pattern::Reduce::AR>(f0, f1, b0, shp, true);")
P("ReduceAll.pattern.half", _SHP + "ReduceAll<half, Pattern::Reduce::AR>(h0, h1, b0, shp, true);", "dtype")
P("Std.min.mixed", "uint32_t n = 100; uint64_t m = 70; uint32_t k = static_cast<uint32_t>(AscendC::Std::min(n, m));")
P("Std.max.constexpr", "constexpr auto k = Std::max(3, 5L); static_assert(k == 5, \"max\");")
P("Std.min.three", "uint32_t k = Std::min(1u, 2u, 3u);", "argc")

# ---- kernel-side framework calls of op projects -----------------------------------------------------------------------
P("TPipe.Init", "pipe.Init();")
P("ToFloat", "float v = ToFloat(es);")
P("ToBfloat16", "bfloat16_t v = ToBfloat16(fs);")
P("GetSysWorkSpacePtr", "GM_ADDR w = GetSysWorkSpacePtr();")
P("InitSocState", "InitSocState();")
P("ASSERT", "ASSERT(GetBlockIdx() >= 0);")
P("TILING_KEY_LIST", "if (TILING_KEY_LIST(1, 2)) { Add(h0, h1, h2, 256); }")
P("TILING_KEY_VAR", "uint64_t k = TILING_KEY_VAR;")
P("REGISTER_NONE_TILING", "REGISTER_NONE_TILING;")
P("REGISTER_TILING_DEFAULT", "REGISTER_TILING_DEFAULT(DataCopyParams);")
P("REGISTER_TILING_FOR_TILINGKEY", "REGISTER_TILING_FOR_TILINGKEY(\"TILING_KEY_VAR == 1\", DataCopyParams);")

# ---- the cube core (cube.h): L1 / L0A / L0B / L0C buffers, ND -> NZ copies, LoadData, Mmad, Fixpipe --------------------
_CUBE = ("TBuf<TPosition::A1> ta1; TBuf<TPosition::A2> ta2; TBuf<TPosition::B2> tb2; TBuf<TPosition::CO1> tc1; "
         "pipe.InitBuffer(ta1, 1024); pipe.InitBuffer(ta2, 512); pipe.InitBuffer(tb2, 512); pipe.InitBuffer(tc1, 1024); ")
P("cube.DataCopy.nd2nz", _CUBE + "LocalTensor<half> ka1 = ta1.Get<half>(); DataCopy(ka1, gh, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));")
P("cube.DataCopy.nd2nz.argc", _CUBE + "LocalTensor<half> ka1 = ta1.Get<half>(); DataCopy(ka1, gh, Nd2NzParams(1, 16, 16, 0, 16, 16, 1));",
  "argc")
P("cube.LoadData.2d", _CUBE + "LocalTensor<half> ka1 = ta1.Get<half>(); LocalTensor<half> ka2 = ta2.Get<half>(); "
  "LoadData(ka2, ka1, LoadData2DParams(0, 1, 1, 0, 0, false, 0));")
P("cube.LoadData.2d.fields", _CUBE + "LocalTensor<half> ka1 = ta1.Get<half>(); LocalTensor<half> ka2 = ta2.Get<half>(); "
  "LoadData2DParams lp; lp.startIndex = 0; lp.repeatTimes = 1; lp.srcStride = 1; lp.ifTranspose = true; LoadData(ka2, ka1, lp);")
P("cube.Mmad.half", _CUBE + "LocalTensor<half> ka2 = ta2.Get<half>(); LocalTensor<half> kb2 = tb2.Get<half>(); "
  "LocalTensor<float> kc1 = tc1.Get<float>(); Mmad(kc1, ka2, kb2, MmadParams(16, 16, 16, 0, false, true));")
P("cube.Mmad.int8", _CUBE + "LocalTensor<int8_t> ka2 = ta2.Get<int8_t>(); LocalTensor<int8_t> kb2 = tb2.Get<int8_t>(); "
  "LocalTensor<int32_t> kc1 = tc1.Get<int32_t>(); MmadParams mp; mp.m = 16; mp.n = 16; mp.k = 32; mp.cmatrixInitVal = false; "
  "Mmad(kc1, ka2, kb2, mp);")
P("cube.Mmad.argc", _CUBE + "LocalTensor<half> ka2 = ta2.Get<half>(); LocalTensor<half> kb2 = tb2.Get<half>(); "
  "LocalTensor<float> kc1 = tc1.Get<float>(); Mmad(kc1, ka2, kb2, 16, 16, 16);", "argc")
# the bias table (TPosition::C2, 1 KB): L1 -> bias table on MTE1 (half widened to float), Mmad starting C from it
_BT = "TBuf<TPosition::C2> tbt; pipe.InitBuffer(tbt, 256); LocalTensor<float> kbt = tbt.Get<float>(); "
P("cube.DataCopy.l1_to_bias.half", _CUBE + _BT + "LocalTensor<half> ka1 = ta1.Get<half>(); DataCopy(kbt, ka1, DataCopyParams(1, 1, 0, 0));")
P("cube.DataCopy.l1_to_bias.float", _CUBE + _BT + "LocalTensor<float> ka1 = ta1.Get<float>(); DataCopy(kbt, ka1, DataCopyParams(1, 1, 0, 0));")
# LoadData2dParams' addrMode as the compiler's addr_cal_mode_t enumerator (cann-ops / ops-math stft: `..., false, inc}`)
P("cube.LoadData2dParams.inc", "LoadData2dParams ldi = {0, 1, 1, 0, 0, false, inc}; (void)ldi;", core="aic")
P("cube.LoadData2dParams.inc.scoped", "LoadData2dParams ldi = {0, 1, 1, 0, 0, false, AscendC::inc}; (void)ldi;", "name",
  core="aic")
# both types named, and equal (cann-ops conv3dv2: DataCopy<L0cT, BiasT>(biasBT, biasL1, params) with float, float)
P("cube.DataCopy.l1_to_bias.float.named", _CUBE + _BT + "LocalTensor<float> ka1 = ta1.Get<float>(); "
  "DataCopy<float, float>(kbt, ka1, DataCopyParams(1, 1, 0, 0));")
P("cube.DataCopy.l1_to_bias.half.named", _CUBE + _BT + "LocalTensor<half> ka1 = ta1.Get<half>(); "
  "DataCopy<float, half>(kbt, ka1, DataCopyParams(1, 1, 0, 0));")
P("cube.DataCopy.l1_to_bias.named.argc", _CUBE + _BT + "LocalTensor<float> ka1 = ta1.Get<float>(); "
  "DataCopy<float, float, float>(kbt, ka1, DataCopyParams(1, 1, 0, 0));", "template")
P("cube.Mmad.bias", _CUBE + _BT + "LocalTensor<half> ka2 = ta2.Get<half>(); LocalTensor<half> kb2 = tb2.Get<half>(); "
  "LocalTensor<float> kc1 = tc1.Get<float>(); Mmad(kc1, ka2, kb2, kbt, MmadParams(16, 16, 16, 0, true, false));")
P("cube.Mmad.bias.argc", _CUBE + _BT + "LocalTensor<half> ka2 = ta2.Get<half>(); LocalTensor<half> kb2 = tb2.Get<half>(); "
  "LocalTensor<float> kc1 = tc1.Get<float>(); Mmad(kc1, ka2, kb2, kbt, kbt, MmadParams(16, 16, 16, 0, true, false));", "argc")
P("cube.Fixpipe.gm.row_major", _CUBE + "LocalTensor<float> kc1 = tc1.Get<float>(); "
  "Fixpipe<float, float, CFG_ROW_MAJOR>(gf, kc1, FixpipeParamsV220(16, 16, 16, 16, false));")
P("cube.Fixpipe.gm.f16", _CUBE + "LocalTensor<float> kc1 = tc1.Get<float>(); FixpipeParamsV220 fp; fp.nSize = 16; fp.mSize = 16; "
  "fp.srcStride = 16; fp.dstStride = 16; fp.quantPre = QuantMode_t::F322F16; Fixpipe(gh, kc1, fp);")
P("cube.Fixpipe.params.argc", _CUBE + "LocalTensor<float> kc1 = tc1.Get<float>(); Fixpipe(gf, kc1, FixpipeParamsV220(16, 16, 16));",
  "argc")
# ---- the cube core: GM -> L1 (Nd2Nz), L1 -> L0A/L0B (LoadData), Mmad, Fixpipe -----------------------------------------
ND = "nd.ndNum = 1; nd.nValue = 16; nd.dValue = 16; nd.srcDValue = 16; nd.dstNzC0Stride = 16; nd.dstNzNStride = 1; "
C("Cube.DataCopy.nd2nz", ND + "DataCopy(a1, gh, nd);")
C("Cube.DataCopy.nd2nz.ctor", "DataCopy(a1, gh, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));")
C("Cube.DataCopy.nd2nz.brace", "DataCopy(a1, gh, {1, 16, 16, 0, 16, 16, 1, 0});")
C("Cube.DataCopy.count", "DataCopy(a1, gh, 256);")
C("Cube.DataCopy.nd2nz.mixed", ND + "DataCopy(c1, gh, nd);", "dtype")
C("Cube.Nd2NzParams.argc.7", "Nd2NzParams p(1, 16, 16, 0, 16, 16, 1);", "argc")
C("Cube.LoadData", "ld.repeatTimes = 1; ld.srcStride = 1; LoadData(a2, a1, ld);")
C("Cube.LoadData.ctor", "LoadData(b2, b1, LoadData2DParams(0, 1, 1, 0, 0, true, 0));")
C("Cube.LoadData.alias", "LoadData2dParams p; p.repeatTimes = 1; LoadData(a2, a1, p);", "name")
C("Cube.LoadData2DParams.argc.6", "LoadData2DParams p(0, 1, 1, 0, 0, false);", "argc")
C("Cube.LoadData.family.nd2nz", "LoadData(a2, a1, nd);", "family")
C("Cube.LoadData.mixed", "LoadData(c1, a1, ld);", "dtype")
C("Cube.LoadData.gm", "LoadData(a2, gh, ld);", "swap")
# LoadData 2D from GM to A1 / B1 (cann-ops conv3dv2's weight load); int4b_t has no such load on A2
C("Cube.LoadData.gm.l1", "ld.repeatTimes = 2; ld.srcStride = 1; LoadData(b1, gh, ld);")
# L1 -> L0B with a fractal transpose (int8 / float B^T): compiles; running it is a named 'unsupported' error (RUN_TIME)
C("Cube.LoadDataWithTranspose.float", "LoadData2dTransposeParams tp; tp.repeatTimes = 1; tp.srcStride = 1; "
  "LoadDataWithTranspose(b2.ReinterpretCast<float>(), b1.ReinterpretCast<float>(), tp);")
C("Cube.LoadDataWithTranspose.family", "LoadDataWithTranspose(b2, b1, ld);", "family")
C("Cube.Mmad", "mm.m = 16; mm.n = 16; mm.k = 16; Mmad(c1, a2, b2, mm);")
C("Cube.Mmad.ctor6", "Mmad(c1, a2, b2, MmadParams(16, 16, 16, 0, false, true));")
C("Cube.Mmad.ctor8", "Mmad(c1, a2, b2, MmadParams(16, 16, 16, false, 0, false, false, false));")
C("Cube.Mmad.int8", "Mmad(c1.ReinterpretCast<int32_t>(), a2.ReinterpretCast<int8_t>(), b2.ReinterpretCast<int8_t>(), mm);")
C("Cube.Mmad.int4", "Mmad(c1.ReinterpretCast<int32_t>(), a2.ReinterpretCast<int4b_t>(), b2.ReinterpretCast<int4b_t>(), mm);")
C("Cube.Mmad.float_in", "Mmad(c1, a2.ReinterpretCast<float>(), b2.ReinterpretCast<float>(), mm);")
C("Cube.Mmad.half_out", "Mmad(a2, a2, b2, mm);", "dtype")
C("Cube.Mmad.argc", "Mmad(c1, a2, b2);", "argc")
C("Cube.Mmad.swapped", "Mmad(a2, b2, c1, mm);", "swap")
# the 4:2 structured-sparse product (cube_sparse.h): int8 B fractals and their uint8 index fractals L1 -> L0B, then
# MmadWithSparse (int32_t, int8_t, int8_t)
SP = ("LocalTensor<int8_t> sa1 = a1.ReinterpretCast<int8_t>(); LocalTensor<uint8_t> si1 = a1.ReinterpretCast<uint8_t>(); "
      "LocalTensor<int8_t> sb2 = b2.ReinterpretCast<int8_t>(); LocalTensor<int8_t> sa2 = a2.ReinterpretCast<int8_t>(); "
      "LocalTensor<int32_t> sc1 = c1.ReinterpretCast<int32_t>(); ")
C("Cube.LoadDataWithSparse", SP + "ld.repeatTimes = 2; LoadDataWithSparse(sb2, sa1, si1, ld);")
C("Cube.LoadDataWithSparse.ctor", SP + "LoadDataWithSparse(sb2, sa1, si1, LoadData2DParams(1, 2, 0, 0, 0, false, 0));")
C("Cube.LoadDataWithSparse.half", "LoadDataWithSparse(b2, b1, a1.ReinterpretCast<uint8_t>(), ld);", "dtype")
C("Cube.LoadDataWithSparse.int8_idx", SP + "LoadDataWithSparse(sb2, sa1, sa1, ld);", "dtype")
C("Cube.LoadDataWithSparse.argc", SP + "LoadDataWithSparse(sb2, sa1, ld);", "argc")
C("Cube.MmadWithSparse", SP + "mm.m = 16; mm.n = 16; mm.k = 64; MmadWithSparse(sc1, sa2, sb2, mm);")
C("Cube.MmadWithSparse.brace", SP + "MmadWithSparse(sc1, sa2, sb2, {16, 16, 64, false, 0, false, false, false});")
C("Cube.MmadWithSparse.half", "mm.m = 16; mm.n = 16; mm.k = 64; MmadWithSparse(c1, a2, b2, mm);", "dtype")
C("Cube.MmadWithSparse.float_out", SP + "MmadWithSparse(c1, sa2, sb2, mm);", "dtype")
C("Cube.MmadWithSparse.argc", SP + "MmadWithSparse(sc1, sa2, sb2);", "argc")
C("Cube.MmadWithSparse.bias", SP + "MmadWithSparse(sc1, sa2, sb2, sc1, mm);", "argc")
C("Cube.Mmad.fields", "mm.cmatrixInitVal = false; mm.cmatrixSource = false; mm.unitFlag = 0; mm.isBias = false;")
C("Cube.MmadImpl", "mm.m = 16; mm.n = 16; mm.k = 16; MmadImpl(c1, a2, b2, mm);")
C("Cube.MmadImpl.argc", "MmadImpl(c1, a2, b2);", "argc")
C("Cube.LoadDataImpl.3dv2", "LoadData3DParamsV2<half> l3; l3.l1H = 4; l3.l1W = 4; l3.channelSize = 16; l3.kExtension = 16; "
  "l3.mExtension = 16; l3.filterW = 1; l3.filterH = 1; l3.strideW = 1; l3.strideH = 1; l3.dilationFilterW = 1; "
  "l3.dilationFilterH = 1; LoadDataImpl(a2, a1, l3);")
C("Cube.LoadDataImpl.argc", "LoadDataImpl(a2, a1);", "argc")
C("Cube.SetMMLayoutTransform", "SetMMLayoutTransform(true); SetMMLayoutTransform(false);")
C("Cube.SetMMRowMajor", "SetMMRowMajor(); SetMMColumnMajor();")
C("Cube.SetMMLayoutTransform.argc", "SetMMLayoutTransform();", "argc")
C("Cube.Fixpipe.f16", "fp.nSize = 16; fp.mSize = 16; fp.srcStride = 16; fp.dstStride = 16; fp.quantPre = QuantMode_t::F322F16; "
  "Fixpipe(gh, c1, fp);")
C("Cube.Fixpipe.f32", "fp.nSize = 16; fp.mSize = 16; fp.srcStride = 16; fp.dstStride = 16; Fixpipe(gf, c1, fp);")
C("Cube.Fixpipe.row_major", "Fixpipe<float, float, CFG_ROW_MAJOR>(gf, c1, fp);")
C("Cube.Fixpipe.nz", "Fixpipe<float, float, CFG_NZ>(gf, c1, fp);")
C("Cube.Fixpipe.ctor5", "Fixpipe(gf, c1, FixpipeParamsV220(16, 16, 16, 16, false));")
C("Cube.Fixpipe.quant_unscoped", "fp.quantPre = F322F16;", "name")
C("Cube.Fixpipe.family.mmad", "Fixpipe(gf, c1, mm);", "family")
C("Cube.Fixpipe.argc", "Fixpipe(gf, c1);", "argc")
C("Cube.Fixpipe.l0c_to_l1", "Fixpipe(a1, c1, fp);")
C("Cube.Fixpipe.old_params.l1", "FixpipeParams<float> o(1, 32, 0, 0); o.quantParams = {QuantMode_t::F322F16}; Fixpipe(a1, c1, o);")
C("Cube.Fixpipe.old_params.workspace", "LocalTensor<uint64_t> ws = b1.ReinterpretCast<uint64_t>(); FixpipeParams<float> o(1, 32, 0, 0); "
  "o.quantParams = {QuantMode_t::F322F16}; Fixpipe(a1, c1, ws, o);")
C("Cube.Fixpipe.old_params.workspace.gm", "LocalTensor<uint64_t> ws = b1.ReinterpretCast<uint64_t>(); FixpipeParams<float> o(1, 32, 0, 16); "
  "o.nz2ndParams = {true, 1, 0, 0, 16}; Fixpipe(gf, c1, ws, o);")
C("Cube.Fixpipe.workspace.v220", "LocalTensor<uint64_t> ws = b1.ReinterpretCast<uint64_t>(); fp.nSize = 16; fp.mSize = 16; "
  "fp.srcStride = 16; fp.dstStride = 16; Fixpipe(gf, c1, ws, fp);")
C("Cube.DataCopy.enhanced.l0c2ub", "TBuf<TPosition::CO2> ub2; pipe.InitBuffer(ub2, 4096); LocalTensor<float> u = "
  "ub2.Get<float>(); DataCopy(u, c1, DataCopyParams(1, 1, 0, 0), DataCopyEnhancedParams(BlockMode::BLOCK_MODE_MATRIX, "
  "DeqScale::DEQ_NONE, 0, 0, false, pad_t::PAD_NONE, 0));")
C("Cube.Fixpipe.workspace.vdeq", "LocalTensor<uint64_t> ws = b1.ReinterpretCast<uint64_t>(); fp.nSize = 16; fp.mSize = 16; "
  "fp.srcStride = 16; fp.dstStride = 16; fp.quantPre = QuantMode_t::VDEQF16; Fixpipe(gh, c1.ReinterpretCast<int32_t>(), ws, fp);")
C("Cube.Fixpipe.workspace.float", "LocalTensor<float> wsf = b1.ReinterpretCast<float>(); Fixpipe(gf, c1, wsf, fp);", "dtype")
C("Cube.QuantMode_t.f32_pre", "QuantMode_t q[4] = {QuantMode_t::QF322F16_PRE, QuantMode_t::VQF322F16_PRE, "
  "QuantMode_t::QF322BF16_PRE, QuantMode_t::VQF322BF16_PRE}; (void)q;")
C("Cube.FixpipeParamsV220.argc.4", "FixpipeParamsV220 p(16, 16, 16, 16);", "argc")
C("Cube.CrossCoreSetFlag", "CrossCoreSetFlag<0x2, PIPE_FIX>(3); CrossCoreWaitFlag(3);")
# the same hand-over as the Matmul library (NotifyEvent / WaitEvent) and the devkit's own code (raw intrinsics) spell it
P("raw.copy_gm_to_ubuf_align_b16", "copy_gm_to_ubuf_align_b16((__ubuf__ void*)h0.GetPhyAddr(), (__gm__ void*)x, 0, 2, 40, 0, 0, 8, 0); "
  "PipeBarrier<PIPE_ALL>(); copy_ubuf_to_gm_align_b16((__gm__ void*)y, (__ubuf__ void*)h0.GetPhyAddr(), 0, 2, 40, 0, 0, 0, 4);")
P("raw.PRELOAD", "PRELOAD(4);")
C("Cube.NotifyEvent", "NotifyEvent<PIPE_FIX>(3); WaitEvent(3);")
C("Cube.WaitEvent.pipe", "NotifyEvent<PIPE_FIX>(3); WaitEvent<PIPE_S>(3);")
C("Cube.NotifyEvent.no_pipe", "NotifyEvent(3);", "template")
C("Cube.GetffstMsg", "ffts_cross_core_sync(PIPE_FIX, GetffstMsg(0x2, 3)); wait_flag_dev(3);")
C("Cube.FftsCrossCoreSync", "FftsCrossCoreSync(PIPE_FIX, GetffstMsg(0x2, 3));", "name")   # an implementation detail, not API
C("Cube.ffts_cross_core_sync", "ffts_cross_core_sync(PIPE_FIX, 0x321); wait_flag_dev(3);")
C("Cube.queue", "qa1.EnQue(a1); LocalTensor<half> t = qa1.DeQue<half>(); qa1.FreeTensor(t);")
# Fill / InitConstValue: blocks of an L1 / L0A / L0B tensor set to one value
C("Cube.Fill", "Fill(a1, InitConstValueParams<half>(1, 4, 0, (half)0));")
C("Cube.Fill.two_args", "Fill(b2, InitConstValueParams<half>(1, (half)0));")
C("Cube.InitConstValue", "InitConstValueParams<half> ic; ic.repeatTimes = 1; ic.blockNum = 2; ic.initValue = (half)1; "
  "InitConstValue(a2, ic);")
# SetFixPipeConfig: an L0C tensor resets the unit flags (nothing to do here); a Fixpipe-buffer one is the quantisation vector
C("Cube.SetFixPipeConfig.unit_flag", "SetFixPipeConfig<float>(c1, true);")
C("Cube.SetFixPipeConfig.quant_vector", "LocalTensor<uint64_t> fb(TPosition::C2PIPE2GM, 0, 16); SetFixPipeConfig(fb);")
# LoadData 3D (img2col) with its register settings (the second load: kExtension = mExtension = 0, a NOP)
C("Cube.LoadData3DParamsV2", "uint8_t pads[PAD_SIZE] = {0, 0, 0, 0}; SetFmatrix(4, 16, pads, FmatrixMode::FMATRIX_LEFT); "
  "SetLoadDataPaddingValue<half>((half)0); SetLoadDataRepeat(LoadDataRepeatParam(0, 1, 0)); SetLoadDataBoundary(0); "
  "LoadData3DParamsV2<half> l3; l3.l1H = 4; l3.l1W = 16; l3.channelSize = 16; l3.kExtension = 16; l3.mExtension = 16; "
  "LoadData(a2, a1, l3);")
C("Cube.LoadData3DParamsV2Pro", "uint8_t pads[PAD_SIZE] = {0, 0, 0, 0}; Load3DSetFMatrixCal(4, 16, pads); "
  "LoadData(a2, a1, LoadData3DParamsV2Pro(16, false, false, false, false, false, 16ULL | (16ULL << 16), 0X10101010101));")
C("Cube.LoadData3DParamsV2Pro.fields", "LoadData3DParamsV2Pro l3; l3.channelSize = 16; l3.extConfig = 16ULL | (16ULL << 16); "
  "LoadData(b2, b1, l3);")
C("Cube.LoadData3DParamsV2Pro.argc", "LoadData3DParamsV2Pro l3(16, false, false, false, false, false, 16ULL); (void)l3;", "argc")
C("Cube.Load3DSetFMatrixCal.argc", "Load3DSetFMatrixCal(4, 16);", "argc")
C("Cube.LoadData3DParamsV2.ctor", "uint8_t pads[PAD_SIZE] = {1, 1, 1, 1}; "
  "LoadData3DParamsV2<half> l3(pads, 4, 16, 16, 144, 16, 0, 0, 1, 1, 3, 3, 1, 1, false, false, (half)0); (void)l3;")
C("Cube.LoadData3DParamsV2.config", "LoadData3DParamsV2<half> l3; l3.l1H = 4; l3.l1W = 16; l3.channelSize = 16; "
  "LoadData<half, IS_RESER_LOAD3D_DEFAULT_CONFIG>(a2, a1, l3);")
# coordinates and flat layouts (asc-devkit matmul_l2cache: a tile's offsets in A, B and C)
P("Layout.MakeLayout", "auto lay = MakeLayout(MakeShape(4, 8), MakeStride(8, 1)); int64_t off = lay(MakeCoord(1, 2)); (void)off;")
P("Layout.GetShape", "auto lay = MakeLayout(MakeShape(4, 8), MakeStride(8, 1)); auto s = lay.GetShape(); auto d = lay.GetStride(); "
  "(void)s; (void)d;")
P("Layout.type", "Layout<Std::tuple<int, int>, Std::tuple<int, int>> lay = MakeLayout(MakeShape(4, 8), MakeStride(8, 1)); (void)lay;")
P("Coord.int64", "Coord<int64_t, int64_t> c = MakeCoord(int64_t{1}, int64_t{2}); (void)c;")
C("Cube.TSCM", "TSCM<TPosition::GM, 1> scm; pipe.InitBuffer(scm, 1, 4096); LocalTensor<half> s = scm.AllocTensor<half>(); "
  "DataCopy(s, gh, 2048); scm.EnQue(s); LocalTensor<half> sl = scm.DeQue<half>(); scm.FreeTensor(sl);")
C("Cube.SetFlag.MTE1_M", "SetFlag<HardEvent::MTE1_M>(EVENT_ID0); WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);")
C("Cube.SetFlag.M_FIX", "SetFlag<HardEvent::M_FIX>(EVENT_ID0); WaitFlag<HardEvent::M_FIX>(EVENT_ID0);")
C("Cube.PipeBarrier.M", "PipeBarrier<PIPE_M>();")
C("Cube.Matmul.invented", "MatMul(c1, a2, b2, 16, 16, 16);", "name")
C("Cube.TOTAL_SIZES", "static_assert(TOTAL_L0A_SIZE == 64 * 1024 && TOTAL_L0B_SIZE == 64 * 1024 && TOTAL_L0C_SIZE == 128 * 1024 "
  "&& TOTAL_L1_SIZE == 512 * 1024 - KFC_L1_RESERVER_SIZE && TMP_UB_OFFSET == 184 * 1024, \"910B sizes\");")
C("Cube.SetHF32Mode", "SetHF32Mode(HF32Mode::ENABLE); SetHF32TransMode(HF32TransMode::NEAREST_ZERO); SetHF32Mode(false); "
  "SetHF32TransMode(true);")
C("Cube.HF32TransMode.invented", "SetHF32TransMode(HF32TransMode::NEAREST_AWAY);", "name")
C("Cube.DataCopy.CO12", "SetFixpipeNz2ndFlag(1, 0, 16); SetFixpipePreQuantFlag(0); "
  "DataCopyCO12DstParams d(16, 16, 16, 16, QuantMode_t::F322F16, 0, false, true); DataCopy(gh, c1, d);")
# the ND_PARA register whole (ndNum 15:0, srcNdStride 31:16, dstNdStride 47:32), as ops-transformer's attention-grad kernels set it
C("Cube.SetNdParaImpl", "SetNdParaImpl(0x1); SetNdParaImpl((uint64_t{16} << 32) | (uint64_t{16} << 16) | 2);")
C("Cube.SetNdParaImpl.argc", "SetNdParaImpl(1, 0, 0);", "argc")
C("Cube.DataCopy.CO12.argc", "DataCopyCO12DstParams d(16, 16, 16, 16); DataCopy(gh, c1, d);", "argc")
# L0C -> L1 (NZ -> NZ) with the same parameters (ops-nn flat_quant); a GM source is no such path
C("Cube.DataCopy.CO12.l1", "DataCopyCO12DstParams d(16, 16, 16, 16, QuantMode_t::F322F16, 0, false, false); "
  "DataCopy(a1, c1, d);")
C("Cube.DataCopy.CO12.gm_src", "DataCopyCO12DstParams d(16, 16, 16, 16, QuantMode_t::F322F16, 0, false, false); "
  "DataCopy(a1, gf, d);", "family")
C("Cube.Fixpipe.FixpipeParams", "FixpipeParams<float> f(1, 32, 0, 16); f.nz2ndParams = Nz2NdParams(true, 1, 0, 0, 16); "
  "f.quantParams = QuantParams(QuantMode_t::F322F16); Fixpipe(gh, c1, f);")

# ---- invented names an LLM writes ------------------------------------------------------------------------------------
for code in ["AddScalar(h0, h1, hs, 256);", "Vadd(h0, h1, h2, 256);", "Subs(h0, h1, hs, 256);", "Divs(h0, h1, hs, 256);",
             "ReduceMean(f0, f1, f2, 256);", "Exp2(f0, f1, 256);", "Log(f0, f1, 256);", "Relu6(f0, f1, 256);",
             "Softmax(f0, f1, 256);", "Neg(f0, f1, 256);", "Square(f0, f1, 256);", "Pow(f0, f1, f2, 256);",
             "Fill(f0, fs, 256);", "Memset(f0, 0, 256);", "DataCopyAsync(f0, gf, 256);", "CopyIn(f0, gf, 256);",
             "Broadcast(f0, f1, 256);", "Clamp(f0, f1, 0.0f, 1.0f, 256);", "Where(f0, b0, f1, f2, 256);",
             "ArgMax(i0, f1, 256);", "Sign(f0, f1, 256);", "Tan(f0, f1, 256);", "Gelu(f0, f1, 256);", "Copy(f0, f1, 256);",
             "Sum(f0, f1, 256);", "Max(f0, f1, 256);", "Maximum(f0, f1, f2, 256);", "Rec(f0, f1, 256);"]:
    P("invented." + code.split("(")[0], code, "name")


# ---- where the emulator deliberately differs from the official compile-time verdict ---------------------------------
# Calls the official headers accept at compile time whose types AscendC checks only at run time (or that the
# emulator can only refuse when they run): we accept them too and report this diagnostic kind at the call.
# TransData (transdata.h): 16-bit NCDHW <-> NDC1HWC0 / FRACTAL_Z_3D, the formats named by a TransDataConfig template
# argument and the shapes by shape-only Layouts (MakeStride())
_TD = ("auto l5 = MakeLayout(MakeShape(1, 16, 1, 4, 4), MakeStride()); "
       "auto l6 = MakeLayout(MakeShape(1, 1, 1, 4, 4, 16), MakeStride()); "
       "auto l7 = MakeLayout(MakeShape(1, 1, 4, 4, 1, 16, 16), MakeStride()); ")
_TDC = "static constexpr TransDataConfig {0} = {{DataFormat::{1}, DataFormat::{2}}}; "
P("TransData.to_6hd", _TD + _TDC.format("tdc", "NCDHW", "NDC1HWC0") +
  "TransDataParams<decltype(l5), decltype(l6)> tdp = {l5, l6}; TransData<tdc>(h0, h1, b0, tdp);")
P("TransData.to_6hd.no_tmp", _TD + _TDC.format("tdc", "NCDHW", "NDC1HWC0") +
  "TransDataParams<decltype(l5), decltype(l6)> tdp = {l5, l6}; TransData<tdc>(h0, h1, tdp);")
P("TransData.from_6hd.bf16", _TD + _TDC.format("tdc", "NDC1HWC0", "NCDHW") +
  "TransDataParams<decltype(l6), decltype(l5)> tdp = {l6, l5}; TransData<tdc>(e0, e1, b0, tdp);")
P("TransData.to_fz.int16", _TD + _TDC.format("tdc", "NCDHW", "FRACTAL_Z_3D") +
  "TransDataParams<decltype(l5), decltype(l7)> tdp = {l5, l7}; TransData<tdc>(s0, s1, b0, tdp);")
P("TransData.from_fz.explicit", _TD + _TDC.format("tdc", "FRACTAL_Z_3D", "NCDHW") +
  "TransDataParams<decltype(l7), decltype(l5)> tdp = {l7, l5}; TransData<tdc, uint16_t, decltype(l7), decltype(l5)>(w0, w1, b0, tdp);")
P("TransData.float", _TD + _TDC.format("tdc", "NCDHW", "NDC1HWC0") +
  "TransDataParams<decltype(l5), decltype(l6)> tdp = {l5, l6}; TransData<tdc>(f0, f1, b0, tdp);", "dtype")
P("TransData.mixed", _TD + _TDC.format("tdc", "NCDHW", "NDC1HWC0") +
  "TransDataParams<decltype(l5), decltype(l6)> tdp = {l5, l6}; TransData<tdc>(h0, e1, b0, tdp);", "dtype")
P("TransData.dims", _TD + _TDC.format("tdc", "NCDHW", "NDC1HWC0") +
  "TransDataParams<decltype(l5), decltype(l7)> tdp = {l5, l7}; TransData<tdc>(h0, h1, b0, tdp);", "template")
P("TransData.argc", _TD + _TDC.format("tdc", "NCDHW", "NDC1HWC0") + "TransData<tdc>(h0, h1, b0);", "argc")
P("TransData.no_config", _TD + "TransDataParams<decltype(l5), decltype(l6)> tdp = {l5, l6}; TransData(h0, h1, b0, tdp);",
  "template")
P("TransData.same_format", _TD + _TDC.format("tdc", "NCDHW", "NCDHW") +
  "TransDataParams<decltype(l5), decltype(l5)> tdp = {l5, l5}; TransData<tdc>(h0, h1, b0, tdp);")

# SoftmaxFlashV3 (softmax_flashv3.h): half data, float statistics, SoftMaxParams (loopCnt, splitMeanCnt, alpha)
_SF3 = "SoftMaxTiling t; SoftMaxParams sp = {8, 512, 8, 512, 1, 8, 0.9375f}; "
P("SoftmaxFlashV3.half", _SF3 + "SoftmaxFlashV3<half, float>(h0, f0, f1, f2, h1, h2, f0, f1, f2, t, sp);")
P("SoftmaxFlashV3.update.tmp", _SF3 + "SoftmaxFlashV3<half, float, true>(h0, f0, f1, f2, h1, h2, f0, f1, f2, b0, t, sp);")
P("SoftmaxFlashV3.deduced", _SF3 + "SoftmaxFlashV3(h0, f0, f1, f2, h1, h2, f0, f1, f2, t, sp);")
P("SoftmaxFlashV3.float", _SF3 + "SoftmaxFlashV3<float, float>(f0, f0, f1, f2, f1, f2, f0, f1, f2, t, sp);", "dtype")
P("SoftmaxFlashV3.half_stats", _SF3 + "SoftmaxFlashV3<half, half>(h0, h0, h1, h2, h1, h2, h0, h1, h2, t, sp);", "dtype")
P("SoftmaxFlashV3.mixed", _SF3 + "SoftmaxFlashV3<half, float>(h0, f0, f1, f2, h1, f2, f0, f1, f2, t, sp);", "dtype")
P("SoftmaxFlashV3.argc", _SF3 + "SoftmaxFlashV3<half, float>(h0, f0, f1, f2, h1, h2, f0, f1, f2, t);", "argc")
P("SoftmaxFlashV3.shape_info", "SoftMaxTiling t; SoftMaxShapeInfo si = {8, 512, 8, 512}; "
  "SoftmaxFlashV3<half, float>(h0, f0, f1, f2, h1, h2, f0, f1, f2, t, si);", "family")
P("SoftmaxFlashV3.v2_form", _SF3 + "SoftmaxFlashV3<half, float>(h0, f1, f2, h1, h2, f1, f2, t, sp);", "argc")

RUN_TIME: dict[str, str] = {
    # DataCopy with DataCopyEnhancedParams on L0C <-> UB (a 310P path; AscendC's A2 build reports it as not supported), or
    # converting between two types on a path A2 has (L1 -> L0C): `unsupported` at the call
    "Cube.DataCopy.enhanced.l0c2ub": "unsupported", "DataCopy.enhanced.int32_to_half": "unsupported",
    # Select<T, SELMODE> without a selMask tensor is emulated in VSEL_CMPMASK_SPR mode only: `unsupported` at the call
    "Select.cmpmask_register.tensor_mode": "unsupported",
    # TransData with a format pair A2 does not convert: the official headers compile it to nothing; an `unsupported` error here
    "TransData.same_format": "unsupported",
    # the SortConfig forms of Sort: Ascend 950 only (the A2 headers give them an empty body): `unsupported` at the call
    "Sort.config.tmp.float": "unsupported", "Sort.config.index.float": "unsupported",
    "Sort.config.index_tmp.half": "unsupported", "Sort.config.no_tmp.float": "unsupported",
    # the region-proposal APIs: Ascend 310P only (the A2 headers report them unsupported when they run)
    "ProposalConcat.half": "unsupported", "ProposalExtract.float": "unsupported", "RpSort16.half": "unsupported",
    "MrgSort4.half": "unsupported",
    # static tensors: a tensor past the end of UB stops at run time; one whose length is not whole 32-byte blocks
    # (LocalMemAllocator.Alloc.misaligned) runs with a note, as the NPU build does not check it (only CPU debug asserts;
    # the instruction that takes a misaligned operand stops: tests/test_emu_static_tensor_align.py)
    "LocalTensor.ctor.past_ub": "ub-out-of-range",
    # mode 2 hands over between the AIC and the AIVs of a group: a vector-only or cube-only launch has no partner
    "pattern.cross_core": "cross-flag-mode", "Cube.CrossCoreSetFlag": "cross-flag-mode",
    **{f"Cube.{p}": "cross-flag-mode" for p in ("NotifyEvent", "WaitEvent.pipe", "GetffstMsg", "ffts_cross_core_sync")},
    # And / Or's count form: int32_t runs on int16_t lanes, as the reference documents for A2 (count doubled); the other
    # types run so only under RunRules(vector_mask="warning") (tests/test_emu_bitwise_count_types.py)
    **{f"{op}.l2.{t}": "unsupported" for op in ("And", "Or") for t in ("half", "float", "uint8_t", "bfloat16_t")},
    **{f"{op}.l2.{d}.{s}": "unsupported" for op in ("Axpy", "MulAddDst")
       for d, s in (("half", "float"), ("int32_t", "int32_t"), ("int16_t", "int16_t"))},
    "Cast.int32_t.to.half.CAST_NONE": "unsupported",
    **{f"{op}.l2.{t}": "unsupported" for op in ("Compare", "CompareScalar") for t in ("int16_t", "uint8_t")},
    "Compare.dst.half": "unsupported", "Compare.dst.uint16": "unsupported", "Compare.dst.float": "unsupported",
    "CompareScalar.dst.float.l0": "unsupported", "CompareScalar.dst.int32": "unsupported",
    "DataCachePreload.int32": "unsupported",
    "Select.mask.half": "unsupported",   # an int8_t mask runs: the NPU reads its bits (a warning)
    "Gather.l2.uint8_t": "unsupported", "Brcb.uint8_t": "unsupported", "Copy.uint8_t": "unsupported",
    "GatherMask.builtin.uint8_t": "unsupported", "GatherMask.tensor.wrong_width": "unsupported",
    "BroadCast.int32": "unsupported", "BroadCast.dim3": "unsupported",
    **{f"Gatherb.{t}": "unsupported" for t in ("half", "float", "int16_t", "int32_t", "uint8_t")},
    **{f"Transpose.{t}": "unsupported" for t in ("float", "int32_t", "uint8_t", "bfloat16_t")},
    **{f"SetAtomicAdd.{t}": "unsupported" for t in ("int8_t", "uint32_t", "double")},
    **{f"SetAtomic{m}.{t}": "unsupported" for m in ("Max", "Min") for t in ("uint32_t", "double")},
    "TBuf.EnQue": "unsupported", "TBuf.DeQue": "unsupported",
    "TPipe.copy": "unsupported",
    "Cube.Mmad.half_out": "unsupported", "Cube.Mmad.swapped": "unsupported",
}
# API names of our header that no probe can pin down with the oracle: the kernel-side tiling macros come from the
# generated header of a msopgen op project (the oracle compiles against kernel_operator.h alone, which lacks them).
P("GetReduceMaxMinCount.half", "ReduceMax(h0, h1, h2, 128, true); half mv = 0, mi = 0; GetReduceMaxMinCount<half>(mv, mi);")
P("GetReduceMaxMinCount.float", "ReduceMin(f0, f1, f2, 64, true); float mv = 0, mi = 0; GetReduceMaxMinCount<float>(mv, mi);")
P("GetReduceMaxMinCount.value_only", "ReduceMax(f0, f1, f2, 64, false); float mv = 0; GetReduceMaxMinCount<float>(mv);")
P("GetReduceRepeatMaxMinSpr.float", "ReduceMax(f0, f1, f2, 64, true); float mv = 0, mi = 0; GetReduceRepeatMaxMinSpr<float>(mv, mi);")
P("GetAccVal", "uint64_t acc = GetAccVal();")
P("InitOutput.float", "InitOutput<float>(gf, 256, 0.0f);")
P("AscendCUtils.GetC0Count", "int32_t blockElems = AscendCUtils::GetC0Count(sizeof(half));")
P("AscendCUtils.GetC0Size", "int32_t c0s = AscendCUtils::GetC0Size();")
for t in ["half", "float", "int16_t", "int32_t", "uint8_t"]:
    P(f"Arange.{t}", f"Arange({T(t)}, {DT[t]}s, {DT[t]}s, 64);", "api" if t != "uint8_t" else "dtype")
P("Arange.argc", "Arange(f0, 0.0f, 1.0f);", "argc")

NOT_PROBED: dict[str, str] = {n: "tiling macros of the op project's generated header: outside kernel_operator.h"
                              for n in ("GET_TILING_DATA", "GET_TILING_DATA_WITH_STRUCT", "GET_TILING_DATA_MEMBER")}
NOT_PROBED["GetSigmoidMaxMinTmpSize"] = "host tiling API (tiling/tiling_api.h), not kernel code: an op's TilingFunc calls it (NPUKernelBench MulSigmoid)"
NOT_PROBED.update({n: "host tiling API (tiling/tiling_api.h: Sum / Mean temporary sizes), not kernel code: an op's TilingFunc "
                      "calls it (NPUKernelBench MulMulReduceMeanDTwice); values in tests/test_opproject.py"
                   for n in ("GetSumMaxMinTmpSize", "GetMeanMaxMinTmpSize", "GetMeanTmpBufferFactorSize")})
NOT_PROBED["GET_TILING_DATA_PTR_WITH_STRUCT"] = NOT_PROBED["GET_TILING_DATA"]
NOT_PROBED["COPY_TILING_WITH_STRUCT"] = NOT_PROBED["GET_TILING_DATA"]
NOT_PROBED.update({n: "host tiling API of the sort family (tiling/tiling_api.h), not kernel code: the asc-devkit sort "
                      "example's host code calls it; values in tests/test_emu_sort_config.py"
                   for n in ("GetConcatTmpSize", "GetSortTmpSize", "GetSortMaxMinTmpSize")})
NOT_PROBED.update({n: "host tiling API of Select with a bytes mask (tiling/tiling_api.h, lib/select/selectwithbytesmask_tiling.h), "
                      "not kernel code: the asc-devkit select example's host code calls it; values in tests/test_emu_select_tiling.py"
                   for n in ("GetSelectMaxMinTmpSize", "GetSelectWithBytesMaskMaxMinTmpSize", "GetSelectMinTmpSize",
                             "GetSelectMaxTmpSize", "GetSelectWithBytesMaskMinTmpSize", "GetSelectWithBytesMaskMaxTmpSize")})
NOT_PROBED.update({n: "host tiling API of Pad / UnPad (tiling/tiling_api.h, lib/pad/pad_tiling.h), not kernel code: the "
                      "asc-devkit pad / unpad examples' host code calls it; values in tests/test_emu_pad_tiling.py"
                   for n in ("GetPadMaxMinTmpSize", "PadTilingFunc", "GetUnPadMaxMinTmpSize", "UnPadTilingFunc")})
NOT_PROBED["GetBroadCastMaxMinTmpSize"] = ("host tiling API of Broadcast (tiling/broadcast/broadcast_tiling.h, "
                                            "lib/pad/broadcast_tiling.h), not kernel code: hicann ops-math broadcast_v2's "
                                            "TilingFunc calls it; values in tests/test_emu_broadcast_tiling.py")
NOT_PROBED.update({f"Get{api}MaxMinTmpSize": "host tiling API of the pattern reductions (tiling/tiling_api.h, "
                      "lib/reduce/reduce_tiling.h), not kernel code: values in tests/test_emu_reduce_pattern.py::test_host_tmp_sizes"
                   for api in ("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceAny", "ReduceAll")})
NOT_PROBED.update({f"Get{api}{form}": "host tiling API of the math APIs (tiling/tiling_api.h, lib/math/<api>_tiling.h), "
                      "not kernel code: an op's TilingFunc calls it (hicann polar, asinh_with_agent); values in "
                      "tests/test_emu_math_hyp.py::test_host_tmp_sizes_of_the_math_apis"
                   for api in ("Asin", "Acos", "Atan", "Asinh", "Acosh", "Atanh", "Tan", "Sinh", "Cosh", "Tanh", "Erf", "Erfc",
                               "Sign", "Frac", "Trunc", "Floor", "Ceil", "Log", "Log10", "Log2", "Sin", "Cos", "Exp")
                   for form in ("MaxMinTmpSize", "TmpBufferFactorSize")})
NOT_PROBED.update({n: "tiling-template macro of the host API (tiling/template_argument.h), outside kernel_operator.h: "
                      "declarations and key encoding tested in tests/test_opproject_tpl.py"
                   for n in ("ASCENDC_TPL_ARGS_DECL", "ASCENDC_TPL_ARGS_SEL", "ASCENDC_TPL_BOOL_DECL", "ASCENDC_TPL_BOOL_SEL",
                             "ASCENDC_TPL_DATATYPE_DECL", "ASCENDC_TPL_DATATYPE_SEL", "ASCENDC_TPL_DETERMINISTIC_SEL",
                             "ASCENDC_TPL_DTYPE_DECL", "ASCENDC_TPL_DTYPE_SEL", "ASCENDC_TPL_FORMAT_DECL", "ASCENDC_TPL_FORMAT_SEL",
                             "ASCENDC_TPL_INPUT", "ASCENDC_TPL_KERNEL_TYPE_DECL", "ASCENDC_TPL_KERNEL_TYPE_SEL", "ASCENDC_TPL_OUTPUT",
                             "ASCENDC_TPL_SEL", "ASCENDC_TPL_SEL_PARAM", "ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL",
                             "ASCENDC_TPL_TILING_STRUCT_SEL", "ASCENDC_TPL_UINT_DECL", "ASCENDC_TPL_UINT_SEL", "GET_TPL_TILING_KEY")})
NOT_PROBED["encode"] = "tpl.h's host-side key encoder behind GET_TPL_TILING_KEY (no AscendC name): tests/test_opproject_tpl.py"
NOT_PROBED["Process"] = "the step LocalTensor's operator= runs for `dst = a + b`: probed through the operators (Symbol.*)"
# The Matmul high-level API lives in lib/matmul_intf.h, which the probe prelude does not include; the kernel
# tests/emu_kernels/good/matmul_api_bias.cpp uses these and compiles against the official headers (api-oracle, with
# its GET_TILING_DATA written out as a struct copy).
NOT_PROBED.update({n: "the Matmul API (lib/matmul_intf.h, outside the probe prelude): see tests/test_emu_cube.py"
                   for n in ("ClearBias", "DisableBias", "End", "GetTensorC", "Iterate", "IterateAll", "REGIST_MATMUL_OBJ",
                             "SetBias", "SetHF32", "SetOrgShape", "SetSingleShape", "SetSubBlockIdx", "SetTail",
                             "SetTensorA", "SetTensorB", "SetWorkspace", "WaitIterateAll", "SetLocalWorkspace",
                             "SetSelfDefineData", "SetUserDefInfo", "SetQuantScalar", "SetQuantVector", "IterateBatch")})
NOT_PROBED.update({n: "the Matmul API's module interface (lib/matmul_intf.h, outside the probe prelude), used inside a module "
                      "class template of a kernel's own MATMUL_POLICY: see tests/test_matmul_api_policy.py"
                   for n in ("MATMUL_MODULE", "MATMUL_USE_MODULE", "MATMUL_USE_MODULE_ON", "MATMUL_CAST_TO_IMPL",
                             "MATMUL_CAST_TO_CONST_IMPL", "MATMUL_CAST_TO_IMPL_OF", "MATMUL_CAST_TO_CONST_IMPL_OF")})
NOT_PROBED["WaitGetTensorC"] = ("the Matmul API (lib/matmul_intf.h, outside the probe prelude): the wait of an asynchronous "
                                "GetTensorC into UB, see tests/test_matmul_corpus_forms.py")
NOT_PROBED["WaitIterateBatch"] = ("the Matmul API (lib/matmul_intf.h, outside the probe prelude): the wait of IterateBatch<false>, "
                                  "see tests/test_emu_transformer_forms.py")
NOT_PROBED.update({n: "the Matmul library's integer helpers (lib/matmul_intf.h, outside the probe prelude): see "
                      "tests/test_matmul_api_forms.py::test_hccl_kernels_compile_and_a_collective_is_a_named_error_at_its_line"
                   for n in ("CeilAlign", "CeilDiv")})
NOT_PROBED.update({n: "the Matmul API (lib/matmul_intf.h, outside the probe prelude): see tests/test_matmul_api_forms.py"
                   for n in ("GetOffsetC", "IterateNBatch", "SetAntiQuantScalar", "SetAntiQuantVector", "SetSparseIndex")})
NOT_PROBED.update({n: "the Matmul API's constant tiling (lib/matmul_intf.h): see tests/test_matmul_api_host.py"
                   for n in ("GetMMConfig",)})
# (their kernel, tests/emu_kernels/good/matmul_api_nbatch_read.cpp, compiles against the official headers: api-oracle
# check.sh, AIV, with GET_TILING_DATA written out as a struct, ACCEPT at asc-devkit 0da921b)
NOT_PROBED.update({n: "the Matmul API's asynchronous reads (lib/matmul_intf.h, outside the probe prelude): see "
                      "tests/test_matmul_api_nbatch_read.py"
                   for n in ("GetBatchTensorC", "GetBatchC", "AsyncGetTensorC")})
NOT_PROBED.update({n: "the Matmul API's configuration and batch output (lib/matmul_intf.h): see "
                      "tests/test_matmul_api_forms.py::test_to_matmul_config_reads_the_mm_cfg_at_compile_time_and_set_n_batch_out_num_is_accepted"
                   for n in ("ToMatmulConfig", "SetNBatchOutNum")})
# The emulated stand-in for CANN's closed legacy op-host library (ascendcraft_emu/ophost_legacy.h): host code of an op
# project (ops-nn's Ops::NN::LegacyCommonMgr and what it answers), not kernel code
NOT_PROBED.update({n: "host op-project code (ascendcraft_emu/ophost_legacy.h, CANN's legacy op-host library's loader and "
                      "its stand-in), not kernel code: see tests/test_ophost_legacy.py"
                   for n in ("GetFunc", "GetInstance", "missing_platform_fact", "parse_prepare_for_op_cache",
                             "prepare_op_cache", "tiling_prepare_for_op_cache")})
# The host side of tiling/tiling_api.h (matmul_tiling::MultiCoreMatmulTiling and the TCubeTiling accessors) is host
# code of an op project, not kernel code: tests/test_matmul_api_host.py runs it through an op project's TilingFunc.
NOT_PROBED.update({n: "host tiling API (tiling/tiling_api.h), not kernel code: see tests/test_matmul_api_host.py"
                   for n in ("EnableBias", "GetBaseK", "GetBaseM", "GetBaseN", "GetDataSize", "GetSingleShape", "GetTiling",
                             "MatmulApiTiling", "MatmulApiTilingBase", "SetALayout", "SetAType", "SetAlignSplit", "SetBLayout", "SetBType",
                             "SetBatchInfoForNormal", "SetBatchNum", "SetBiasType", "SetBufferSpace", "SetCLayout", "SetCType",
                             "SetDequantType", "SetDim", "SetDoubleBuffer", "SetFixSplit", "SetMadType",
                             "SetMatmulConfigParams", "SetShape", "SetSingleRange", "SetSparse", "SetSplitRange",
                             "SetTraverse", "EnableMultiCoreSplitK", "SetScaleAType", "SetScaleBType")})
# (thirty-ninth round, mmnames) the API reference's remaining Matmul names: the host tiling's (values checked in the test)
# and the kernel side's chip rules (the MX scales a compile error: Ascend 950 only; the anti-quantisation a run-time
# error: not on Atlas A2, as CANN's A2 Matmul asserts)
NOT_PROBED.update({n: "host tiling API (tiling/tiling_api.h), not kernel code: see tests/test_matmul_api_names.py"
                   for n in ("SetSplitK", "EnableL1BankConflictOptimise", "MatmulGetTmpBufSize", "MatmulGetTmpBufSizeV2",
                             "MultiCoreMatmulGetTmpBufSize", "MultiCoreMatmulGetTmpBufSizeV2", "BatchMatmulGetTmpBufSize",
                             "BatchMatmulGetTmpBufSizeV2")})
NOT_PROBED.update({n: "the Matmul API's MX scales (lib/matmul_intf.h, outside the probe prelude), Ascend 950 only: a compile "
                      "error naming that rule, see tests/test_matmul_api_names.py"
                   for n in ("SetTensorScaleA", "SetTensorScaleB")})
NOT_PROBED.update({n: "host tiling API of SoftmaxFlashV3 (tiling/tiling_api.h), not kernel code: values in "
                      "tests/test_emu_softmax_flashv3.py::test_host_tiling"
                   for n in ("GetSoftMaxFlashV3MaxMinTmpSize", "SoftMaxFlashV3TilingFunc")})
NOT_PROBED["SaveToBuffer"] = ("host tiling API (optiling::TCubeTiling of tiling/tiling_api.h, the asc-devkit Matmul examples' "
                               "GenerateTiling), not kernel code: see tests/test_acl_host.py")
# The normalisation advanced APIs (lib/normalization, lib/activation in CANN) and their host tiling functions:
# value-checked against NumPy and their A2 rules in tests/test_emu_norm.py, like the Matmul API above.
NOT_PROBED.update({n: "advanced normalisation API and its host tiling (lib/normalization): see tests/test_emu_norm.py"
                   for n in ("SoftMax", "SimpleSoftMax", "SoftmaxFlash", "SoftmaxFlashV2", "LayerNorm", "RmsNorm",
                             "SoftmaxConfig", "SoftMaxTilingFunc", "SoftMaxFlashTilingFunc", "SoftMaxFlashV2TilingFunc",
                             "SoftMaxFlashV2TilingFuncImpl",
                             "GetSoftMaxMaxTmpSize", "GetSoftMaxMinTmpSize", "GetSoftMaxFlashMaxTmpSize",
                             "GetSoftMaxFlashMinTmpSize", "GetSoftMaxFlashV2MaxTmpSize", "GetSoftMaxFlashV2MinTmpSize",
                             "GetLayerNormMaxMinTmpSize", "GetLayerNormNDTilingInfo", "GetLayerNormNDTillingInfo",
                             "GetSoftMaxGradMaxTmpSize", "GetSoftMaxGradMinTmpSize", "SoftMaxGradTilingFunc",
                             "GetRmsNormMaxMinTmpSize", "GetRmsNormTilingInfo", "Shape", "GetDim", "GetDimNum", "GetDims",
                             "GetShapeSize", "SaveToBuffer")})
# The wider advanced APIs of issue 13 (lib/activation GLUs, lib/quantization, lib/math CumSum, lib/normalization Welford
# and Normalize) and their host tiling: not yet checked by the api-oracle (it is not on this machine); value-checked
# against NumPy and their A2 rules in their own tests instead.
NOT_PROBED.update({n: "advanced activation API and its host tiling (lib/activation): see tests/test_emu_glu.py"
                   for n in ("SwiGLU", "GeGLU", "GetSwiGLUMaxMinTmpSize", "GetSwiGLUTmpBufferFactorSize",
                             "GetGeGLUMaxMinTmpSize", "GetGeGLUTmpBufferFactorSize")})
NOT_PROBED.update({n: "a buffer's place kept and set again (TBuffAddr, TBuf::GetBufferAddr, LocalTensor::GetBufferHandle / "
                      "SetAddr; hicann ops-transformer mla_prolog): see tests/test_emu_tbuffaddr.py"
                   for n in ("GetBufferAddr", "GetBufferHandle", "SetAddr")})
NOT_PROBED.update({n: "the Matmul library's integer helpers (lib/matmul_intf.h; ops-transformer mla_prolog): see "
                      "tests/test_emu_tbuffaddr.py" for n in ("Align", "AlignDown")})
NOT_PROBED.update({n: "host tiling API (tiling/tiling_api.h: the Gelu / Silu / Swish / Clamp temporary sizes), not kernel "
                      "code: an asc-devkit example's host program calls it; values in tests/test_emu_act_clamp_tiling.py"
                   for n in ("GetGeluMinTmpSize", "GetGeluMaxTmpSize", "GetGeluMaxMinTmpSize", "GetSiluTmpSize",
                             "GetSwishTmpSize", "GetClampMaxMinTmpSize", "GetClampTmpBufferFactorSize")})
NOT_PROBED["ReGlu"] = ("advanced activation API (lib/activation/reglu.h; hicann ops-transformer ffn): value-checked "
                       "against NumPy in half, bfloat16_t and float in tests/test_emu_reglu.py")
NOT_PROBED.update({n: "advanced quantisation API and its host tiling (lib/quantization): see tests/test_emu_quant.py"
                   for n in ("AscendQuant", "AscendDequant", "AscendAntiQuant", "AscendQuantConfig",
                             "GetAscendQuantMaxMinTmpSize", "GetAscendQuantTmpBufferFactorSize",
                             "GetAscendDequantMaxMinTmpSize", "GetAscendDequantTmpBufferFactorSize",
                             "GetAscendAntiQuantMaxMinTmpSize", "GetAscendAntiQuantMaxTmpSize",
                             "GetAscendAntiQuantMinTmpSize", "GetAscendAntiQuantTmpBufferFactorSize")})
NOT_PROBED["GetShapeInfo"] = ("LocalTensor's shape (SetShapeInfo / GetShapeInfo), read by AscendAntiQuant per channel: "
                              "see tests/test_emu_quant.py")
NOT_PROBED.update({n: "advanced math API and its host tiling (lib/math CumSum): see tests/test_emu_cumsum.py"
                   for n in ("CumSum", "GetCumSumMaxMinTmpSize")})
NOT_PROBED.update({n: "advanced normalisation API and its host tiling (lib/normalization Welford): see tests/test_emu_welford.py"
                   for n in ("WelfordUpdate", "WelfordFinalize", "WelfordUpdateConfig", "WelfordFinalizeConfig",
                             "GetWelfordUpdateMaxMinTmpSize", "GetWelfordFinalizeMaxMinTmpSize")})
NOT_PROBED.update({n: "advanced normalisation API and its host tiling (lib/normalization Normalize): see tests/test_emu_normalize.py"
                   for n in ("Normalize", "GetNormalizeConfig", "GetNormalizeMaxMinTmpSize", "DeepNorm",
                             "GetDeepNormMaxMinTmpSize", "GetDeepNormTilingInfo")})
NOT_PROBED.update({n: "advanced normalisation API and its host tiling (lib/normalization LayerNormGrad): see "
                      "tests/test_emu_layernorm_grad.py"
                   for n in ("LayerNormGrad", "LayerNormGradBeta", "GetLayerNormGradMaxMinTmpSize", "GetLayerNormGradNDTilingInfo",
                             "GetLayerNormGradBetaMaxMinTmpSize", "GetLayerNormGradBetaNDTilingInfo")})
NOT_PROBED.update({n: "advanced sort API and its host tiling (lib/sort TopK): see tests/test_emu_topk.py"
                   for n in ("TopK", "GetTopKMaxMinTmpSize", "TopKTilingFunc")})
NOT_PROBED["SetOverflow"] = ("AscendCUtils::SetOverflow (CTRL bit 48; the asc-devkit layernorm_v2 example): see "
                             "tests/test_emu_normalize.py::test_set_overflow_keeps_ctrl_bit_48")
# The emulation's own helpers inside norm.h (not AscendC names; they belong in a *_detail namespace).
NOT_PROBED.update({n: "the emulation's own helper in norm.h, not an AscendC API"
                   for n in ("align32", "fill_softmax", "flash_call", "deepnorm_call", "layernorm_ar", "layernorm_bsh", "rmsnorm_call",
                             "row_tmp", "rows_cols", "softmax_call", "softmax_shape")})
# Raw bisheng intrinsics some public kernels call; the official headers declare them only as compiler builtins,
# which the api-oracle stubs, so a probe would not test the headers: tests/test_emu_compat.py runs them.
# ArithProgression is lib/index's name in earlier CANN releases (the cann-ops kernels call it); the pinned devkit
# names the same API Arange, which the probes above check: tests/test_emu_corpus_apis.py runs ArithProgression.
NOT_PROBED.update({"ArithProgression": "earlier CANN name of Arange (lib/index), absent from the pinned devkit: "
                                       "see tests/test_emu_corpus_apis.py"})
NOT_PROBED.update({n: "raw compiler intrinsic, not a header API: see tests/test_emu_compat.py"
                   for n in ("vcadd", "get_acc_val", "get_ctrl", "set_ctrl", "sbitset0", "sbitset1", "clz")})
NOT_PROBED.update({n: "raw compiler intrinsic (the VA address registers and level-0 vector forms on pointers), not a "
                      "header API: see tests/test_emu_raw_vector.py"
                   for n in ("set_va_reg_sb", "scatter_vnchwconv_b8", "scatter_vnchwconv_b16", "scatter_vnchwconv_b32",
                             "vector_dup", "vtranspose", "copy_ubuf_to_ubuf")})

# AscendC's boolean tag types (kernel_utils: BoolInst<b>, TrueType, FalseType), compared with IsSameType in the member-
# detection traits of cann-ops' conv kernels; and a lower-case spelling AscendC does not have
P("BoolInst.tags", "static_assert(IsSameType<TrueType::Type, BoolInst<true>>::value && !FalseType::value && "
  "IsSameType<decltype(TrueType()), TrueType>::value, \"tags\");")
P("BoolInst.lowercase", "static_assert(AscendC::true_type::value, \"tag\");", "name")
# The 8-bit float storage types on A2 (impl/utils/common_types.h, kernel_utils_constants.h: plain uint8_t off Ascend 950),
# which A2 kernels name in type traits (sgl-kernel-npu's attention templates: `std::is_same_v<Element, AscendC::fp8_e8m0_t>`)
P("Types.fp8_on_a2", "static_assert(IsSameType<fp8_e8m0_t, uint8_t>::value && IsSameType<::fp8_e8m0_t, uint8_t>::value && "
  "IsSameType<::fp8_e4m3fn_t, uint8_t>::value && IsSameType<::fp8_e5m2_t, uint8_t>::value && "
  "IsSameType<::fp4x2_e2m1_t, uint8_t>::value && IsSameType<::fp4x2_e1m2_t, uint8_t>::value, \"fp8 on A2\");")
# the FP8 / FP4 / MX-scale storage type names on A2: aliases of uint8_t, global, fp8_e8m0_t in AscendC as well
# (vllm-ascend sparse_attention_score); fp8_e4m3fn_t is no AscendC member on A2
P("Types.fp8.a2", "static_assert(IsSameType<fp8_e8m0_t, uint8_t>::value && IsSameType<AscendC::fp8_e8m0_t, uint8_t>::value "
  "&& IsSameType<::fp8_e4m3fn_t, uint8_t>::value && sizeof(::fp8_e5m2_t) == 1 && sizeof(::fp4x2_e2m1_t) == 1 "
  "&& sizeof(::fp4x2_e1m2_t) == 1, \"A2: one byte each\");")
P("Types.fp8.namespace", "AscendC::fp8_e4m3fn_t v = 0; (void)v;", "name")
NOT_PROBED.update({n: "raw compiler intrinsic (level-0 half <-> int4b_t conversion on pointers under the mask register), "
                      "not a header API: see tests/test_emu_vconv_int4.py"
                   for n in ("vconv_s42f16", "vconv_f162s4", "vconv_f162s4r", "vconv_f162s4f", "vconv_f162s4c",
                             "vconv_f162s4a", "vconv_f162s4z")})
NOT_PROBED["get_para_base"] = ("raw compiler intrinsic (the launch's kernel-parameter area, a word per parameter), not a "
                               "header API: hicann ops-math gcd reads its arguments and tiling through it; see "
                               "tests/test_emu_para_base.py")
NOT_PROBED["set_atomic_none"] = ("raw compiler intrinsic (the DMA's atomic mode off), not a header API: see "
                                 "tests/test_matmul_corpus_forms.py")
NOT_PROBED["convert_from_bytes"] = ("the device compiler's builtin (a constexpr struct from its bytes; CANN's generated tiling "
                                    "headers and the asc-devkit AOT example use it), in neither the headers nor the api-oracle's "
                                    "stub (which rejects it as undeclared): see tests/test_corpus_harness.py")

NOT_PROBED.update({n: "advanced math API and its host tiling (lib/math Fmod, Xor, Power, Axpy): see tests/test_emu_math_binary.py"
                   for n in ("Fmod", "Xor", "GetFmodMaxMinTmpSize", "GetFmodTmpBufferFactorSize", "GetXorMaxMinTmpSize",
                             "GetXorTmpBufferFactorSize", "GetAxpyMaxMinTmpSize", "GetAxpyTmpBufferFactorSize",
                             "GetPowerMaxMinTmpSize", "GetPowerTmpBufferFactorSize")})

NOT_PROBED.update({n: "advanced activation API and its host tiling (lib/activation LogSoftMax, AdjustSoftMaxRes): see "
                      "tests/test_emu_logsoftmax.py"
                   for n in ("LogSoftMax", "AdjustSoftMaxRes", "GetLogSoftMaxMaxTmpSize", "GetLogSoftMaxMinTmpSize",
                             "LogSoftMaxTilingFunc")})

NOT_PROBED["TransposeParamsExt"] = ("Transpose's 4-D parameters (TRANSPOSE_NCHW2NHWC / NHWC2NCHW): see "
                                    "tests/test_emu_transpose_ext.py")

NOT_PROBED.update({n: "advanced filter API and its host tiling (lib/filter DropOut): see tests/test_emu_dropout.py"
                   for n in ("DropOut", "GetDropOutMaxMinTmpSize", "GetDropOutMaxTmpSize", "GetDropOutMinTmpSize")})

NOT_PROBED.update({n: "advanced transpose API and its host tiling (lib/transpose ConfusionTranspose, TRANSPOSE_ND2ND_ONLY): "
                      "see tests/test_matmul_api_confusion_transpose.py"
                   for n in ("ConfusionTranspose", "GetConfusionTransposeMaxMinTmpSize", "GetConfusionTransposeOnlyTilingInfo",
                             "GetConfusionTransposeTilingInfo", "GetTransposeMaxMinTmpSize", "GetTransposeTilingInfo")})
NOT_PROBED["DropOutBitModeInit"] = ("the filter library's set-up for a bit-mode DropOut (an implementation function of "
                                    "lib/filter that kernels call): see tests/test_matmul_api_dropout_init.py")
NOT_PROBED["copy_data_align64"] = ("the device compiler's copy of CANN's generated tiling code, in neither the headers nor the "
                                   "api-oracle's stub: see tests/test_matmul_api_copy_data_align64.py")

NOT_PROBED.update({n: "ListTensorDesc / TensorDesc (kernel_operator_list_tensor_intf.h): see tests/test_emu_list_tensor.py"
                   for n in ("GetDataObj", "GetDataPtr", "GetDesc", "GetIndex", "SetShapeAddr")})

NOT_PROBED.update({n: "raw compiler intrinsic (level-0 vector forms, GatherMask / Gather, GM <-> UB copies and the atomic mode on "
                      "pointers; the raw core indices), not a header API: see tests/test_emu_raw_vector_arith.py"
                   for n in ("vreducev2", "vgather", "copy_gm_to_ubuf", "copy_ubuf_to_gm", "set_atomic_add", "set_atomic_f16",
                             "set_atomic_f32", "set_atomic_s32", "get_subblockid", "get_subblockdim")})

NOT_PROBED["get_imm"] = ("raw compiler intrinsic (an immediate load: the value itself), not a header API: see "
                         "tests/test_emu_get_imm.py")

NOT_PROBED["icache_preload"] = ("raw compiler intrinsic (an instruction-cache preload, a no-op here), not a header API: "
                                "see tests/test_cube_catlass_forms.py")

NOT_PROBED.update({n: "raw compiler intrinsic (the cube core's copies, loads, mad and Fixpipe on L1 / L0A / L0B / L0C addresses, "
                      "and their registers), not a header API: see tests/test_emu_raw_cube.py"
                   for n in ("copy_gm_to_cbuf_multi_nd2nz_b8", "copy_gm_to_cbuf_multi_nd2nz_b16", "copy_gm_to_cbuf_multi_nd2nz_b32s",
                             "copy_gm_to_cbuf", "load_cbuf_to_ca", "load_cbuf_to_cb", "load_cbuf_to_ca_transpose",
                             "load_cbuf_to_cb_transpose", "mad", "copy_matrix_cc_to_gm", "set_nd_para", "set_padding")})
NOT_PROBED.update({n: "raw compiler intrinsic (level-0 WholeReduceMax with an Order_t, Exp, half <-> float Cast and Brcb on "
                      "pointers), not a header API: see tests/test_emu_raw_cube.py"
                   for n in ("vcmax", "vexp", "vconv_f162f32", "vconv_f322f16", "vbrcb", "Order_t")})
NOT_PROBED.update({n: "raw compiler intrinsic (level-0 WholeReduceMin with an Order_t, Compare / CompareScalar into a bit mask "
                      "or the compare-mask register, Select in its three modes, Cast with a rounding suffix, the pad-value "
                      "and reserved-count registers, on pointers), not a header API: see tests/test_emu_raw_vector_compare.py"
                   for n in ("vcmin", *(f"{form}_{op}" for form in ("vcmpv", "vcmpvs", "vcmp")
                                        for op in ("lt", "gt", "eq", "le", "ge", "ne")),
                             "set_cmpmask", "vsel", "vconv_s322f32", "vconv_bf162f32", "vconv_s162f32", "vconv_s162f16",
                             "vconv_f322s32r", "vconv_f322s32f", "vconv_f162s32r", "vconv_f322f16r", "vconv_f322bf16r",
                             "vconv_f322s16r", "set_mov_pad_val", "get_rsvd_cnt")})

# Real AscendC APIs the emulation does not provide (yet): we reject them at compile time, with this reason.
_NOT_YET = "an AscendC API the CPU emulation does not provide"
UNEMULATED: dict[str, str] = {
    "ShiftLeft.tensor_scalar": "the tensor-shift form is not emulated: shift by a scalar",
    "ShiftRight.tensor_scalar": "the tensor-shift form is not emulated: shift by a scalar",
    "GlobalTensor.SetShapeInfo": _NOT_YET,
    **{f"invented.{n}": _NOT_YET for n in ("Subs", "Divs", "Neg", "Clamp", "Where")},
    # the wider math API: official verdicts are recorded; delete these lines as the emulation provides each API
    **{f"{op}.{form}": _NOT_YET for op, forms in {
        **{op: ("float", "half", "tmp") for op in ("Digamma", "Lgamma")},
        "Clamp": ("invented",)}.items() for form in forms},
}


# What our compile error (message and hint, as the emulator renders it) must say for the most common near-misses:
# the signature AscendC declares, the way the official headers' candidate lists name it.
SAYS: dict[str, str] = {
    "DataCopyExtParams.argc.4": "DataCopyExtParams(uint16_t, uint32_t, uint32_t, uint32_t, uint32_t)",
    "DataCopyExtParams.brace.4": "DataCopyExtParams(uint16_t, uint32_t, uint32_t, uint32_t, uint32_t)",
    "DataCopyExtParams.inline.4": "const DataCopyExtParams&, const DataCopyPadExtParams<T>&)",
    "DataCopy.family.ext": "DataCopy<T>(const LocalTensor<T>&, const GlobalTensor<T>&, const DataCopyParams&)",
    "DataCopyPad.mixed.ext_legacy": "const DataCopyExtParams&, const DataCopyPadExtParams<T>&)",
    "DataCopyPad.mixed.legacy_ext": "const DataCopyParams&, const DataCopyPadParams&)",
    "Cast.no_round": "Cast<T, U>(const LocalTensor<T>&, const LocalTensor<U>&, const RoundMode&, uint32_t)",
    "Add.family.unary": "uint64_t, uint8_t, const BinaryRepeatParams&)",
    "Exp.family.binary": "uint64_t, uint8_t, const UnaryRepeatParams&)",
    "Adds.swap": "Adds<T>(const LocalTensor<T>&, const LocalTensor<T>&, const T&, const int32_t&)",
    "Adds.float_literal.half": "scalar arguments must have the tensor's element type",
    "Duplicate.family.unary": "Duplicate<T, isSetMask>(const LocalTensor<T>&, const T&, uint64_t, uint8_t, uint16_t, uint8_t)",
    "WholeReduceSum.l2": "WholeReduceSum<T, isSetMask>(const LocalTensor<T>&, const LocalTensor<T>&, uint64_t, int32_t, int32_t, int32_t, int32_t)",
    "BlockReduceSum.mask_first": "BlockReduceSum<T, isSetMask>(const LocalTensor<T>&, const LocalTensor<T>&, int32_t, int32_t,",   # the mask an int32_t, as the devkit declares it
    "Compare.argc.no_mode": "CMPMODE, uint32_t)",
    "Select.no_mode": "SELMODE, uint32_t)",
    "Gatherb.family.brcb": "const GatherRepeatParams&)",
    "Brcb.family.unary": "const BrcbRepeatParams&)",
    "TQue.AllocTensor.ref": "TQue<pos, 0>",
    "Exp.l2.int32_t": "Exp on Ascend 910B (A2) supports half and float only",
    "TQue.FreeTensor.rvalue": "FreeTensor takes a named, non-const LocalTensor",
    "TQue.FreeTensor.const": "FreeTensor takes a named, non-const LocalTensor",
    "LocalTensor.GetPosition.TPosition": "GetPosition() returns an int32_t",
    "LocalTensor.GetPhyAddr.ptr": "(__ubuf__ T*)t.GetPhyAddr()",
    "GlobalTensor.GetPhyAddr.nonconst": "GetPhyAddr(offset) returns a writable one",
    "GlobalTensor.GetPhyAddr.auto_write": "GetPhyAddr(offset) returns a writable one",
    "DataCacheCleanAndInvalid.deduced": "DataCacheCleanAndInvalid<T, cl, dst>(const GlobalTensor<T>&)",
    "GlobalTensor.SetL2CacheHint.int": "GlobalTensor<T>::SetL2CacheHint<rwMode>(CacheMode)",
}


def _apply_deviations():
    from dataclasses import replace
    unknown = (set(RUN_TIME) | set(UNEMULATED) | set(SAYS)) - {p.id for p in PROBES}
    assert not unknown, f"deviations for probes that do not exist: {sorted(unknown)}"
    for i, p in enumerate(PROBES):
        PROBES[i] = replace(p, runtime=RUN_TIME.get(p.id, ""), unemulated=UNEMULATED.get(p.id, ""), says=SAYS.get(p.id, ""))


_apply_deviations()
