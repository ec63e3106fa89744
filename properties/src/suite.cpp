// The suite: each registered property paired with its generator, once per configuration family.
#include "osvs/properties/suite.h"

#include <stdexcept>

#include "osvs/properties/gen/cases.h"
#include "osvs/properties/gen/floats.h"
#include "osvs/properties/gen/states.h"

namespace osvs {
namespace {

void tag_states(const Case& c) {
  RC_TAG(gen::states_class(c.states));
}

void tag_row(const Case& c) {
  if (!c.rows.empty()) RC_TAG(gen::row_class(c.rows[0]));
}

void tag_rows(const Case& c) {
  if (!c.rows.empty()) RC_TAG(gen::row_class(c.rows[0]), gen::length_class(std::ssize(c.rows[0])));
}

gen::Config config_of(const Case& configuration) {
  return {configuration.kernel, configuration.combine, configuration.mutant};
}

}  // namespace

std::vector<LawSpec> combine_laws(CombineKind combine) {
  const auto states = [combine](rc::Gen<State> g) {
    return gen::states_case(combine, gen::states(std::move(g)));
  };
  return {
      {"identity_right", states(gen::well_formed_state()), tag_states, kSmallCombineCase},
      {"identity_left", states(gen::well_formed_state()), tag_states, kSmallCombineCase},
      {"finite_identity", states(gen::finite_max_state()), tag_states, kSmallCombineCase},
      {"commutativity", gen::states_case(combine, gen::state_pairs()), tag_states,
       kSmallCombineCase},
      {"warp_reduce", gen::warp_case(combine), tag_row},
      {"tree_invariance", gen::tree_case(combine), tag_row},
  };
}

std::vector<LawSpec> softmax_laws(const Case& configuration) {
  const gen::Config cfg = config_of(configuration);
  return {
      {"accuracy", gen::softmax_case(cfg, gen::finite_batch()), tag_rows},
      {"sum_to_one", gen::softmax_case(cfg, gen::finite_batch()), tag_rows},
      {"softmax_range", gen::softmax_case(cfg, gen::finite_batch()), tag_rows},
      {"permutation", gen::permutation_case(cfg), tag_rows},
      {"shift_invariance", gen::shift_case(cfg), tag_rows},
      {"batch_invariance", gen::batch_case(cfg), tag_rows},
      {"determinism", gen::softmax_case(cfg, gen::special_batch()), tag_rows},
      {"special_values", gen::softmax_case(cfg, gen::special_batch()), tag_rows},
      {"executor_agreement", gen::softmax_case(cfg, gen::special_batch()), tag_rows},
  };
}

std::vector<LawSpec> law_suite(const Case& configuration) {
  std::vector<LawSpec> laws;
  if (configuration.kernel == KernelKind::TwoPass && configuration.mutant.empty())
    laws = combine_laws(configuration.combine);
  for (LawSpec& law : softmax_laws(configuration)) laws.push_back(std::move(law));
  return laws;
}

const LawSpec& find_law(const std::vector<LawSpec>& laws, std::string_view property) {
  for (const LawSpec& law : laws)
    if (law.property == property) return law;
  throw std::invalid_argument("the suite has no law for property \"" + std::string(property) +
                              "\"");
}

}  // namespace osvs
