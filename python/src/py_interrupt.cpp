#include "py_interrupt.h"

#include <optional>
#include <stdexcept>

namespace osvs::python {
namespace {

/// The interrupt of the running check (only touched with the GIL held).
std::optional<nanobind::python_error>& pending() {
  static std::optional<nanobind::python_error> p;
  return p;
}

}  // namespace

void call_unless_interrupted(const std::function<void()>& call) {
  if (pending()) throw std::runtime_error("interrupted: the check stops");
  try {
    call();
  } catch (nanobind::python_error& e) {
    if (e.matches(PyExc_Exception)) throw;
    pending().emplace(std::move(e));
    throw std::runtime_error("interrupted: the check stops");
  }
}

void raise_pending_interrupt() {
  if (!pending()) return;
  nanobind::python_error e = std::move(*pending());
  pending().reset();
  throw e;
}

}  // namespace osvs::python
