// AscendCraft: the first pass of verify's chunked float comparison, in one read of both tensors
// (ascendcraft/verify.py loads it for large float32/float64 outputs; nbs/31_verify.ipynb checks it against the NumPy
// pass it replaces, figure for figure).
//
// verify._compare_chunked walks the reference and the output in chunks of COMPARE_CHUNK elements, converts each to
// float64 and reads it about a dozen times with NumPy (|out - ref|, |ref|, the tolerance, the relative error, the
// constancy checks): about 4 ns an element, a second per GiB of output at full shapes. This computes the same
// per-chunk quantities element by element, with the same chunk boundaries, the same NaN and infinity rules and the
// same float64 arithmetic (no contraction into fused multiply-adds), and folds them across chunks exactly as the
// Python loop does. The chunk's sum of the reference is NumPy's pairwise summation, so the mean matches too.
#include <cmath>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

namespace {

struct Pass {                  // the Python loop's state after the last chunk (ctypes mirrors this layout)
  int64_t nans;
  double max_abs, max_rel, scale, total, r0, o0;
  int32_t ok, zero_ok, ref_const, out_const, has_first;
};

const double kNaN = std::numeric_limits<double>::quiet_NaN();

// NumPy's pairwise sum of float64 (blocks of 128 with eight accumulators, halves above), as add.reduce computes it.
double pairwise(const double* a, int64_t n) {
  if (n < 8) {
    double res = 0.;
    for (int64_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    double r[8];
    for (int k = 0; k < 8; ++k) r[k] = a[k];
    int64_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int k = 0; k < 8; ++k) r[k] += a[i + k];
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  int64_t half = n / 2;
  half -= half % 8;
  return pairwise(a, half) + pairwise(a + half, n - half);
}

// max(a, b) as verify._nanmax: a NaN already there stays
inline double nanmax(double a, double b) { return (a != a || a >= b) ? a : b; }

// One chunk's figures. Written without branches or short-circuits so that the compiler vectorises the loop: every
// element is visited, which changes nothing (the Python loop's `all` and `max` see every element too). The maxima are
// of values that are >= +0 or NaN, taken on their IEEE bit patterns as integers, which order them the same way and
// put every NaN above infinity: a maximum above infinity's pattern is NumPy's NaN. (A floating-point max does not
// vectorise without -ffast-math, which would change the arithmetic.)
struct Chunk {
  double top_d, top_a, top_rel;   // NaN when one of the values was NaN, as NumPy's max
  int nan_out, ref_const, out_const, ok, zero_ok, ok_inf, zero_inf;
};

inline uint64_t bits(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

inline double value(uint64_t b) {
  double v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

inline double top_of(uint64_t b) { return b > bits(std::numeric_limits<double>::infinity()) ? kNaN : value(b); }

template <typename T>
__attribute__((always_inline)) inline Chunk scan(const T* r, const T* o, int64_t k, double r0, double o0, double atol,
                                                 double rtol, double* rb) {
  const double big = std::numeric_limits<double>::max();
  uint64_t top_d = 0, top_a = 0, top_rel = 0;
  int nan_out = 0, ref_const = 1, out_const = 1, ok = 1, zero_ok = 1, ok_inf = 1, zero_inf = 1;
  for (int64_t j = 0; j < k; ++j) {
    const double rv = static_cast<double>(r[j]), ov = static_cast<double>(o[j]);
    rb[j] = rv;
    // d = |ov - rv|, but 0 where they are equal (infinities included), and the relative error d / |rv| where rv is
    // not 0 (0 there): both selected on the bit patterns with a mask, so that the loop stays one straight line
    const uint64_t bd = bits(std::fabs(ov - rv)) & (uint64_t{0} - static_cast<uint64_t>(ov != rv));
    const double d = value(bd);
    const double a = std::fabs(rv);
    const uint64_t ba = bits(a);
    const uint64_t brel = bits(d / a) & (uint64_t{0} - static_cast<uint64_t>(rv != 0.));   // a 0 gives inf or NaN: masked
    nan_out |= ov != ov;
    top_d = std::max(top_d, bd);
    top_a = std::max(top_a, ba);
    top_rel = std::max(top_rel, brel);
    ref_const &= rv == r0;
    out_const &= ov == o0;
    const double tol = a * rtol + atol;
    ok &= d <= tol;
    zero_ok &= a <= tol;
    const int finite = a <= big;                     // NaN and infinities are not
    ok_inf &= finite | (d == 0.);
    zero_inf &= finite | (a == 0.);
  }
  return Chunk{top_of(top_d), top_of(top_a), top_of(top_rel), nan_out, ref_const, out_const, ok, zero_ok, ok_inf,
               zero_inf};
}

int64_t count_nan(const double* rb, int64_t k) {
  int64_t c = 0;
  for (int64_t j = 0; j < k; ++j) c += rb[j] != rb[j];
  return c;
}

template <typename T>
__attribute__((always_inline)) inline void compare_pass(const T* ref, const T* out, int64_t n, int64_t chunk,
                                                        double atol, double rtol, Pass* p) {
  *p = Pass{0, 0., 0., 0., 0., 0., 0., 1, 1, n > 1, n > 1, 0};
  std::vector<double> rb(static_cast<size_t>(chunk < n ? chunk : n));
  for (int64_t start = 0; start < n; start += chunk) {
    const int64_t k = chunk < n - start ? chunk : n - start;
    const T* r = ref + start;
    const T* o = out + start;
    if (p->nans) {                                   // the verdict is "nan"; only the count goes on
      for (int64_t j = 0; j < k; ++j) rb[j] = static_cast<double>(o[j]);
      p->nans += count_nan(rb.data(), k);
      continue;
    }
    const double r0 = p->has_first ? p->r0 : static_cast<double>(r[0]);
    const double o0 = p->has_first ? p->o0 : static_cast<double>(o[0]);
    const Chunk c = scan(r, o, k, r0, o0, atol, rtol, rb.data());
    if (c.nan_out) {
      for (int64_t j = 0; j < k; ++j) rb[j] = static_cast<double>(o[j]);
      p->nans += count_nan(rb.data(), k);
      continue;
    }
    p->r0 = r0;
    p->o0 = o0;
    p->has_first = 1;
    p->ref_const = p->ref_const && c.ref_const;
    p->out_const = p->out_const && c.out_const;
    p->max_abs = nanmax(p->max_abs, c.top_d);
    p->max_rel = nanmax(p->max_rel, c.top_rel);
    const double top = c.top_a;
    if (top > p->scale) p->scale = top;              // Python's max(scale, top): a NaN chunk leaves it
    p->total += pairwise(rb.data(), k);
    const bool chunk_finite = top == top && top != std::numeric_limits<double>::infinity();
    if (p->ok || p->zero_ok) {
      p->ok = p->ok && c.ok && (chunk_finite || c.ok_inf);
      p->zero_ok = p->zero_ok && c.zero_ok && (chunk_finite || c.zero_inf);
    }
  }
}

}  // namespace

// One build for every x86-64, each entry cloned for AVX-512 and AVX2 (the loader picks the widest this CPU has): the
// same IEEE operations at every width, no fused multiply-adds (-ffp-contract=off), so the same figures.
#define AC_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))

extern "C" AC_CLONES void ac_compare_pass_f32(const float* ref, const float* out, int64_t n, int64_t chunk, double atol,
                                    double rtol, Pass* p) {
  compare_pass(ref, out, n, chunk, atol, rtol, p);
}

extern "C" AC_CLONES void ac_compare_pass_f64(const double* ref, const double* out, int64_t n, int64_t chunk, double atol,
                                    double rtol, Pass* p) {
  compare_pass(ref, out, n, chunk, atol, rtol, p);
}
