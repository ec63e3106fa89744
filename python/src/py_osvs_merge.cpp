// osvs's merge-states CPU model, registered in the module as osvs.merge_states.cpu_model (as
// the builtin entries register it in osvs's own programs, api/builtin/builtin_host.cpp): the
// merge a Python attention kernel names for the cascade law (cascade_merge=...).
#include "builtin_merge.h"

namespace osvs::python {
namespace {

const bool registered = (register_kernel(builtin::merge_cpu_model_kernel()), true);

}  // namespace
}  // namespace osvs::python
