// AscendCraft: the host side of a tiling struct's SetDataPtr(buffer). CANN's tiling data object then keeps its fields
// in that buffer; ours stay plain struct fields (the kernel side reads the same struct, so no member may be added).
// Instead the object is bound to the buffer here: SetDataPtr copies the fields in, and the bytes are copied again when
// the object is destroyed and when the tiling function returns (the glue calls flush_all), so every write made while
// the object lives, through a setter, a reference or an API that fills a nested struct, reaches the buffer.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstring>
#include <mutex>
#include <vector>

namespace ascendcraft {
namespace tiling_bind_detail {   // the emulation's own helpers, not AscendC API

struct Binding {
    const void* object;
    size_t size;
    void* buffer;
};

inline std::mutex& lock() { static std::mutex m; return m; }
inline std::vector<Binding>& table() { static std::vector<Binding> t; return t; }
inline std::atomic<size_t> live{0};   // the destructors of unbound objects (the kernel side's) return at once

// SetDataPtr: the fields go into the buffer now; an object bound again takes the new buffer.
inline void bind(const void* object, size_t size, void* buffer) {
    if (buffer == nullptr) return;
    std::memcpy(buffer, object, size);
    std::lock_guard<std::mutex> g(lock());
    for (Binding& b : table())
        if (b.object == object) { b.size = size; b.buffer = buffer; return; }
    table().push_back({object, size, buffer});
    live.store(table().size(), std::memory_order_relaxed);
}

// The object's destructor: its last values go into the buffer and the binding ends.
inline void release(const void* object) {
    if (live.load(std::memory_order_relaxed) == 0) return;
    std::lock_guard<std::mutex> g(lock());
    std::vector<Binding>& t = table();
    for (size_t i = 0; i < t.size(); ++i)
        if (t[i].object == object) {
            std::memcpy(t[i].buffer, object, t[i].size);
            t.erase(t.begin() + static_cast<std::ptrdiff_t>(i));
            break;
        }
    live.store(t.size(), std::memory_order_relaxed);
}

// The tiling function returned: the objects still alive (static, leaked) copy their values in, and the bindings end
// (the buffer belongs to that one call).
inline void flush_all() {
    std::lock_guard<std::mutex> g(lock());
    for (const Binding& b : table()) std::memcpy(b.buffer, b.object, b.size);
    table().clear();
    live.store(0, std::memory_order_relaxed);
}

}  // namespace tiling_bind_detail
}  // namespace ascendcraft
