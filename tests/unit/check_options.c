/* SPDX-License-Identifier: MIT */
/* tests/unit/check_options.c — the host side of the SDK (passline/host.h,
 * passline/plugin.h): option validation and canonical texts, byte counts,
 * plugin descriptor checks, pass contexts (options, 128-bit stats, reports,
 * messages), and the diagnostics list they write to.
 */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <passline/host.h>
#include <stdio.h>

/* ---- option validation ------------------------------------------------------ */

static const char *const reduce_choices[] = {"add", "max", "min", NULL};
static const char *const no_choices[] = {NULL};

static const pl_option_decl opt_bool = PL_OPTION_BOOL("flag", "false", "A flag.");
static const pl_option_decl opt_int = PL_OPTION_INT("n", "10", -5, 100, "A number.");
static const pl_option_decl opt_int_full =
	PL_OPTION_INT("wide", "0", INT64_MIN, INT64_MAX, "Any int64.");
static const pl_option_decl opt_bytes = PL_OPTION_BYTES("size", "0", "A size.");
static const pl_option_decl opt_bytes_capped = {
	sizeof(pl_option_decl), "capped", PL_OPT_BYTES, "1KiB", "At most 1 MiB.", 1024, 1048576, NULL};
static const pl_option_decl opt_string = PL_OPTION_STRING("name", "", "A name.");
static const pl_option_decl opt_enum = PL_OPTION_ENUM("op", "add", reduce_choices, "An op.");

/* Validates text; on success *canon is the canonical text (static copy). */
static int validate(const pl_option_decl *d, const char *text, const char **canon,
                    const char **err)
{
	static char errbuf[256], canbuf[256];
	char *c = (char *)(uintptr_t)1;
	strcpy(errbuf, "untouched");
	int rc = pl_option_validate(d, text, &c, errbuf, sizeof errbuf);
	if (rc == PL_OK) {
		ck_assert_ptr_nonnull(c);
		ck_assert_str_eq(errbuf, "");
		snprintf(canbuf, sizeof canbuf, "%s", c);
		free(c);
		/* the canonical text validates to itself */
		char *c2 = NULL;
		ck_assert_int_eq(pl_option_validate(d, canbuf, &c2, NULL, 0), PL_OK);
		ck_assert_str_eq(c2, canbuf);
		free(c2);
	} else {
		ck_assert_ptr_null(c);
	}
	*canon = canbuf;
	*err = errbuf;
	return rc;
}

static void expect_valid(const pl_option_decl *d, const char *text, const char *canonical)
{
	const char *canon, *err;
	int rc = validate(d, text, &canon, &err);
	ck_assert_msg(rc == PL_OK, "'%s' refused: %s", text, err);
	ck_assert_msg(strcmp(canon, canonical) == 0, "'%s' gave '%s', expected '%s'", text, canon,
	              canonical);
}

static void expect_invalid(const pl_option_decl *d, const char *text, const char *msg)
{
	const char *canon, *err;
	int rc = validate(d, text, &canon, &err);
	ck_assert_msg(rc == PL_EINVAL, "'%s' accepted (%d) as '%s'", text ? text : "(null)", rc,
	              canon);
	ck_assert_str_eq(err, msg);
}

START_TEST(test_option_bool)
{
	const char *yes[] = {"true", "yes", "on", "1", "TRUE", "Yes", "oN", "tRuE"};
	const char *no[] = {"false", "no", "off", "0", "FALSE", "No", "OFF", "False"};
	for (size_t k = 0; k < 8; k++) {
		expect_valid(&opt_bool, yes[k], "true");
		expect_valid(&opt_bool, no[k], "false");
	}
	expect_invalid(&opt_bool, "maybe", "expected true or false, not 'maybe'");
	expect_invalid(&opt_bool, "", "expected true or false, not ''");
	expect_invalid(&opt_bool, " true", "expected true or false, not ' true'");
	expect_invalid(&opt_bool, "2", "expected true or false, not '2'");
	expect_invalid(&opt_bool, "y", "expected true or false, not 'y'");
	expect_invalid(&opt_bool, "truee", "expected true or false, not 'truee'");
}
END_TEST

START_TEST(test_option_int)
{
	expect_valid(&opt_int, "10", "10");
	expect_valid(&opt_int, "-5", "-5");   /* the minimum */
	expect_valid(&opt_int, "100", "100"); /* the maximum */
	expect_valid(&opt_int, "+7", "7");
	expect_valid(&opt_int, "007", "7");
	expect_valid(&opt_int, "-0", "0");
	expect_invalid(&opt_int, "-6", "-6 is below the minimum -5");
	expect_invalid(&opt_int, "101", "101 is above the maximum 100");
	expect_invalid(&opt_int, "-9223372036854775808", "-9223372036854775808 is below the minimum -5");
	expect_invalid(&opt_int, "abc", "expected an integer, not 'abc'");
	expect_invalid(&opt_int, "", "expected an integer, not ''");
	expect_invalid(&opt_int, "-", "expected an integer, not '-'");
	expect_invalid(&opt_int, "1.5", "expected an integer, not '1.5'");
	expect_invalid(&opt_int, "1e3", "expected an integer, not '1e3'");
	expect_invalid(&opt_int, " 1", "expected an integer, not ' 1'");
	expect_invalid(&opt_int, "1 ", "expected an integer, not '1 '");
	expect_invalid(&opt_int, "0x10", "expected an integer, not '0x10'");
	expect_invalid(&opt_int, "--1", "expected an integer, not '--1'");
	expect_invalid(&opt_int, "9223372036854775808", "'9223372036854775808' is out of range of int64");
	expect_invalid(&opt_int, "-9223372036854775809", "'-9223372036854775809' is out of range of int64");
	expect_invalid(&opt_int, "123456789012345678901234567890",
	               "'123456789012345678901234567890' is out of range of int64");
	/* the whole int64 range */
	expect_valid(&opt_int_full, "-9223372036854775808", "-9223372036854775808");
	expect_valid(&opt_int_full, "9223372036854775807", "9223372036854775807");
}
END_TEST

