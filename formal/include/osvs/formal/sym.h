// The symbolic scalar of a binary format (binary32, bf16 or fp16: the active Context's, format.h):
// the type an operator's own combine is instantiated with so that running it builds the SMT term of
// what it computes (formal/README.md).
//
//   Sym       a value of the format: its IEEE value (SMT sort (_ FloatingPoint e s): 8 24, 8 8 or
//             5 11) and its bits (32 or 16). An input
//             or a constant has exact bits; the bits of a computed value are a fresh bit-vector b
//             with the definition to_fp(b) = value, which fixes them except for a NaN, whose
//             payload and sign stay free: the proof then holds for every NaN a device or a libm
//             may return (x86 keeps an operand's payload, the GPU returns 0x7fffffff).
//   SymBool   a comparison. Converting it to bool (an `if`, `?:`, `&&`, a `const bool`) asks the
//             Explorer (explore.h) which way this run goes: the operator's branches are kept as
//             written and each run follows one path; the paths are joined by if-then-else.
//   SymBits   float_bits(x) of a Sym, for the bit tricks operators play on m.
//
// Arithmetic is round-to-nearest-even; comparisons are IEEE's (a NaN compares false, -0 == +0).
// The kernels' helpers get their symbolic overloads in sym_ops.h, found by argument-dependent
// lookup from the operators' unqualified calls.
#pragma once

#include <z3++.h>

#include "osvs/formal/format.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace osvs::formal {

class Context;

/// The context the symbolic values of this thread are built in (set by a ContextScope).
Context& active();

class SymBool {
 public:
  explicit SymBool(z3::expr e) : e_(std::move(e)) {}
  /// The branch this run takes (Explorer::decide): how the operator's own control flow is kept.
  operator bool() const;  // NOLINT(google-explicit-constructor): branches must convert it
  const z3::expr& expr() const { return e_; }

 private:
  z3::expr e_;
};

class SymBits {
 public:
  explicit SymBits(z3::expr bv) : bv_(std::move(bv)) {}
  const z3::expr& expr() const { return bv_; }
  friend SymBits operator&(const SymBits& a, const SymBits& b) { return SymBits(a.bv_ & b.bv_); }
  friend SymBits operator|(const SymBits& a, const SymBits& b) { return SymBits(a.bv_ | b.bv_); }
  friend SymBool operator==(const SymBits& a, std::uint32_t b);

 private:
  z3::expr bv_;
};

class Sym {
 public:
  /// A constant: its exact bits (a NaN keeps its payload); in bf16 / fp16 the float rounded to
  /// the format (Format::bits_of), as a kernel storing the constant in it does.
  Sym(float c);  // NOLINT(google-explicit-constructor): literals in the operators convert
  /// A value with known bits `bits` (an input).
  static Sym from_bits(const z3::expr& bits);
  /// A computed value: its bits are defined from it (a NaN's are free).
  static Sym computed(const z3::expr& fp);
  /// if c then x else y, bits included.
  static Sym select(const z3::expr& c, const Sym& x, const Sym& y);

  const z3::expr& fp() const { return fp_; }
  /// The bits; a computed value's are defined on first use (Context::bits_of), so that only the
  /// values whose bits matter (compared results, bit tricks, exp arguments) carry a definition.
  const z3::expr& bits() const;
  bool has_bits() const { return bits_.has_value(); }

 private:
  Sym(z3::expr fp, std::optional<z3::expr> bits) : fp_(std::move(fp)), bits_(std::move(bits)) {}
  z3::expr fp_;
  mutable std::optional<z3::expr> bits_;
};

Sym operator+(const Sym& a, const Sym& b);
Sym operator-(const Sym& a, const Sym& b);
Sym operator*(const Sym& a, const Sym& b);
Sym operator/(const Sym& a, const Sym& b);
Sym operator-(const Sym& a);  ///< exact: flips the sign bit
SymBool operator==(const Sym& a, const Sym& b);
SymBool operator!=(const Sym& a, const Sym& b);
SymBool operator<(const Sym& a, const Sym& b);
SymBool operator<=(const Sym& a, const Sym& b);
SymBool operator>(const Sym& a, const Sym& b);
SymBool operator>=(const Sym& a, const Sym& b);

/// fma(a, b, c), rounded once.
Sym fused_mul_add(const Sym& a, const Sym& b, const Sym& c);

/// The format's sort, and a float's value rounded to the active context's format as a term.
z3::sort sort_of(z3::context& z, const Format& f);
z3::expr fp_constant(z3::context& z, float c);

}  // namespace osvs::formal
