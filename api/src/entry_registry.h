// What every registry of entries under test shares (row kernels, merge kernels, combine
// operators): entries in registration order, found by name, added only with a usable declaration
// and a new name; and the one check of the law names a declaration gives (skip, known defect).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "osvs/api/registry.h"

namespace osvs::api {

/// The entries of one kind. `Entry` has name().
template <class Entry>
class EntryRegistry {
 public:
  /// Adds e unless `problem` (what its declaration check found, "" when nothing) says why not or
  /// its name is taken.
  void add(Entry e, const std::string& problem) {
    if (!problem.empty()) throw std::invalid_argument(problem);
    if (find(e.name())) throw std::invalid_argument("'" + e.name() + "' is registered twice");
    entries_.push_back(std::move(e));
  }
  const std::vector<Entry>& entries() const { return entries_; }
  const Entry* find(std::string_view name) const {
    for (const Entry& e : entries_)
      if (e.name() == name) return &e;
    return nullptr;
  }

 private:
  std::vector<Entry> entries_;
};

/// Why a declaration naming its laws in `declared` (skip -> reason, known defect -> ...) names
/// one that is not in `valid`, or "": "<who>: <what> '<law>' is not a <law_kind> (<valid>)".
template <class Map, class Names>
std::string unknown_law_problem(const std::string& who, const char* what, const Map& declared,
                                const Names& valid, std::string_view law_kind) {
  for (const auto& [law, detail] : declared) {
    bool known = false;
    for (const auto& name : valid) known = known || std::string_view(name) == law;
    if (known) continue;
    std::string list;
    for (const auto& name : valid) list += (list.empty() ? "" : ", ") + std::string(name);
    const bool vowel =
        !law_kind.empty() && std::string_view("aeiou").find(law_kind[0]) != std::string_view::npos;
    return who + ": " + what + " '" + law + "' is not " + (vowel ? "an " : "a ") +
           std::string(law_kind) + " (" + list + ")";
  }
  return "";
}

/// Both kinds of law names a declaration gives, known defects first: the first unknown one.
template <class Declaration, class Names>
std::string declared_law_problem(const std::string& who, const Declaration& d, const Names& valid,
                                 std::string_view law_kind) {
  if (std::string why =
          unknown_law_problem(who, "known defect", d.known_defects(), valid, law_kind);
      !why.empty())
    return why;
  return unknown_law_problem(who, "skip", d.skips(), valid, law_kind);
}

/// The one registry of `Kernel`s in this program (first use: registrations run at static init).
template <class Kernel>
EntryRegistry<Kernel>& registry_of() {
  static EntryRegistry<Kernel> entries;
  return entries;
}

}  // namespace osvs::api

namespace osvs {

template <class Kernel>
void register_kernel(Kernel k) {
  const std::string problem = declaration_problem(k);
  api::registry_of<Kernel>().add(std::move(k), problem);
}

template <class Kernel>
const std::vector<Kernel>& registered() {
  return api::registry_of<Kernel>().entries();
}

template <class Kernel>
const Kernel* find_registered(std::string_view name) {
  return api::registry_of<Kernel>().find(name);
}

}  // namespace osvs

/// The registry functions of osvs/api/registry.h for `Kernel`, in the library that holds them.
#define OSVS_INSTANTIATE_REGISTRY(Kernel)                   \
  template void register_kernel<Kernel>(Kernel);            \
  template const std::vector<Kernel>& registered<Kernel>(); \
  template const Kernel* find_registered<Kernel>(std::string_view name)
