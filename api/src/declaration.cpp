#include "declaration.h"

#include <cctype>

#include "osvs/kernels/cases.h"
#include "osvs/kernels/softmax_kernel_facts.h"

namespace osvs::api {

std::string name_problem(const std::string& name) {
  if (name.empty()) return "a kernel needs a name";
  for (char ch : name)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.'))
      return "kernel name '" + name + "' may hold only letters, digits, '_', '-' and '.'";
  return "";
}

std::string derived_contract_problem(const RowKernel& k) {
  if (k.accuracy().kind() != Accuracy::Kind::Derived) return "";
  const DerivedShape& s = k.accuracy().shape();
  if (!parse_kernel(s.kernel)) {
    std::string catalogue;
    for (const SoftmaxKernelFacts& f : kBuiltinSoftmaxKernelFacts)
      catalogue += (catalogue.empty() ? "" : ", ") + std::string(f.name);
    return "no kernel '" + s.kernel + "' in the catalogue of derived bounds (" + catalogue + ")";
  }
  // The catalogue's combines by their types' names: this check also runs inside kernel plugins,
  // which carry no combine registry.
  if (s.combine != SeedCombine::kName && s.combine != HardenedCombine::kName)
    return "no combine '" + s.combine + "' in the catalogue of derived bounds (seed, hardened)";
  const SoftmaxKernelFacts& facts = softmax_kernel_facts(*parse_kernel(s.kernel));
  if (facts.hardened_combine_only && s.combine != HardenedCombine::kName)
    return std::string("the ") + facts.name + " kernel merges with the hardened combine only";
  if (!s.exp.empty() && s.exp != "cuda_expf" && s.exp != "cuda_fast_expf" &&
      s.exp != "glibc_expf" && s.exp != "portable_expf")
    return "no exp '" + s.exp +
           "' among the verified figures (cuda_expf, cuda_fast_expf, glibc_expf, portable_expf)";
  if (!s.exp.empty() && facts.own_exp)
    return std::string("the ") + facts.name + " kernel's exp is its own: it takes no declared exp";
  if (s.block < 32 || s.block > 1024 || (s.block & (s.block - 1)))
    return "block " + std::to_string(s.block) + " is not a power of two in 32 ... 1024";
  if (k.op() != RowOp::Softmax || k.out_type() != DType::F32 || k.in_type() != DType::F32)
    return "derived bounds exist for f32 -> f32 softmax only";
  return "";
}

std::string value_types_problem(const std::string& who, const std::vector<DType>& types) {
  for (DType t : types)
    if (is_integer(t))
      return who + " declares the index type " + to_string(t) +
             " for values (only the row-wise kind's index arrays take one)";
    else if (is_fp8(t))
      return who + " declares the fp8 type " + to_string(t) +
             " for values (only an attention kernel's K/V take one, through kv_types)";
  return "";
}

std::string layout_problem(const Traits& t) {
  std::int64_t previous = 0;
  for (const RowLayout& l : t.layouts) {
    const std::string which = "layout '" + l.name + "'";
    if (l.name.empty()) return "a layout needs a name";
    if (l.from < 1 || l.from > t.max_cols)
      return which + " starts at " + std::to_string(l.from) + ", outside 1 ... max_cols (" +
             std::to_string(t.max_cols) + ")";
    if (l.from <= previous)
      return which + " starts at " + std::to_string(l.from) +
             ": layouts are declared by ascending length";
    if (l.piece < 0) return which + ": a piece of " + std::to_string(l.piece) + " elements";
    previous = l.from;
  }
  return "";
}

}  // namespace osvs::api
