/* SPDX-License-Identifier: MIT */
/* sdk/hlo/hlo_shape.h — the one tree of an HLO shape, shared by the reader
 * (shapes in the text it reads) and the writer (the shapes and operand
 * structures the reader kept in hlo_* attributes): parse from text, print,
 * and fit against the IR's types. Private to the library. */
#ifndef PL_HLO_SHAPE_H
#define PL_HLO_SHAPE_H

#include "hlo/hlo.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One node; a tree is a preorder array, a tuple followed by its children.
 * Texts (layouts, labels) point into the text parsed, which must outlive
 * the tree. 48 bytes: the reader keeps one for every shape of a module. */
struct pl_hlo_snode {
	uint32_t size;    /* nodes in the subtree, this one included */
	uint32_t nleaves; /* arrays in the subtree */
	union {
		uint32_t dims;  /* an array: index of its first extent in dims */
		uint32_t label; /* a tuple: 1 + index of its label; 0: none */
	};
	uint32_t layout_len;
	uint8_t tuple;
	uint8_t any;      /* "_": an array of any type (operand structures) */
	uint8_t dtype;
	uint8_t has_layout;
	uint8_t bare;     /* an array read without a layout */
	uint8_t named;    /* an array of an operand structure with a label */
	uint16_t rank;
	uint64_t bounded, unbounded; /* bit i: extent i is "<=N" / "?" */
	const char *layout;          /* the text between the layout braces */
};

_Static_assert(sizeof(struct pl_hlo_snode) <= 48, "a shape node stays 48 bytes");

/* In an operand structure, a tuple line to make by name, NAME@ANCHOR(...),
 * or a get-tuple-element line an array is taken by, NAME@ANCHOR:_ (or
 * NAME@ANCHOR: and the array's text). */
struct pl_hlo_label {
	const char *name, *anchor;
	uint32_t name_len, anchor_len;
	uint32_t node; /* the node it labels */
};

/* Trees parsed from one text (or several, into the same arrays). */
struct pl_hlo_shapes {
	struct pl_hlo_snode *v;
	size_t n, cap;
	int64_t *dims; /* the arrays' extents: a bound for "<=N", 0 for "?" */
	size_t ndims, dcap;
	struct pl_hlo_label *labels;
	size_t nlabels, lcap;
	bool layouts;  /* some array read had a layout */
	/* an array read without a layout is printed without one (as it was
	 * written in a computation whose other shapes have layouts); else,
	 * and for an array made from a type, with the default layout */
	bool print_bare;
	char *text;    /* a copy of the text parsed, when the trees own one */
};

/* How a text is read. */
enum {
	/* an operand structure: "_" for an array, NAME@ANCHOR before a tuple,
	 * NAME@ANCHOR: before an array */
	PL_HLO_SHAPE_STRUCTURE = 1,
};

/* Why a text is not a shape: where, and what is wrong there. */
struct pl_hlo_shape_err {
	const char *at;
	char msg[128];
};

/* Parses the shape at *p (white space and comments before it skipped) in
 * [*p, end), appending its nodes to s;
 * *p is left right after it. PL_OK and the root node in *idx; PL_EINVAL
 * with err filled (s then holds what was read, to be cut back by the
 * caller); PL_ENOMEM. */
int pl_hlo_shape_parse_(struct pl_hlo_shapes *s, const char **p, const char *end,
                        unsigned flags, uint32_t *idx,
                        struct pl_hlo_shape_err *err);

/* Where the next token after p is: past white space and comments (an
 * unterminated comment is not skipped). */
const char *pl_hlo_shape_skip_(const char *p, const char *end);

/* Prints node idx of s, a missing layout as the default one (XLA's
 * printer does) unless s->print_bare says to keep it missing, "_" as
 * itself; labels are not printed. */
void pl_hlo_shape_put_(struct pl_strbuf *sb, const struct pl_hlo_shapes *s, uint32_t idx);

/* Appends an array node of type t, no layout; PL_OK or PL_ENOMEM. */
int pl_hlo_shape_add_array_(struct pl_hlo_shapes *s, const pl_type *t);

/* Whether array node idx is of type t: element type and extents (a
 * dynamic extent counts as its bound, "?" as 0); "_" never is. */
bool pl_hlo_array_fits_(const struct pl_hlo_shapes *s, uint32_t idx, const pl_type *t);

/* Whether the subtree at idx has the n leaves of types t, in order. */
bool pl_hlo_shape_fits_(const struct pl_hlo_shapes *s, uint32_t idx, const pl_type *const *t,
                        size_t n);

/* The child i of tuple node idx (UINT32_MAX when there is none); *leaf is
 * advanced by the leaves before it. */
uint32_t pl_hlo_shape_child_(const struct pl_hlo_shapes *s, uint32_t idx, int64_t i,
                             uint32_t *leaf);

/* The child of tuple node idx that holds leaf j, counting the leaves of
 * the tree from *first at idx (UINT32_MAX when none does); *first is
 * advanced by the leaves before it, *k (when not NULL) set to its
 * number. A tuple whose children are all arrays (a tuple of thousands of
 * parameters, looked into once for each) is looked up without a walk
 * over the children before it; another tuple with one. */
uint32_t pl_hlo_shape_child_holding_(const struct pl_hlo_shapes *s, uint32_t idx, uint32_t j,
                                     uint32_t *first, uint32_t *k);

/* An array with no layout (but one printed bare) or the default one
 * ("2,1,0"), static extents. */
bool pl_hlo_shape_default_array_(const struct pl_hlo_shapes *s, uint32_t idx);

/* The label of node idx, or NULL. */
static inline const struct pl_hlo_label *pl_hlo_shape_label_(const struct pl_hlo_shapes *s,
                                                             uint32_t idx)
{
	const struct pl_hlo_snode *n = &s->v[idx];
	return n->tuple && n->label ? &s->labels[n->label - 1] : NULL;
}

/* The label of array node idx, or NULL (labels are few: a scan). */
const struct pl_hlo_label *pl_hlo_shape_leaf_label_(const struct pl_hlo_shapes *s, uint32_t idx);

/* Gives tuple node idx the label l; PL_OK or PL_ENOMEM. */
int pl_hlo_shape_set_label_(struct pl_hlo_shapes *s, uint32_t idx, const struct pl_hlo_label *l);

/* A copy of subtree src at the end of s; PL_OK or PL_ENOMEM. */
int pl_hlo_shape_copy_(struct pl_hlo_shapes *s, uint32_t src, uint32_t *idx);

void pl_hlo_shapes_free_(struct pl_hlo_shapes *s);

#endif
