// The PTX ISA's fragment descriptions, written out as code, independently of the traits under
// test: for an MMA, which (row, column) of which operand matrix element i of lane t holds; for
// ldmatrix/stmatrix, which row each lane names and which elements its registers hold. Each function
// transcribes the ISA's "row = ... col = ..." formulas case by case, as the ISA states them (not
// simplified), so that a test comparing a trait layout with them compares two derivations.
#pragma once

namespace tessera::test::ptx {

struct RowCol {
  int row;
  int col;
};

// The ISA's names for the parts of a lane index.
inline int group_id(int lane) { return lane >> 2; }
inline int thread_id_in_group(int lane) { return lane % 4; }

// ---- mma.m16n8k16 with .f16 / .bf16 (A 16x16, B 16x8 as K x N, C/D 16x8) ------------------------

// Element a_i (i = 0..7) of lane t.
inline RowCol m16n8k16_a_f16(int t, int i) {
  int const g = group_id(t), tig = thread_id_in_group(t);
  int const row = ((0 <= i && i < 2) || (4 <= i && i < 6)) ? g : g + 8;
  int const col = i < 4 ? (tig * 2) + (i & 0x1) : (tig * 2) + (i & 0x1) + 8;
  return {row, col};
}
// Element b_i (i = 0..3) of lane t; row is k, col is n.
inline RowCol m16n8k16_b_f16(int t, int i) {
  int const g = group_id(t), tig = thread_id_in_group(t);
  int const row = i < 2 ? (tig * 2) + (i & 0x1) : (tig * 2) + (i & 0x1) + 8;
  return {row, g};
}

// ---- mma.m16n8k8 with .f16 / .bf16 (A 16x8, B 8x8 as K x N) -------------------------------------

// Element a_i (i = 0..3) of lane t.
inline RowCol m16n8k8_a_f16(int t, int i) {
  int const g = group_id(t), tig = thread_id_in_group(t);
  int const row = (i == 0 || i == 1) ? g : g + 8;
  return {row, tig * 2 + (i & 0x1)};
}
// Element b_i (i = 0..1) of lane t; row is k, col is n.
inline RowCol m16n8k8_b_f16(int t, int i) {
  int const g = group_id(t), tig = thread_id_in_group(t);
  return {(tig * 2) + i, g};
}

// ---- mma.m16n8k8 with .tf32 (A 16x8, B 8x8 as K x N) --------------------------------------------

// Element a_i (i = 0..3) of lane t.
inline RowCol m16n8k8_a_tf32(int t, int i) {
  int const g = group_id(t), tig = thread_id_in_group(t);
  int const row = (i == 0 || i == 2) ? g : g + 8;
  int const col = (i == 0 || i == 1) ? tig : tig + 4;
  return {row, col};
}
// Element b_i (i = 0..1) of lane t; row is k, col is n.
inline RowCol m16n8k8_b_tf32(int t, int i) {
  int const g = group_id(t), tig = thread_id_in_group(t);
  return {i == 0 ? tig : tig + 4, g};
}

// ---- accumulators C/D of m16n8k8 and m16n8k16 (16x8; .f16x2 pairs or .f32) ----------------------

// Element c_i (i = 0..3) of lane t.
inline RowCol m16n8_c(int t, int i) {
  int const g = group_id(t), tig = thread_id_in_group(t);
  int const row = (i == 0 || i == 1) ? g : g + 8;
  return {row, (tig * 2) + (i & 0x1)};
}

// ---- ldmatrix / stmatrix .m8n8 .b16 ---------------------------------------------------------------

// The row lane t names for an instruction moving `matrices` (1, 2 or 4) 8x8 matrices: lanes 0-7
// give the rows of matrix 0, 8-15 of matrix 1, and so on; for .x1 and .x2 the remaining lanes
// repeat the lower lanes' rows (the ISA's advice for sm_75: copy lower addresses to higher lanes).
struct MatrixRow {
  int matrix;
  int row;
};
inline MatrixRow m8n8_row_named_by(int lane, int matrices) {
  int const used = lane % (8 * matrices);
  return {used / 8, used % 8};
}
// Element h (0: low 16 bits, 1: high 16 bits) of a lane's register for one matrix: "each thread
// loads fragments of a row, thread 0 receiving the first fragment, ...; four threads load a row".
inline RowCol m8n8_fragment(int lane, int h) { return {lane / 4, 2 * (lane % 4) + h}; }
// The same with .trans: the matrix is read in column-major order, so the fragment of lane t is a
// piece of column t/4 of the matrix as stored.
inline RowCol m8n8_fragment_trans(int lane, int h) { return {2 * (lane % 4) + h, lane / 4}; }

// The bit number of bit b of element (row, col) of matrix `matrix` in the ldmatrix/stmatrix tile:
// rows of 128 bits (8 elements), matrix after matrix.
inline int m8n8_tile_bit(int matrix, int row, int col, int b) { return 1024 * matrix + 128 * row + 16 * col + b; }

}  // namespace tessera::test::ptx
