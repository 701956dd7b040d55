/* SPDX-License-Identifier: MIT */
/* tests/unit/check_hlo_shape.c — the HLO shape tree (sdk/hlo/hlo_shape.c)
 * the reader and the writer share: a shape read and printed again is
 * XLA's text of it (a missing layout given as the default one); the tree
 * holds what the text says (extents, bounds, layouts, tuples, labels of
 * operand structures); fit against IR types; and a text that is no shape
 * is refused with a message at the right place.
 */
#include <config.h>

#include "testutil.h"

#include "hlo/hlo_shape.h"

/* Parses text whole (flags), asserting it parses; the root node. */
static uint32_t parse_ok(struct pl_hlo_shapes *s, const char *text, unsigned flags)
{
	const char *p = text, *e = text + strlen(text);
	struct pl_hlo_shape_err err = {0};
	uint32_t idx = UINT32_MAX;
	int st = pl_hlo_shape_parse_(s, &p, e, flags, &idx, &err);
	ck_assert_msg(st == PL_OK, "'%s' does not parse: %s at %td", text, err.msg,
	              err.at ? err.at - text : -1);
	ck_assert_msg(pl_hlo_shape_skip_(p, e) == e, "'%s' parses only up to %td", text, p - text);
	return idx;
}

/* text parsed and printed again (malloc'd). */
static char *printed(const char *text, unsigned flags)
{
	struct pl_hlo_shapes s = {0};
	struct pl_strbuf sb = {0};
	pl_hlo_shape_put_(&sb, &s, parse_ok(&s, text, flags));
	pl_sb_putc(&sb, 0);
	ck_assert(!sb.failed);
	pl_hlo_shapes_free_(&s);
	return sb.data;
}

/* text prints as want, and want as itself. */
static void round_trip(const char *text, const char *want, unsigned flags)
{
	char *once = printed(text, flags);
	ck_assert_msg(strcmp(once, want) == 0, "'%s' prints as '%s', not '%s'", text, once, want);
	char *twice = printed(once, flags);
	ck_assert_str_eq(twice, once);
	free(once);
	free(twice);
}

START_TEST(prints_what_it_reads)
{
	/* arrays: scalars have no layout, others get the default one */
	round_trip("f32[]", "f32[]", 0);
	round_trip("f32[4,8]", "f32[4,8]{1,0}", 0);
	round_trip("bf16[2,3,4]{0,2,1}", "bf16[2,3,4]{0,2,1}", 0);
	round_trip("pred[7]{0}", "pred[7]{0}", 0);
	round_trip("s32[ 2 , 3 ]{1,0}", "s32[2,3]{1,0}", 0);
	/* tiles and memory spaces after ':' are kept as written */
	round_trip("f32[8,128]{1,0:T(8,128)S(1)}", "f32[8,128]{1,0:T(8,128)S(1)}", 0);
	round_trip("u8[16]{0:T(2,128)(4,1)E(8)}", "u8[16]{0:T(2,128)(4,1)E(8)}", 0);
	/* dynamic extents: bounded and unbounded */
	round_trip("f32[<=10,3]{1,0}", "f32[<=10,3]{1,0}", 0);
	round_trip("s64[?,<=4]", "s64[?,<=4]{1,0}", 0);
	/* tokens and tuples, empty and nested, with XLA's index comments */
	round_trip("token[]", "token[]", 0);
	round_trip("()", "()", 0);
	round_trip("(())", "(())", 0);
	round_trip("(f32[2], (s32[], token[]), ())", "(f32[2]{0}, (s32[], token[]), ())", 0);
	round_trip("(f32[],f32[],f32[],f32[],f32[],/*index=5*/f32[])",
	           "(f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[])", 0);
	/* a buffer b(...) is its shape */
	round_trip("b(f32[4])", "f32[4]{0}", 0);
	/* operand structures: "_" stands for any array; labels are not printed */
	round_trip("t@c(_,(_,f32[2]{0}))", "(_, (_, f32[2]{0}))", PL_HLO_SHAPE_STRUCTURE);
}
END_TEST

