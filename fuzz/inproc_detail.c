/* SPDX-License-Identifier: MIT */
/* fuzz/inproc_detail.c — plugins/detail_dyn_inst.c compiled into a fuzz harness, its
 * entry point renamed so that several plugins can live in one program. */
#include <config.h>
#define pl_plugin_entry_v1 pl_plugin_entry_detail
#include "../plugins/detail_dyn_inst.c"