START_TEST(test_option_bytes)
{
	expect_valid(&opt_bytes, "0", "0");
	expect_valid(&opt_bytes, "0KiB", "0");
	expect_valid(&opt_bytes, "1", "1");
	expect_valid(&opt_bytes, "100B", "100");
	expect_valid(&opt_bytes, "1025", "1025");
	expect_valid(&opt_bytes, "4096", "4KiB");
	expect_valid(&opt_bytes, "64KiB", "64KiB");
	expect_valid(&opt_bytes, "1024KiB", "1MiB");
	expect_valid(&opt_bytes, "1536KiB", "1536KiB");
	expect_valid(&opt_bytes, "16MiB", "16MiB");
	expect_valid(&opt_bytes, "2048MiB", "2GiB");
	expect_valid(&opt_bytes, "1536MiB", "1536MiB");
	expect_valid(&opt_bytes, "1GiB", "1GiB");
	expect_valid(&opt_bytes, "1073741824B", "1GiB");
	expect_valid(&opt_bytes, "8589934591GiB", "8589934591GiB"); /* 2^63 - 2^30 */
	expect_valid(&opt_bytes, "9223372036854775807", "9223372036854775807");
	/* overflow */
	expect_invalid(&opt_bytes, "8589934592GiB", "'8589934592GiB' is out of range of int64");
	expect_invalid(&opt_bytes, "8796093022208MiB", "'8796093022208MiB' is out of range of int64");
	expect_invalid(&opt_bytes, "9223372036854775808", "'9223372036854775808' is out of range of int64");
	expect_invalid(&opt_bytes, "99999999999999999999KiB",
	               "'99999999999999999999KiB' is out of range of int64");
	/* bad suffixes and spellings */
	const char *bad[] = {"1KB", "1kib", "1 KiB", "1TiB", "KiB", "-1", "1.5MiB", "", "1K", "1KiBs",
	                     "+1", " 1", "1b"};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		char want[200];
		snprintf(want, sizeof want,
		         "expected a byte count such as 4096, 64KiB, 16MiB or 1GiB, not '%s'", bad[k]);
		expect_invalid(&opt_bytes, bad[k], want);
	}
	/* min and max apply to bytes, both boundaries */
	expect_valid(&opt_bytes_capped, "1KiB", "1KiB");
	expect_valid(&opt_bytes_capped, "1MiB", "1MiB");
	expect_invalid(&opt_bytes_capped, "1023", "1023 is below the minimum 1024");
	expect_invalid(&opt_bytes_capped, "1048577", "1048577 is above the maximum 1048576");
	expect_invalid(&opt_bytes_capped, "2MiB", "2097152 is above the maximum 1048576");
}
END_TEST

START_TEST(test_parse_bytes)
{
	static const struct {
		const char *text;
		int rc;
		int64_t v;
	} cases[] = {
		{"0", PL_OK, 0},
		{"1B", PL_OK, 1},
		{"1KiB", PL_OK, 1024},
		{"2MiB", PL_OK, 2 << 20},
		{"3GiB", PL_OK, (int64_t)3 << 30},
		{"9223372036854775807", PL_OK, INT64_MAX},
		{"9223372036854775807B", PL_OK, INT64_MAX},
		{"9007199254740991KiB", PL_OK, (int64_t)9007199254740991 << 10},
		{"9223372036854775808", PL_EOVERFLOW, 0},
		{"9007199254740992KiB", PL_EOVERFLOW, 0},
		{"8589934592GiB", PL_EOVERFLOW, 0},
		{"18446744073709551616", PL_EOVERFLOW, 0},
		{"", PL_EINVAL, 0},
		{"KiB", PL_EINVAL, 0},
		{"1kiB", PL_EINVAL, 0},
		{"+1", PL_EINVAL, 0},
		{"-1", PL_EINVAL, 0},
		{"1 ", PL_EINVAL, 0},
		{"1MB", PL_EINVAL, 0},
	};
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		int64_t v = -77;
		int rc = pl_parse_bytes(cases[k].text, &v);
		ck_assert_msg(rc == cases[k].rc, "'%s': status %d", cases[k].text, rc);
		ck_assert_msg(v == (rc == PL_OK ? cases[k].v : -77), "'%s': %lld", cases[k].text,
		              (long long)v);
	}
}
END_TEST

START_TEST(test_option_string_enum)
{
	expect_valid(&opt_string, "", "");
	expect_valid(&opt_string, "any text, = ; \"quoted\"", "any text, = ; \"quoted\"");
	expect_valid(&opt_enum, "add", "add");
	expect_valid(&opt_enum, "min", "min");
	expect_invalid(&opt_enum, "MAX", "expected one of add, max, min, not 'MAX'");
	expect_invalid(&opt_enum, "", "expected one of add, max, min, not ''");
	expect_invalid(&opt_enum, "ad", "expected one of add, max, min, not 'ad'");
	const pl_option_decl empty_enum = PL_OPTION_ENUM("e", "x", no_choices, "No choices.");
	expect_invalid(&empty_enum, "x", "expected one of (none), not 'x'");
}
END_TEST

START_TEST(test_option_edge_cases)
{
	/* no value */
	expect_invalid(&opt_string, NULL, "missing value");
	/* an unknown type */
	pl_option_decl weird = opt_int;
	weird.type = (pl_option_type)9;
	expect_invalid(&weird, "1", "option has an unknown type 9");
	/* canonical and err may be NULL; err is cut to errlen */
	ck_assert_int_eq(pl_option_validate(&opt_int, "5", NULL, NULL, 0), PL_OK);
	ck_assert_int_eq(pl_option_validate(&opt_int, "500", NULL, NULL, 0), PL_EINVAL);
	char small[10];
	ck_assert_int_eq(pl_option_validate(&opt_bool, "maybe", NULL, small, sizeof small), PL_EINVAL);
	ck_assert_str_eq(small, "expected ");
	/* type names */
	ck_assert_str_eq(pl_option_type_name(PL_OPT_BOOL), "bool");
	ck_assert_str_eq(pl_option_type_name(PL_OPT_INT), "int");
	ck_assert_str_eq(pl_option_type_name(PL_OPT_BYTES), "bytes");
	ck_assert_str_eq(pl_option_type_name(PL_OPT_STRING), "string");
	ck_assert_str_eq(pl_option_type_name(PL_OPT_ENUM), "enum");
	ck_assert_str_eq(pl_option_type_name((pl_option_type)0), "unknown");
}
END_TEST

/* ---- plugin descriptors ----------------------------------------------------- */

static int run_nop(pl_pass_ctx *ctx, void *state, pl_module *m)
{
	(void)ctx;
	(void)state;
	(void)m;
	return PL_OK;
}

