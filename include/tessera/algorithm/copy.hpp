// copy(src, dst) and copy_if(pred, src, dst): element i of src goes to element i of dst.
// copy vectorizes: it moves W bits per access, W the widest of 128/64/32/16/8 such that
//   (a) W/bits(T) elements divide max_common_vector(src layout, dst layout) (static layouts),
//   (b) every W-bit vector of dst (its offsets aligned to W/bits(T)) holds consecutive,
//       equally aligned offsets of src, so each vector is one aligned load and one aligned store,
//   (c) both pointers are aligned to W/8 bytes (checked at run time), and W/8 bytes are
//       contiguous in both iterators (a swizzled pointer keeps 2^M bytes together),
// and element by element otherwise. copy_vector_bits(src, dst) returns the W copy would use.
// copy_aligned(src, dst) decides W from (a) and (b) alone and assumes (c) (no run-time dispatch).
// (b) and (c) are algorithm/copy_rules.hpp's rules, which `tessera check copy --width` applies to
// layouts at run time and reports by name.
#pragma once

#include "tessera/algorithm/copy_rules.hpp"
#include "tessera/algorithm/functional.hpp"

namespace tessera {

namespace detail {
// An unsigned type of Bytes bytes, aligned to its size: the unit of a vectorized access.
template <int Bytes>
struct alignas(Bytes) copy_vector {
  unsigned char b[Bytes];
};

// The block structure of a vectorized copy of N elements between static layouts LS and LD:
// ok when condition (b) holds; starts[j] is the 1-D index of the element opening vector j.
template <class LS, class LD, int N>
struct vector_plan {
  static constexpr long long n = static_cast<long long>(decltype(size(LD{}))::value);
  static constexpr long long cosize_d = static_cast<long long>(decltype(cosize(LD{}))::value);
  static constexpr int blocks = int(n / N);
  // The offset -> index inverse of dst is a dense table where dst's cosize allows (a thread's
  // fragment of shared memory or registers); a sparse dst (a thread's values rows apart in a
  // global matrix) is searched instead, for fragments of up to search_limit values; beyond both
  // (or with a cosize below 1: negative strides) the copy stays scalar.
  static constexpr long long table_limit = 1 << 15;
  static constexpr long long search_limit = 1 << 8;  // the search is quadratic, in constant evaluation
  static constexpr bool dense = cosize_d >= 1 && cosize_d <= table_limit;

