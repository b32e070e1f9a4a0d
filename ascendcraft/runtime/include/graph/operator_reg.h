// AscendCraft emulation of GE's graph/operator_reg.h: the operator IR of an op's op_graph/<op>_proto.h,
//
//     REG_OP(Name)
//         .INPUT(x, TensorType({DT_FLOAT, DT_FLOAT16}))
//         .OPTIONAL_INPUT(bias, TensorType::NumberType())
//         .OUTPUT(y, "T")
//         .ATTR(axis, Int, -1)
//         .REQUIRED_ATTR(strides, ListInt)
//         .DATATYPE(T, TensorType::RealNumberType())
//         .OP_END_FACTORY_REG(Name)
//
// makes ge::op::Name, a ge::Operator whose constructor registers the IR's inputs and outputs by name, with accessors
// per entry (get_input_desc_x, update_output_desc_y, get_attr_axis / set_attr_axis, name_attr_axis, ...). Each entry's
// type constraint and attribute default is compiled as written. The chain is the member-function chain GE's own
// macros use (each `.ENTRY(...)` ends the previous member function and opens the next); no graph is built and no
// operator factory is registered: the emulated host runs tiling and shape functions, not GE.
#pragma once
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>
#include "graph/operator.h"
#include "graph/tensor.h"
#include "graph/types.h"

namespace ge {
// the data types an input or output of the IR accepts
class TensorType {
public:
    TensorType() = default;
    TensorType(DataType dtype) : types_{dtype} {}
    TensorType(std::initializer_list<DataType> types) : types_(types) {}
    static TensorType ALL() {
        return {DT_BOOL, DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_INT16, DT_INT32, DT_INT64,
                DT_INT8, DT_QINT16, DT_QINT32, DT_QINT8, DT_QUINT16, DT_QUINT8, DT_RESOURCE, DT_STRING, DT_UINT16,
                DT_UINT32, DT_UINT64, DT_UINT8, DT_BF16, DT_COMPLEX32};
    }
    static TensorType QuantifiedType() { return {DT_QINT16, DT_QINT32, DT_QINT8, DT_QUINT16, DT_QUINT8}; }
    static TensorType OrdinaryType() {
        return {DT_BOOL, DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_INT16, DT_INT32, DT_INT64,
                DT_INT8, DT_UINT16, DT_UINT32, DT_UINT64, DT_UINT8, DT_BF16};
    }
    static TensorType BasicType() {
        return {DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_INT16, DT_INT32, DT_INT64, DT_INT8,
                DT_QINT16, DT_QINT32, DT_QINT8, DT_QUINT16, DT_QUINT8, DT_UINT16, DT_UINT32, DT_UINT64, DT_UINT8, DT_BF16};
    }
    static TensorType NumberType() {
        return {DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_INT16, DT_INT32, DT_INT64, DT_INT8,
                DT_QINT32, DT_QINT8, DT_QUINT8, DT_UINT16, DT_UINT32, DT_UINT64, DT_UINT8, DT_BF16};
    }
    static TensorType RealNumberType() {
        return {DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_INT16, DT_INT32, DT_INT64, DT_INT8, DT_UINT16, DT_UINT32, DT_UINT64,
                DT_UINT8, DT_BF16};
    }
    static TensorType ComplexDataType() { return {DT_COMPLEX128, DT_COMPLEX64}; }
    static TensorType IntegerDataType() {
        return {DT_INT16, DT_INT32, DT_INT64, DT_INT8, DT_UINT16, DT_UINT32, DT_UINT64, DT_UINT8};
    }
    static TensorType SignedDataType() { return {DT_INT16, DT_INT32, DT_INT64, DT_INT8}; }
    static TensorType UnsignedDataType() { return {DT_UINT16, DT_UINT32, DT_UINT64, DT_UINT8}; }
    static TensorType FloatingDataType() { return {DT_DOUBLE, DT_FLOAT, DT_FLOAT16}; }
    static TensorType IndexNumberType() { return {DT_INT32, DT_INT64}; }
    static TensorType UnaryDataType() { return {DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_BF16}; }
    static TensorType FLOAT() { return {DT_FLOAT, DT_FLOAT16, DT_BF16}; }
private:
    std::vector<DataType> types_;
};

// the value types of the IR's attributes (ATTR(x, Int, ...) is an OpInt)
using OpInt = int64_t;
using OpFloat = float;
using OpBool = bool;
using OpString = std::string;
using OpAscendString = AscendString;
using OpType = DataType;
using OpTensor = Tensor;
using OpBytes = std::vector<uint8_t>;
using OpListInt = std::vector<int64_t>;
using OpListFloat = std::vector<float>;
using OpListBool = std::vector<bool>;
using OpListString = std::vector<std::string>;
using OpListAscendString = std::vector<AscendString>;
using OpListType = std::vector<DataType>;
using OpListTensor = std::vector<Tensor>;
using OpListListInt = std::vector<std::vector<int64_t>>;

namespace operator_reg_detail {
// what the `.ENTRY(...)` of an IR continues on: each entry's macro begins with `Next();`
struct Chain {
    Chain& Next() { return *this; }
};
// an input's or output's type constraint: a TensorType, or the name of a DATATYPE symbol ("T")
inline void TypeSpec(const TensorType&) {}
inline void TypeSpec(const char*) {}
// an attribute's value: set on the operator where ge::Operator keeps attributes of its type (the scalar ones)
template <typename T>
constexpr bool kScalarAttr = std::is_arithmetic<T>::value || std::is_same<T, std::string>::value;
template <typename T> void SetAttr(Operator& op, const char* name, const T& value) {
    if constexpr (kScalarAttr<T>) op.SetAttr(name, value);
}
template <typename T> T AttrOr(const Operator& op, const char* name, T value) {
    if constexpr (kScalarAttr<T>) op.GetAttr(name, value);
    return value;
}
}  // namespace operator_reg_detail
}  // namespace ge

