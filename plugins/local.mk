# SPDX-License-Identifier: MIT
# Pass plugins: one libtool module per pass, installed in $(pluginsdir).
# Each exports only pl_plugin_entry_v1.
# Built with the system's extensions, as the library is, so that the SDK's
# hash tables take the memory hints of <sys/mman.h> (huge pages, and pages
# put in place in one call); a plugin built as strict C gets plain malloc.
PLUGIN_CFLAGS = $(AM_CFLAGS) -D_GNU_SOURCE -fvisibility=hidden \
	-DPACKAGE_VERSION='"$(PACKAGE_VERSION)"'
PLUGIN_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version -no-undefined \
	-export-symbols-regex '^pl_plugin_entry_v1$$'
PLUGIN_LIBADD = libpassline.la

plugins_LTLIBRARIES += plugins/CountOps.la
plugins_CountOps_la_SOURCES = plugins/count_ops.c
plugins_CountOps_la_CFLAGS = $(PLUGIN_CFLAGS)
plugins_CountOps_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_CountOps_la_LIBADD = $(PLUGIN_LIBADD)

plugins_LTLIBRARIES += plugins/DynamicInstEstimator.la
plugins_DynamicInstEstimator_la_SOURCES = plugins/dynamic_inst_estimator.c plugins/ptr_map.h plugins/labels.h \
	plugins/executions.h
plugins_DynamicInstEstimator_la_CFLAGS = $(PLUGIN_CFLAGS)
plugins_DynamicInstEstimator_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_DynamicInstEstimator_la_LIBADD = $(PLUGIN_LIBADD)

plugins_LTLIBRARIES += plugins/DetailDynInst.la
plugins_DetailDynInst_la_SOURCES = plugins/detail_dyn_inst.c plugins/ptr_map.h plugins/labels.h \
	plugins/executions.h
plugins_DetailDynInst_la_CFLAGS = $(PLUGIN_CFLAGS)
plugins_DetailDynInst_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_DetailDynInst_la_LIBADD = $(PLUGIN_LIBADD)
plugins_LTLIBRARIES += plugins/HoistFSDPCollectives.la
plugins_HoistFSDPCollectives_la_SOURCES = plugins/hoist_fsdp_collectives.c plugins/ptr_map.h plugins/inst_bytes.h \
	plugins/pass_end.h plugins/labels.h
plugins_HoistFSDPCollectives_la_CFLAGS = $(PLUGIN_CFLAGS)
plugins_HoistFSDPCollectives_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_HoistFSDPCollectives_la_LIBADD = $(PLUGIN_LIBADD)

plugins_LTLIBRARIES += plugins/BucketizeCCOp.la
plugins_BucketizeCCOp_la_SOURCES = plugins/bucketize_ccop.c \
	plugins/ptr_map.h plugins/pass_end.h plugins/labels.h plugins/inst_bytes.h
plugins_BucketizeCCOp_la_CFLAGS = $(PLUGIN_CFLAGS)
plugins_BucketizeCCOp_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_BucketizeCCOp_la_LIBADD = $(PLUGIN_LIBADD)

plugins_LTLIBRARIES += plugins/CoalesceCCOp.la
plugins_CoalesceCCOp_la_SOURCES = plugins/coalesce_ccop.c \
	plugins/ptr_map.h plugins/pass_end.h plugins/labels.h plugins/inst_bytes.h
plugins_CoalesceCCOp_la_CFLAGS = $(PLUGIN_CFLAGS)
plugins_CoalesceCCOp_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_CoalesceCCOp_la_LIBADD = $(PLUGIN_LIBADD)

plugins_LTLIBRARIES += plugins/ScheduleEstimate.la
plugins_ScheduleEstimate_la_SOURCES = plugins/schedule_estimate.c plugins/pass_end.h \
	plugins/ptr_map.h plugins/labels.h \
	plugins/schedule_functions.c plugins/schedule_functions.h plugins/executions.h \
	plugins/fusion_option.h plugins/schedule_memory.c plugins/schedule_memory.h \
	plugins/schedule_breakdown.c plugins/schedule_breakdown.h
plugins_ScheduleEstimate_la_CFLAGS = $(PLUGIN_CFLAGS)
plugins_ScheduleEstimate_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_ScheduleEstimate_la_LIBADD = $(PLUGIN_LIBADD)

plugins_LTLIBRARIES += plugins/OverlapBucketCCOp.la
plugins_OverlapBucketCCOp_la_SOURCES = plugins/overlap_bucket_ccop.c plugins/overlap_place.c \
	plugins/overlap_info.c plugins/overlap_bucket.h plugins/overlap_info.h plugins/ptr_map.h \
	plugins/pass_end.h plugins/labels.h
