"""check_softmax, check_merge, check_reduction and replay: the C++ core's laws on kernels
declared in Python.

Every law, generator, oracle comparison, shrink step and regression file is the core's
(osvs._core over api/testbed/law_run.h, one law run for every kind); this module only declares the
kernel, resolves the settings and turns the core's dicts into results.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from pathlib import Path
from typing import Any, Callable, Iterable, List, Optional, Union

from . import _core
from ._attention import AttentionKernel
from ._declare import MergeKernel, SoftmaxKernel
from ._reduction import Reduction
from ._rowwise import RowReductionKernel, RowwiseKernel, SoftmaxBackwardKernel
from ._results import CheckResult, LawResult, LawViolation, ReplayResult
from ._settings import resolve

_SETTINGS = ("seed", "max_cases", "max_size", "shrink_seconds", "max_findings", "regression_dir",
             "progress")


def row_laws() -> List[str]:
    """The row laws, cheapest first (large_batch runs only with OSVS_LARGE_LAWS=1)."""
    return [name for name, _, _ in _core.laws("row")]


def merge_laws() -> List[str]:
    """The merge laws, exact ones first."""
    return [name for name, _, _ in _core.laws("merge")]


#: The declaration classes by the core's kind of kernel.
_DECLARATIONS = {"row": SoftmaxKernel, "merge": MergeKernel, "attention": AttentionKernel,
                 "reduction": Reduction, "rowwise": RowwiseKernel}


def attention_laws() -> List[str]:
    """The attention laws."""
    return [name for name, _, _ in _core.laws("attention")]


def reduction_laws() -> List[str]:
    """The state reduction laws, exact ones first."""
    return [name for name, _, _ in _core.laws("reduction")]


def rowwise_laws() -> List[str]:
    """The row-wise laws (softmax and log-softmax backward)."""
    return [name for name, _, _ in _core.laws("rowwise")]


def _kind_of(kernel) -> str:
    """The core's kind of a declared kernel: "row", "merge", "attention", "reduction" or
    "rowwise"."""
    for kind, declaration in _DECLARATIONS.items():
        if isinstance(kernel, declaration):
            return kind
    raise TypeError(f"not a declared kernel: {type(kernel).__name__}")


def _split(kwargs: dict):
    settings = {k: kwargs.pop(k) for k in _SETTINGS if k in kwargs}
    return settings, kwargs


def _replay_saved(kernel, replay_dir) -> List[ReplayResult]:
    if replay_dir is None:
        return []
    folder = Path(replay_dir) / kernel.name
    return [replay(p, kernel, raise_on_failure=False) for p in sorted(folder.glob("*.json"))]


def _finish(kernel, laws: Iterable[LawResult], replayed, raise_on_failure: bool) -> CheckResult:
    result = CheckResult(kernel.name, list(laws), replayed)
    if raise_on_failure and not result.ok:
        raise LawViolation(result)
    return result


def _law_results(kind: str, kernel, names: List[str], s: dict) -> List[LawResult]:
    """The core's run of each law. An attention kernel's laws run one at a time (as the core runs
    them: the same cases, the same verdicts), each with its arrays' travels counted
    (LawResult.transfers) and, with ``device=``, its device caches of its own."""
    if kind != "attention":
        return [LawResult(**r) for r in
                _core.check_kernel(kind, kernel.declaration(), kernel.call, names, s)]
    session = kernel.session()  # (a device that cannot be used stops the check here)
    call = functools.partial(kernel.call, session=session)
    results = []
    for name in names:
        session.begin_law()
        (out,) = _core.check_kernel(kind, kernel.declaration(), call, [name], s)
        results.append(LawResult(**out, transfers=session.transfers.as_dict()))
    session.begin_law()  # (frees what the last law kept on the device)
    return results


def check(kernel: Union[SoftmaxKernel, MergeKernel], *, laws: Optional[Iterable[str]] = None,
          replay_dir: Optional[Union[str, os.PathLike]] = None, raise_on_failure: bool = True,
          **settings) -> CheckResult:
    """Runs the laws (default: every one) on a declared kernel; raises LawViolation on a failure.

    ``replay_dir``: the saved cases under ``replay_dir/<name>/`` are replayed first, as the C++
    testbed replays its OSVS_REPLAY_DIR. Settings (``seed``, ``max_cases``, ``max_size``,
    ``shrink_seconds``, ``regression_dir``, ``progress``) default as _settings.py says.
    """
    s = resolve(**settings).as_core()
    replayed = _replay_saved(kernel, replay_dir)
    kind = _kind_of(kernel)
    names = list(laws) if laws is not None else [name for name, _, _ in _core.laws(kind)]
    return _finish(kernel, _law_results(kind, kernel, names, s), replayed, raise_on_failure)


def check_softmax(fn: Callable[[Any], Any], *, name: str, laws=None, replay_dir=None,
                  raise_on_failure: bool = True, **declaration_and_settings) -> CheckResult:
    """Every row law on ``fn(x) -> softmax(x)`` (``log=True``: log-softmax) along each row.

    The declaration's keywords are SoftmaxKernel's: ``log``, ``masked_rows``, ``pos_inf_rows``,
    ``accuracy``, ``vector_width``, ``block``, ``max_cols``, ``layouts``, ``strided``,
    ``deterministic``, ``batch_invariant``, ``order_independent``, ``exact_shift_invariant``,
    ``flush_subnormal_outputs``, ``error_floor``, ``skip``, ``known_defect``, ``to_input``.
    """
    settings, declaration = _split(dict(declaration_and_settings))
    kernel = SoftmaxKernel(fn, name=name, **declaration)
    return check(kernel, laws=laws, replay_dir=replay_dir, raise_on_failure=raise_on_failure,
                 **settings)


def check_log_softmax(fn: Callable[[Any], Any], *, name: str, **kwargs) -> CheckResult:
    """check_softmax with ``log=True``."""
    return check_softmax(fn, name=name, log=True, **kwargs)


def check_merge(fn: Callable[..., Any], *, name: str, laws=None, replay_dir=None,
                raise_on_failure: bool = True, **declaration_and_settings) -> CheckResult:
    """Every merge law on ``fn(o_a, lse_a, o_b, lse_b) -> (o, lse)``.

    The declaration's keywords are MergeKernel's: ``lse_bases``, ``empty_partial``, ``skip``,
    ``known_defect``, ``to_input``, ``conventions``, ``head_dims``, ``head_dim_multiple``,
    ``o_dtypes``, ``lse_layout`` (None: rows; "tokens_heads" or "heads_tokens": the engine's
    shapes) and ``o_strided``.
    """
    settings, declaration = _split(dict(declaration_and_settings))
    kernel = MergeKernel(fn, name=name, **declaration)
    return check(kernel, laws=laws, replay_dir=replay_dir, raise_on_failure=raise_on_failure,
                 **settings)


def check_attention(fn: Callable[..., Any], *, name: str, laws=None, replay_dir=None,
                    raise_on_failure: bool = True, **declaration_and_settings) -> CheckResult:
    """Every attention law on ``fn(q, k, v, problem) -> o`` (or ``(o, lse)``).

    The declaration's keywords are AttentionKernel's: ``dtypes``, ``masks``, ``mask_align``,
    ``gqa``, ``varlen``, ``page_sizes``, ``paged_only``, ``head_dims``, ``lse_bases``,
    ``lse_layout``, ``empty_row_lse``, ``accuracy``, ``conventions``, ``skip``,
    ``known_defect``, ``to_input``, the invariance laws' ``batch_bitwise``, ``page_bitwise``,
    ``split_bitwise``, ``chunk_bitwise``, ``decode_bitwise``, ``split_by`` / ``kv_splits``
    (the split parameter it takes, ``problem.kv_splits``), and ``kv_types`` / ``kv_types_only``
    (fp8 K/V it takes: uint8 k and v, ``problem.kv_type``, ``k_scale``, ``v_scale``).
    ``device="cuda"`` (or "cpu", a torch.device) hands the kernel torch tensors on that device
    instead of NumPy arrays, each distinct input copied there once a law and an output downloaded
    only where the device finds it differs from an earlier one (the verdicts are the host
    path's); each LawResult's ``transfers`` counts the copies either way. Without torch, or
    without that device, raises DeviceUnavailable before the first case.
    """
    settings, declaration = _split(dict(declaration_and_settings))
    kernel = AttentionKernel(fn, name=name, **declaration)
    return check(kernel, laws=laws, replay_dir=replay_dir, raise_on_failure=raise_on_failure,
                 **settings)


def check_reduction(*, name: str, fields, identity, lift, combine, reference, laws=None,
                    replay_dir=None, raise_on_failure: bool = True,
                    **declaration_and_settings) -> CheckResult:
    """Every reduction law on a state reduction declared by its callables (osvs.Reduction).

    ``fields`` (name -> type), ``identity``, ``lift(x, index)``, ``combine(a, b)`` and
    ``reference(row)``; the other keywords are Reduction's: ``finalise``, ``result_fields``,
    ``commutative``, ``exact_identity``, ``tolerance``, ``max_abs``, ``vectorised``,
    ``cpu_model``, ``skip``, ``known_defect``, ``description``.
    """
    settings, declaration = _split(dict(declaration_and_settings))
    kernel = Reduction(name=name, fields=fields, identity=identity, lift=lift, combine=combine,
                       reference=reference, **declaration)
    return check(kernel, laws=laws, replay_dir=replay_dir, raise_on_failure=raise_on_failure,
                 **settings)


def check_softmax_backward(fn: Callable[[Any, Any], Any], *, name: str, laws=None,
                           replay_dir=None, raise_on_failure: bool = True,
                           **declaration_and_settings) -> CheckResult:
    """Every row-wise law on ``fn(y, dy) -> dx``, softmax backward (``log=True``: log-softmax
    backward, ``fn(z, dy) -> dx``).

    The declaration's keywords are SoftmaxBackwardKernel's: ``log``, ``dtype``, ``out_dtype``,
    ``accuracy`` (None or (ulps, cond_rel, cond_rel_per_element)), ``bound_derivation``,
    ``max_cols``, ``strided``, ``deterministic``, ``batch_invariant``, ``order_independent``,
    ``skip``, ``known_defect``, ``description``, ``to_input``.
    """
    settings, declaration = _split(dict(declaration_and_settings))
    kernel = SoftmaxBackwardKernel(fn, name=name, **declaration)
    return check(kernel, laws=laws, replay_dir=replay_dir, raise_on_failure=raise_on_failure,
                 **settings)


def check_log_softmax_backward(fn: Callable[[Any, Any], Any], *, name: str,
                               **kwargs) -> CheckResult:
    """check_softmax_backward with ``log=True``."""
    return check_softmax_backward(fn, name=name, log=True, **kwargs)


def check_row_reduction(fn: Callable[..., Any], *, op: str, name: str, laws=None,
                        replay_dir=None, raise_on_failure: bool = True,
                        **declaration_and_settings) -> CheckResult:
    """Every row-wise law on a row reduction: ``op`` ``logsumexp`` (``fn(x) -> lse``),
    ``layer_norm`` (``fn(x, weight, bias, eps) -> y``), ``rms_norm``
    (``fn(x, weight, eps) -> y``), or any other of RowReductionKernel's ops (``mean_var``,
    ``cross_entropy``, ``cross_entropy_mean``, ``cross_entropy_sum``, ``argmax``, ``topk``).

    The declaration's keywords are RowReductionKernel's: ``dtype``, ``out_dtype``, ``accuracy``
    (None or (ulps, cond_rel, cond_rel_per_element)), ``bound_derivation``, ``max_cols``,
    ``strided``, ``deterministic``, ``batch_invariant``, ``order_independent``,
    ``scale_invariant``, ``inf_row``, ``mean_of_none``, ``skip``, ``known_defect``,
    ``description``, ``to_input``.
    """
    settings, declaration = _split(dict(declaration_and_settings))
    kernel = RowReductionKernel(fn, name=name, op=op, **declaration)
    return check(kernel, laws=laws, replay_dir=replay_dir, raise_on_failure=raise_on_failure,
                 **settings)


def check_logsumexp(fn: Callable[[Any], Any], *, name: str, **kwargs) -> CheckResult:
    """check_row_reduction with ``op="logsumexp"``: ``fn(x) -> lse`` of shape (rows,)."""
    return check_row_reduction(fn, op="logsumexp", name=name, **kwargs)


def check_layer_norm(fn: Callable[..., Any], *, name: str, **kwargs) -> CheckResult:
    """check_row_reduction with ``op="layer_norm"``: ``fn(x, weight, bias, eps) -> y``."""
    return check_row_reduction(fn, op="layer_norm", name=name, **kwargs)


def check_rms_norm(fn: Callable[..., Any], *, name: str, **kwargs) -> CheckResult:
    """check_row_reduction with ``op="rms_norm"``: ``fn(x, weight, eps) -> y``."""
    return check_row_reduction(fn, op="rms_norm", name=name, **kwargs)


def check_mean_var(fn: Callable[[Any], Any], *, name: str, unbiased: bool = False,
                   **kwargs) -> CheckResult:
    """check_row_reduction with ``op="mean_var"`` (``unbiased=True``: ``"mean_var_unbiased"``):
    ``fn(x) -> (mean, var)``, each of shape (rows,), as torch.var_mean gives them reversed."""
    return check_row_reduction(fn, op="mean_var_unbiased" if unbiased else "mean_var", name=name,
                               **kwargs)


def check_cross_entropy(fn: Callable[..., Any], *, name: str, reduction: str = "none",
                        **kwargs) -> CheckResult:
    """check_row_reduction with ``op="cross_entropy"``:
    ``fn(x, target, ignore_index, label_smoothing) -> loss``, target (int64 unless
    ``index_dtype``) and loss of shape (rows,), as torch's cross_entropy(reduction='none');
    ``label_smoothing=False`` if the kernel has none (the laws then draw 0 only).
    ``reduction="mean"`` or ``"sum"``: ``op="cross_entropy_mean"`` or ``"cross_entropy_sum"``,
    the loss one value for the batch (a 0-d array), as reduction='mean' and 'sum' give it;
    ``mean_of_none="zero"`` for a mean that gives 0 where no row is counted (torch: NaN)."""
    ops = {"none": "cross_entropy", "mean": "cross_entropy_mean", "sum": "cross_entropy_sum"}
    if reduction not in ops:
        raise ValueError(f"reduction {reduction!r}: 'none', 'mean' or 'sum'")
    return check_row_reduction(fn, op=ops[reduction], name=name, **kwargs)


def check_argmax(fn: Callable[[Any], Any], *, name: str, **kwargs) -> CheckResult:
    """check_row_reduction with ``op="argmax"``: ``fn(x) -> index`` of shape (rows,), exact
    under the declared ``ties`` ("lowest", torch.argmax's rule, or "any")."""
    return check_row_reduction(fn, op="argmax", name=name, **kwargs)


def check_topk(fn: Callable[[Any, int], Any], *, name: str, **kwargs) -> CheckResult:
    """check_row_reduction with ``op="topk"``: ``fn(x, k) -> (values, indices)``, each of shape
    (rows, k), exact under the declared ``ties`` and ``sorted`` (descending, NaN first)."""
    return check_row_reduction(fn, op="topk", name=name, **kwargs)


def read_regression(path: Union[str, os.PathLike]) -> dict:
    """A regression file's record: kernel, law, expectation, provenance and case."""
    return _core.read_regression(os.fspath(path))


def replay(path: Union[str, os.PathLike], fn, *, raise_on_failure: bool = True,
           **declaration) -> ReplayResult:
    """Replays one regression file (of any kind) on a kernel and checks it shows what it expects.

    ``fn`` is a declared kernel (SoftmaxKernel, MergeKernel) or a plain callable declared by the
    keywords as for check_softmax / check_merge (a row-wise one: ``op=`` for a row reduction, as
    for check_row_reduction, else a softmax backward); ``name`` defaults to the file's kernel.
    """
    path = os.fspath(path)
    record = read_regression(path)
    if isinstance(fn, tuple(_DECLARATIONS.values())):
        kernel = dataclasses.replace(fn, **declaration) if declaration else fn
    else:
        declaration.setdefault("name", record["kernel"])
        cls = _DECLARATIONS[record["kind"]]
        if cls is RowwiseKernel:  # a row reduction declares its op, a backward does not
            cls = RowReductionKernel if "op" in declaration else SoftmaxBackwardKernel
        kernel = cls(fn, **declaration)
    if _kind_of(kernel) != record["kind"]:
        raise TypeError(f"{path} is a {record['kind']} kernel's case; got a "
                        f"{_kind_of(kernel)} kernel")
    call = kernel.call
    if isinstance(kernel, AttentionKernel):
        call = functools.partial(kernel.call, session=kernel.session())
    out = _core.replay_file(record["kind"], kernel.declaration(), call, path)
    result = ReplayResult(path=path, kernel=out["kernel"], law=out["law"],
                          expect_holds=out["expect_holds"], status=out["status"],
                          problem=out["problem"], found=out["found"],
                          explanation=out["explanation"], case=out["case"])
    if raise_on_failure and not result.ok:
        raise LawViolation(result)
    return result