  struct result {
    bool ok = false;
    int starts[blocks > 0 ? blocks : 1] = {};
  };
  TESSERA_HOST_DEVICE static constexpr result compute() {
    result r{};
    if (n % N != 0 || cosize_d < 1 || (!dense && n > search_limit)) return r;
    LS s{};
    LD d{};
    int inv[dense ? cosize_d : 1] = {};
    long long off[dense || n > search_limit ? 1 : n] = {};
    if constexpr (dense) {
      for (auto& v : inv) v = -1;
      for (int i = 0; i < int(n); ++i) {
        long long o = static_cast<long long>(d(i));
        if (o < 0 || o >= cosize_d || inv[o] != -1) return r;  // negative or repeated dst offsets
        inv[o] = i;
      }
    } else {
      for (int i = 0; i < int(n); ++i) {
        off[i] = static_cast<long long>(d(i));
        if (off[i] < 0) return r;
        for (int k = 0; k < i; ++k)
          if (off[k] == off[i]) return r;  // repeated dst offsets
      }
    }
    // The index of dst's element at offset o, or -1.
    auto index_of = [&](long long o) {
      if constexpr (dense) {
        return o < cosize_d ? inv[o] : -1;
      } else {
        for (int k = 0; k < int(n); ++k)
          if (off[k] == o) return k;
        return -1;
      }
    };
    // Rules copy.run_align, copy.contiguous and copy.cover (algorithm/copy_rules.hpp), as the
    // checker applies them at run time.
    int count = 0;
    CopyRunViolation const v = copy_runs_violation(n, N, cosize_d, s, d, index_of, [&](long long i) {
      if (count >= blocks) return false;
      r.starts[count++] = int(i);
      return true;
    });
    r.ok = v.rule == CopyRule::ok && count == blocks;
    return r;
  }
};
template <class LS, class LD, int N>
inline constexpr auto vector_plan_v = vector_plan<LS, LD, N>::compute();

template <class T>
TESSERA_HOST_DEVICE bool aligned_to(T const* p, int bytes) {
  return reinterpret_cast<std::uintptr_t>(p) % static_cast<std::uintptr_t>(bytes) == 0;
}

// Conditions (a) and (b) for W-bit accesses, decided from the types alone.
template <int W, class S, class D>
TESSERA_HOST_DEVICE constexpr bool static_vector_ok() {
  using T = typename D::value_type;
  constexpr int bits = sizeof_bits_v<T>;
  if constexpr (!PointerIterator<typename S::iterator> || !PointerIterator<typename D::iterator> ||
                !std::is_same_v<typename S::value_type, T> || !std::is_trivially_copyable_v<T> ||
                !is_static_v<typename S::layout_type> || !is_static_v<typename D::layout_type>) {
    return false;
  } else if constexpr (!copy_width_ok(W, bits) || W / 8 > contiguous_bytes_v<typename S::iterator> ||
                       W / 8 > contiguous_bytes_v<typename D::iterator>) {
    return false;
  } else {
    constexpr int N = W / bits;
    constexpr auto v = decltype(max_common_vector(typename S::layout_type{}, typename D::layout_type{}))::value;
    if constexpr (v % N != 0) {
      return false;
    } else {
      return vector_plan_v<typename S::layout_type, typename D::layout_type, N>.ok;
    }
  }
}

// Whether src -> dst may move W bits per access (conditions (a)-(c) above).
template <int W, class Src, class Dst>
TESSERA_HOST_DEVICE bool can_vectorize(Src const& src, Dst const& dst) {
  if constexpr (!static_vector_ok<W, std::remove_cvref_t<Src>, std::remove_cvref_t<Dst>>()) {
    return false;
  } else {
    return aligned_to(raw_pointer(src.data()), W / 8) && aligned_to(raw_pointer(dst.data()), W / 8);
  }
}

// The number of W-bit vectors a W-bit copy src -> dst moves (static_vector_ok<W, S, D>() holds).
template <int W, class S, class D>
TESSERA_HOST_DEVICE constexpr int vector_blocks() {
  return vector_plan<typename S::layout_type, typename D::layout_type,
                     W / sizeof_bits_v<typename D::value_type>>::blocks;
}

// Moves vector j (0 <= j < vector_blocks<W, S, D>()) of a W-bit copy src -> dst.
// Pre: static_vector_ok<W, S, D>() and can_vectorize<W>(src, dst) hold.
template <int W, class Src, class Dst>
TESSERA_HOST_DEVICE void copy_vector_block(Src const& src, Dst& dst, int j) {
  using S = std::remove_cvref_t<Src>;
  using D = std::remove_cvref_t<Dst>;
  constexpr auto plan =
      vector_plan_v<typename S::layout_type, typename D::layout_type, W / sizeof_bits_v<typename D::value_type>>;
  using V = copy_vector<W / 8>;
  int const i = plan.starts[j];
  // Through the iterators, so that a swizzled pointer swizzles each vector's address.
  *reinterpret_cast<V*>(raw_pointer(dst.data() + dst.layout()(i))) =
      *reinterpret_cast<V const*>(raw_pointer(src.data() + src.layout()(i)));
}

// Copies with W-bit accesses and returns true when can_vectorize<W> holds; else returns false.
// With Assumed, the pointers' alignment is a precondition instead (checked on the host only).
template <int W, bool Assumed = false, class Src, class Dst>
TESSERA_HOST_DEVICE bool copy_vectorized(Src const& src, Dst& dst) {
  using S = std::remove_cvref_t<Src>;
  using D = std::remove_cvref_t<Dst>;
  if constexpr (!static_vector_ok<W, S, D>()) {
    return false;
  } else {
    if constexpr (Assumed) {
      TESSERA_REQUIRE(aligned_to(raw_pointer(src.data()), W / 8) && aligned_to(raw_pointer(dst.data()), W / 8),
                      "copy_aligned: both tensors' pointers must be aligned to the vector width in bytes "
                      "(the first value below, from the layouts: rule copy.align, algorithm/copy_rules.hpp); "
                      "align the buffers or call copy, which checks alignment at run time",
                      W / 8);
    } else {
      if (!can_vectorize<W>(src, dst)) return false;
    }
    TESSERA_UNROLL
    for (int j = 0; j < vector_blocks<W, S, D>(); ++j) copy_vector_block<W>(src, dst, j);
    return true;
  }
}
}  // namespace detail

// copy_vector_bits(src, dst): the access width in bits copy(src, dst) uses: 128, 64, 32, 16 or 8
// when vectorized, otherwise the element width (one access per element).
// Two 16-byte aligned float tensors over (_8,_8):(_1,_8) -> 128; offset by one float -> 32.
template <class Src, class Dst>
TESSERA_HOST_DEVICE int copy_vector_bits(Src const& src, Dst const& dst) {
  using T = typename std::remove_cvref_t<Dst>::value_type;
  if (detail::can_vectorize<128>(src, dst)) return 128;
  if (detail::can_vectorize<64>(src, dst)) return 64;
  if (detail::can_vectorize<32>(src, dst)) return 32;
  if (detail::can_vectorize<16>(src, dst)) return 16;
  if (detail::can_vectorize<8>(src, dst)) return 8;
  return sizeof_bits_v<T>;
}

// copy(src, dst): dst(i) = src(i) for every i, vectorized as the header says.
// Pre: size(src) == size(dst).
template <class Src, class Dst>
  requires(is_tensor_v<Src> && is_tensor_v<Dst>)
TESSERA_HOST_DEVICE void copy(Src const& src, Dst&& dst) {
  detail::require_same_size(src, dst);
  if (detail::copy_vectorized<128>(src, dst) || detail::copy_vectorized<64>(src, dst) ||
      detail::copy_vectorized<32>(src, dst) || detail::copy_vectorized<16>(src, dst) ||
      detail::copy_vectorized<8>(src, dst)) {
    return;
  }
  detail::loop(size(dst), [&](auto i) { dst(i) = src(i); });
}

// copy_aligned(src, dst): dst(i) = src(i) for every i, with the widest W of 128/64/32/16/8 bits
// that conditions (a) and (b) of the header allow (decided at compile time), assuming (c): no
// run-time alignment check in device code (as CuTe's copy_aligned, which assumes 128-bit alignment).
// Pre: size(src) == size(dst); both pointers aligned to W/8 bytes (checked on the host, where a
// misaligned pointer is a layout_error naming copy_aligned).
// Post: as copy. Example: two 16-byte aligned float tensors over (_8,_8):(_1,_8) -> 16 accesses of
// 128 bits, the same as copy, without copy's pointer test.
template <class Src, class Dst>
  requires(is_tensor_v<Src> && is_tensor_v<Dst>)
TESSERA_HOST_DEVICE void copy_aligned(Src const& src, Dst&& dst) {
  detail::require_same_size(src, dst);
  if (detail::copy_vectorized<128, true>(src, dst) || detail::copy_vectorized<64, true>(src, dst) ||
      detail::copy_vectorized<32, true>(src, dst) || detail::copy_vectorized<16, true>(src, dst) ||
      detail::copy_vectorized<8, true>(src, dst)) {
    return;
  }
  detail::loop(size(dst), [&](auto i) { dst(i) = src(i); });
}

// copy_aligned<W>(src, dst): as copy_aligned, with accesses at most W bits wide (W one of 128, 64,
// 32, 16, 8): for pointers known aligned to W/8 bytes and no more, e.g. a slice of a row at a
// run-time offset. The Python kernel language writes it with the alignment it derives from the
// tensors' layouts and their base pointers (docs/python-kernels.md).
// Pre: size(src) == size(dst); both pointers aligned to W/8 bytes (checked on the host).
// Example: two 8-byte aligned (_4):(_1) half tensors: copy_aligned<64> moves them with one access.
template <int W, class Src, class Dst>
  requires(is_tensor_v<Src> && is_tensor_v<Dst>)
TESSERA_HOST_DEVICE void copy_aligned(Src const& src, Dst&& dst) {
  static_assert(W == 128 || W == 64 || W == 32 || W == 16 || W == 8,
                "copy_aligned<W>: W is the widest access in bits: 128, 64, 32, 16 or 8");
  detail::require_same_size(src, dst);
  if ((W >= 128 && detail::copy_vectorized<128, true>(src, dst)) ||
      (W >= 64 && detail::copy_vectorized<64, true>(src, dst)) ||
      (W >= 32 && detail::copy_vectorized<32, true>(src, dst)) ||
      (W >= 16 && detail::copy_vectorized<16, true>(src, dst)) || detail::copy_vectorized<8, true>(src, dst)) {
    return;
  }
  detail::loop(size(dst), [&](auto i) { dst(i) = src(i); });
}

// copy_if(pred, src, dst): dst(i) = src(i) where pred(i) is true (pred a tensor of booleans, e.g.
// elem_less of an identity tensor's coordinates and the shape, or a callable of i). Element by
// element; dst(i) is not touched where pred(i) is false. Pre: size(src) == size(dst) == size(pred).
template <class P, class Src, class Dst>
  requires(is_tensor_v<Src> && is_tensor_v<Dst>)
TESSERA_HOST_DEVICE void copy_if(P const& pred, Src const& src, Dst&& dst) {
  detail::require_same_size(src, dst);
  if constexpr (is_tensor_v<P>) {
    detail::require_same_size(pred, dst);
  }
  detail::loop(size(dst), [&](auto i) {
    if (static_cast<bool>(pred(i))) dst(i) = src(i);
  });
}

}  // namespace tessera
