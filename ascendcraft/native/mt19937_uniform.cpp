// AscendCraft: torch.rand's float32 stream from the default CPU generator, written straight into a tensor's memory
// (ascendcraft/draws.py builds and loads it; nbs/31_draws.ipynb explains why and checks it bit for bit).
//
// A full-shape verification draws the same GiB-sized upstream inputs on every trial, and the bits must be upstream's:
// `torch.rand` fills them one element at a time through a generic serial loop, about 5 ns an element. The stream
// itself is plain MT19937 (PyTorch's `at::mt19937`: 624 words, the standard twist and tempering), and a float32 of
// `uniform_real_distribution<float>(0, 1)` is the tempered word's low 24 bits times 2^-24. Here the generator state
// is read from and written back to the bytes `torch.get_rng_state()` returns, and a whole block of 624 words is
// twisted, tempered and converted in loops the compiler vectorises.
//
// State bytes (PyTorch's CPUGeneratorImplState, 5056 bytes): int64 seed at 0, int32 `left` at 8, int32 `seeded`
// at 12, uint64 `next` at 16, 624 uint64 words at 24. The Python side checks the result against torch.rand before it
// trusts this layout, so a PyTorch that changed it is caught there, not by wrong inputs.
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace {

constexpr int kWords = 624;
constexpr int kShift = 397;
constexpr size_t kStateBytes = 5056;
constexpr size_t kLeftAt = 8, kNextAt = 16, kWordsAt = 24;

inline uint32_t mix(uint32_t upper, uint32_t lower) {
  uint32_t y = (upper & 0x80000000u) | (lower & 0x7fffffffu);
  return (y >> 1) ^ ((lower & 1u) ? 0x9908b0dfu : 0u);
}

// One generation of the 624 words, in place (the reads ahead of i are of words not yet rewritten).
__attribute__((always_inline)) inline void regenerate(uint32_t* w) {
  for (int i = 0; i < kWords - kShift; ++i) w[i] = w[i + kShift] ^ mix(w[i], w[i + 1]);
  for (int i = kWords - kShift; i < kWords - 1; ++i) w[i] = w[i + kShift - kWords] ^ mix(w[i], w[i + 1]);
  w[kWords - 1] = w[kShift - 1] ^ mix(w[kWords - 1], w[0]);
}

__attribute__((always_inline)) inline float unit_float(uint32_t y) {
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return static_cast<float>(y & 0xffffffu) * (1.0f / 16777216.0f);
}

}  // namespace

// One build for every x86-64, the entry cloned for AVX-512 and AVX2 (the loader picks the widest this CPU has): integer
// work and one exact conversion, the same bits at every width.
// Fill `out[0..n)` as torch.rand(n) would from the generator whose state is `state` (updated in place).
// Returns 0, or 1 for a state of another size, 2 for a position outside the 624 words.
extern "C" __attribute__((target_clones("avx512f", "avx2", "default"))) int ac_mt19937_uniform_f32(unsigned char* state, size_t state_bytes, float* out, size_t n) {
  if (state_bytes != kStateBytes) return 1;
  int32_t left;
  uint64_t next;
  std::memcpy(&left, state + kLeftAt, sizeof left);
  std::memcpy(&next, state + kNextAt, sizeof next);
  if (left < 1 || left > kWords + 1 || next > static_cast<uint64_t>(kWords)) return 2;
  uint32_t w[kWords];
  for (int i = 0; i < kWords; ++i) {
    uint64_t word;
    std::memcpy(&word, state + kWordsAt + 8 * i, sizeof word);
    w[i] = static_cast<uint32_t>(word);
  }
  // The engine takes a word as `if (--left == 0) regenerate; return w[next++]`: `left - 1` words are ready now.
  size_t done = 0;
  while (done < n) {
    size_t ready = static_cast<size_t>(left) - 1;
    if (ready == 0) {
      regenerate(w);
      left = kWords + 1;
      next = 0;
      ready = kWords;
    }
    size_t take = n - done < ready ? n - done : ready;
    const uint32_t* from = w + next;
    float* to = out + done;
    for (size_t i = 0; i < take; ++i) to[i] = unit_float(from[i]);
    done += take;
    next += take;
    left -= static_cast<int32_t>(take);
  }
  std::memcpy(state + kLeftAt, &left, sizeof left);
  std::memcpy(state + kNextAt, &next, sizeof next);
  for (int i = 0; i < kWords; ++i) {
    uint64_t word = w[i];
    std::memcpy(state + kWordsAt + 8 * i, &word, sizeof word);
  }
  return 0;
}
