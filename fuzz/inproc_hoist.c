/* SPDX-License-Identifier: MIT */
/* fuzz/inproc_hoist.c — plugins/hoist_fsdp_collectives.c compiled into a fuzz harness, its
 * entry point renamed so that several plugins can live in one program. */
#include <config.h>
#define pl_plugin_entry_v1 pl_plugin_entry_hoist
#include "../plugins/hoist_fsdp_collectives.c"