static const pl_option_decl good_options[] = {
	PL_OPTION_BOOL("enabled_too", "yes", "A flag."),
	PL_OPTION_INT("limit", "10", 0, 1000, "A limit."),
	PL_OPTION_BYTES("cap", "64MiB", "A cap."),
	PL_OPTION_STRING("label", "x", "A label."),
	PL_OPTION_ENUM("reduce", "max", reduce_choices, "A reduction."),
	PL_OPTION_END,
};
static const pl_stat_decl good_stats[] = {
	PL_STAT("num_things", "Things seen."),
	PL_STAT("total", NULL),
	PL_STAT_END,
};
static const pl_pass_desc good_pass = {
	PL_PASS_DESC_INIT,
	.name = "GoodPass",
	.summary = "Does nothing.",
	.options = good_options,
	.stats = good_stats,
	.run = run_nop,
};
static const pl_pass_desc bare_pass = {
	PL_PASS_DESC_INIT,
	.name = "Bare",
	.run = run_nop,
};
static const pl_pass_desc *const good_passes[] = {&good_pass, &bare_pass, NULL};
static const pl_plugin_desc good_plugin = {
	sizeof(pl_plugin_desc), PL_ABI_MAJOR, PL_ABI_MINOR, "good", "1.0", "MIT", "Good.",
	good_passes};

/* Checks d, expecting problem p with message msg. */
static void expect_desc(const pl_plugin_desc *d, pl_desc_problem p, const char *msg)
{
	char err[512];
	strcpy(err, "untouched");
	pl_desc_problem got = pl_plugin_desc_check(d, err, sizeof err);
	ck_assert_msg(got == p, "problem %d, expected %d (%s)", (int)got, (int)p, err);
	ck_assert_str_eq(err, msg);
}

/* A plugin offering just pass p. */
static pl_plugin_desc plugin_with(const pl_pass_desc *const *passes)
{
	pl_plugin_desc d = good_plugin;
	d.passes = passes;
	return d;
}

START_TEST(test_desc_ok)
{
	expect_desc(&good_plugin, PL_DESC_OK, "");
	ck_assert_int_eq(pl_plugin_desc_check(&good_plugin, NULL, 0), PL_DESC_OK);
	ck_assert_uint_eq(pl_plugin_desc_num_passes(&good_plugin), 2);
	ck_assert_ptr_eq(pl_plugin_desc_pass(&good_plugin, 1), &bare_pass);
	ck_assert_uint_eq(pl_pass_desc_num_options(&good_pass), 5);
	ck_assert_uint_eq(pl_pass_desc_num_stats(&good_pass), 2);
	ck_assert_str_eq(pl_pass_desc_option(&good_pass, 4)->name, "reduce");
	ck_assert_ptr_eq(pl_pass_desc_find_option(&good_pass, "cap"), &good_options[2]);
	ck_assert_ptr_null(pl_pass_desc_find_option(&good_pass, "nope"));
	ck_assert_str_eq(pl_pass_desc_stat(&good_pass, 1)->name, "total");
	ck_assert_uint_eq(pl_pass_desc_num_options(&bare_pass), 0);
	ck_assert_uint_eq(pl_pass_desc_num_stats(&bare_pass), 0);
	ck_assert_ptr_null(pl_pass_desc_find_option(&bare_pass, "x"));
}
END_TEST

/* A plugin built against a later 1.x: every struct is larger. The host
 * walks arrays by the plugin's struct_size, never its own sizeof. */
struct option_v2 {
	pl_option_decl base;
	int64_t added_later;
};
struct stat_v2 {
	pl_stat_decl base;
	const char *unit;
};
static const struct option_v2 options_v2[] = {
	{{sizeof(struct option_v2), "a", PL_OPT_INT, "1", "", 0, 9, NULL}, 111},
	{{sizeof(struct option_v2), "b", PL_OPT_BOOL, "on", "", 0, 1, NULL}, 222},
	{{sizeof(struct option_v2), NULL, 0, NULL, NULL, 0, 0, NULL}, 0},
};
static const struct stat_v2 stats_v2[] = {
	{{sizeof(struct stat_v2), "s1", "One."}, "bytes"},
	{{sizeof(struct stat_v2), "s2", "Two."}, "ops"},
	{{sizeof(struct stat_v2), NULL, NULL}, NULL},
};
struct pass_v2 {
	pl_pass_desc base;
	void *added_later;
};
static const struct pass_v2 pass_v2 = {
	{sizeof(struct pass_v2), "Later", "", &options_v2[0].base, &stats_v2[0].base, NULL, run_nop,
	 NULL, 0},
	NULL};
static const pl_pass_desc *const passes_v2[] = {&pass_v2.base, NULL};

START_TEST(test_desc_larger_structs)
{
	pl_plugin_desc d = plugin_with(passes_v2);
	d.struct_size = sizeof(pl_plugin_desc) + 16;
	expect_desc(&d, PL_DESC_OK, "");
	const pl_pass_desc *p = pl_plugin_desc_pass(&d, 0);
	ck_assert_uint_eq(pl_pass_desc_num_options(p), 2);
	ck_assert_str_eq(pl_pass_desc_option(p, 1)->name, "b");
	ck_assert_ptr_eq(pl_pass_desc_find_option(p, "b"), &options_v2[1].base);
	ck_assert_uint_eq(pl_pass_desc_num_stats(p), 2);
	ck_assert_str_eq(pl_pass_desc_stat(p, 1)->name, "s2");
	pl_diags *dg = pl_diags_new();
	pl_pass_ctx *c = pl_ctx_new(p, dg);
	ck_assert_ptr_nonnull(c);
	bool b = false;
	ck_assert_int_eq(pl_ctx_get_bool(c, "b", &b), PL_OK);
	ck_assert(b);
	ck_assert_str_eq(pl_ctx_stat_name(c, 1), "s2");
	ck_assert_int_eq(pl_ctx_stat_add(c, "s2", 5), PL_OK);
	pl_ctx_free(c);
	pl_diags_free(dg);
}
END_TEST

START_TEST(test_desc_null_and_abi)
{
	expect_desc(NULL, PL_DESC_NULL, "the plugin entry returned no descriptor");
	char msg[256];
	pl_plugin_desc d = good_plugin;
	d.abi_major = PL_ABI_MAJOR + 1;
	snprintf(msg, sizeof msg,
	         "built for plugin ABI %d.%d, this host speaks ABI %d.%d (major versions differ)",
	         PL_ABI_MAJOR + 1, PL_ABI_MINOR, PL_ABI_MAJOR, PL_ABI_MINOR);
	expect_desc(&d, PL_DESC_ABI_MAJOR, msg);
	d.abi_major = 0;
	snprintf(msg, sizeof msg,
	         "built for plugin ABI 0.%d, this host speaks ABI %d.%d (major versions differ)",
	         PL_ABI_MINOR, PL_ABI_MAJOR, PL_ABI_MINOR);
	expect_desc(&d, PL_DESC_ABI_MAJOR, msg);
	d = good_plugin;
	d.abi_minor = PL_ABI_MINOR + 1;
	snprintf(msg, sizeof msg,
	         "built for plugin ABI %d.%d, this host speaks ABI %d.%d",
	         PL_ABI_MAJOR, PL_ABI_MINOR + 1, PL_ABI_MAJOR, PL_ABI_MINOR);
	expect_desc(&d, PL_DESC_ABI_NEWER, msg);
	/* an older minor is fine */
	if (PL_ABI_MINOR > 0) {
		d.abi_minor = PL_ABI_MINOR - 1;
		expect_desc(&d, PL_DESC_OK, "");
	}
}
END_TEST

