// AscendCraft: a CPU allocator for PyTorch that keeps the pages of large freed blocks for the next allocation of the
// same size (ascendcraft/blockcache.py builds and installs it; nbs/31_blockcache.ipynb explains why).
//
// A full-shape reference allocates the same few GiB-sized temporaries on every trial. PyTorch's default CPU allocator
// hands each one back to the kernel when it is freed, so every trial faults in, zeroes and (with huge pages) compacts
// them again: on a VM that is most of a reference's time. Here a block of at least `threshold` bytes is mapped on its
// own (2 MiB aligned, huge pages advised) and, when freed, kept for a later allocation of the same rounded size, as
// long as the kept bytes stay within `cap`. A miss first unmaps kept blocks until the large blocks alive, the kept ones
// and the new one together are no more than the most ever alive at once: the process never holds more than it did at
// its peak without the cache, plus at most `cap` outside it. Smaller blocks go to the allocator that was installed.
#include <c10/core/CPUAllocator.h>

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <unordered_map>

namespace {

constexpr size_t kHugePage = size_t(2) << 20;

struct Stats {
  uint64_t hits = 0, misses = 0, kept = 0, dropped = 0, evicted = 0;
  uint64_t live = 0, cached = 0, peak_live = 0, fresh_bytes = 0, reused_bytes = 0;
};

void* map_aligned(size_t bytes) {
  // map a little more, then trim both ends so that the block starts on a 2 MiB boundary (huge pages need it)
  size_t span = bytes + kHugePage;
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  uintptr_t aligned = (start + kHugePage - 1) & ~(uintptr_t(kHugePage) - 1);
  if (aligned > start) munmap(raw, aligned - start);
  uintptr_t end = start + span, used = aligned + bytes;
  if (end > used) munmap(reinterpret_cast<void*>(used), end - used);
  void* block = reinterpret_cast<void*>(aligned);
  madvise(block, bytes, MADV_HUGEPAGE);
  return block;
}

class BlockCache final : public c10::Allocator {
 public:
  BlockCache(c10::Allocator* next, uint64_t cap, uint64_t threshold) : next_(next), cap_(cap), threshold_(threshold) {}

  c10::DataPtr allocate(size_t n) override {
    if (n < threshold_) return next_->allocate(n);
    size_t bytes = (n + kHugePage - 1) / kHugePage * kHugePage;
    void* block = nullptr;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = free_.find(bytes);
      if (it != free_.end()) {
        block = it->second;
        free_.erase(it);
        s_.cached -= bytes;
        s_.hits += 1;
        s_.reused_bytes += bytes;
      } else {
        s_.misses += 1;
        s_.fresh_bytes += bytes;
        uint64_t bound = std::max<uint64_t>(s_.peak_live, s_.live + bytes);
        while (!free_.empty() && s_.live + s_.cached + bytes > bound) unmap_largest();
      }
      s_.live += bytes;
      s_.peak_live = std::max(s_.peak_live, s_.live);
    }
    if (block == nullptr) {
      block = map_aligned(bytes);
      if (block == nullptr) {
        std::lock_guard<std::mutex> lock(mu_);
        s_.live -= bytes;
        throw std::bad_alloc();
      }
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      sizes_[block] = bytes;
    }
    return {block, block, &BlockCache::release_block, c10::Device(c10::DeviceType::CPU)};
  }

  c10::DeleterFnPtr raw_deleter() const override { return nullptr; }
  void copy_data(void* dest, const void* src, std::size_t count) const override { std::memcpy(dest, src, count); }

  void give_back(void* block) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = sizes_.find(block);
    size_t bytes = it->second;
    sizes_.erase(it);
    s_.live -= bytes;
    if (s_.cached + bytes <= cap_) {
      free_.emplace(bytes, block);
      s_.cached += bytes;
      s_.kept += 1;
    } else {
      munmap(block, bytes);
      s_.dropped += 1;
    }
  }

  void set_cap(uint64_t cap) {
    std::lock_guard<std::mutex> lock(mu_);
    cap_ = cap;
    while (s_.cached > cap_) unmap_largest();
  }

  void trim() {
    std::lock_guard<std::mutex> lock(mu_);
    while (!free_.empty()) unmap_largest();
  }

  Stats stats() {
    std::lock_guard<std::mutex> lock(mu_);
    return s_;
  }

  static BlockCache* installed;

 private:
  static void release_block(void* block) { installed->give_back(block); }

  void unmap_largest() {  // mu_ held
    auto last = std::prev(free_.end());
    munmap(last->second, last->first);
    s_.cached -= last->first;
    s_.evicted += 1;
    free_.erase(last);
  }

  c10::Allocator* next_;
  uint64_t cap_, threshold_;
  std::mutex mu_;
  std::multimap<size_t, void*> free_;       // rounded size -> a kept block
  std::unordered_map<void*, size_t> sizes_;  // block alive -> its rounded size
  Stats s_;
};

BlockCache* BlockCache::installed = nullptr;

}  // namespace

extern "C" {

// Install the cache as PyTorch's CPU allocator (once per process; never removed, since blocks it handed out may
// outlive any later allocator). A second call only changes the cap. Returns 0 when installed now, 1 when it was.
int acbc_install(uint64_t cap, uint64_t threshold) {
  if (BlockCache::installed != nullptr) {
    BlockCache::installed->set_cap(cap);
    return 1;
  }
  BlockCache::installed = new BlockCache(c10::GetCPUAllocator(), cap, threshold);
  c10::SetCPUAllocator(BlockCache::installed, /*priority=*/UINT8_MAX);
  return 0;
}

// The cap on kept bytes; 0 unmaps every kept block (and keeps none from then on).
void acbc_set_cap(uint64_t cap) {
  if (BlockCache::installed != nullptr) BlockCache::installed->set_cap(cap);
}

// Unmap every kept block now (memory is needed outside PyTorch); the cap stays.
void acbc_trim() {
  if (BlockCache::installed != nullptr) BlockCache::installed->trim();
}

// hits, misses, kept, dropped, evicted, live, cached, peak_live, fresh_bytes, reused_bytes
void acbc_stats(uint64_t out[10]) {
  Stats s = BlockCache::installed != nullptr ? BlockCache::installed->stats() : Stats{};
  uint64_t values[10] = {s.hits, s.misses, s.kept, s.dropped, s.evicted,
                         s.live, s.cached, s.peak_live, s.fresh_bytes, s.reused_bytes};
  std::memcpy(out, values, sizeof values);
}

}  // extern "C"
