/* SPDX-License-Identifier: MIT */
/* sdk/analysis/cost_model.h — the cost model's keys and values, shared by
 * the model (cost.c), its presets (cost_presets.c) and the time of an
 * instruction (cost_time.c). Private to the library. */
#ifndef PL_ANALYSIS_COST_MODEL_H
#define PL_ANALYSIS_COST_MODEL_H

#include "ir/internal.h"

/* The collective kinds, each with its own latency, bus bandwidth and copy
 * bandwidth keys ("all_gather.latency_us", ...). */
enum pl_coll_kind {
	PL_CK_ALL_GATHER,
	PL_CK_REDUCE_SCATTER,
	PL_CK_ALL_REDUCE,
	PL_CK_ALL_TO_ALL,
	PL_CK_PERMUTE,
	PL_CK_BROADCAST,
	PL_CK__COUNT
};

/* The dtype classes of the peaks ("peak_tflops.bf16", ...). */
enum pl_dclass { PL_DC_FP8, PL_DC_BF16, PL_DC_TF32, PL_DC_F32, PL_DC_F64, PL_DC__COUNT };

/* The numeric keys: one per row of cost_keys.def, in its order (times in
 * us, bandwidths in GB/s = bytes per ns, peaks in TFLOP/s = 1000 FLOP per
 * ns). */
enum {
#define X(id, name, type, unit, min, def, vals, bound, help) CK_##id,
#include "analysis/cost_keys.def"
#undef X
	CK__COUNT,
	CK_PEAK = CK_PEAK_FP8, /* + pl_dclass */
	CK_RAMP = CK_RAMP_FP8, /* + pl_dclass */
	CK_KIND = CK_AG_LATENCY /* + CK_KIND_KEYS * kind + CK_KIND_* */
};
enum { CK_KIND_LATENCY, CK_KIND_BUS, CK_KIND_COPY, CK_KIND_RAMP, CK_KIND_KEYS };
_Static_assert(CK_PEAK_F64 == CK_PEAK + PL_DC_F64 && CK_RAMP_F64 == CK_RAMP + PL_DC_F64,
               "a peak and a ramp per dtype class, in order");
_Static_assert(CK_CB_RAMP == CK_KIND + CK_KIND_KEYS * PL_CK_BROADCAST + CK_KIND_RAMP &&
                       CK_RS_LATENCY == CK_KIND + CK_KIND_KEYS * PL_CK_REDUCE_SCATTER,
               "four keys per collective kind, in order");

/* The physical bound of a key (cost_keys.def's BOUND column). */
enum pl_cost_bound { PL_CB_NONE, PL_CB_SHEET, PL_CB_TWICE, PL_CB_ATMOST };

/* The old integer keys: aliases, in the order of pl_cost_model_key. */
enum { LK_PEAK, LK_MEMORY, LK_LINK, LK_LATENCY, LK__COUNT };

struct pl_cost_model {
	int preset;                /* -1: none; else an index of the preset table */
	double base[CK__COUNT];    /* the preset's values, or the defaults */
	double user[CK__COUNT];    /* keys set by name */
	bool set[CK__COUNT];
	int64_t alias[LK__COUNT];  /* the old integer keys' values */
	bool alias_set[LK__COUNT];
	/* what is in force: base, then the aliases set, then the keys set;
	 * NAN for a kind's latency or bus bandwidth that takes the general one */
	double v[CK__COUNT];
	/* no preset and no key set by its new name: the exact integer model of
	 * ABI 1.1's first release, with alias[] as its four keys */
	bool legacy;
};

struct pl_cost_preset {
	const char *name;
	const char *source; /* where the numbers come from, one line */
	const double *v;     /* CK__COUNT values, from cost_keys.def's V(...) */
	const double *sheet; /* CK__COUNT datasheet bounds, NAN where none */
};
PL_INTERNAL extern const struct pl_cost_preset pl_cost_presets_[];
PL_INTERNAL extern const size_t pl_cost_num_presets_;

/* The time in ns (not rounded) of one kernel that computes flops FLOPs of
 * dtype class dc and moves bytes bytes of memory, under cm:
 * kernel_floor + max(flops / peak(dc), bytes / memory). For a caller that
 * models a kernel of its own (a fusion) the same way every op is costed. */
PL_INTERNAL double pl_roofline_ns_(const pl_cost_model *cm, double flops, enum pl_dclass dc,
                                   double bytes);

/* A custom call whose FLOPs the model knows from its shapes (a cuBLAS
 * GEMM, fused attention): its FLOPs and the class they run at; false for
 * any other instruction. */
/* Whether INST is a fused attention custom call (cuDNN, Transformer Engine). */
PL_INTERNAL bool pl_attention_call_(const pl_inst *inst);
PL_INTERNAL bool pl_custom_call_flops_(const pl_inst *inst, double *flops, enum pl_dclass *dc);

/* The dtype class a contraction (a dot) runs at: that of its narrowest
 * input. */
PL_INTERNAL enum pl_dclass pl_contraction_class_(const pl_inst *inst);

/* What an instruction is to the schedule: compute, a synchronous
 * collective, a start or a done. Besides the SDK's collectives, XLA's
 * all-to-all, collective-permute and collective-broadcast (and their
 * -start / -done or async-start / async-done forms) are communication. */
enum pl_comm_role { PL_COMM_NONE, PL_COMM_SYNC, PL_COMM_START, PL_COMM_DONE };
PL_INTERNAL enum pl_comm_role pl_comm_role_(const pl_inst *inst, enum pl_coll_kind *kind);
/* pl_inst_time_ns of inst, whose role and kind pl_comm_role_ gave: for a
 * walk that asks the role itself. */
PL_INTERNAL int pl_inst_time_role_ns_(const pl_inst *inst, const pl_cost_model *cm,
                                      enum pl_comm_role role, enum pl_coll_kind kind,
                                      uint64_t *out);

/* One collective's time under the two-tier model, split into its terms
 * (ns, not rounded): the fixed time and the steps' latencies; the
 * bandwidth inside a node (with the copy and ramp terms); the bandwidth
 * of the NICs (0 inside a node). total_ns is what the collective takes:
 * the latency plus the slower of the two tiers (they are pipelined).
 * algorithm: what NCCL would run for that size and placement. */
enum pl_coll_algorithm { PL_COLL_RING, PL_COLL_ONE_SHOT, PL_COLL_TREE, PL_COLL_DIRECT };
struct pl_coll_terms_ {
	double latency_ns, intra_ns, inter_ns, total_ns;
	int64_t nodes; /* nodes the group spans */
	enum pl_coll_algorithm algorithm;
};
/* The terms of a collective of kind over bytes B on inst's groups (or
 * factor devices), under a model that is not the exact one. */
PL_INTERNAL void pl_coll_terms_of_(const pl_cost_model *cm, enum pl_coll_kind kind,
                                   const pl_inst *inst, int64_t factor, double bytes,
                                   struct pl_coll_terms_ *out);

#endif
