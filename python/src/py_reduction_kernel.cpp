#include "py_reduction_kernel.h"

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "osvs/kernels/harness_flat.h"
#include "py_arrays.h"
#include "py_declaration.h"
#include "py_interrupt.h"

namespace osvs::python {
namespace {

/// A NumPy array owning a copy of v.
template <class T>
nb::object numpy_copy(std::vector<T> v) {
  auto* owned = new std::vector<T>(std::move(v));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::cast(nb::ndarray<nb::numpy, T, nb::ndim<1>>(owned->data(), {owned->size()}, owner));
}

template <class F>
nb::object column(const std::vector<FlatHarnessCase>& cases, F member) {
  std::vector<std::int64_t> out;
  for (const FlatHarnessCase& c : cases) out.push_back(static_cast<std::int64_t>(c.*member));
  return numpy_copy(std::move(out));
}

nb::dict schedules_dict(const std::vector<HarnessCase>& schedules) {
  FlatHarnessBatch f = flatten(schedules);
  std::vector<std::int32_t> dst, src;
  for (const Merge& m : f.merges) dst.push_back(m.dst), src.push_back(m.src);
  nb::dict d;
  d["values"] = vector_array(f.values);
  d["chunk_offsets"] = numpy_copy(std::move(f.chunk_offsets));
  d["slot_chunk"] = numpy_copy(std::move(f.slot_chunk));
  d["merge_dst"] = numpy_copy(std::move(dst));
  d["merge_src"] = numpy_copy(std::move(src));
  d["row_begin"] = column(f.cases, &FlatHarnessCase::row_begin);
  d["chunk_begin"] = column(f.cases, &FlatHarnessCase::chunk_begin);
  d["slot_begin"] = column(f.cases, &FlatHarnessCase::slot_begin);
  d["merge_begin"] = column(f.cases, &FlatHarnessCase::merge_begin);
  d["num_chunks"] = column(f.cases, &FlatHarnessCase::num_chunks);
  d["num_slots"] = column(f.cases, &FlatHarnessCase::num_slots);
  d["num_merges"] = column(f.cases, &FlatHarnessCase::num_merges);
  d["root"] = column(f.cases, &FlatHarnessCase::root);
  return d;
}

/// The bits of a (schedules, fields) uint64 array, row by row.
std::vector<std::uint64_t> bits_of(nb::handle array, std::size_t rows, std::size_t fields,
                                   const char* what) {
  using Bits = nb::ndarray<const std::uint64_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
  Bits a;
  if (!nb::try_cast(array, a) || a.shape(0) != rows || a.shape(1) != fields)
    throw std::runtime_error(std::string(what) +
                             ": expected a C-contiguous uint64 array of shape (" +
                             std::to_string(rows) + ", " + std::to_string(fields) + ")");
  return std::vector<std::uint64_t>(a.data(), a.data() + rows * fields);
}

void call_python(const nb::callable& call, const ReductionProblem& p, std::size_t state_fields,
                 std::size_t result_fields) {
  nb::gil_scoped_acquire gil;
  call_unless_interrupted([&] {
    const nb::tuple out = nb::cast<nb::tuple>(call(schedules_dict(*p.schedules)));
    if (out.size() != 2)
      throw std::runtime_error("the reduction's model: expected (states, results)");
    const std::size_t n = p.schedules->size();
    *p.states = bits_of(out[0], n, state_fields, "the reduction's states");
    *p.results = bits_of(out[1], n, result_fields, "the reduction's results");
  });
}

std::vector<FieldSpec> fields_of(const nb::list& fields) {
  static const std::pair<const char*, FieldType> kTypes[] = {
      {"float32", FieldType::F32}, {"float64", FieldType::F64}, {"int8", FieldType::I8},
      {"int16", FieldType::I16},   {"int32", FieldType::I32},   {"int64", FieldType::I64},
      {"uint8", FieldType::U8},    {"uint16", FieldType::U16},  {"uint32", FieldType::U32},
      {"uint64", FieldType::U64}};
  std::vector<FieldSpec> out;
  for (nb::handle f : fields) {
    const nb::tuple t = nb::cast<nb::tuple>(f);
    const std::string name = nb::cast<std::string>(t[0]), type = nb::cast<std::string>(t[1]);
    const auto* it = std::find_if(std::begin(kTypes), std::end(kTypes),
                                  [&](const auto& k) { return type == k.first; });
    if (it == std::end(kTypes))
      throw std::invalid_argument("field '" + name + "' of type '" + type +
                                  "': float32, float64, int8, int16, int32, int64, uint8, "
                                  "uint16, uint32 or uint64");
    out.push_back({name, it->second});
  }
  return out;
}

ReductionExactFn reference_of(nb::callable reference) {
  return [reference](std::span<const float> row) {
    nb::gil_scoped_acquire gil;
    std::vector<double> out;
    for (nb::handle v : reference(vector_array(std::vector<float>(row.begin(), row.end()))))
      out.push_back(nb::cast<double>(v));
    return out;
  };
}

ReductionToleranceFn tolerance_of(nb::handle t) {
  if (nb::isinstance<nb::list>(t)) {
    std::vector<double> per_field;
    for (nb::handle v : nb::cast<nb::list>(t)) per_field.push_back(nb::cast<double>(v));
    return [per_field](std::size_t f, const ReductionShape&) { return per_field.at(f); };
  }
  nb::callable f = nb::cast<nb::callable>(t);
  return [f](std::size_t field, const ReductionShape& s) {
    nb::gil_scoped_acquire gil;
    nb::list exact;
    for (double v : *s.exact) exact.append(v);
    return nb::cast<double>(
        f(field, vector_array(std::vector<float>(s.row.begin(), s.row.end())), s.depth, exact));
  };
}

ReductionKernel reduction_kernel_from_python(const nb::dict& d, nb::callable call) {
  ReductionKernel k(nb::cast<std::string>(d["name"]), Where::Host);
  k.state_fields(fields_of(nb::cast<nb::list>(d["fields"])))
      .result_fields(fields_of(nb::cast<nb::list>(d["result_fields"])))
      .bitwise_commutative(nb::cast<bool>(d["commutative"]))
      .exact_identity(nb::cast<bool>(d["exact_identity"]))
      .max_abs(nb::cast<float>(d["max_abs"]))
      .cpu_model(nb::cast<std::string>(d["cpu_model"]))
      .exact(reference_of(nb::cast<nb::callable>(d["reference"])))
      .description(nb::cast<std::string>(d["description"]));
  if (!d["tolerance"].is_none())
    k.tolerance(tolerance_of(d["tolerance"])).bound_derivation("the Python declaration");
  const std::size_t ns = k.state_fields().size(), nr = k.result_fields().size();
  k.run([call, ns, nr](const ReductionProblem& p) { call_python(call, p, ns, nr); });
  return declared(std::move(k), d);
}

nb::dict case_dict(const ReductionCase& c) {
  nb::dict d;
  d["row"] = vector_array(c.schedule.row);
  add_schedule(d, c.schedule);
  return d;
}

bool contract_missing(const ReductionKernel&) {
  return false;  // a reduction declares its exact reference (and tolerance, else exact results)
}

}  // namespace

PythonSide<ReductionKind> python_side(ReductionKind) {
  return {reduction_kernel_from_python, case_dict, contract_missing};
}

void add_schedule(nb::dict& d, const HarnessCase& h) {
  d["chunk_offsets"] = h.chunk_offsets;
  d["slot_chunk"] = h.slot_chunk;
  nb::list merges;
  for (const Merge& m : h.merges) merges.append(nb::make_tuple(m.dst, m.src));
  d["merges"] = merges;
  d["root"] = h.root;
}

}  // namespace osvs::python