START_TEST(test_desc_too_small)
{
	char msg[256];
	pl_plugin_desc d = good_plugin;
	d.struct_size = PL_PLUGIN_DESC_SIZE_1_0 - 1;
	snprintf(msg, sizeof msg, "plugin descriptor too small (struct_size %zu, ABI 1.0 needs %zu)",
	         (size_t)PL_PLUGIN_DESC_SIZE_1_0 - 1, (size_t)PL_PLUGIN_DESC_SIZE_1_0);
	expect_desc(&d, PL_DESC_TOO_SMALL, msg);
	/* too small even to hold the ABI version: not read further */
	d.struct_size = sizeof(size_t);
	d.abi_major = 99;
	snprintf(msg, sizeof msg, "plugin descriptor too small (struct_size %zu, ABI 1.0 needs %zu)",
	         sizeof(size_t), (size_t)PL_PLUGIN_DESC_SIZE_1_0);
	expect_desc(&d, PL_DESC_TOO_SMALL, msg);

	/* a pass */
	pl_pass_desc p = good_pass;
	p.struct_size = PL_PASS_DESC_SIZE_1_0 - sizeof(void *);
	const pl_pass_desc *ps[] = {&bare_pass, &p, NULL};
	d = plugin_with(ps);
	snprintf(msg, sizeof msg, "pass descriptor 1 too small (struct_size %zu, ABI 1.0 needs %zu)",
	         (size_t)PL_PASS_DESC_SIZE_1_0 - sizeof(void *), (size_t)PL_PASS_DESC_SIZE_1_0);
	expect_desc(&d, PL_DESC_TOO_SMALL, msg);

	/* an option */
	pl_option_decl opts[3] = {PL_OPTION_BOOL("a", "true", ""), PL_OPTION_BOOL("b", "true", ""),
	                          PL_OPTION_END};
	for (int k = 0; k < 3; k++)
		opts[k].struct_size = PL_OPTION_DECL_SIZE_1_0 - 8;
	p = good_pass;
	p.options = opts;
	const pl_pass_desc *ps1[] = {&p, NULL};
	d = plugin_with(ps1);
	snprintf(msg, sizeof msg,
	         "pass 'GoodPass': option descriptor too small (struct_size %zu, ABI 1.0 needs %zu)",
	         (size_t)PL_OPTION_DECL_SIZE_1_0 - 8, (size_t)PL_OPTION_DECL_SIZE_1_0);
	expect_desc(&d, PL_DESC_TOO_SMALL, msg);

	/* a stat */
	pl_stat_decl stats[2] = {PL_STAT("s", "S."), PL_STAT_END};
	stats[0].struct_size = stats[1].struct_size = PL_STAT_DECL_SIZE_1_0 - 1;
	p = good_pass;
	p.stats = stats;
	d = plugin_with(ps1);
	snprintf(msg, sizeof msg,
	         "pass 'GoodPass': stat descriptor too small (struct_size %zu, ABI 1.0 needs %zu)",
	         (size_t)PL_STAT_DECL_SIZE_1_0 - 1, (size_t)PL_STAT_DECL_SIZE_1_0);
	expect_desc(&d, PL_DESC_TOO_SMALL, msg);
}
END_TEST

START_TEST(test_desc_malformed_plugin)
{
	pl_plugin_desc d = good_plugin;
	d.name = NULL;
	expect_desc(&d, PL_DESC_MALFORMED, "plugin descriptor has no name");
	d.name = "";
	expect_desc(&d, PL_DESC_MALFORMED, "plugin descriptor has no name");
	d = plugin_with(NULL);
	expect_desc(&d, PL_DESC_MALFORMED, "plugin 'good' offers no passes");
	const pl_pass_desc *none[] = {NULL};
	d = plugin_with(none);
	expect_desc(&d, PL_DESC_MALFORMED, "plugin 'good' offers no passes");
	/* the same pass twice */
	const pl_pass_desc *twice[] = {&good_pass, &bare_pass, &good_pass, NULL};
	d = plugin_with(twice);
	expect_desc(&d, PL_DESC_MALFORMED, "plugin 'good' offers pass 'GoodPass' twice");
	/* a pass without run, or without a valid name */
	pl_pass_desc p = bare_pass;
	p.run = NULL;
	const pl_pass_desc *ps[] = {&p, NULL};
	d = plugin_with(ps);
	expect_desc(&d, PL_DESC_MALFORMED, "pass 'Bare' has no run function");
	const char *bad_names[] = {NULL, "", "a-b", "1pass", "my pass"};
	for (size_t k = 0; k < sizeof bad_names / sizeof *bad_names; k++) {
		p = bare_pass;
		p.name = bad_names[k];
		expect_desc(&d, PL_DESC_MALFORMED, "plugin 'good': pass 0 has an invalid name");
	}
}
END_TEST

/* Checks a pass whose options are opts (and stats stats). */
static void expect_pass(const pl_option_decl *opts, const pl_stat_decl *stats,
                        pl_desc_problem prob, const char *msg)
{
	pl_pass_desc p = good_pass;
	p.options = opts;
	p.stats = stats;
	const pl_pass_desc *ps[] = {&p, NULL};
	pl_plugin_desc d = plugin_with(ps);
	expect_desc(&d, prob, msg);
}

