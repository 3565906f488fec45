// tessera/runtime/copy_atom.hpp -- the run-time twin of the layout side of atom/copy_atom.hpp:
// copy atoms with an element type and tiled copies, computed with the run-time algebra.
//
//   make_copy_atom(op, T)            Copy_Atom<Op, T>: the instruction's bit layouts in elements of T
//   val_layout_src/dst/ref(atom)     (thr,val) -> element (bits for an instruction without a type)
//   make_tiled_copy(atom, thr, val)  threads and values raked over an (M,N) tile (make_layout_tv)
//   make_tiled_copy_a/b/c(atom, m)   the copy holding what a tiled MMA's threads hold of A, B or C
//   layout_s_tv(c), layout_d_tv(c)   (thr_idx,val) -> column-major index in the copy's tile
//   tidfrg_s(c, L), tidfrg_d(c, L)   L (tile modes...) -> (thr_idx, CopyV, (RestM,RestN,...))
//
// Each step follows atom/copy_atom.hpp; tests/differential/mma_atom.cpp compares the two.
//   layout_s_tv(make_tiled_copy_a(Copy_Atom<SM75_U32x4_LDSM_N,half_t>,
//                                 make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1))))
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/runtime/copy_atom.hpp: host only (the run-time twin); kernels use the static algebra, tessera/core/"
#endif

#include <string>
#include <string_view>
#include <utility>

#include "tessera/runtime/mma_atom.hpp"
#include "tessera/runtime/recast.hpp"