START_TEST(the_tree_holds_the_text)
{
	struct pl_hlo_shapes s = {0};
	uint32_t r = parse_ok(&s, "(f32[<=10,?,3]{2,1,0}, (s8[], pred[2]), ())", 0);
	ck_assert_uint_eq(r, 0);
	ck_assert(s.v[0].tuple);
	ck_assert_uint_eq(s.v[0].size, 6);
	ck_assert_uint_eq(s.v[0].nleaves, 3);
	const struct pl_hlo_snode *a = &s.v[1];
	ck_assert(!a->tuple);
	ck_assert_int_eq(a->dtype, PL_DTYPE_F32);
	ck_assert_uint_eq(a->rank, 3);
	ck_assert_int_eq(s.dims[a->dims], 10);
	ck_assert_int_eq(s.dims[a->dims + 1], 0);
	ck_assert_int_eq(s.dims[a->dims + 2], 3);
	ck_assert_uint_eq(a->bounded, 1);
	ck_assert_uint_eq(a->unbounded, 2);
	ck_assert(a->has_layout && a->layout_len == 5 && !memcmp(a->layout, "2,1,0", 5));
	ck_assert(s.layouts);
	ck_assert(s.v[2].tuple && s.v[2].size == 3 && s.v[2].nleaves == 2);
	ck_assert_int_eq(s.v[3].dtype, PL_DTYPE_I8);
	ck_assert_int_eq(s.v[4].dtype, PL_DTYPE_BOOL);
	ck_assert(s.v[5].tuple && s.v[5].size == 1 && s.v[5].nleaves == 0);
	/* the children of the root: the leaves before each */
	uint32_t leaf = 0;
	ck_assert_uint_eq(pl_hlo_shape_child_(&s, 0, 1, &leaf), 2);
	ck_assert_uint_eq(leaf, 1);
	leaf = 0;
	ck_assert_uint_eq(pl_hlo_shape_child_(&s, 0, 2, &leaf), 5);
	ck_assert_uint_eq(leaf, 3);
	ck_assert_uint_eq(pl_hlo_shape_child_(&s, 0, 3, &leaf), UINT32_MAX);
	ck_assert_uint_eq(pl_hlo_shape_child_(&s, 1, 0, &leaf), UINT32_MAX);
	/* a layout that is the default one, or none, is "default" */
	ck_assert(!pl_hlo_shape_default_array_(&s, 1)); /* dynamic */
	ck_assert(pl_hlo_shape_default_array_(&s, 4));
	uint32_t b = parse_ok(&s, "f32[2,3]{0,1}", 0);
	ck_assert(!pl_hlo_shape_default_array_(&s, b));
	b = parse_ok(&s, "f32[2,3]{1,0}", 0);
	ck_assert(pl_hlo_shape_default_array_(&s, b));
	pl_hlo_shapes_free_(&s);
}
END_TEST

/* A child by number, and the child that holds a leaf: a tuple of arrays
 * alone is looked up by arithmetic, any other by a walk; both agree with
 * the tree. */
START_TEST(children_by_number_and_by_leaf)
{
	struct pl_hlo_shapes s = {0};
	uint32_t flat = parse_ok(&s, "(f32[], s8[2], pred[], f32[3])", 0);
	for (uint32_t i = 0; i < 4; i++) {
		uint32_t leaf = 10, first = 0, k = 99;
		ck_assert_uint_eq(pl_hlo_shape_child_(&s, flat, i, &leaf), flat + 1 + i);
		ck_assert_uint_eq(leaf, 10 + i);
		ck_assert_uint_eq(pl_hlo_shape_child_holding_(&s, flat, i, &first, &k), flat + 1 + i);
		ck_assert_uint_eq(first, i);
		ck_assert_uint_eq(k, i);
	}
	uint32_t leaf = 0, first = 0;
	ck_assert_uint_eq(pl_hlo_shape_child_(&s, flat, 4, &leaf), UINT32_MAX);
	ck_assert_uint_eq(pl_hlo_shape_child_(&s, flat, -1, &leaf), UINT32_MAX);
	ck_assert_uint_eq(pl_hlo_shape_child_holding_(&s, flat, 4, &first, NULL), UINT32_MAX);
	first = 2; /* the leaves counted from 2 at the tuple */
	ck_assert_uint_eq(pl_hlo_shape_child_holding_(&s, flat, 1, &first, NULL), UINT32_MAX);
	ck_assert_uint_eq(pl_hlo_shape_child_holding_(&s, flat, 3, &first, NULL), flat + 2);
	ck_assert_uint_eq(first, 3);

	/* nodes: 0 the tuple, 1 f32[], 2 (s8[], pred[2]) with 3 and 4, 5 (),
	 * 6 f32[2]; leaves 0 to 3 */
	uint32_t mixed = parse_ok(&s, "(f32[], (s8[], pred[2]), (), f32[2])", 0);
	const uint32_t holder[] = {1, 2, 2, 6}, before[] = {0, 1, 1, 3}, number[] = {0, 1, 1, 3};
	for (uint32_t j = 0; j < 4; j++) {
		uint32_t k = 99;
		first = 0;
		ck_assert_uint_eq(pl_hlo_shape_child_holding_(&s, mixed, j, &first, &k),
		                  mixed + holder[j]);
		ck_assert_uint_eq(first, before[j]);
		ck_assert_uint_eq(k, number[j]);
	}
	first = 0;
	ck_assert_uint_eq(pl_hlo_shape_child_holding_(&s, mixed, 4, &first, NULL), UINT32_MAX);
	first = 1; /* into (s8[], pred[2]), whose leaves are 1 and 2 */
	ck_assert_uint_eq(pl_hlo_shape_child_holding_(&s, mixed + 2, 2, &first, NULL), mixed + 4);
	ck_assert_uint_eq(first, 2);
	leaf = 0;
	ck_assert_uint_eq(pl_hlo_shape_child_(&s, mixed, 3, &leaf), mixed + 6);
	ck_assert_uint_eq(leaf, 3);
	/* an empty tuple among arrays: no tuple of arrays alone */
	uint32_t empty = parse_ok(&s, "(f32[], (), s8[])", 0);
	leaf = 0;
	ck_assert_uint_eq(pl_hlo_shape_child_(&s, empty, 2, &leaf), empty + 3);
	ck_assert_uint_eq(leaf, 1);
	first = 0;
	ck_assert_uint_eq(pl_hlo_shape_child_holding_(&s, empty, 1, &first, NULL), empty + 3);
	ck_assert_uint_eq(pl_hlo_shape_child_holding_(&s, mixed + 1, 0, &first, NULL), UINT32_MAX);
	pl_hlo_shapes_free_(&s);
}
END_TEST

