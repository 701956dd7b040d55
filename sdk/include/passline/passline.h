/* SPDX-License-Identifier: MIT */
/* passline/passline.h — the whole SDK in one include. */
#ifndef PASSLINE_PASSLINE_H
#define PASSLINE_PASSLINE_H

#include <passline/common.h>
#include <passline/diag.h>
#include <passline/ops.h>
#include <passline/ir.h>
#include <passline/text.h>
#include <passline/verify.h>
#include <passline/predicate.h>
#include <passline/plugin.h>
#include <passline/u128.h>
#include <passline/cost.h>
#include <passline/callgraph.h>
#include <passline/fusion.h>
#include <passline/hlo_ops.h>

#endif
