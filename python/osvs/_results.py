"""What a check reports: one LawResult per law, the shrunk case of a failure and its file."""

from __future__ import annotations

import dataclasses
from typing import List, Optional

import numpy as np

#: Statuses that fail a check: a law broken, a declared defect that did not show, a law whose
#: generated cases were mostly outside its domain, a saved case that no longer replays as saved,
#: a law whose run threw outside the kernel.
FAILING = ("failed", "defect_missing", "not_judged", "mismatch", "error")

#: Elements of a row printed in a failure message (the regression file holds them all).
SHOWN = 24


def hex_float(v: float) -> str:
    """v as the shortest hex float (0x1.8p+3, as the regression files write it)."""
    mantissa, _, exponent = float(v).hex().partition("p")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}p{exponent}"


def format_values(values: np.ndarray) -> str:
    """Hex floats (exact) with the decimal value next to each."""
    items = [f"{hex_float(v)} ({float(v):.9g})" if np.isfinite(v) else str(float(v))
             for v in values[:SHOWN]]
    more = f", ... ({len(values) - SHOWN} more)" if len(values) > SHOWN else ""
    return "[" + ", ".join(items) + more + "]"


def format_case(case: dict) -> str:
    """A shrunk case as lines of text: its shape, then its values."""
    lines = [case["summary"]]
    if "rows" in case:
        for i, row in enumerate(case["rows"]):
            lines.append(f"  row {i}: {format_values(row)}")
        if case["permutation"]:
            lines.append(f"  permutation: {case['permutation'][:SHOWN]}")
        if case["shift"]:
            lines.append(f"  shift: {hex_float(case['shift'])} ({case['shift']:.9g})")
    elif "parts" in case:
        for i, part in enumerate(case["parts"]):
            lines.append(f"  partial {i}: lse {format_values(part['lse'])}")
            for r, o in enumerate(part["o"]):
                lines.append(f"    o[{r}]: {format_values(o)}")
    elif "chunk_offsets" in case:  # a state reduction's row and schedule
        lines.append(f"  row: {format_values(case['row'])}")
        lines.append(f"  chunk offsets {list(case['chunk_offsets'])[:SHOWN]}, slots "
                     f"{list(case['slot_chunk'])[:SHOWN]}, merges {list(case['merges'])[:SHOWN]}")
    elif "inputs" in case:  # a row-wise case: each input array's rows, in the op's order
        for a, rows in enumerate(case["inputs"]):
            for i, row in enumerate(rows):
                lines.append(f"  input {a}, row {i}: {format_values(row)}")
        if case["permutation"]:
            lines.append(f"  permutation: {case['permutation'][:SHOWN]}")
    else:  # an attention case: its tensors, flattened (shapes in the summary)
        for name in ("q", "k", "v"):
            lines.append(f"  {name}: {format_values(case[name])}")
        if case["page_size"]:
            lines.append(f"  page_order: {list(case['page_order'])[:SHOWN]}")
    return "\n".join(lines)


