// What the declaration of every kind of kernel under test shares (osvs/api/kind.h): its name,
// where it runs, the callable a launch is handed to, the laws it leaves out (skip) or is known to
// break (known_defect), and a description. RowKernel and MergeKernel derive from it; each setter
// returns the derived declaration, so a declaration reads as one expression.
#pragma once

#include <functional>
#include <map>
#include <string>

namespace osvs {

/// Where the kernel's pointers live: host memory (plain function) or CUDA device memory.
enum class Where { Host, Device };

/// "host", "device".
inline const char* to_string(Where w) {
  return w == Where::Host ? "host" : "device";
}

/// What every kind's launch (RowProblem, MergeProblem) carries besides its operands: the stream
/// to launch on (Where::Device; null for Where::Host), and typed views of its untyped pointers.
struct Launch {
  void* stream = nullptr;

  /// The stream as the CUDA type (cudaStream_t is a pointer type).
  template <class Stream = void*>
  Stream cuda_stream() const {
    return reinterpret_cast<Stream>(stream);
  }

 protected:
  template <class T>
  static const T* typed(const void* p) {
    return static_cast<const T*>(p);
  }
  template <class T>
  static T* typed(void* p) {
    return static_cast<T*>(p);
  }
};

/// Declares name<T>() in a launch: its untyped pointer name##_ptr as a T*, or a const T* where
/// that pointer is to const (an input): the typed views every kind's launch gives its kernel
/// (RowProblem's x<float>(), MergeProblem's o_a<float>(), AttentionProblem's q<float>(), ...).
#define OSVS_DETAIL_TYPED_VIEW(name) \
  template <class T>                 \
  auto name() const {                \
    return typed<T>(name##_ptr);     \
  }

template <class Self, class LaunchT>
class KernelDeclaration {
 public:
  using Problem = LaunchT;  ///< what one launch hands the callable (RowProblem, MergeProblem)
  using Fn = std::function<void(const Problem&)>;

  // --- declaration
  Self& run(Fn fn) { return (fn_ = std::move(fn), self()); }
  /// Leaves out one law, with the reason printed wherever it would have run.
  Self& skip(const std::string& law, std::string reason) {
    return (skips_[law] = std::move(reason), self());
  }
  /// Declares that a law fails on this kernel (a known finding, PyTorch's expected failure):
  /// the testbed then requires a counterexample, saves it as a documented defect and passes.
  Self& known_defect(const std::string& law, std::string reason) {
    return (defects_[law] = std::move(reason), self());
  }
  Self& description(std::string d) { return (description_ = std::move(d), self()); }

  // --- reading the declaration
  const std::string& name() const { return name_; }
  Where where() const { return where_; }
  const std::map<std::string, std::string>& skips() const { return skips_; }
  const std::map<std::string, std::string>& known_defects() const { return defects_; }
  const std::string& description() const { return description_; }
  /// Runs the kernel on one launch (the runner calls this; it checks what the kernel did).
  void operator()(const Problem& p) const { fn_(p); }
  bool has_callable() const { return static_cast<bool>(fn_); }

 protected:
  KernelDeclaration() = default;
  KernelDeclaration(std::string name, Where where) : name_(std::move(name)), where_(where) {}

 private:
  Self& self() { return static_cast<Self&>(*this); }

  std::string name_;
  Where where_ = Where::Host;
  Fn fn_;
  std::map<std::string, std::string> skips_;
  std::map<std::string, std::string> defects_;
  std::string description_;
};

}  // namespace osvs
