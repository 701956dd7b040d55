/* SPDX-License-Identifier: MIT */
/* fuzz/inproc_bucketize.c — plugins/bucketize_ccop.c compiled into a fuzz harness, its
 * entry point renamed so that several plugins can live in one program. */
#include <config.h>
#define pl_plugin_entry_v1 pl_plugin_entry_bucketize
#include "../plugins/bucketize_ccop.c"
