/* SPDX-License-Identifier: MIT */
/* fuzz/inproc_split.c — plugins/split_async_ccop.c compiled into a fuzz harness, its
 * entry point renamed so that several plugins can live in one program. */
#include <config.h>
#define pl_plugin_entry_v1 pl_plugin_entry_split
#include "../plugins/split_async_ccop.c"
