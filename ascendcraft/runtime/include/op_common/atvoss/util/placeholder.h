// AscendCraft: the names of opbase's element-wise DAG placeholders (op_common/atvoss/util/placeholder.h): the inputs,
// outputs, scalars and constants an Ascend 950 kernel's DAG is written over. An Ascend 950 DAG header that an A2 build
// reaches through a tiling header (hicann ops-nn apply_adam_w_v2's arch35 DAG, included by its A2 tiling header) only
// names them in type aliases. The templates are declared and not defined: a DAG the emulator would have to run does
// not compile (the template's kernels are not emulated). No vendor code.
#pragma once

#include <cstdint>

namespace Ops { namespace Base { namespace Placeholder {

enum HolderScope { GM, VECTOR };
template <HolderScope scope = HolderScope::GM, int isScalar = 0> struct InAttr;
template <int isScalar = 0> struct ScalarAttr;
template <HolderScope scope = HolderScope::GM> struct ScopeAttr;

template <class T, class Attr = InAttr<>> struct In0;
template <class T, class Attr = InAttr<>> struct In1;
template <class T, class Attr = InAttr<>> struct In2;
template <class T, class Attr = InAttr<>> struct In3;
template <class T, class Attr = InAttr<>> struct In4;
template <class T, class Attr = InAttr<>> struct In5;
template <class T, class Attr = InAttr<>> struct In6;
template <class T, class Attr = InAttr<>> struct In7;
template <class T, class Attr = InAttr<>> struct In8;
template <class T, class Attr = InAttr<>> struct In9;
template <class T, class Attr = InAttr<>> struct In10;
template <class T, class Attr = InAttr<>> struct In11;
template <class T, class Attr = void, class Parent = void> struct Out0;
template <class T, class Attr = void, class Parent = void> struct Out1;
template <class T, class Attr = void, class Parent = void> struct Out2;
template <class T, class Attr = void, class Parent = void> struct Out3;
template <class T, class Attr = void, class Parent = void> struct Out4;
template <class T, class Attr = void, class Parent = void> struct Out5;
template <class T, class Attr = void, class Parent = void> struct Out6;
template <class T, class Attr = void, class Parent = void> struct Out7;
template <class T, class Attr = void, class Parent = void> struct Out8;
template <class T, class Attr = void, class Parent = void> struct Out9;
// A scalar operand of the op's tiling (its index among the DAG's variables).
template <class T, int index, class Attr = void> struct Var;

}}}  // namespace Ops::Base::Placeholder

// A constant operand: a type that carries the value (one new type per use).
#define ASCENDCRAFT_ATVOSS_CAT2(a, b) a##b
#define ASCENDCRAFT_ATVOSS_CAT(a, b) ASCENDCRAFT_ATVOSS_CAT2(a, b)
#ifndef MAKE_CONST
#define MAKE_CONST(t, v)                                                                  \
    struct ASCENDCRAFT_ATVOSS_CAT(AscendCraftAtvossConst_, __COUNTER__) {                 \
        static constexpr bool IsConstValue_ = true;                                       \
        static constexpr t value = v;                                                     \
    }
#endif
