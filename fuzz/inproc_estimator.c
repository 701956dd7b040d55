/* SPDX-License-Identifier: MIT */
/* fuzz/inproc_estimator.c — plugins/dynamic_inst_estimator.c compiled into a fuzz harness, its
 * entry point renamed so that several plugins can live in one program. */
#include <config.h>
#define pl_plugin_entry_v1 pl_plugin_entry_estimator
#include "../plugins/dynamic_inst_estimator.c"
