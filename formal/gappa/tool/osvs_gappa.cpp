// osvs_gappa: writes the Gappa scripts of the one-step error bounds and proves them
// (formal/README.md, "Gappa proofs of the one-step bounds").
//
//   osvs_gappa --out DIR                      write the scripts, prove each with gappa
//   osvs_gappa --out DIR --write-only         write them only
//   osvs_gappa --out DIR --halve round_rel    the algebra with one charge halved (must fail)
//   osvs_gappa --out DIR --coq                also check each of Gappa's proofs with Coq
//   osvs_gappa --out DIR --no-safety          the bare doubles, without arithmetic_safety(1)
//
// Exit status: 0 when every script is proven (and checked by Coq with --coq); 1 otherwise; 2 on
// a bad argument or a missing gappa / Coq.
#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>

#include "osvs/formal/gappa/one_step.h"
#include "osvs/formal/gappa/suite.h"
#include "osvs/kernels/hex.h"

int main(int argc, char** argv) {
  using namespace osvs::formal::gappa;
  CLI::App app{"osvs_gappa: Gappa proofs of the one-step error bounds"};
  std::string out, halve;
  bool write_only = false, coq = false, no_safety = false;
  app.add_option("--out", out, "folder for the scripts (and Coq certificates)")->required();
  app.add_option("--halve", halve, "halve one charge of the algebra (a planted defect)");
  app.add_flag("--write-only", write_only, "write the scripts, prove nothing");
  app.add_flag("--coq", coq, "check each proof with Coq (libcoq-gappa)");
  app.add_flag("--no-safety", no_safety, "goals without arithmetic_safety(1)");
  CLI11_PARSE(app, argc, argv);
  try {
    const std::vector<Script> scripts = one_step_scripts(halve, !no_safety);
    if (write_only) {
      write_scripts(scripts, out);
      std::cout << scripts.size() << " scripts in " << out << "\n";
      return 0;
    }
    const std::optional<std::string> gappa = find_gappa();
    if (!gappa) {
      std::cerr << "osvs_gappa: gappa is not installed (scripts/install-deps.sh installs it)\n";
      return 2;
    }
    const std::optional<std::string> coqc = coq ? find_coq_gappa() : std::nullopt;
    if (coq && !coqc) {
      std::cerr << "osvs_gappa: coqc with Gappa's Coq library (libcoq-gappa) is not installed\n";
      return 2;
    }
    int proven = 0, checked = 0;
    double seconds = 0, coq_seconds = 0;
    for (const Outcome& o : prove_all(scripts, out, *gappa, false)) {
      seconds += o.result.seconds;
      proven += o.result.proven;
      std::string coq_text;
      if (coqc && o.result.proven) {
        const std::string v = (std::filesystem::path(out) / (coq_module(o.name) + ".v")).string();
        const RunResult c = check_with_coq(*gappa, *coqc, o.path, v);
        coq_seconds += c.seconds;
        checked += c.proven;
        coq_text = c.proven ? "  coq ok" : "  COQ FAILED\n" + c.output;
      }
      std::cout << (o.result.proven ? "proven   " : "UNPROVEN ") << o.name << "  "
                << osvs::digits9(o.result.seconds) << " s" << coq_text << "\n";
      if (!o.result.proven) std::cout << o.result.output;
    }
    std::cout << proven << " of " << scripts.size() << " proven in " << osvs::digits9(seconds)
              << " s";
    if (coqc)
      std::cout << "; " << checked << " checked by Coq in " << osvs::digits9(coq_seconds) << " s";
    std::cout << "\n";
    const bool ok = proven == static_cast<int>(scripts.size()) &&
                    (!coqc || checked == static_cast<int>(scripts.size()));
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "osvs_gappa: " << e.what() << "\n";
    return 2;
  }
}
