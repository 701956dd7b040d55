/* Generated from conf/default.ini; do not edit. */
const char default_pipeline_text[] =
"; conf/default.ini — the production order of the collective and cost-model\n"
"; stage. passline has this pipeline built in; this file documents it and is\n"
"; the starting point for your own (passline -p FILE).\n"
"[pipeline]\n"
"name = collectives\n"
"\n"
"[pass HoistFSDPCollectives]\n"
"\n"
"[pass BucketizeCCOp]\n"
"all_gather_max_bytes = 64MiB\n"
"\n"
"[pass CoalesceCCOp]\n"
"\n"
"[pass DynamicInstEstimator]\n"
"\n"
"[pass DetailDynInst]\n"
;
