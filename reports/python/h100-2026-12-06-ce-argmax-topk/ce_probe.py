"""torch's cross_entropy (reduction='none') on rows with masked (-inf) and +inf logits, f32 and
bf16, label smoothing 0, 0.1 and 1: what it gives where the extended reals give +inf or NaN."""
import torch
import torch.nn.functional as F

inf = float("inf")
rows = {"[0, -inf] t=0": ([0.0, -inf], 0), "[0, -inf] t=1": ([0.0, -inf], 1),
        "[-inf, 0] t=0": ([-inf, 0.0], 0), "[1, 2, -inf] t=1": ([1.0, 2.0, -inf], 1),
        "[-inf, inf] t=0": ([-inf, inf], 0), "[0, inf] t=0": ([0.0, inf], 0),
        "[inf, 0] t=0": ([inf, 0.0], 0), "[-inf, -inf] t=0": ([-inf, -inf], 0)}
for dtype in (torch.float32, torch.bfloat16):
    for eps in (0.0, 0.1, 1.0):
        out = []
        for name, (x, t) in rows.items():
            xs = torch.tensor([x], dtype=dtype, device="cuda")
            ts = torch.tensor([t], device="cuda")
            loss = F.cross_entropy(xs, ts, label_smoothing=eps, reduction="none")
            out.append(f"{name}: {loss.item()}")
        print(f"{dtype} eps={eps}: " + "; ".join(out))
