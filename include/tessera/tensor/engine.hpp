// Engines: what a tensor's elements live in. ViewEngine<Iterator> refers to memory it does not
// own (global, shared, or another tensor's registers); ArrayEngine<T, N> owns N elements (a
// register array in device code), for tensors whose layout is static.
#pragma once

#include "tessera/tensor/pointer.hpp"

namespace tessera {

// ViewEngine<Iterator>: a non-owning engine; begin() is the iterator it was made with.
template <class Iterator>
struct ViewEngine {
  using iterator = Iterator;
  Iterator it_{};

  constexpr ViewEngine() = default;
  TESSERA_HOST_DEVICE constexpr explicit ViewEngine(Iterator const& it) : it_(it) {}
  TESSERA_HOST_DEVICE constexpr Iterator begin() const { return it_; }
};

// ArrayEngine<T, N>: owns N elements of T, aligned to 16 bytes so that copies of it may use
// 128-bit accesses. begin() is an rmem_ptr to the first element. Copying the engine copies the
// elements (value semantics, like a register array).
template <class T, int N>
struct ArrayEngine {
  static_assert(N >= 1, "ArrayEngine<T, N>: an owning tensor needs at least one element (N >= 1)");
  using iterator = rmem_ptr<T>;
  alignas(alignof(T) > 16 ? alignof(T) : 16) T data_[N];

  TESSERA_HOST_DEVICE constexpr rmem_ptr<T> begin() { return rmem_ptr<T>(data_); }
  TESSERA_HOST_DEVICE constexpr rmem_ptr<T const> begin() const { return rmem_ptr<T const>(data_); }
};

template <class T>
struct is_array_engine : std::false_type {};
template <class T, int N>
struct is_array_engine<ArrayEngine<T, N>> : std::true_type {};

}  // namespace tessera
