// Storage order of a matrix, shared by the kernels: row = row-major (element (r,c) at r*ld + c),
// col = column-major (element (r,c) at r + c*ld).
#pragma once

namespace tessera::kernels {

enum class Major { row, col };

}  // namespace tessera::kernels
