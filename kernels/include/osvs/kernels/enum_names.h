// Names of enumerators, table-driven: an enum's names are one constexpr array of {value, name}
// (declared next to the enum), and every to_string / parse of every enum in osvs is a lookup in
// its table. A table lists each enumerator once; adding one to the enum means adding one row.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace osvs {

/// One row of an enum's name table.
template <class E>
struct EnumName {
  E value;
  const char* name;
};

/// The name of `value` in `table`, or `unknown` when the table has no row for it.
template <class E, std::size_t N>
constexpr const char* name_in(const EnumName<E> (&table)[N], E value, const char* unknown = "?") {
  for (const EnumName<E>& row : table)
    if (row.value == value) return row.name;
  return unknown;
}

/// The value named `name` in `table`, or nullopt.
template <class E, std::size_t N>
constexpr std::optional<E> value_in(const EnumName<E> (&table)[N], std::string_view name) {
  for (const EnumName<E>& row : table)
    if (name == row.name) return row.value;
  return std::nullopt;
}

}  // namespace osvs
