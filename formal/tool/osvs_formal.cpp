// osvs_formal: proves the exact laws of the combine operators (formal/README.md).
//
//   osvs_formal                                  every operator, every law it declares
//   osvs_formal --combine seed --law commutativity
//   osvs_formal --combine attention_merge         the merge of (lse, o) partials, base e
//                                                (attention_merge_base2: base 2)
//   osvs_formal --format bf16|fp16               the laws with the states stored in that format
//                                                and the arithmetic rounded to it (f32 default)
//   osvs_formal --smt2 DIR                       also writes each query as SMT-LIB 2
//   osvs_formal --write-regressions DIR [--executor cpu|cuda]
//                                                writes each counterexample as a regression file
//                                                under DIR/<law>/<id>.json (regression_file.h),
//                                                after the executor (default cpu) confirms it
//                                                (a narrow format's with its state_format)
//
// Exit status: 0 when every claimed law is proven and every unclaimed one has a counterexample
// the CPU model reproduces (and, with --write-regressions, the executor confirms every
// counterexample of an operator it can run); 1 otherwise; 2 on a bad argument.
#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "osvs/formal/operators.h"
#include "osvs/formal/regression_file.h"

namespace {

/// Writes r's counterexample under dir and says where, or why not. False when the executor runs
/// the operator but does not confirm the counterexample; an operator or law that no regression
/// file can name is reported, not a failure.
bool write_regression_of(const osvs::formal::ProofResult& r, osvs::Executor& executor,
                         const std::string& dir) {
  const osvs::formal::WrittenCounterexample w =
      osvs::formal::write_counterexample(r, executor, dir);
  if (!w.file.empty()) {
    std::cout << "     regression " << (w.new_file ? "written: " : "already there: ")
              << w.file.string() << std::endl;
    return true;
  }
  std::cout << "     no regression file: " << w.why_not << std::endl;
  return !w.confirmation.has_value();  // a replay ran and did not confirm: a failure
}

}  // namespace

int main(int argc, char** argv) {
  using namespace osvs::formal;
  CLI::App app{"osvs_formal: SMT proofs of the combine operators' exact laws"};
  std::string combine, law_name, smt2_dir, regression_dir, executor_name = "cpu",
                                                           format_name = "f32";
  bool no_fmad = false, smt2_only = false;
  app.add_option("--combine", combine, "one operator (default: all)");
  app.add_option("--law", law_name, "one law (commutativity, identity_left, ...)");
  app.add_option("--smt2", smt2_dir, "write each query as SMT-LIB 2 into DIR");
  app.add_option("--write-regressions", regression_dir,
                 "write each counterexample as a regression file under DIR/<law>/");
  app.add_option("--executor", executor_name,
                 "the executor that confirms a counterexample before it is written (cpu, cuda)");
  app.add_option("--format", format_name,
                 "the state's format and the operator's arithmetic (f32, bf16, fp16)");
  app.add_flag("--no-fmad", no_fmad, "model --fmad=false: no contraction");
  app.add_flag("--smt2-only", smt2_only, "write the queries (--smt2), solve nothing");
  CLI11_PARSE(app, argc, argv);
  try {
    std::vector<const FormalOperator*> ops;
    if (combine.empty())
      for (const FormalOperator& op : formal_operators()) ops.push_back(&op);
    else
      ops.push_back(&find_formal_operator(combine));
    std::optional<Law> only;
    if (!law_name.empty() && !(only = parse_law(law_name)))
      throw std::invalid_argument("unknown law '" + law_name + "'");
    std::unique_ptr<osvs::Executor> executor;
    if (!regression_dir.empty()) {
      std::string why_not;
      if (!(executor = osvs::make_executor(executor_name, &why_not)))
        throw std::invalid_argument("no " + executor_name + " executor: " + why_not);
    }
    ProveOptions options;
    const std::optional<Format> format = parse_format(format_name);
    if (!format)
      throw std::invalid_argument("unknown format '" + format_name + "' (f32, bf16, fp16)");
    options.format = *format;
    options.fmad = !no_fmad;
    options.keep_smt2 = !smt2_dir.empty();
    options.solve = !smt2_only;
    bool ok = true;
    for (const FormalOperator* op : ops)
      for (const LawClaim& c : op->laws) {
        if (only && c.law != *only) continue;
        if (!options.format.is_f32() && !op->narrow_formats) {
          std::cout << "skip " << op->name << ": float32 only\n";
          break;
        }
        const ProofResult r = op->prove(c.law, c.domain, options);
        const bool as_declared =
            c.expect_proof() ? r.proven : (r.counterexample && r.counterexample->reproduced);
        ok = ok && as_declared;
        std::cout << (as_declared ? "ok   " : "FAIL ")
                  << (c.claimed ? (c.known_defect ? "known defect " : "claimed      ")
                                : "not claimed  ")
                  << describe(r) << std::endl;
        if (executor && r.counterexample)
          ok = write_regression_of(r, *executor, regression_dir) && ok;
        if (options.keep_smt2) {
          std::filesystem::create_directories(smt2_dir);
          std::ofstream(std::filesystem::path(smt2_dir) /
                        (op->name + "." + to_string(c.law) + ".smt2"))
              << r.smt2;
        }
      }
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "osvs_formal: " << e.what() << "\n";
    return 2;
  }
}