START_TEST(operand_structures_carry_labels)
{
	struct pl_hlo_shapes s = {0};
	const char *text = "pair@input(_,f32[4]{0})";
	uint32_t r = parse_ok(&s, text, PL_HLO_SHAPE_STRUCTURE);
	ck_assert(s.v[r].tuple);
	const struct pl_hlo_label *l = pl_hlo_shape_label_(&s, r);
	ck_assert(l && l->name == text && l->name_len == 4);
	ck_assert(l->anchor == text + 5 && l->anchor_len == 5);
	ck_assert(s.v[r + 1].any && !pl_hlo_shape_label_(&s, r + 1));
	ck_assert(!pl_hlo_shape_leaf_label_(&s, r + 1) && !pl_hlo_shape_leaf_label_(&s, r + 2));
	/* an array a named get-tuple-element takes: NAME@ANCHOR: before "_"
	 * or the array's text */
	const char *t2 = "both@e(second@c:_,first@:f32[4]{0},_)";
	r = parse_ok(&s, t2, PL_HLO_SHAPE_STRUCTURE);
	ck_assert(s.v[r].tuple && s.v[r].size == 4 && s.v[r].nleaves == 3);
	l = pl_hlo_shape_label_(&s, r);
	ck_assert(l && l->name == t2 && l->name_len == 4 && l->anchor_len == 1);
	l = pl_hlo_shape_leaf_label_(&s, r + 1);
	ck_assert(s.v[r + 1].any && l && l->name == t2 + 7 && l->name_len == 6);
	ck_assert(l->anchor == t2 + 14 && l->anchor_len == 1);
	l = pl_hlo_shape_leaf_label_(&s, r + 2);
	ck_assert(!s.v[r + 2].any && s.v[r + 2].rank == 1 && l && l->name_len == 5 &&
	          l->anchor_len == 0);
	ck_assert(!pl_hlo_shape_leaf_label_(&s, r + 3) && !pl_hlo_shape_label_(&s, r + 2));
	/* without the flag, "_" is no shape */
	const char *p = "_", *e = p + 1;
	struct pl_hlo_shape_err err;
	uint32_t idx;
	ck_assert_int_eq(pl_hlo_shape_parse_(&s, &p, e, 0, &idx, &err), PL_EINVAL);
	pl_hlo_shapes_free_(&s);
}
END_TEST

