// The registration of osvs's host reference row-wise kernels (builtin_row_reductions.cpp,
// builtin_softmax_backward.cpp): each declared by `declare(name, op, type)` (a function of
// builtin_row_reductions.h or builtin_softmax_backward.h), most of them twice, in f32 and bf16.
#pragma once

#include "osvs/api/rowwise_kernel.h"

/// Registers declare(name, RowwiseOp::op, DType::type) as `id`.
#define OSVS_REGISTER_REFERENCE(declare, id, name, op, type)          \
  OSVS_REGISTER_ROWWISE_KERNEL(id) {                                  \
    return declare(name, ::osvs::RowwiseOp::op, ::osvs::DType::type); \
  }

/// Registers the f32 reference `id` named `name` and its bf16 twin `id`_bf16 named `name`.bf16.
#define OSVS_REGISTER_REFERENCE_F32_BF16(declare, id, name, op) \
  OSVS_REGISTER_REFERENCE(declare, id, name, op, F32)           \
  OSVS_REGISTER_REFERENCE(declare, id##_bf16, name ".bf16", op, BF16)
