// find_by_name: the entry of a catalogue (a range of items with a std::string `name`) that a user
// named on a command line or in a file, or an error that lists every name the catalogue knows (the
// exps of exhaustive/, the operators of formal/).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace osvs {

/// The item of `items` whose `name` is `name`; otherwise throws std::invalid_argument
/// "<unknown> '<name>'; known: <each name, in order>", `unknown` saying what was looked for
/// (e.g. "unknown exp").
template <class Items>
const auto& find_by_name(const Items& items, std::string_view name, std::string_view unknown) {
  std::string names;
  for (const auto& item : items) {
    if (item.name == name) return item;
    names += " " + item.name;
  }
  throw std::invalid_argument(std::string(unknown) + " '" + std::string(name) +
                              "'; known:" + names);
}

}  // namespace osvs