START_TEST(test_desc_malformed_options)
{
	/* a bad default */
	pl_option_decl o1[] = {PL_OPTION_INT("n", "200", 0, 100, ""), PL_OPTION_END};
	expect_pass(o1, NULL, PL_DESC_MALFORMED,
	            "pass 'GoodPass': option 'n': invalid default: 200 is above the maximum 100");
	pl_option_decl o2[] = {PL_OPTION_BOOL("b", "maybe", ""), PL_OPTION_END};
	expect_pass(o2, NULL, PL_DESC_MALFORMED,
	            "pass 'GoodPass': option 'b': invalid default: expected true or false, not 'maybe'");
	pl_option_decl o3[] = {PL_OPTION_ENUM("e", "avg", reduce_choices, ""), PL_OPTION_END};
	expect_pass(o3, NULL, PL_DESC_MALFORMED,
	            "pass 'GoodPass': option 'e': invalid default: expected one of add, max, min, not 'avg'");
	pl_option_decl o4[] = {PL_OPTION_BYTES("s", "1TiB", ""), PL_OPTION_END};
	expect_pass(o4, NULL, PL_DESC_MALFORMED,
	            "pass 'GoodPass': option 's': invalid default: expected a byte count such as "
	            "4096, 64KiB, 16MiB or 1GiB, not '1TiB'");
	/* no default */
	pl_option_decl o5[] = {PL_OPTION_STRING("s", NULL, ""), PL_OPTION_END};
	expect_pass(o5, NULL, PL_DESC_MALFORMED, "pass 'GoodPass': option 's' has no default");
	/* declared twice */
	pl_option_decl o6[] = {PL_OPTION_BOOL("a", "true", ""), PL_OPTION_BOOL("b", "true", ""),
	                       PL_OPTION_INT("a", "1", 0, 9, ""), PL_OPTION_END};
	expect_pass(o6, NULL, PL_DESC_MALFORMED, "pass 'GoodPass': option 'a' declared twice");
	/* an enum without choices */
	pl_option_decl o7[] = {PL_OPTION_ENUM("e", "x", NULL, ""), PL_OPTION_END};
	expect_pass(o7, NULL, PL_DESC_MALFORMED, "pass 'GoodPass': enum option 'e' has no choices");
	pl_option_decl o8[] = {PL_OPTION_ENUM("e", "x", no_choices, ""), PL_OPTION_END};
	expect_pass(o8, NULL, PL_DESC_MALFORMED, "pass 'GoodPass': enum option 'e' has no choices");
	/* min above max, for int and bytes */
	pl_option_decl o9[] = {PL_OPTION_INT("n", "5", 10, 1, ""), PL_OPTION_END};
	expect_pass(o9, NULL, PL_DESC_MALFORMED, "pass 'GoodPass': option 'n' has min above max");
	pl_option_decl o10[] = {
		{sizeof(pl_option_decl), "s", PL_OPT_BYTES, "0", "", 5, 4, NULL}, PL_OPTION_END};
	expect_pass(o10, NULL, PL_DESC_MALFORMED, "pass 'GoodPass': option 's' has min above max");
	/* min == max is fine */
	pl_option_decl o11[] = {PL_OPTION_INT("n", "5", 5, 5, ""), PL_OPTION_END};
	expect_pass(o11, NULL, PL_DESC_OK, "");
	/* names and types */
	pl_option_decl o12[] = {PL_OPTION_BOOL("a.b", "true", ""), PL_OPTION_END};
	expect_pass(o12, NULL, PL_DESC_MALFORMED, "pass 'GoodPass': option 0 has an invalid name");
	pl_option_decl o13[] = {PL_OPTION_BOOL("ok", "true", ""), PL_OPTION_BOOL("", "true", ""),
	                        PL_OPTION_END};
	expect_pass(o13, NULL, PL_DESC_MALFORMED, "pass 'GoodPass': option 1 has an invalid name");
	pl_option_decl o14[] = {
		{sizeof(pl_option_decl), "t", (pl_option_type)6, "1", "", 0, 1, NULL}, PL_OPTION_END};
	expect_pass(o14, NULL, PL_DESC_MALFORMED, "pass 'GoodPass': option 't' has unknown type 6");
	/* entries of one array all have the first one's struct_size */
	pl_option_decl o15[] = {PL_OPTION_BOOL("a", "true", ""), PL_OPTION_BOOL("b", "true", ""),
	                        PL_OPTION_END};
	o15[1].struct_size = sizeof(pl_option_decl) + 8;
	char msg[256];
	snprintf(msg, sizeof msg, "pass 'GoodPass': option 1 has struct_size %zu, the first has %zu",
	         sizeof(pl_option_decl) + 8, sizeof(pl_option_decl));
	expect_pass(o15, NULL, PL_DESC_MALFORMED, msg);
}
END_TEST

START_TEST(test_desc_malformed_stats)
{
	pl_stat_decl s1[] = {PL_STAT("a", "A."), PL_STAT("b", "B."), PL_STAT("a", "Again."),
	                     PL_STAT_END};
	expect_pass(NULL, s1, PL_DESC_MALFORMED, "pass 'GoodPass': stat 'a' declared twice");
	pl_stat_decl s2[] = {PL_STAT("ok", ""), PL_STAT("not ok", ""), PL_STAT_END};
	expect_pass(NULL, s2, PL_DESC_MALFORMED, "pass 'GoodPass': stat 1 has an invalid name");
	pl_stat_decl s3[] = {PL_STAT("a", "A."), PL_STAT_END};
	s3[1].struct_size = 99;
	char msg[256];
	snprintf(msg, sizeof msg, "pass 'GoodPass': stat 1 has struct_size 99, the first has %zu",
	         sizeof(pl_stat_decl));
	expect_pass(NULL, s3, PL_DESC_MALFORMED, msg);
	/* a stat and an option may share a name */
	pl_option_decl o[] = {PL_OPTION_BOOL("a", "true", ""), PL_OPTION_END};
	pl_stat_decl s4[] = {PL_STAT("a", "A."), PL_STAT_END};
	expect_pass(o, s4, PL_DESC_OK, "");
}
END_TEST

/* ---- pass contexts -------------------------------------------------------------- */

