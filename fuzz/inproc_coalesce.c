/* SPDX-License-Identifier: MIT */
/* fuzz/inproc_coalesce.c — plugins/coalesce_ccop.c compiled into a fuzz harness, its
 * entry point renamed so that several plugins can live in one program. */
#include <config.h>
#define pl_plugin_entry_v1 pl_plugin_entry_coalesce
#include "../plugins/coalesce_ccop.c"
