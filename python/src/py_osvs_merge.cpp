// osvs's merge-states CPU model, registered in the module as osvs.merge_states.cpu_model (as
// the builtin entries register it in osvs's own programs, api/builtin/builtin_host.cpp): the
// merge a Python attention kernel names for the cascade law (cascade_merge=...).
#include "builtin_merge.h"
#include "osvs/api/merge_host_io.h"
#include "osvs/api/registry.h"
#include "osvs/kernels/attention/merge_model.h"

namespace osvs::python {
namespace {

void merge_cpu_model(const MergeProblem& p) {
  store_result(p, merge_states_model(operand_a(p), operand_b(p), p.base));
}

const bool registered =
    (register_kernel(builtin::declare_merge(Where::Host).run(merge_cpu_model)), true);

}  // namespace
}  // namespace osvs::python
