// Where the verified exp figures of exp.h hold: the device, driver, compiler and libc of the
// exhaustive measurement they were checked against (reports/exp/verified.json).
#pragma once

namespace osvs {

/// "NVIDIA H200 (compute capability 9.0), driver ...; nvcc ...; glibc ...; ...; measured <date>
/// at commit <commit>".
const char* exp_figures_hold_for();

}  // namespace osvs