START_TEST(test_ctx_defaults_and_options)
{
	pl_diags *d = pl_diags_new();
	pl_pass_ctx *c = pl_ctx_new(&good_pass, d);
	ck_assert_ptr_nonnull(c);
	ck_assert_str_eq(pl_ctx_pass_name(c), "GoodPass");
	bool b = false;
	int64_t i = 0;
	const char *s = NULL;
	ck_assert_int_eq(pl_ctx_get_bool(c, "enabled_too", &b), PL_OK);
	ck_assert(b); /* "yes" */
	ck_assert_int_eq(pl_ctx_get_int(c, "limit", &i), PL_OK);
	ck_assert_int_eq(i, 10);
	ck_assert_int_eq(pl_ctx_get_int(c, "cap", &i), PL_OK); /* bytes read as int */
	ck_assert_int_eq(i, 64 << 20);
	ck_assert_int_eq(pl_ctx_get_string(c, "label", &s), PL_OK);
	ck_assert_str_eq(s, "x");
	ck_assert_int_eq(pl_ctx_get_string(c, "reduce", &s), PL_OK); /* enum read as string */
	ck_assert_str_eq(s, "max");

	/* the wrong getter, or no such option: *out unchanged */
	i = 5;
	b = false;
	s = "same";
	ck_assert_int_eq(pl_ctx_get_int(c, "label", &i), PL_ETYPE);
	ck_assert_int_eq(pl_ctx_get_int(c, "enabled_too", &i), PL_ETYPE);
	ck_assert_int_eq(pl_ctx_get_bool(c, "limit", &b), PL_ETYPE);
	ck_assert_int_eq(pl_ctx_get_string(c, "cap", &s), PL_ETYPE);
	ck_assert_int_eq(pl_ctx_get_string(c, "enabled_too", &s), PL_ETYPE);
	ck_assert_int_eq(pl_ctx_get_int(c, "nope", &i), PL_ENOTFOUND);
	ck_assert_int_eq(pl_ctx_get_bool(c, "nope", &b), PL_ENOTFOUND);
	ck_assert_int_eq(pl_ctx_get_string(c, "nope", &s), PL_ENOTFOUND);
	ck_assert_int_eq(i, 5);
	ck_assert(!b);
	ck_assert_str_eq(s, "same");

	/* setting */
	char err[128];
	ck_assert_int_eq(pl_ctx_set_option(c, "limit", "1000", err, sizeof err), PL_OK);
	ck_assert_int_eq(pl_ctx_get_int(c, "limit", &i), PL_OK);
	ck_assert_int_eq(i, 1000);
	ck_assert_int_eq(pl_ctx_set_option(c, "limit", "1001", err, sizeof err), PL_EINVAL);
	ck_assert_str_eq(err, "1001 is above the maximum 1000");
	ck_assert_int_eq(pl_ctx_get_int(c, "limit", &i), PL_OK);
	ck_assert_int_eq(i, 1000); /* unchanged */
	ck_assert_int_eq(pl_ctx_set_option(c, "nope", "1", err, sizeof err), PL_ENOTFOUND);
	ck_assert_str_eq(err, "unknown option 'nope'");
	ck_assert_int_eq(pl_ctx_set_option(c, "nope", "1", NULL, 0), PL_ENOTFOUND);
	ck_assert_int_eq(pl_ctx_set_option(c, "enabled_too", "OFF", err, sizeof err), PL_OK);
	ck_assert_int_eq(pl_ctx_get_bool(c, "enabled_too", &b), PL_OK);
	ck_assert(!b);
	ck_assert_int_eq(pl_ctx_set_option(c, "cap", "2048KiB", err, sizeof err), PL_OK);
	ck_assert_int_eq(pl_ctx_get_int(c, "cap", &i), PL_OK);
	ck_assert_int_eq(i, 2 << 20);
	ck_assert_int_eq(pl_ctx_set_option(c, "cap", "2XB", err, sizeof err), PL_EINVAL);
	ck_assert_int_eq(pl_ctx_set_option(c, "reduce", "add", err, sizeof err), PL_OK);
	ck_assert_int_eq(pl_ctx_get_string(c, "reduce", &s), PL_OK);
	ck_assert_str_eq(s, "add");
	ck_assert_int_eq(pl_ctx_set_option(c, "reduce", "sum", err, sizeof err), PL_EINVAL);
	ck_assert_str_eq(err, "expected one of add, max, min, not 'sum'");
	ck_assert_int_eq(pl_ctx_set_option(c, "label", "hello world", err, sizeof err), PL_OK);
	ck_assert_int_eq(pl_ctx_get_string(c, "label", &s), PL_OK);
	ck_assert_str_eq(s, "hello world");
	ck_assert_int_eq(pl_ctx_set_option(c, "label", NULL, err, sizeof err), PL_EINVAL);
	ck_assert_str_eq(err, "missing value");
	/* nothing was said through the diagnostics */
	ck_assert_uint_eq(pl_diags_count(d), 0);
	pl_ctx_free(c);

	/* a pass without options or stats */
	c = pl_ctx_new(&bare_pass, d);
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(pl_ctx_num_stats(c), 0);
	ck_assert_int_eq(pl_ctx_get_bool(c, "x", &b), PL_ENOTFOUND);
	ck_assert_int_eq(pl_ctx_stat_add(c, "x", 1), PL_ENOTFOUND);
	pl_ctx_free(c);

	/* a default that does not validate: no context */
	pl_option_decl bad[] = {PL_OPTION_INT("n", "x", 0, 1, ""), PL_OPTION_END};
	pl_pass_desc p = good_pass;
	p.options = bad;
	ck_assert_ptr_null(pl_ctx_new(&p, d));
	pl_ctx_free(NULL);
	pl_diags_free(d);
}
END_TEST

START_TEST(test_ctx_stats)
{
	pl_diags *d = pl_diags_new();
	pl_pass_ctx *c = pl_ctx_new(&good_pass, d);
	ck_assert_uint_eq(pl_ctx_num_stats(c), 2);
	ck_assert_str_eq(pl_ctx_stat_name(c, 0), "num_things");
	ck_assert_str_eq(pl_ctx_stat_description(c, 0), "Things seen.");
	ck_assert_str_eq(pl_ctx_stat_name(c, 1), "total");
	ck_assert_str_eq(pl_ctx_stat_description(c, 1), ""); /* NULL in the descriptor */
	uint64_t hi = 9, lo = 9;
	pl_ctx_stat_value(c, 0, &hi, &lo);
	ck_assert_uint_eq(hi, 0);
	ck_assert_uint_eq(lo, 0);

	ck_assert_int_eq(pl_ctx_stat_add(c, "num_things", 3), PL_OK);
	ck_assert_int_eq(pl_ctx_stat_add(c, "num_things", 4), PL_OK);
	pl_ctx_stat_value(c, 0, &hi, &lo);
	ck_assert_uint_eq(lo, 7);
	ck_assert_int_eq(pl_ctx_stat_add(c, "nope", 1), PL_ENOTFOUND);
	ck_assert_int_eq(pl_ctx_stat_add_wide(c, "nope", 0, 1), PL_ENOTFOUND);

	/* past 2^64: the carry goes into the high half */
	ck_assert_int_eq(pl_ctx_stat_add(c, "total", UINT64_MAX), PL_OK);
	ck_assert_int_eq(pl_ctx_stat_add(c, "total", 1), PL_OK);
	pl_ctx_stat_value(c, 1, &hi, &lo);
	ck_assert_uint_eq(hi, 1);
	ck_assert_uint_eq(lo, 0);
	ck_assert_int_eq(pl_ctx_stat_add_wide(c, "total", 2, UINT64_MAX), PL_OK);
	pl_ctx_stat_value(c, 1, &hi, &lo);
	ck_assert_uint_eq(hi, 3);
	ck_assert_uint_eq(lo, UINT64_MAX);
	/* up to 2^128 - 1 exactly; one more is PL_EOVERFLOW and changes nothing */
	ck_assert_int_eq(pl_ctx_stat_add_wide(c, "total", UINT64_MAX - 3, 0), PL_OK);
	pl_ctx_stat_value(c, 1, &hi, &lo);
	ck_assert_uint_eq(hi, UINT64_MAX);
	ck_assert_uint_eq(lo, UINT64_MAX);
	ck_assert_int_eq(pl_ctx_stat_add(c, "total", 1), PL_EOVERFLOW);
	ck_assert_int_eq(pl_ctx_stat_add_wide(c, "total", 1, 0), PL_EOVERFLOW);
	ck_assert_int_eq(pl_ctx_stat_add(c, "total", 0), PL_OK);
	pl_ctx_stat_value(c, 1, &hi, &lo);
	ck_assert_uint_eq(hi, UINT64_MAX);
	ck_assert_uint_eq(lo, UINT64_MAX);
	/* the other stat is untouched */
	pl_ctx_stat_value(c, 0, &hi, &lo);
	ck_assert_uint_eq(hi, 0);
	ck_assert_uint_eq(lo, 7);
	pl_ctx_free(c);
	pl_diags_free(d);
}
END_TEST