plugins_OverlapBucketCCOp_la_CFLAGS = $(PLUGIN_CFLAGS)
plugins_OverlapBucketCCOp_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_OverlapBucketCCOp_la_LIBADD = $(PLUGIN_LIBADD)

plugins_LTLIBRARIES += plugins/Timeline.la
plugins_Timeline_la_SOURCES = plugins/timeline.c plugins/timeline.h plugins/timeline_util.c \
	plugins/timeline_svg.c \
	plugins/timeline_trace.c plugins/pass_end.h \
	plugins/timeline_step.c plugins/ptr_map.h plugins/executions.h plugins/fusion_option.h \
	plugins/inst_bytes.h
plugins_Timeline_la_CFLAGS = $(PLUGIN_CFLAGS)
plugins_Timeline_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_Timeline_la_LIBADD = $(PLUGIN_LIBADD)

plugins_LTLIBRARIES += plugins/SplitAsyncCCOp.la
plugins_SplitAsyncCCOp_la_SOURCES = plugins/split_async_ccop.c \
	plugins/ptr_map.h plugins/pass_end.h plugins/labels.h plugins/inst_bytes.h
plugins_SplitAsyncCCOp_la_CFLAGS = $(PLUGIN_CFLAGS)
plugins_SplitAsyncCCOp_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_SplitAsyncCCOp_la_LIBADD = $(PLUGIN_LIBADD)

plugins_LTLIBRARIES += plugins/LatencyHidingScheduler.la
plugins_LatencyHidingScheduler_la_SOURCES = plugins/latency_hiding_scheduler.c plugins/fusion_option.h \
	plugins/ptr_map.h plugins/pass_end.h plugins/labels.h plugins/inst_bytes.h
plugins_LatencyHidingScheduler_la_CFLAGS = $(PLUGIN_CFLAGS)
plugins_LatencyHidingScheduler_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_LatencyHidingScheduler_la_LIBADD = $(PLUGIN_LIBADD)

plugins_LTLIBRARIES += plugins/XlaCombineCCOp.la
plugins_XlaCombineCCOp_la_SOURCES = plugins/xla_combine_ccop.c \
	plugins/ptr_map.h plugins/pass_end.h plugins/labels.h plugins/inst_bytes.h
plugins_XlaCombineCCOp_la_CFLAGS = $(PLUGIN_CFLAGS)
plugins_XlaCombineCCOp_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_XlaCombineCCOp_la_LIBADD = $(PLUGIN_LIBADD)
EXTRA_DIST += plugins/inst_bytes.h
EXTRA_DIST += plugins/u128_int.h

# how the passes that rewrite pick the functions they work in
EXTRA_DIST += plugins/rewritable.h

plugins_LTLIBRARIES += plugins/ReduceScatterCreator.la
plugins_ReduceScatterCreator_la_SOURCES = plugins/reduce_scatter_creator.c \
	plugins/rs_match.c plugins/rs_match.h plugins/rs_groups.c plugins/rs_groups.h \
	plugins/ptr_map.h plugins/pass_end.h plugins/labels.h plugins/rewritable.h
plugins_ReduceScatterCreator_la_CFLAGS = $(PLUGIN_CFLAGS)
plugins_ReduceScatterCreator_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_ReduceScatterCreator_la_LIBADD = $(PLUGIN_LIBADD)

plugins_LTLIBRARIES += plugins/CollectivePipeliner.la
plugins_CollectivePipeliner_la_SOURCES = plugins/collective_pipeliner.c \
	plugins/collective_pipeliner.h plugins/pipeliner_sink.c plugins/stack_rows.c \
	plugins/stack_rows.h plugins/loop_rewrite.c \
	plugins/loop_rewrite.h plugins/ptr_map.h plugins/pass_end.h plugins/labels.h \
	plugins/rewritable.h
plugins_CollectivePipeliner_la_CFLAGS = $(PLUGIN_CFLAGS)
plugins_CollectivePipeliner_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_CollectivePipeliner_la_LIBADD = $(PLUGIN_LIBADD)

plugins_LTLIBRARIES += plugins/DoubleBufferLoopUnrolling.la
plugins_DoubleBufferLoopUnrolling_la_SOURCES = plugins/double_buffer_loop_unrolling.c \
	plugins/loop_rewrite.c plugins/loop_rewrite.h plugins/ptr_map.h plugins/pass_end.h \
	plugins/labels.h plugins/rewritable.h
plugins_DoubleBufferLoopUnrolling_la_CFLAGS = $(PLUGIN_CFLAGS)
plugins_DoubleBufferLoopUnrolling_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_DoubleBufferLoopUnrolling_la_LIBADD = $(PLUGIN_LIBADD)