#define REG_OP(x)                                                                                                  \
    namespace op {                                                                                                 \
    class x : public ::ge::Operator {                                                                              \
        typedef x ascendcraft_this_type;                                                                           \
                                                                                                                   \
    public:                                                                                                        \
        x() : ::ge::Operator(#x, #x) { ascendcraft_ir(); }                                                         \
        explicit x(const char* name) : ::ge::Operator(name, #x) { ascendcraft_ir(); }                              \
        explicit x(const std::string& name) : ::ge::Operator(name.c_str(), #x) { ascendcraft_ir(); }               \
        explicit x(const ::ge::AscendString& name) : ::ge::Operator(name, #x) { ascendcraft_ir(); }                \
                                                                                                                   \
    private:                                                                                                       \
        void ascendcraft_ir() {                                                                                    \
            (void)::ge::operator_reg_detail::Chain()

#define ASCENDCRAFT_IR_IN_(x, t)                                                                                   \
    Next();                                                                                                        \
    ascendcraft_in_##x();                                                                                          \
    }                                                                                                              \
                                                                                                                   \
public:                                                                                                            \
    static const std::string name_in_##x() { return #x; }                                                          \
    ::ge::TensorDesc get_input_desc_##x() const { return GetInputDescByName(#x); }                                 \
    ::ge::graphStatus update_input_desc_##x(const ::ge::TensorDesc& desc) { return UpdateInputDesc(#x, desc); }    \
                                                                                                                   \
private:                                                                                                           \
    void ascendcraft_in_##x() {                                                                                    \
        ::ge::operator_reg_detail::TypeSpec(t);                                                                    \
        UpdateInputDesc(#x, ::ge::TensorDesc());                                                                   \
        (void)::ge::operator_reg_detail::Chain()

#define INPUT(x, t) ASCENDCRAFT_IR_IN_(x, t)
#define OPTIONAL_INPUT(x, t) ASCENDCRAFT_IR_IN_(x, t)

#define OUTPUT(x, t)                                                                                               \
    Next();                                                                                                        \
    ascendcraft_out_##x();                                                                                         \
    }                                                                                                              \
                                                                                                                   \
public:                                                                                                            \
    static const std::string name_out_##x() { return #x; }                                                         \
    ::ge::TensorDesc get_output_desc_##x() const { return GetOutputDescByName(#x); }                               \
    ::ge::graphStatus update_output_desc_##x(const ::ge::TensorDesc& desc) { return UpdateOutputDesc(#x, desc); }  \
                                                                                                                   \
private:                                                                                                           \
    void ascendcraft_out_##x() {                                                                                   \
        ::ge::operator_reg_detail::TypeSpec(t);                                                                    \
        UpdateOutputDesc(#x, ::ge::TensorDesc());                                                                  \
        (void)::ge::operator_reg_detail::Chain()

// a dynamic input or output: a variable number of tensors named x0, x1, ... (create_dynamic_input_x(n))
#define ASCENDCRAFT_IR_DYNAMIC_(kind, x, t, update)                                                                \
    Next();                                                                                                        \
    ascendcraft_##kind##_##x();                                                                                    \
    }                                                                                                              \
                                                                                                                   \
public:                                                                                                            \
    ascendcraft_this_type& create_##kind##_##x(uint32_t num) {                                                     \
        for (uint32_t i = 0; i < num; ++i) update((std::string(#x) + std::to_string(i)).c_str(), ::ge::TensorDesc()); \
        return *this;                                                                                              \
    }                                                                                                              \
                                                                                                                   \
private:                                                                                                           \
    void ascendcraft_##kind##_##x() {                                                                              \
        ::ge::operator_reg_detail::TypeSpec(t);                                                                    \
        (void)::ge::operator_reg_detail::Chain()

#define DYNAMIC_INPUT(x, t) ASCENDCRAFT_IR_DYNAMIC_(dynamic_input, x, t, UpdateInputDesc)
#define DYNAMIC_OUTPUT(x, t) ASCENDCRAFT_IR_DYNAMIC_(dynamic_output, x, t, UpdateOutputDesc)

#define ATTR(x, Type, ...)                                                                                         \
    Next();                                                                                                        \
    ascendcraft_attr_##x();                                                                                        \
    }                                                                                                              \
                                                                                                                   \
public:                                                                                                            \
    static const std::string name_attr_##x() { return #x; }                                                        \
    ::ge::Op##Type get_attr_##x() const {                                                                          \
        return ::ge::operator_reg_detail::AttrOr(*this, #x, ::ge::Op##Type(__VA_ARGS__));                          \
    }                                                                                                              \
    ascendcraft_this_type& set_attr_##x(const ::ge::Op##Type& v) {                                                 \
        ::ge::operator_reg_detail::SetAttr(*this, #x, v);                                                          \
        return *this;                                                                                              \
    }                                                                                                              \
                                                                                                                   \
private:                                                                                                           \
    void ascendcraft_attr_##x() {                                                                                  \
        ::ge::operator_reg_detail::SetAttr(*this, #x, ::ge::Op##Type(__VA_ARGS__));                                \
        (void)::ge::operator_reg_detail::Chain()

#define REQUIRED_ATTR(x, Type)                                                                                     \
    Next();                                                                                                        \
    ascendcraft_attr_##x();                                                                                        \
    }                                                                                                              \
                                                                                                                   \
public:                                                                                                            \
    static const std::string name_attr_##x() { return #x; }                                                        \
    ::ge::Op##Type get_attr_##x() const { return ::ge::operator_reg_detail::AttrOr(*this, #x, ::ge::Op##Type()); } \
    ascendcraft_this_type& set_attr_##x(const ::ge::Op##Type& v) {                                                 \
        ::ge::operator_reg_detail::SetAttr(*this, #x, v);                                                          \
        return *this;                                                                                              \
    }                                                                                                              \
                                                                                                                   \
private:                                                                                                           \
    void ascendcraft_attr_##x() {                                                                                  \
        (void)::ge::operator_reg_detail::Chain()

// a type symbol that inputs and outputs name ("T") and the types it stands for
#define DATATYPE(x, t)                                                                                             \
    Next();                                                                                                        \
    ascendcraft_datatype_##x();                                                                                    \
    }                                                                                                              \
                                                                                                                   \
private:                                                                                                           \
    void ascendcraft_datatype_##x() {                                                                              \
        ::ge::operator_reg_detail::TypeSpec(t);                                                                    \
        (void)::ge::operator_reg_detail::Chain()

#define OP_END_FACTORY_REG(x)                                                                                      \
    Next();                                                                                                        \
    }                                                                                                              \
    };                                                                                                             \
    }
