// AscendCraft: the names of opbase's element-wise DAG operations (op_common/atvoss/util/vec.h, namespace Vec), which an
// Ascend 950 DAG binds to operands. An Ascend 950 DAG header that an A2 build reaches through a tiling header only
// names them in type aliases (hicann ops-nn apply_adam_w_v2). Declared and not defined: the operations run on Ascend
// 950's register-based vector unit and are not emulated, so a DAG that would run does not compile. No vendor code.
#pragma once

#include "op_common/atvoss/util/dag.h"

// On the host (an op_host source: no __NPU_ARCH__, or ASCENDCRAFT_OP_HOST), opbase's header stands the kernel's element
// types in by two-byte structs of these names in Ops::Base, so an Ascend 950 tiling source that instantiates a DAG over
// `half` (apply_adam_w_v2_tiling_arch35.cpp: `ApplyAdamWV2DAG<half, half, float, float>`) compiles on the host as on CANN.
#if !defined(__NPU_ARCH__) || defined(ASCENDCRAFT_OP_HOST)
#include <cstdint>
namespace Ops { namespace Base {
struct half { uint16_t value; };
struct bfloat16_t { uint16_t value; };
}}  // namespace Ops::Base
#endif

namespace Ops { namespace Base { namespace Vec {

// One argument: the element type.
template <class T> struct Duplicate;
template <class T> struct Reciprocal;
template <class T> struct Log;
template <class T> struct Copy;
template <class T> struct Abs;
template <class T> struct Exp;
template <class T> struct Sin;
template <class T> struct Cos;
template <class T> struct AtanPolyApprox;
template <class T> struct Erf;
template <class T> struct Erfc;
template <class T> struct Sqrt;
template <class T> struct ReduceOp;
template <class T> struct Add;
template <class T> struct Fmod;
template <class T> struct FmodHighPrecision;
template <class T> struct Adds;
template <class T> struct Relu;
template <class T> struct Max;
template <class T> struct Maxs;
template <class T> struct Min;
template <class T> struct Mins;
template <class T> struct Sub;
template <class T> struct Mul;
template <class T> struct Muls;
template <class T> struct Div;
template <class T> struct DivHighPrecision;
template <class T> struct Divs;
template <class T> struct Subs;
template <class T> struct LeakyRelu;
template <class T> struct And;
template <class T> struct Ands;
template <class T> struct Or;
template <class T> struct Ors;
template <class T> struct Power;
template <class T> struct FusedMulAdd;
template <class T> struct Axpy;
template <class T> struct CopyIn;
template <class T> struct CopyOut;
template <class T> struct Not;
// Result and source types, with a mode (rounding, comparison, selection).
template <class R, class T, int roundMode> struct Cast;
template <class U, class T> struct Sqrt0ULP;
template <class T, int roundMode> struct Truncate;
template <class R, class T, int cmpMode> struct Compare;
template <class U, class T, int selMode> struct Select;
// Broadcasts.
template <class T, int group = 0> struct CopyInBrc;
template <class T, int group = 0, int constRank = -1> struct Brc;

}}}  // namespace Ops::Base::Vec
