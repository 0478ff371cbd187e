// Names of enumerators for messages and reports, from a table written in declaration order, so
// that each enum's names sit in one line of data instead of a switch per enum.
#pragma once

#include <cstddef>
#include <type_traits>

namespace xnt {

// For enums whose values run 0..N-1. A value outside the table (read from a corrupt or newer
// file, or a register field's unused encoding) is named `other` rather than read past its end.
template <class E, size_t N>
constexpr const char* EnumName(E value, const char* const (&names)[N], const char* other = "?") {
  static_assert(std::is_enum_v<E>);
  const auto index = static_cast<size_t>(static_cast<std::underlying_type_t<E>>(value));
  return index < N ? names[index] : other;
}

}  // namespace xnt