namespace tessera::rt {

// A tiled copy: layout_tv ((thr_idx,val) -> column-major index in the tile) says which thread
// moves which element of each `tiler` (M,N) tile; atom has an element type (value_bits > 0).
struct TiledCopy {
  CopyAtom atom;
  Layout layout_tv;
  IntTuple tiler;
};

// The width in bits of the element types a Copy_Atom<Op, T> names; 0 for an unknown name.
inline int type_bits(std::string_view t) {
  struct Entry {
    std::string_view name;
    int bits;
  };
  static constexpr Entry kTypes[] = {{"half_t", 16},   {"bfloat16_t", 16}, {"tfloat32_t", 32}, {"float", 32},
                                     {"double", 64},   {"int8_t", 8},      {"uint8_t", 8},     {"int16_t", 16},
                                     {"uint16_t", 16}, {"int32_t", 32},    {"uint32_t", 32},   {"int64_t", 64},
                                     {"uint64_t", 64}, {"uint128_t", 128}};
  for (const auto& e : kTypes)
    if (e.name == t) return e.bits;
  return 0;
}

// (thr,val) -> element of T for a typed atom, -> bit for the bare instruction.
inline Layout val_layout(const CopyAtom& a, const Layout& bits) {
  return a.value_bits > 0 ? recast(bits, 1, a.value_bits) : bits;
}
inline Layout val_layout_src(const CopyAtom& a) { return val_layout(a, a.src); }
inline Layout val_layout_dst(const CopyAtom& a) { return val_layout(a, a.dst); }
inline Layout val_layout_ref(const CopyAtom& a) { return val_layout(a, a.ref); }

// make_copy_atom(op, T): Copy_Atom<op, T>. Pre: op has no type yet; T is one of type_bits()'s
// names and divides the instruction's registers (each thread moves whole elements); else
// layout_error naming the type. Post: name "Copy_Atom<op,T>", layouts in elements of T.
// Example: val_layout_src(make_copy_atom(SM75_U32x4_LDSM_N, "half_t")) == (_32,_8):(_8,_1).
inline CopyAtom make_copy_atom(const CopyAtom& op, const std::string& type) {
  if (op.value_bits > 0) fail("Copy_Atom: " + op.name + " already has an element type; give the instruction");
  const int bits = type_bits(type);
  if (bits == 0)
    fail("Copy_Atom: unknown element type '" + type +
         "'; use half_t, bfloat16_t, tfloat32_t, float, double, [u]int8_t .. [u]int64_t or uint128_t");
  CopyAtom a = op;
  a.name = "Copy_Atom<" + op.name + "," + type + ">";
  a.value_bits = bits;
  try {
    const Layout s = val_layout_src(a), d = val_layout_dst(a);
    if (size(layout(s, 0)).value != size(a.thr_id).value || size(layout(d, 0)).value != size(a.thr_id).value)
      throw layout_error("thread mode");
  } catch (const layout_error&) {
    fail("Copy_Atom: the layouts of " + op.name + " do not split into " + std::to_string(bits) + "-bit elements of " +
         type + " (the type is too wide for the instruction's registers)");
  }
  return a;
}

namespace detail {
inline std::int64_t atom_threads(const CopyAtom& a) { return size(layout(val_layout_ref(a), 0)).value; }
inline std::int64_t atom_values(const CopyAtom& a) { return size(layout(val_layout_ref(a), 1)).value; }

inline TiledCopy checked_tiled_copy(const char* fn, const CopyAtom& atom, Layout tv, IntTuple tiler) {
  if (atom.value_bits == 0)
    fail(std::string(fn) + ": give a copy atom with an element type, Copy_Atom<" + atom.name + ",T> (e.g. T = half_t)");
  const std::int64_t thr = size(layout(tv, 0)).value, val = size(layout(tv, 1)).value;
  if (thr % atom_threads(atom) != 0)
    fail(std::string(fn) + ": " + std::to_string(thr) + " threads are not a multiple of the " +
         std::to_string(atom_threads(atom)) + " threads of " + atom.name);
  if (val % atom_values(atom) != 0)
    fail(std::string(fn) + ": each thread must own a multiple of the " + std::to_string(atom_values(atom)) +
         " values one " + atom.name + " moves a thread; it owns " + std::to_string(val));
  return TiledCopy{atom, std::move(tv), std::move(tiler)};
}

inline void require_static(const char* fn, const char* what, const Layout& l) {
  if (!all_static(l.shape) || !all_static(l.stride))
    fail(std::string(fn) + ": the " + what +
         " must be static (write its integers _N), as the library's TiledCopy type needs; got " + to_string(l));
}

// ((TileM,TileN),(Rest...)) -> (thr, (atom_val,rest_val), (Rest...)) with the atom's values in the
// target's order (ref2trg: the atom's reference (thr,val) -> the target's).
inline Layout tile2thrfrg(const TiledCopy& c, const Layout& l, const Layout& ref2trg) {
  const Layout atom_tv =
      zipped_divide(c.layout_tv, make_tiler(make_tuple({S(atom_threads(c.atom)), S(atom_values(c.atom))})));
  const Layout trg_tv = make_layout(std::vector<Layout>{composition(layout(atom_tv, 0), ref2trg), layout(atom_tv, 1)});
  const Layout t0 = layout(trg_tv, 0), t1 = layout(trg_tv, 1);
  const Layout thr = coalesce(make_layout(std::vector<Layout>{layout(t0, 0), layout(t1, 0)}));
  const Layout val = make_layout(std::vector<Layout>{coalesce(layout(t0, 1)), coalesce(layout(t1, 1))});
  const Layout thrval2mn = make_layout(std::vector<Layout>{thr, val});
  const Layout tv = composition(layout(l, 0), thrval2mn);
  return make_layout(std::vector<Layout>{layout(tv, 0), layout(tv, 1), layout(l, 1)});
}

inline Layout ref2src(const CopyAtom& a) { return composition(right_inverse(val_layout_ref(a)), val_layout_src(a)); }
inline Layout ref2dst(const CopyAtom& a) { return composition(right_inverse(val_layout_ref(a)), val_layout_dst(a)); }
}  // namespace detail

// make_tiled_copy(atom, thr, val): Pre: atom has an element type; thr and val static; the threads
// a multiple of the atom's, each thread's values a multiple of what the atom moves a thread (each a
// layout_error naming it). Example: make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,
// half_t>, (_32,_4):(_4,_1), (_1,_8)) has tiler (_32,_32) and layout_s_tv ((_4,_32),(_8,_1)):((_256,_1),(_32,_0)).
inline TiledCopy make_tiled_copy(const CopyAtom& atom, const Layout& thr, const Layout& val) {
  detail::require_static("make_tiled_copy", "thread layout", thr);
  detail::require_static("make_tiled_copy", "value layout", val);
  auto [tiler, tv] = make_layout_tv(thr, val);
  return detail::checked_tiled_copy("make_tiled_copy", atom, std::move(tv), std::move(tiler));
}

// make_tiled_copy_a/b/c(atom, m): tile (M,K), (N,K) or (M,N) of the tiled MMA, its TV layout.
inline TiledCopy make_tiled_copy_a(const CopyAtom& atom, const TiledMma& m) {
  return detail::checked_tiled_copy("make_tiled_copy_A", atom, layout_a_tv(m),
                                    make_tuple({IntTuple(tile_size(m, 0)), IntTuple(tile_size(m, 2))}));
}
inline TiledCopy make_tiled_copy_b(const CopyAtom& atom, const TiledMma& m) {
  return detail::checked_tiled_copy("make_tiled_copy_B", atom, layout_b_tv(m),
                                    make_tuple({IntTuple(tile_size(m, 1)), IntTuple(tile_size(m, 2))}));
}
inline TiledCopy make_tiled_copy_c(const CopyAtom& atom, const TiledMma& m) {
  return detail::checked_tiled_copy("make_tiled_copy_C", atom, layout_c_tv(m),
                                    make_tuple({IntTuple(tile_size(m, 0)), IntTuple(tile_size(m, 1))}));
}

// tidfrg_s(c, L), tidfrg_d(c, L): L (TileM,TileN,...) -> (thr_idx, CopyV, (RestM,RestN,...)) for
// the source / destination side. Pre: L has at least rank(tiler) modes.
inline Layout tidfrg_s(const TiledCopy& c, const Layout& l) {
  return detail::tile2thrfrg(c, zipped_divide(l, make_tiler(c.tiler)), detail::ref2src(c.atom));
}
inline Layout tidfrg_d(const TiledCopy& c, const Layout& l) {
  return detail::tile2thrfrg(c, zipped_divide(l, make_tiler(c.tiler)), detail::ref2dst(c.atom));
}

// layout_s_tv(c), layout_d_tv(c): (thr_idx,val) -> column-major index in the tile.
inline Layout layout_s_tv(const TiledCopy& c) {
  const Layout t = detail::tile2thrfrg(c, make_layout(make_tuple({c.tiler, S(1)})), detail::ref2src(c.atom));
  return make_layout(std::vector<Layout>{layout(t, 0), layout(t, 1)});
}
inline Layout layout_d_tv(const TiledCopy& c) {
  const Layout t = detail::tile2thrfrg(c, make_layout(make_tuple({c.tiler, S(1)})), detail::ref2dst(c.atom));
  return make_layout(std::vector<Layout>{layout(t, 0), layout(t, 1)});
}

// TiledCopy(atom, layout_tv, tiler).
inline std::string to_string(const TiledCopy& c) {
  return "TiledCopy(" + c.atom.name + ", " + to_string(c.layout_tv) + ", " + to_string(c.tiler) + ")";
}

}  // namespace tessera::rt
