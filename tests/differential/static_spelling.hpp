// The static spelling of a layout for the comparisons whose twin answer may differ from the core's
// (check_exact): the twin, run on the same values all written static, gives the core's static
// answer (the static cases compare them exactly), so "the dynamic answer is the static one" is a
// criterion that holds wherever the core's static algebra is right.
#pragma once

#include <string>

#include "differential.hpp"

namespace tessera::test {

// l with every integer static: (4,_2):(1,-8) -> (_4,_2):(_1,_-8).
inline rt::Layout static_spelling(rt::Layout const& l) {
  const auto to_static = [](rt::Int x) { return rt::S(x.value); };
  return rt::Layout{rt::detail::transform_leaves(l.shape, to_static),
                    rt::detail::transform_leaves(l.stride, to_static)};
}

// right_inverse(l): exact by its law (exact_right_inverse), or the twin's inverse has the values
// of the twin's inverse of the static spelling. With strides of both signs in several modes the
// inverse reaches negative indices, where the law does not hold for the static answer either
// (right_inverse((3,(2,5)):(-2,(1,-6))) = (2,3,5):(3,-1,-6), as for the static spelling).
inline Exact exact_right_inverse_or_static(std::string const& l_text) {
  const Exact by_law = exact_right_inverse(l_text);
  return [l_text, by_law](std::optional<rt::Value> const& twin, std::string const& core) {
    if (by_law(twin, core)) return true;
    if (!twin || !twin->is<rt::Layout>()) return false;
    const rt::Layout l = rt::evaluate(l_text).as<rt::Layout>();
    return twin->as<rt::Layout>() == rt::right_inverse(static_spelling(l));
  };
}

}  // namespace tessera::test