START_TEST(test_u128)
{
	char buf[PL_U128_DEC_BUFSIZE];
	ck_assert_str_eq(pl_u128_format(0, 0, buf), "0");
	ck_assert_ptr_eq(pl_u128_format(0, 7, buf), buf);
	ck_assert_str_eq(buf, "7");
	ck_assert_str_eq(pl_u128_format(0, UINT64_MAX, buf), "18446744073709551615");
	ck_assert_str_eq(pl_u128_format(1, 0, buf), "18446744073709551616"); /* 2^64 */
	ck_assert_str_eq(pl_u128_format(5, 7766279631452241920ull, buf), "100000000000000000000");
	ck_assert_str_eq(pl_u128_format(UINT64_MAX, UINT64_MAX, buf),
	                 "340282366920938463463374607431768211455"); /* 2^128 - 1 */
	ck_assert_uint_eq(strlen(buf) + 1, PL_U128_DEC_BUFSIZE);

	uint64_t hi = 0, lo = UINT64_MAX;
	ck_assert_int_eq(pl_u128_add(&hi, &lo, 0, 1), PL_OK);
	ck_assert_uint_eq(hi, 1);
	ck_assert_uint_eq(lo, 0);
	ck_assert_int_eq(pl_u128_add(&hi, &lo, 2, 5), PL_OK);
	ck_assert_uint_eq(hi, 3);
	ck_assert_uint_eq(lo, 5);
	hi = UINT64_MAX;
	lo = UINT64_MAX - 1;
	ck_assert_int_eq(pl_u128_add(&hi, &lo, 0, 1), PL_OK);
	ck_assert_int_eq(pl_u128_add(&hi, &lo, 0, 1), PL_EOVERFLOW);
	ck_assert_int_eq(pl_u128_add(&hi, &lo, 1, 0), PL_EOVERFLOW);
	ck_assert_uint_eq(hi, UINT64_MAX);
	ck_assert_uint_eq(lo, UINT64_MAX);
}
END_TEST

START_TEST(test_ctx_reports)
{
	pl_diags *d = pl_diags_new();
	pl_pass_ctx *c = pl_ctx_new(&good_pass, d);
	ck_assert_uint_eq(pl_ctx_num_reports(c), 0);
	ck_assert_int_eq(pl_ctx_report(c, "Total flops: %d", 42), PL_OK);
	ck_assert_int_eq(pl_ctx_report(c, "%s", ""), PL_OK);
	char big[PL_U128_DEC_BUFSIZE];
	ck_assert_int_eq(pl_ctx_report(c, "Total bytes moved: %s",
	                               pl_u128_format(UINT64_MAX, UINT64_MAX, big)),
	                 PL_OK);
	ck_assert_uint_eq(pl_ctx_num_reports(c), 3);
	ck_assert_str_eq(pl_ctx_report_at(c, 0), "Total flops: 42");
	ck_assert_str_eq(pl_ctx_report_at(c, 1), "");
	ck_assert_str_eq(pl_ctx_report_at(c, 2),
	                 "Total bytes moved: 340282366920938463463374607431768211455");
	pl_ctx_clear_reports(c);
	ck_assert_uint_eq(pl_ctx_num_reports(c), 0);
	for (int k = 0; k < 100; k++)
		ck_assert_int_eq(pl_ctx_report(c, "line %d", k), PL_OK);
	ck_assert_uint_eq(pl_ctx_num_reports(c), 100);
	ck_assert_str_eq(pl_ctx_report_at(c, 99), "line 99");
	/* reports are not diagnostics */
	ck_assert_uint_eq(pl_diags_count(d), 0);
	pl_ctx_free(c); /* frees the lines left */
	pl_diags_free(d);
}
END_TEST

START_TEST(test_ctx_messages)
{
	pl_diags *dg;
	pl_module *m = tu_parse("func @f() {\n  acme.x\n}\n", &dg);
	ck_assert_ptr_nonnull(m);
	pl_inst *at = pl_func_first_inst(pl_module_func_at(m, 0));
	pl_diags *d = pl_diags_new();
	pl_pass_ctx *c = pl_ctx_new(&good_pass, d);

	/* remarks are off by default, and then not recorded at all */
	ck_assert(!pl_ctx_remarks_enabled(c));
	pl_ctx_remark(c, at, "merged %d collectives", 2);
	ck_assert_uint_eq(pl_diags_count(d), 0);
	pl_ctx_set_remarks_enabled(c, true);
	ck_assert(pl_ctx_remarks_enabled(c));
	pl_ctx_remark(c, at, "merged %d collectives", 2);
	pl_ctx_remark(c, NULL, "no place");
	pl_ctx_set_remarks_enabled(c, false);
	pl_ctx_remark(c, at, "not recorded");
	/* warnings and errors always are */
	pl_ctx_warning(c, at, "odd %s", "thing");
	pl_ctx_error(c, NULL, "failed: %d", -1);
	ck_assert_uint_eq(pl_diags_count(d), 4);
	ck_assert_uint_eq(pl_diags_error_count(d), 1);
	ck_assert_int_eq(pl_diags_severity(d, 0), PL_SEV_REMARK);
	ck_assert_str_eq(pl_diags_format(d, 0), "test.pir:2:3: remark: GoodPass: merged 2 collectives");
	ck_assert_str_eq(pl_diags_format(d, 1), "remark: GoodPass: no place");
	ck_assert_int_eq(pl_diags_severity(d, 2), PL_SEV_WARNING);
	ck_assert_str_eq(pl_diags_format(d, 2), "test.pir:2:3: warning: GoodPass: odd thing");
	ck_assert_int_eq(pl_diags_severity(d, 3), PL_SEV_ERROR);
	ck_assert_str_eq(pl_diags_format(d, 3), "error: GoodPass: failed: -1");
	ck_assert_str_eq(pl_diags_message(d, 3), "GoodPass: failed: -1");
	pl_ctx_free(c);
	pl_diags_free(d);
	pl_module_free(m);
	pl_diags_free(dg);
}
END_TEST