@dataclasses.dataclass
class LawResult:
    law: str
    description: str
    # passed | failed | skipped | known_defect | defect_missing | not_judged | no_contract | error
    status: str
    reason: str = ""
    judged: int = 0
    not_judged: int = 0
    shrink_steps: int = 0
    budget_spent: bool = False
    case: Optional[dict] = None  # the shrunk case (rows as float32 arrays), when the law failed
    regression: Optional[str] = None  # the regression file written for it
    kind: str = ""  # the class of that failure ("" for a law that does not class its failures)
    # the law's other distinct failures, each {"kind", "reason", "case", "regression",
    # "shrink_steps", "budget_spent"} (max_findings)
    other_findings: List[dict] = dataclasses.field(default_factory=list)
    # an invariance (a law across calls): "bitwise" (it asks for the same bits) or "contract"
    # (every call within the contract, as the declaration allows); "" for a law of one call
    asks: str = ""
    shape_classes: int = 0  # distinct shape classes among the judged cases
    # an attention kernel's copies between host and device during this law (_transfers.py's
    # Transfers.as_dict(): calls, uploads, downloads, their bytes and seconds, and with device=
    # the inputs reused and the downloads a comparison on the device avoided); None otherwise
    transfers: Optional[dict] = None

    @property
    def ok(self) -> bool:
        return self.status not in FAILING

    def __str__(self) -> str:
        head = f"{self.law}: {self.status}"
        if self.status == "passed":
            return f"{head} ({self.judged} cases)"
        text = f"{head}: {self.reason}" if self.reason else head
        if self.case is not None:
            shrink = "stopped at its budget" if self.budget_spent else "done"
            text += (f"\nshrunk case ({self.shrink_steps} smaller failing cases, shrinking "
                     f"{shrink}): {format_case(self.case)}\nsaved {self.regression}"
                     f"\nreplay: osvs.replay({self.regression!r}, fn)")
        for other in self.other_findings:
            text += (f"\nanother finding ({other['kind']}): {other['reason']}\nshrunk case: "
                     f"{format_case(other['case'])}\nsaved {other['regression']}")
        return text


@dataclasses.dataclass
class ReplayResult:
    path: str
    kernel: str
    law: str
    expect_holds: bool
    status: str  # as_expected | mismatch | skipped
    problem: str
    found: str
    explanation: str  # the verdict when the case was found
    case: dict

    @property
    def ok(self) -> bool:
        return self.status not in FAILING

    def __str__(self) -> str:
        expect = "holds" if self.expect_holds else "violates"
        text = (f"{self.path}: kernel {self.kernel}, law {self.law}, expect {expect}: "
                f"{self.status}")
        if self.problem:
            text += f": {self.problem}"
        return text + f"\nfound: {self.found}\ncase: {format_case(self.case)}"


@dataclasses.dataclass
class CheckResult:
    kernel: str
    laws: List[LawResult]
    replayed: List[ReplayResult] = dataclasses.field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.laws) and all(r.ok for r in self.replayed)

    @property
    def failures(self) -> List[LawResult]:
        return [r for r in self.laws if not r.ok]

    def __getitem__(self, law: str) -> LawResult:
        for r in self.laws:
            if r.law == law:
                return r
        raise KeyError(law)

    def certificate(self) -> dict:
        """The determinism certificate of the laws run (audit/README.md): every invariance with
        what it asks, its verdict, cases, shape classes and, for a failure, its shrunk case;
        ``passes`` is False when one of them is not ok (failed, a declared known defect that did not
        show, a law the generator could not reach, an error). The same
        fields as one kernel of ``osvs audit``'s certificate.json (statuses in Python's words:
        passed, failed, skipped, known_defect, ...)."""
        laws = [r for r in self.laws if r.asks]
        invariances = [{"law": r.law, "status": r.status, "detail": r.reason, "asks": r.asks,
                        "cases": r.judged, "vacuous": r.not_judged,
                        "shape_classes": r.shape_classes,
                        "minimal_case": (r.case or {}).get("summary", "")} for r in laws]
        passes = all(r.ok for r in laws)  # the results' one rule (FAILING), as CheckResult.ok
        return {"osvs_determinism_certificate": 1, "kernel": self.kernel, "passes": passes,
                "invariances": invariances}

    def __str__(self) -> str:
        lines = [f"osvs: {self.kernel}"]
        lines += [f"  {r}".replace("\n", "\n    ") for r in self.replayed]
        lines += [f"  {r}".replace("\n", "\n    ") for r in self.laws]
        return "\n".join(lines)


class LawViolation(AssertionError):
    """A kernel broke a law (or a saved case no longer replays as saved); ``result`` says which,
    with the shrunk case and the regression file."""

    def __init__(self, result):
        self.result = result
        super().__init__(str(result))
