// find_by_name / find_named: the entry of a catalogue (a range of items with a `name`) that a user
// named on a command line or in a file; find_by_name's error lists every name the catalogue knows
// (the exps of exhaustive/, the operators of formal/).
#pragma once

#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>

namespace osvs {

/// The item of `items` whose `name` is `name`, or nullptr (a caller with its own message for an
/// unknown name: a kind's laws (osvs/api/kind.h), the audit's input families, the mutation run's
/// merge mutants).
template <class Items>
const auto* find_named(const Items& items, std::string_view name) {
  for (const auto& item : items)
    if (name == item.name) return &item;
  return static_cast<decltype(&*std::begin(items))>(nullptr);
}

/// The item of `items` whose `name` is `name`; otherwise throws std::invalid_argument
/// "<unknown> '<name>'; known: <each name, in order>", `unknown` saying what was looked for
/// (e.g. "unknown exp").
template <class Items>
const auto& find_by_name(const Items& items, std::string_view name, std::string_view unknown) {
  if (const auto* item = find_named(items, name)) return *item;
  std::string names;
  for (const auto& item : items) names += " " + std::string(item.name);
  throw std::invalid_argument(std::string(unknown) + " '" + std::string(name) +
                              "'; known:" + names);
}

}  // namespace osvs
