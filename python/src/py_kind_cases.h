// What the Python bindings need of each kind (osvs/api/kind.h) beyond the C++ core: its kernel
// from a Python declaration, its case as a dict, and whether a kernel declares no accuracy
// contract (a law that can judge almost nothing then reports "no_contract"). Adding a kind adds
// its three overloads here.
#pragma once

#include <nanobind/nanobind.h>

#include "osvs/api/kind.h"

namespace osvs::python {

namespace nb = nanobind;

RowKernel kernel_from_python(RowKind, const nb::dict& declaration, nb::callable call);
nb::dict case_dict(const RowCase& c);
bool contract_missing(const RowKernel& k);

MergeKernel kernel_from_python(MergeKind, const nb::dict& declaration, nb::callable call);
nb::dict case_dict(const MergeCase& c);
bool contract_missing(const MergeKernel& k);

AttentionKernel kernel_from_python(AttentionKind, const nb::dict& declaration, nb::callable call);
nb::dict case_dict(const AttentionCase& c);
bool contract_missing(const AttentionKernel& k);

ReductionKernel kernel_from_python(ReductionKind, const nb::dict& declaration, nb::callable call);
nb::dict case_dict(const ReductionCase& c);
bool contract_missing(const ReductionKernel& k);

RowwiseKernel kernel_from_python(RowwiseKind, const nb::dict& declaration, nb::callable call);
nb::dict case_dict(const RowwiseCase& c);
bool contract_missing(const RowwiseKernel& k);

/// A combine operator is a C++ type (OSVS_REGISTER_COMBINE): the declaration names a registered
/// one (d["name"]: osvs's own, a mutant, or one of the program's) and may declare skips and known
/// defects; `call` is not used (pass None). On the CPU model.
CombineKernel kernel_from_python(CombineOperatorKind, const nb::dict& declaration,
                                 nb::callable call);
nb::dict case_dict(const CombineCase& c);
bool contract_missing(const CombineKernel& k);

}  // namespace osvs::python
