// AscendCraft CPU emulation: AscendC::Std, the devkit's own type traits (kernels write AscendC::Std::is_same_v<T,
// half>, Std::conditional_t<...>). They behave as the C++ standard's, except that half counts as a floating-point
// type and is_integral lists the standard integer types and bool only (no char16_t / char32_t / wchar_t). Written
// from the public AscendC documentation; no vendor code.
#pragma once
#include <type_traits>
#include <tuple>
#include <utility>

namespace AscendC {
namespace Std {
using std::integral_constant; using std::bool_constant; using std::true_type; using std::false_type;
using std::is_same; using std::is_same_v; using std::conditional; using std::conditional_t;
using std::enable_if; using std::enable_if_t; using std::decay; using std::decay_t;
using std::is_array; using std::is_array_v; using std::is_base_of; using std::is_base_of_v; using std::is_class;
using std::is_class_v; using std::is_const; using std::is_const_v; using std::is_convertible; using std::is_convertible_v;
using std::is_function; using std::is_function_v; using std::is_pointer; using std::is_pointer_v; using std::is_reference;
using std::is_reference_v; using std::is_union; using std::is_union_v; using std::is_void; using std::is_void_v;
using std::add_const; using std::add_const_t; using std::add_cv; using std::add_cv_t; using std::add_volatile;
using std::add_volatile_t; using std::add_pointer; using std::add_pointer_t; using std::add_lvalue_reference;
using std::add_lvalue_reference_t; using std::add_rvalue_reference; using std::add_rvalue_reference_t;
using std::remove_const; using std::remove_const_t; using std::remove_cv; using std::remove_cv_t; using std::remove_volatile;
using std::remove_volatile_t; using std::remove_pointer; using std::remove_pointer_t; using std::remove_reference;
using std::remove_reference_t; using std::remove_extent; using std::remove_extent_t;
template <typename T> using remove_cvref_t = std::remove_cv_t<std::remove_reference_t<T>>;
template <typename T> struct remove_cvref { using type = remove_cvref_t<T>; };
using std::tuple; using std::make_tuple; using std::get; using std::tuple_size; using std::tuple_element;
using std::forward; using std::move; using std::declval;

namespace std_traits_detail {
template <typename T, typename... Us> constexpr bool unqualified_one_of() { return (std::is_same_v<std::remove_cv_t<T>, Us> || ...); }
}  // namespace std_traits_detail

template <typename T> struct is_floating_point
    : bool_constant<std_traits_detail::unqualified_one_of<T, float, double, long double, half>()> {};
template <typename T> constexpr bool is_floating_point_v = is_floating_point<T>::value;
template <typename T> struct is_integral
    : bool_constant<std_traits_detail::unqualified_one_of<T, bool, unsigned long long, long long, unsigned long, long, unsigned int,
                                                          int, unsigned short, short, unsigned char, signed char, char>()> {};
template <typename T, T v> struct is_integral<integral_constant<T, v>> : true_type {};
template <typename T> constexpr bool is_integral_v = is_integral<T>::value;
// Std::min / Std::max of two values of possibly different types (the result is the conditional's common type, as
// `a < b ? a : b` gives it: Std::min(tileLen, total - offset) with uint32_t and uint64_t is a uint64_t).
template <typename T, typename U> inline constexpr auto min(const T& src0, const U& src1) { return src0 < src1 ? src0 : src1; }
template <typename T, typename U> inline constexpr auto max(const T& src0, const U& src1) { return src0 < src1 ? src1 : src0; }
}  // namespace Std
}  // namespace AscendC
