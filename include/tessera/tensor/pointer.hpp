// Iterators of tensors: pointers tagged by the memory space they point into (gmem_ptr, smem_ptr,
// rmem_ptr) and CountingIterator, whose "elements" are values computed from the offset. A tensor
// is an iterator plus a layout; the tag says where the data lives and is printed (`gmem_ptr[32b]`).
#pragma once

#include <cstdint>

#include "tessera/core/config.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/print.hpp"

namespace tessera {

namespace detail {
// Writes an address as 0x... (printf's %p on the device; hexadecimal digits on the host).
template <class Sink>
TESSERA_HOST_DEVICE void write_address(Sink& k, const void* p) {
  auto v = reinterpret_cast<std::uintptr_t>(p);
  char buf[2 + 2 * sizeof(std::uintptr_t) + 1];
  int n = 0;
  buf[n++] = '0';
  buf[n++] = 'x';
  char digits[2 * sizeof(std::uintptr_t)];
  int d = 0;
  do {
    int x = int(v & 0xf);
    digits[d++] = char(x < 10 ? '0' + x : 'a' + x - 10);
    v >>= 4;
  } while (v != 0);
  while (d > 0) buf[n++] = digits[--d];
  buf[n] = '\0';
  k.put(buf);
}
}  // namespace detail

// Memory-space tags.
struct gmem_tag {
  static constexpr const char* name = "gmem_ptr";
};
struct smem_tag {
  static constexpr const char* name = "smem_ptr";
};
struct rmem_tag {
  static constexpr const char* name = "rmem_ptr";
};

// TaggedPtr<T, Tag>: a T* that knows its memory space. Arithmetic and dereference as a pointer.
// Pre: none beyond those of T* arithmetic. make_gmem_ptr(p) + 3 points 3 elements further.
template <class T, class Tag>
struct TaggedPtr {
  using value_type = std::remove_cv_t<T>;
  using element_type = T;
  using memory_tag = Tag;
  T* ptr_ = nullptr;

  constexpr TaggedPtr() = default;
  TESSERA_HOST_DEVICE constexpr explicit TaggedPtr(T* p) : ptr_(p) {}

  TESSERA_HOST_DEVICE constexpr T* get() const { return ptr_; }
  TESSERA_HOST_DEVICE constexpr T& operator*() const { return *ptr_; }
  template <class I>
  TESSERA_HOST_DEVICE constexpr T& operator[](I const& i) const {
    return ptr_[value_of(i)];
  }
  template <class I>
  TESSERA_HOST_DEVICE constexpr TaggedPtr operator+(I const& i) const {
    return TaggedPtr(ptr_ + value_of(i));
  }
  TESSERA_HOST_DEVICE constexpr bool operator==(TaggedPtr const& o) const { return ptr_ == o.ptr_; }

  // `gmem_ptr[32b](0x7f00...)`
  template <class Sink>
  TESSERA_HOST_DEVICE void write_to(Sink& k) const {
    k.put(Tag::name);
    k.put("[");
    k.put_int(sizeof_bits_v<value_type>);
    k.put("b](");
    detail::write_address(k, static_cast<const void*>(ptr_));
    k.put(")");
  }
};

template <class T>
using gmem_ptr = TaggedPtr<T, gmem_tag>;
template <class T>
using smem_ptr = TaggedPtr<T, smem_tag>;
template <class T>
using rmem_ptr = TaggedPtr<T, rmem_tag>;

// make_gmem_ptr(p) / make_smem_ptr(p) / make_rmem_ptr(p): p tagged as global / shared / register
// memory. to_string(make_gmem_ptr(p)) == "gmem_ptr[32b](0x...)" for a float* p.
template <class T>
TESSERA_HOST_DEVICE constexpr gmem_ptr<T> make_gmem_ptr(T* p) {
  return gmem_ptr<T>(p);
}
template <class T>
TESSERA_HOST_DEVICE constexpr smem_ptr<T> make_smem_ptr(T* p) {
  return smem_ptr<T>(p);
}
template <class T>
TESSERA_HOST_DEVICE constexpr rmem_ptr<T> make_rmem_ptr(T* p) {
  return rmem_ptr<T>(p);
}

template <class T>
struct is_tagged_ptr : std::false_type {};
template <class T, class Tag>
struct is_tagged_ptr<TaggedPtr<T, Tag>> : std::true_type {};

// raw_pointer(it): the T* behind a pointer-like iterator (a tagged pointer or a T*).
template <class T>
TESSERA_HOST_DEVICE constexpr T* raw_pointer(T* p) {
  return p;
}
template <class T, class Tag>
TESSERA_HOST_DEVICE constexpr T* raw_pointer(TaggedPtr<T, Tag> const& p) {
  return p.get();
}
// PointerIterator: a T* or a tagged pointer (iterators that address memory).
template <class It>
concept PointerIterator = std::is_pointer_v<It> || is_tagged_ptr<It>::value;

// rebind_pointer<U>(it): the same address and memory space, seen as a pointer to U (for recast).
template <class U, class T>
TESSERA_HOST_DEVICE auto rebind_pointer(T* p) {
  using V = std::conditional_t<std::is_const_v<T>, U const, U>;
  return reinterpret_cast<V*>(p);
}
template <class U, class T, class Tag>
TESSERA_HOST_DEVICE auto rebind_pointer(TaggedPtr<T, Tag> const& p) {
  using V = std::conditional_t<std::is_const_v<T>, U const, U>;
  return TaggedPtr<V, Tag>(reinterpret_cast<V*>(p.get()));
}

// CountingIterator<T>: an iterator whose element at offset o is value + o; dereference returns
// the value (not a reference). A tensor over it evaluates its layout: element i of
// make_tensor(CountingIterator<int>(0), L) is L(i). With T an ArithmeticTuple and an identity
// layout it yields coordinates (make_identity_tensor).
template <class T>
struct CountingIterator {
  using value_type = T;
  T value_{};

  constexpr CountingIterator() = default;
  TESSERA_HOST_DEVICE constexpr explicit CountingIterator(T const& v) : value_(v) {}

  TESSERA_HOST_DEVICE constexpr T operator*() const { return value_; }
  template <class O>
  TESSERA_HOST_DEVICE constexpr auto operator+(O const& o) const {
    auto v = value_ + o;
    return CountingIterator<decltype(v)>(v);
  }
  template <class O>
  TESSERA_HOST_DEVICE constexpr auto operator[](O const& o) const {
    return value_ + o;
  }

  // `counting_iter(5)`
  template <class Sink>
  TESSERA_HOST_DEVICE void write_to(Sink& k) const {
    k.put("counting_iter(");
    detail::write(k, value_);
    k.put(")");
  }
};
template <class T>
CountingIterator(T const&) -> CountingIterator<T>;

template <class T>
TESSERA_HOST_DEVICE constexpr auto make_counting_iterator(T const& v) {
  return CountingIterator<T>(v);
}

}  // namespace tessera
