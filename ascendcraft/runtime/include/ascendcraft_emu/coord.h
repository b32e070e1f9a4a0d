// AscendCraft CPU emulation: AscendC's coordinates and flat layouts. A Coord is a tuple of its components
// (Coord<int64_t, int64_t> is Std::tuple<int64_t, int64_t>) and MakeCoord(...) builds one; MakeShape / MakeStride build
// the same kind of tuple, and MakeLayout(shape, stride) a Layout whose operator()(coord) is the offset
// sum(coord[i] * stride[i]) (asc-devkit's matmul_l2cache turns a tile's row / column into A, B and C offsets so).
// Only flat layouts are emulated: a nested (hierarchical) shape, stride or coordinate does not compile.
// Written from the public AscendC documentation; no vendor code.
#pragma once
#include "std_traits.h"

namespace AscendC {
template <typename... Coords> using Coord = Std::tuple<Coords...>;
template <typename... Ts> inline constexpr Coord<Ts...> MakeCoord(Ts const&... t) { return Coord<Ts...>{t...}; }
template <typename... Ts> inline constexpr Std::tuple<Ts...> MakeShape(Ts const&... t) { return Std::tuple<Ts...>{t...}; }
template <typename... Ts> inline constexpr Std::tuple<Ts...> MakeStride(Ts const&... t) { return Std::tuple<Ts...>{t...}; }

template <typename Shape, typename Stride> struct Layout {
    // an empty stride (MakeStride()) gives a shape-only layout (TransData's parameters); it has no offsets
    static_assert(Std::tuple_size<Stride>::value == 0 || Std::tuple_size<Shape>::value == Std::tuple_size<Stride>::value,
                  "Layout: the shape and the stride have as many modes");
    constexpr Layout(const Shape& s, const Stride& d) : shape_(s), stride_(d) {}
    template <typename... Cs> constexpr int64_t operator()(const Std::tuple<Cs...>& c) const {
        static_assert(sizeof...(Cs) == Std::tuple_size<Stride>::value, "Layout: the coordinate has one component per mode");
        return offset(c, std::make_index_sequence<sizeof...(Cs)>{});
    }
    constexpr const Shape& GetShape() const { return shape_; }
    constexpr const Stride& GetStride() const { return stride_; }

private:
    template <typename C, size_t... I> constexpr int64_t offset(const C& c, std::index_sequence<I...>) const {
        return (int64_t{0} + ... + (static_cast<int64_t>(Std::get<I>(c)) * static_cast<int64_t>(Std::get<I>(stride_))));
    }
    Shape shape_;
    Stride stride_;
};
template <typename Shape, typename Stride>
inline constexpr Layout<Shape, Stride> MakeLayout(const Shape& shape, const Stride& stride) { return Layout<Shape, Stride>(shape, stride); }
}  // namespace AscendC
