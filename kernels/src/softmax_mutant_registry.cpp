// The registry of softmax mutants (softmax_mutants.h): empty until a program registers them
// (mutation/'s register_kernel_mutants()).
#include <mutex>
#include <stdexcept>
#include <string>

#include "osvs/kernels/softmax_mutants.h"

namespace osvs {
namespace {

struct Entries {
  std::mutex lock;
  std::vector<const SoftmaxMutant*> mutants;
};

Entries& entries() {
  static Entries e;  // constructed on first use, whenever the first registration runs
  return e;
}

/// The registered names, ", "-separated, for the message of an unknown name.
std::string registered_names(const std::vector<const SoftmaxMutant*>& mutants) {
  std::string names;
  for (const SoftmaxMutant* m : mutants)
    names += (names.empty() ? "" : ", ") + std::string(m->name);
  return names;
}

}  // namespace

void register_softmax_mutant(const SoftmaxMutant* mutant) {
  if (mutant == nullptr || mutant->name == nullptr || *mutant->name == '\0')
    throw std::invalid_argument("register_softmax_mutant: a mutant needs a name");
  Entries& e = entries();
  const std::lock_guard<std::mutex> hold(e.lock);
  for (const SoftmaxMutant* m : e.mutants) {
    if (m == mutant) return;
    if (std::string_view(m->name) == mutant->name)
      throw std::invalid_argument(std::string("register_softmax_mutant: a mutant named '") +
                                  mutant->name + "' is already registered");
  }
  e.mutants.push_back(mutant);
}

std::vector<const SoftmaxMutant*> registered_softmax_mutants() {
  Entries& e = entries();
  const std::lock_guard<std::mutex> hold(e.lock);
  return e.mutants;
}

const SoftmaxMutant& find_softmax_mutant(std::string_view name) {
  const std::vector<const SoftmaxMutant*> all = registered_softmax_mutants();
  for (const SoftmaxMutant* m : all)
    if (name == m->name) return *m;
  throw std::invalid_argument(
      "unknown kernel mutant \"" + std::string(name) + "\" (" +
      (all.empty() ? std::string("this program registered none: the mutants are mutation/'s, "
                                 "registered by osvs::mutation::register_kernel_mutants()")
                   : "registered: " + registered_names(all)) +
      ")");
}

}  // namespace osvs
