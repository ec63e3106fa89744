// Every kind's Python side (py_kind_side.h: its kernel from a declaration, its case as a dict,
// whether a kernel declares no contract), one table a kind: python_side(RowKind{}), ... Adding a
// kind adds its file and its header here.
#pragma once

#include "py_attention_kernel.h"
#include "py_combine_kernel.h"
#include "py_merge_kernel.h"
#include "py_reduction_kernel.h"
#include "py_row_kernel.h"
#include "py_rowwise_kernel.h"
