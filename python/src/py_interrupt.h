// Ctrl-C during a check. A kernel's Python exception is a failure of the law (the runner's rule
// for a kernel that throws), but a KeyboardInterrupt or SystemExit (a BaseException that is not
// an Exception) is the user's: it is kept, every later launch fails at once without calling
// Python (so shrinking ends quickly), and the check raises it when the law's run returns.
#pragma once

#include <nanobind/nanobind.h>

#include <functional>

namespace osvs::python {

/// Calls `call` (which calls into Python) unless an interrupt is pending; keeps an interrupt and
/// throws std::runtime_error for it, rethrows any other Python exception.
void call_unless_interrupted(const std::function<void()>& call);

/// Raises the pending interrupt in Python (clearing it), if there is one.
void raise_pending_interrupt();

}  // namespace osvs::python
