#include "attention_judge.h"

#include <cmath>
#include <sstream>

#include "osvs/kernels/hex.h"

namespace osvs::attention_judge {

void Findings::fail(const std::string& why, Evidence e, const std::string& kind) {
  if (why_.empty()) why_ = why;
  if (evidence_.size() < 4) evidence_.push_back(std::move(e));
  add_finding(findings_, {kind, why});
}

void Findings::held(double error, double bound) {
  if (bound > 0 && error / bound > worst_ratio_) {
    worst_ratio_ = error / bound;
    worst_ = Evidence{"worst error / bound", error, 0, error / bound, bound};
  }
}

Verdict Findings::verdict(const std::string& law) const {
  if (failed()) {
    std::vector<Finding> findings = findings_;
    for (Finding& one : findings) one.explanation = law + ": " + one.explanation;
    return Verdict::fail(law + ": " + why_, evidence_, std::move(findings));
  }
  Verdict v = Verdict::pass();
  if (worst_ratio_ > 0) v.evidence.push_back(worst_);
  return v;
}

namespace {

float o_at(const AttnStates& x, std::int64_t row, int c) {
  return x.o[static_cast<std::size_t>(row * x.head_dim + c)];
}

float lse_at(const AttnStates& x, std::int64_t row) {
  return x.lse[static_cast<std::size_t>(row)];
}

}  // namespace

bool same_value(float got, float expected, const ValueConventions& c) {
  if (float_bits(got) == float_bits(expected)) return true;
  if (c.any_nan_bits && std::isnan(got) && std::isnan(expected)) return true;
  return c.either_zero_sign && got == 0.0f && expected == 0.0f;
}

std::string bitwise_kind(float got, float expected) {
  if (std::isnan(got) && std::isnan(expected)) return "NaN bits";
  if (got == 0.0f && expected == 0.0f) return "zero sign";
  if (std::isnan(got)) return "NaN instead of a value";
  if (std::isnan(expected)) return "a value instead of NaN";
  return "other bits";
}

bool is_the_nan(float got, const ValueConventions& c) {
  return float_bits(got) == float_bits(canonical_nan()) || (c.any_nan_bits && std::isnan(got));
}

void expect_bitwise_row(const AttnStates& x, std::int64_t row_x, const AttnStates& y,
                        std::int64_t row_y, const std::string& what, Findings& f) {
  const ValueConventions& conv = f.conventions();
  if (!same_value(lse_at(x, row_x), lse_at(y, row_y), conv))
    f.fail(what + ": lse of row " + std::to_string(row_x) + " is " + readable(lse_at(x, row_x)) +
               ", expected the bits of " + readable(lse_at(y, row_y)),
           Evidence{"lse", lse_at(x, row_x), lse_at(y, row_y), 0, 0},
           "lse: " + bitwise_kind(lse_at(x, row_x), lse_at(y, row_y)));
  if (conv.empty_o_unspecified && lse_at(y, row_y) == -INFINITY) return;  // o of an empty row
  for (int c = 0; c < x.head_dim; ++c)
    if (!same_value(o_at(x, row_x, c), o_at(y, row_y, c), conv))
      f.fail(what + ": o[" + std::to_string(c) + "] of row " + std::to_string(row_x) + " is " +
                 readable(o_at(x, row_x, c)) + ", expected the bits of " +
                 readable(o_at(y, row_y, c)),
             Evidence{"o[" + std::to_string(c) + "]", o_at(x, row_x, c), o_at(y, row_y, c), 0, 0},
             "o: " + bitwise_kind(o_at(x, row_x, c), o_at(y, row_y, c)));
}

void expect_bitwise(const AttnStates& x, const AttnStates& y, const std::string& what,
                    Findings& f) {
  for (std::int64_t r = 0; r < x.rows; ++r) expect_bitwise_row(x, r, y, r, what, f);
}

void expect_empty_row(const AttnStates& x, std::int64_t row, const std::string& what, Findings& f) {
  if (lse_at(x, row) != -INFINITY)
    f.fail(what + ": row " + std::to_string(row) + " should be empty (lse -inf), lse is " +
               readable(lse_at(x, row)),
           Evidence{"lse", lse_at(x, row), -INFINITY, 0, 0}, "lse: not empty");
  if (f.conventions().empty_o_unspecified) return;
  for (int c = 0; c < x.head_dim; ++c)
    if (!same_value(o_at(x, row, c), 0.0f, f.conventions()))
      f.fail(what + ": o[" + std::to_string(c) + "] of empty row " + std::to_string(row) + " is " +
                 readable(o_at(x, row, c)) + ", the empty result is +0",
             Evidence{"o[" + std::to_string(c) + "]", o_at(x, row, c), 0, 0, 0},
             "o: an empty result's o not +0");
}

void expect_nan_row(const AttnStates& x, std::int64_t row, const std::string& what, Findings& f,
                    const std::string& input_class) {
  const std::string lead = input_class.empty() ? "" : input_class + ", ";
  const auto kind = [&](float got) { return lead + (std::isnan(got) ? "NaN bits" : "not NaN"); };
  if (!is_the_nan(lse_at(x, row), f.conventions()))
    f.fail(what + ": lse of row " + std::to_string(row) + " is " + readable(lse_at(x, row)) +
               ", expected the canonical NaN",
           Evidence{"lse", lse_at(x, row), NAN, 0, 0}, "lse: " + kind(lse_at(x, row)));
  for (int c = 0; c < x.head_dim; ++c)
    if (!is_the_nan(o_at(x, row, c), f.conventions()))
      f.fail(what + ": o[" + std::to_string(c) + "] of row " + std::to_string(row) + " is " +
                 readable(o_at(x, row, c)) + ", expected the canonical NaN",
             Evidence{"o[" + std::to_string(c) + "]", o_at(x, row, c), NAN, 0, 0},
             "o: " + kind(o_at(x, row, c)));
}

void expect_within(const AttnStates& x, std::int64_t row, double lse, const std::vector<double>& o,
                   const std::vector<double>& magnitude, const oracle::AttnBound& bound,
                   const std::string& what, Findings& f) {
  const double lse_err = std::fabs(lse_at(x, row) - lse);
  const double lse_tol = oracle::lse_tolerance(bound, lse);
  if (!(lse_err <= lse_tol))
    f.fail(what + ": lse of row " + std::to_string(row) + " is " + readable(lse_at(x, row)) +
               ", exact " + readable(lse) + ", error " + digits9(lse_err) + " > bound " +
               digits9(lse_tol),
           Evidence{"lse", lse_at(x, row), lse, lse_err, lse_tol},
           std::isnan(lse_at(x, row)) ? "lse: NaN instead of a value" : "lse: outside the bound");
  else
    f.held(lse_err, lse_tol);
  for (int c = 0; c < x.head_dim; ++c) {
    const auto i = static_cast<std::size_t>(c);
    const double err = std::fabs(o_at(x, row, c) - o[i]);
    const double tol = oracle::o_tolerance(bound, magnitude[i]);
    if (!(err <= tol))
      f.fail(what + ": o[" + std::to_string(c) + "] of row " + std::to_string(row) + " is " +
                 readable(o_at(x, row, c)) + ", exact " + readable(o[i]) + " (M " +
                 digits9(magnitude[i]) + "), error " + digits9(err) + " > bound " + digits9(tol),
             Evidence{"o[" + std::to_string(c) + "]", o_at(x, row, c), o[i], err, tol},
             std::isnan(o_at(x, row, c)) ? "o: NaN instead of a value" : "o: outside the bound");
    else
      f.held(err, tol);
  }
}

oracle::AttentionReference reference_of(const DecodeProblem& p, std::int64_t row,
                                        std::int64_t begin, std::int64_t end) {
  const auto key = static_cast<std::size_t>((row * p.kv_len + begin) * p.head_dim);
  const std::uint8_t* masked =
      p.masked.empty()
          ? nullptr
          : p.masked.data() + static_cast<std::size_t>((row / p.heads) * p.kv_len + begin);
  return oracle::attention_reference(
      oracle::AttentionQuery{p.q.data() + row * p.head_dim, p.k.data() + key, p.v.data() + key,
                             masked, end - begin, p.head_dim, p.scale, p.base, p.out});
}

std::string describe(const DecodeProblem& p, const SplitPlan& plan) {
  std::ostringstream s;
  s << "batch " << p.batch << ", heads " << p.heads << ", head_dim " << p.head_dim << ", kv_len "
    << p.kv_len << ", " << to_string(p.out) << ", base " << to_string(p.base) << ", scale "
    << hex(p.scale) << ", " << plan.splits() << " splits";
  return s.str();
}

}  // namespace osvs::attention_judge