START_TEST(fits_types)
{
	pl_module *m = pl_module_new("t");
	int64_t d23[] = {2, 3}, d10[] = {10};
	const pl_type *f23 = pl_type_get(m, PL_DTYPE_F32, d23, 2);
	const pl_type *f10 = pl_type_get(m, PL_DTYPE_F32, d10, 1);
	const pl_type *i10 = pl_type_get(m, PL_DTYPE_I32, d10, 1);
	struct pl_hlo_shapes s = {0};
	uint32_t t = parse_ok(&s, "(f32[2,3]{0,1}, (f32[<=10]))", 0);
	const pl_type *ok[] = {f23, f10}, *bad[] = {f23, i10};
	ck_assert(pl_hlo_shape_fits_(&s, t, ok, 2));
	ck_assert(!pl_hlo_shape_fits_(&s, t, bad, 2));
	ck_assert(!pl_hlo_shape_fits_(&s, t, ok, 1));
	ck_assert(pl_hlo_array_fits_(&s, t + 1, f23));
	ck_assert(!pl_hlo_array_fits_(&s, t + 1, f10));
	ck_assert(!pl_hlo_array_fits_(&s, t, f23)); /* a tuple */
	uint32_t any = parse_ok(&s, "_", PL_HLO_SHAPE_STRUCTURE);
	ck_assert(!pl_hlo_array_fits_(&s, any, f10));
	/* a tree made from types prints as XLA's default text of them */
	struct pl_hlo_shapes f = {0};
	ck_assert_int_eq(pl_hlo_shape_add_array_(&f, f23), PL_OK);
	ck_assert(pl_hlo_array_fits_(&f, 0, f23));
	struct pl_strbuf sb = {0};
	pl_hlo_shape_put_(&sb, &f, 0);
	pl_sb_putc(&sb, 0);
	ck_assert_str_eq(sb.data, "f32[2,3]{1,0}");
	pl_sb_free(&sb);
	pl_hlo_shapes_free_(&f);
	pl_hlo_shapes_free_(&s);
	pl_module_free(m);
}
END_TEST

/* text is refused with msg at offset at. */
static void refused(const char *text, unsigned flags, long at, const char *msg)
{
	struct pl_hlo_shapes s = {0};
	const char *p = text, *e = text + strlen(text);
	struct pl_hlo_shape_err err = {0};
	uint32_t idx;
	ck_assert_int_eq(pl_hlo_shape_parse_(&s, &p, e, flags, &idx, &err), PL_EINVAL);
	ck_assert_msg(strcmp(err.msg, msg) == 0, "'%s': '%s', not '%s'", text, err.msg, msg);
	ck_assert_msg(err.at - text == at, "'%s': at %td, not %ld", text, err.at - text, at);
	pl_hlo_shapes_free_(&s);
}

START_TEST(errors_say_where)
{
	refused("", 0, 0, "expected a shape, found end of input");
	refused("  f33[2]", 0, 2, "unknown element type 'f33'");
	refused("f32 2]", 0, 4, "expected '[' after an element type, found '2'");
	refused("f32[2;", 0, 5, "expected ',' or ']' in a shape, found ';'");
	refused("f32[-3]", 0, 4, "negative extent -3");
	refused("f32[<=x]", 0, 6, "expected an integer, found 'x'");
	refused("f32[99999999999999999999]", 0, 4, "integer out of range");
	refused("(f32[], s8[]", 0, 12, "expected ',' or ')' in a tuple shape, found end of input");
	refused("(f32[] /* open", 0, 7, "unterminated comment");
	refused("f32[2,3]{1,1}", 0, 11, "the layout names dimension 1 twice");
	refused("f32[2,3]{2,0}", 0, 9, "the layout names dimension 2 of a shape of rank 2");
	refused("f32[2,3]{0}", 0, 9, "the layout lists 1 of the shape's 2 dimensions");
	refused("f32[2]{0;}", 0, 8, "unexpected ';' in a layout");
	refused("f32[2]{0", 0, 6, "unterminated layout");
	refused("b(f32[2]", 0, 8, "expected ')' after a buffer shape, found end of input");
	refused("x@y_", PL_HLO_SHAPE_STRUCTURE, 4,
	        "expected '(' after a tuple's name, found end of input");
	refused("x@y:(_)", PL_HLO_SHAPE_STRUCTURE, 4, "expected a shape, found '('");
	/* nesting has a limit */
	char deep[2 * PL_MAX_NESTING + 8];
	size_t n = 0;
	for (int k = 0; k < PL_MAX_NESTING + 2; k++)
		deep[n++] = '(';
	deep[n] = 0;
	char msg[64];
	snprintf(msg, sizeof msg, "shape nested deeper than %d", PL_MAX_NESTING);
	refused(deep, 0, PL_MAX_NESTING + 1, msg);
}
END_TEST

static Suite *shape_suite(void)
{
	Suite *s = suite_create("hlo_shape");
	TCase *tc = tcase_create("parse, print, fit");
	tcase_add_test(tc, prints_what_it_reads);
	tcase_add_test(tc, the_tree_holds_the_text);
	tcase_add_test(tc, children_by_number_and_by_leaf);
	tcase_add_test(tc, operand_structures_carry_labels);
	tcase_add_test(tc, fits_types);
	tcase_add_test(tc, errors_say_where);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(shape_suite)
