// AscendCraft emulation of GE's graph/tensor.h: ge::Tensor, a tensor description with its bytes (the value of a
// Tensor attribute in an operator's IR, graph/operator_reg.h).
#pragma once
#include <cstdint>
#include <vector>
#include "graph/operator.h"

namespace ge {
class Tensor {
public:
    Tensor() = default;
    explicit Tensor(const TensorDesc& desc) : desc_(desc) {}
    Tensor(const TensorDesc& desc, const std::vector<uint8_t>& data) : desc_(desc), data_(data) {}
    Tensor(const TensorDesc& desc, const uint8_t* data, size_t size) : desc_(desc), data_(data, data + size) {}
    TensorDesc GetTensorDesc() const { return desc_; }
    graphStatus SetTensorDesc(const TensorDesc& desc) { desc_ = desc; return GRAPH_SUCCESS; }
    const uint8_t* GetData() const { return data_.data(); }
    uint8_t* GetData() { return data_.data(); }
    size_t GetSize() const { return data_.size(); }
    graphStatus SetData(const std::vector<uint8_t>& data) { data_ = data; return GRAPH_SUCCESS; }
    graphStatus SetData(const uint8_t* data, size_t size) { data_.assign(data, data + size); return GRAPH_SUCCESS; }
private:
    TensorDesc desc_;
    std::vector<uint8_t> data_;
};
}  // namespace ge
