// AscendCraft: GE's ge::Shape (graph/types.h), a list of dims: the host tiling APIs of the advanced APIs take it
// (norm_tiling.h), and GE's operator view hands it out (ge::TensorDesc::GetShape, op_def_registry.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#ifndef ASCENDCRAFT_GE_SHAPE
#define ASCENDCRAFT_GE_SHAPE
namespace ge {
class Shape {
public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    std::vector<int64_t> GetDims() const { return dims_; }
    void SetDim(size_t i, int64_t v) { if (i < dims_.size()) dims_[i] = v; }
    int64_t GetShapeSize() const {
        if (dims_.empty()) return 0;
        int64_t n = 1;
        for (int64_t d : dims_) n *= d;
        return n;
    }
private:
    std::vector<int64_t> dims_;
};
}  // namespace ge
#endif