/* ---- the diagnostics list --------------------------------------------------------- */

struct seen {
	int n;
	char last[256];
};

static void handler(void *ud, pl_severity sev, const char *file, unsigned line, unsigned col,
                    const char *message)
{
	struct seen *s = ud;
	s->n++;
	snprintf(s->last, sizeof s->last, "%s|%s|%u|%u|%s", pl_severity_name(sev),
	         file ? file : "-", line, col, message);
}

START_TEST(test_diags)
{
	pl_diags *d = pl_diags_new();
	ck_assert_int_eq(pl_diags_add(d, PL_SEV_ERROR, "a.pir", 3, 7, "bad %s", "thing"), PL_OK);
	ck_assert_int_eq(pl_diags_add(d, PL_SEV_WARNING, "a.pir", 3, 0, "no column"), PL_OK);
	ck_assert_int_eq(pl_diags_add(d, PL_SEV_NOTE, "a.pir", 0, 0, "no line"), PL_OK);
	ck_assert_int_eq(pl_diags_add(d, PL_SEV_REMARK, NULL, 5, 5, "no file"), PL_OK);
	ck_assert_str_eq(pl_diags_format(d, 0), "a.pir:3:7: error: bad thing");
	ck_assert_str_eq(pl_diags_format(d, 1), "a.pir:3: warning: no column");
	ck_assert_str_eq(pl_diags_format(d, 2), "a.pir: note: no line");
	ck_assert_str_eq(pl_diags_format(d, 3), "remark: no file");
	ck_assert_ptr_null(pl_diags_file(d, 3));
	ck_assert_uint_eq(pl_diags_line(d, 0), 3);
	ck_assert_uint_eq(pl_diags_col(d, 0), 7);
	ck_assert_uint_eq(pl_diags_count(d), 4);
	ck_assert_uint_eq(pl_diags_error_count(d), 1);
	ck_assert_str_eq(pl_severity_name(PL_SEV_NOTE), "note");
	ck_assert_str_eq(pl_severity_name((pl_severity)9), "unknown");
	pl_diags_clear(d);
	ck_assert_uint_eq(pl_diags_count(d), 0);
	ck_assert_uint_eq(pl_diags_error_count(d), 0);

	/* past the cap messages are counted, not kept */
	for (int k = 0; k < PL_DIAGS_MAX_ENTRIES + 5; k++)
		pl_diags_add(d, PL_SEV_ERROR, NULL, 0, 0, "e%d", k);
	ck_assert_uint_eq(pl_diags_count(d), PL_DIAGS_MAX_ENTRIES);
	ck_assert_uint_eq(pl_diags_dropped(d), 5);
	ck_assert_uint_eq(pl_diags_error_count(d), PL_DIAGS_MAX_ENTRIES + 5);
	ck_assert_str_eq(pl_diags_message(d, PL_DIAGS_MAX_ENTRIES - 1), "e999");
	pl_diags_clear(d);
	ck_assert_uint_eq(pl_diags_dropped(d), 0);

	/* a handler sees each message instead */
	struct seen s = {0, ""};
	pl_diags_set_handler(d, handler, &s);
	pl_diags_add(d, PL_SEV_WARNING, "b.pir", 1, 2, "w%d", 1);
	pl_diags_add(d, PL_SEV_ERROR, NULL, 0, 0, "e");
	ck_assert_int_eq(s.n, 2);
	ck_assert_str_eq(s.last, "error|-|0|0|e");
	ck_assert_uint_eq(pl_diags_count(d), 0);
	ck_assert_uint_eq(pl_diags_error_count(d), 1);
	pl_diags_set_handler(d, NULL, NULL);
	pl_diags_add(d, PL_SEV_NOTE, NULL, 0, 0, "kept");
	ck_assert_uint_eq(pl_diags_count(d), 1);
	ck_assert_int_eq(s.n, 2);
	pl_diags_free(d);

	/* a NULL list is refused, not dereferenced */
	ck_assert_int_eq(pl_diags_add(NULL, PL_SEV_ERROR, NULL, 0, 0, "x"), PL_EINVAL);
	ck_assert_uint_eq(pl_diags_count(NULL), 0);
	pl_diags_free(NULL);
}
END_TEST

static Suite *options_suite(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("options");
	tcase_add_test(tc, test_option_bool);
	tcase_add_test(tc, test_option_int);
	tcase_add_test(tc, test_option_bytes);
	tcase_add_test(tc, test_parse_bytes);
	tcase_add_test(tc, test_option_string_enum);
	tcase_add_test(tc, test_option_edge_cases);
	suite_add_tcase(s, tc);

	tc = tcase_create("descriptors");
	tcase_add_test(tc, test_desc_ok);
	tcase_add_test(tc, test_desc_larger_structs);
	tcase_add_test(tc, test_desc_null_and_abi);
	tcase_add_test(tc, test_desc_too_small);
	tcase_add_test(tc, test_desc_malformed_plugin);
	tcase_add_test(tc, test_desc_malformed_options);
	tcase_add_test(tc, test_desc_malformed_stats);
	suite_add_tcase(s, tc);

	tc = tcase_create("context");
	tcase_add_test(tc, test_ctx_defaults_and_options);
	tcase_add_test(tc, test_ctx_stats);
	tcase_add_test(tc, test_u128);
	tcase_add_test(tc, test_ctx_reports);
	tcase_add_test(tc, test_ctx_messages);
	tcase_add_test(tc, test_diags);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(options_suite)
