// Iterators of tensors: pointers tagged by the memory space they point into (gmem_ptr, smem_ptr,
// rmem_ptr) and CountingIterator, whose "elements" are values computed from the offset. A tensor
// is an iterator plus a layout; the tag says where the data lives and is printed (`gmem_ptr[32b]`).
#pragma once

#include "tessera/core/config.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/print.hpp"
#include "tessera/core/stdlib.hpp"
#include "tessera/core/swizzle.hpp"

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

// SwizzledPtr<T, Tag, Sw>: a pointer into a block of memory laid out through the swizzle Sw of
// *byte* offsets (shared-memory tiles that avoid bank conflicts): the element at position o lives
// at base + Sw(offset + o * sizeof(T)) bytes. It holds the block's base and a 32-bit byte offset;
// arithmetic moves the (unswizzled) offset, dereference swizzles it. The swizzle touches integers
// only, never the pointer's bits, so the compiler keeps shared-memory addresses 32-bit. A tensor
// over Sw o offset o L built from a tagged pointer (make_tensor of a ComposedLayout) uses one, so
// every tensor operation works on the plain layout L.
// Pre: the block starts at base and base is aligned to the swizzle's span, 2^(M+S+B) bytes for
// Sw = Swizzle<B,M,S> (S >= 0), when the layout relies on that (bank-conflict freedom does; the
// mapping itself is a bijection of the block either way); offsets below 2^31 bytes.
// Example: half_t elements through Sw<3,3,3> (element offsets) use Sw<3,4,3> on bytes; element 8
// of row 1 of an (8,64) row-major tile is byte 144 -> 144 ^ ((144 >> 3) & 0x70) = 128.
template <class T, class Tag, class Sw>
struct SwizzledPtr {
  static_assert(is_swizzle_v<Sw> && Sw::num_shft >= 0,
                "SwizzledPtr: Sw must be a Swizzle<B,M,S> with S >= 0 (on byte offsets)");
  using value_type = std::remove_cv_t<T>;
  using element_type = T;
  using memory_tag = Tag;
  using swizzle_type = Sw;
  using byte_type = std::conditional_t<std::is_const_v<T>, unsigned char const, unsigned char>;
  T* base_ = nullptr;        // the block
  std::int32_t offset_ = 0;  // unswizzled byte offset into it

  constexpr SwizzledPtr() = default;
  TESSERA_HOST_DEVICE constexpr SwizzledPtr(T* base, std::int32_t byte_offset) : base_(base), offset_(byte_offset) {}

  // The address of the element at this position, swizzled.
  TESSERA_HOST_DEVICE T* get() const {
    return reinterpret_cast<T*>(reinterpret_cast<byte_type*>(base_) + std::int32_t(Sw::apply(offset_)));
  }
  TESSERA_HOST_DEVICE T& operator*() const { return *get(); }
  template <class I>
  TESSERA_HOST_DEVICE T& operator[](I const& i) const {
    return *(*this + i).get();
  }
  template <class I>
  TESSERA_HOST_DEVICE constexpr SwizzledPtr operator+(I const& i) const {
    return SwizzledPtr(base_, offset_ + std::int32_t(value_of(i)) * std::int32_t(sizeof(T)));
  }
  TESSERA_HOST_DEVICE constexpr bool operator==(SwizzledPtr const& o) const {
    return base_ == o.base_ && offset_ == o.offset_;
  }

  // `smem_ptr[16b]Sw<3,4,3>(0x7f00...+16)`: the tag, the element width, the byte swizzle, the
  // block and the unswizzled byte offset.
  template <class Sink>
  TESSERA_HOST_DEVICE void write_to(Sink& k) const {
    k.put(Tag::name);
    k.put("[");
    k.put_int(sizeof_bits_v<value_type>);
    k.put("b]");
    Sw{}.write_to(k);
    k.put("(");
    detail::write_address(k, static_cast<const void*>(base_));
    k.put("+");
    k.put_int(offset_);
    k.put(")");
  }
};
template <class T>
struct is_swizzled_ptr : std::false_type {};
template <class T, class Tag, class Sw>
struct is_swizzled_ptr<SwizzledPtr<T, Tag, Sw>> : std::true_type {};

namespace detail {
// The byte swizzle equivalent to Sw on offsets of T elements: Swizzle<B, M + log2(sizeof(T)), S>.
template <class T, int B, int M, int S>
TESSERA_HOST_DEVICE constexpr auto byte_swizzle(Swizzle<B, M, S>) {
  constexpr int bytes = int(sizeof(T));
  static_assert((bytes & (bytes - 1)) == 0, "swizzled pointer: the element size must be a power of two bytes");
  constexpr int log2_bytes = bytes == 1 ? 0 : bytes == 2 ? 1 : bytes == 4 ? 2 : bytes == 8 ? 3 : 4;
  static_assert(bytes <= 16, "swizzled pointer: elements of at most 16 bytes");
  return Swizzle<B, M + log2_bytes, S>{};
}
}  // namespace detail

// contiguous_bytes_v<It>: how many bytes from an aligned position of iterator It are contiguous in
// memory: unbounded (a large number) for plain pointers, 2^M for a byte swizzle Swizzle<B,M,S>
// (it moves bits M and above). copy() never vectorizes wider than this.
template <class It>
inline constexpr long long contiguous_bytes_v = 1LL << 40;
template <class T, class Tag, class Sw>
inline constexpr long long contiguous_bytes_v<SwizzledPtr<T, Tag, Sw>> = 1LL << Sw::num_base;

// raw_pointer(it): the T* behind a pointer-like iterator (a tagged pointer or a T*).
template <class T>
TESSERA_HOST_DEVICE constexpr T* raw_pointer(T* p) {
  return p;
}
template <class T, class Tag>
TESSERA_HOST_DEVICE constexpr T* raw_pointer(TaggedPtr<T, Tag> const& p) {
  return p.get();
}
template <class T, class Tag, class Sw>
TESSERA_HOST_DEVICE T* raw_pointer(SwizzledPtr<T, Tag, Sw> const& p) {
  return p.get();
}
// PointerIterator: a T*, a tagged pointer or a swizzled one (iterators that address memory).
template <class It>
concept PointerIterator = std::is_pointer_v<It> || is_tagged_ptr<It>::value || is_swizzled_ptr<It>::value;

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
// A swizzled pointer keeps its byte swizzle; elements of U must not straddle the swizzled bits.
template <class U, class T, class Tag, class Sw>
TESSERA_HOST_DEVICE auto rebind_pointer(SwizzledPtr<T, Tag, Sw> const& p) {
  static_assert(sizeof(U) <= (std::size_t(1) << Sw::num_base),
                "rebind_pointer: a swizzled pointer moves bits from M up; elements wider than 2^M bytes "
                "would be split by it");
  using V = std::conditional_t<std::is_const_v<T>, U const, U>;
  return SwizzledPtr<V, Tag, Sw>(reinterpret_cast<V*>(p.base_), p.offset_);
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
