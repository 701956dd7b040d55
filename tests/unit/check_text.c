/* SPDX-License-Identifier: MIT */
/* tests/unit/check_text.c — the .pir reader and writer.
 *
 * core:   the round-trip corpus under tests/pir/roundtrip (every file
 *         parses, verifies and prints to a fixed point; a NAME.expected next
 *         to NAME.pir is the exact canonical text of its first print), plus
 *         the printing API.
 * errors: one test per error class of the reader, each with the exact
 *         "test.pir:LINE:COL: error: ..." message.
 * limits: the reader's documented limits, and very long names and lines.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "testutil.h"

#include <dirent.h>
#include <math.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define CORPUS_DIR TEST_SRCDIR "/pir/roundtrip"

/* ---- helpers ------------------------------------------------------------ */

/* Parses len bytes (which may hold NULs) named "test.pir". */
static int parse_n(const char *text, size_t len, pl_diags **d, pl_module **m)
{
	*d = pl_diags_new();
	ck_assert_ptr_nonnull(*d);
	*m = (pl_module *)(uintptr_t)1; /* must be reset to NULL on failure */
	return pl_parse_buffer(text, len, "test.pir", *d, m);
}

/* Asserts that text is rejected whole with exactly the message msg. */
static void expect_error_n(const char *text, size_t len, const char *msg)
{
	pl_diags *d;
	pl_module *m;
	int rc = parse_n(text, len, &d, &m);
	ck_assert_msg(rc == PL_EPARSE, "status %d for <%.*s>", rc, (int)(len > 200 ? 200 : len),
	              text);
	ck_assert_ptr_null(m);
	ck_assert_uint_eq(pl_diags_count(d), 1);
	ck_assert_uint_eq(pl_diags_error_count(d), 1);
	ck_assert_str_eq(tu_first_diag(d), msg);
	pl_diags_free(d);
}

static void expect_error(const char *text, const char *msg)
{
	expect_error_n(text, strlen(text), msg);
}

/* Text of a string literal with embedded NULs: pass the array itself. */
#define EXPECT_ERROR_LIT(lit, msg) expect_error_n((lit), sizeof(lit) - 1, (msg))

static char *read_file(const char *path, size_t *len)
{
	char *buf = tu_read_file(path, len);
	ck_assert_msg(buf != NULL, "cannot open %s: %s", path, strerror(errno));
	return buf;
}

/* Parses text, which must verify, and returns its canonical print. */
static char *canon(const char *text, size_t len)
{
	pl_diags *d;
	pl_module *m;
	int rc = parse_n(text, len, &d, &m);
	ck_assert_msg(rc == PL_OK, "parse failed: %s", tu_first_diag(d));
	ck_assert_int_eq(pl_verify_module(m, d), PL_OK);
	char *out = tu_print(m);
	ck_assert_ptr_nonnull(out);
	pl_module_free(m);
	pl_diags_free(d);
	return out;
}

/* Asserts print(parse(text)) == text: text is canonical and round-trips. */
static void expect_canonical(const char *text, size_t len)
{
	char *out = canon(text, len);
	ck_assert_uint_eq(strlen(out), len);
	ck_assert(memcmp(out, text, len) == 0);
	free(out);
}

/* ---- the corpus --------------------------------------------------------- */

static char *corpus[256];
static size_t ncorpus;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lists CORPUS_DIR/ *.pir (sorted), before the tests fork. */
static void load_corpus(void)
{
	DIR *dir = opendir(CORPUS_DIR);
	if (!dir)
		return; /* test_corpus_not_empty fails */
	struct dirent *e;
	while ((e = readdir(dir)) != NULL) {
		size_t n = strlen(e->d_name);
		if (n > 4 && strcmp(e->d_name + n - 4, ".pir") == 0 &&
		    ncorpus < sizeof corpus / sizeof *corpus)
			corpus[ncorpus++] = strdup(e->d_name);
	}
	closedir(dir);
	qsort(corpus, ncorpus, sizeof *corpus, cmp_str);
}

static void free_corpus(void)
{
	for (size_t i = 0; i < ncorpus; i++)
		free(corpus[i]);
	ncorpus = 0;
}

START_TEST(test_corpus_not_empty)
{
	ck_assert_uint_ge(ncorpus, 10);
	/* at least a few files pin the exact canonical text */
	size_t nexpected = 0;
	for (size_t i = 0; i < ncorpus; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/%.*s.expected", CORPUS_DIR,
		         (int)(strlen(corpus[i]) - 4), corpus[i]);
		if (access(path, R_OK) == 0)
			nexpected++;
	}
	ck_assert_uint_ge(nexpected, 5);
}
END_TEST

/* One corpus file: parse (from the file, as the host does), verify, print;
 * the print re-parses, verifies and prints identically; and equals
 * NAME.expected when there is one. */
START_TEST(test_corpus_file)
{
	ck_assert_uint_lt((size_t)_i, ncorpus);
	const char *name = corpus[_i];
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", CORPUS_DIR, name);

	pl_diags *d = pl_diags_new();
	pl_module *m = NULL;
	int rc = pl_parse_file(path, d, &m);
	ck_assert_msg(rc == PL_OK, "%s: %s", name, tu_first_diag(d));
	rc = pl_verify_module(m, d);
	ck_assert_msg(rc == PL_OK, "%s: %s", name, tu_first_diag(d));
	char *first = tu_print(m);
	ck_assert_ptr_nonnull(first);
	/* printing is a pure function of the module */
	char *again = tu_print(m);
	ck_assert_str_eq(first, again);
	free(again);

	char *second = canon(first, strlen(first));
	ck_assert_msg(strcmp(first, second) == 0, "%s: not a fixed point:\n%s\n---\n%s", name,
	              first, second);

	snprintf(path, sizeof path, "%s/%.*s.expected", CORPUS_DIR, (int)(strlen(name) - 4),
	         name);
	if (access(path, R_OK) == 0) {
		char *expected = read_file(path, NULL);
		ck_assert_msg(strcmp(first, expected) == 0, "%s: printed\n%s\nexpected\n%s", name,
		              first, expected);
		free(expected);
	}
	free(first);
	free(second);
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

/* The corpus through pl_parse_buffer as well (no mapping, no BOM special
 * path differences): the same canonical text. */
START_TEST(test_corpus_buffer_equals_file)
{
	for (size_t i = 0; i < ncorpus; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", CORPUS_DIR, corpus[i]);
		size_t len;
		char *text = read_file(path, &len);
		char *a = canon(text, len);
		pl_diags *d = pl_diags_new();
		pl_module *m = NULL;
		ck_assert_int_eq(pl_parse_file(path, d, &m), PL_OK);
		char *b = tu_print(m);
		ck_assert_str_eq(a, b);
		free(a);
		free(b);
		free(text);
		pl_module_free(m);
		pl_diags_free(d);
	}
}
END_TEST

/* ---- reading: what the corpus cannot say -------------------------------- */

START_TEST(test_empty_input)
{
	pl_diags *d;
	pl_module *m;
	ck_assert_int_eq(parse_n("", 0, &d, &m), PL_OK);
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(pl_module_num_funcs(m), 0);
	ck_assert_uint_eq(pl_module_num_insts(m), 0);
	ck_assert_uint_eq(pl_diags_count(d), 0);
	ck_assert_str_eq(pl_module_source_name(m), "test.pir");
	char *s = tu_print(m);
	ck_assert_str_eq(s, "");
	free(s);
	pl_module_free(m);
	pl_diags_free(d);

	/* NULL text of length 0 is an empty input too; a BOM alone as well */
	ck_assert_int_eq(parse_n(NULL, 0, &d, &m), PL_OK);
	ck_assert_uint_eq(pl_module_num_funcs(m), 0);
	pl_module_free(m);
	pl_diags_free(d);
	ck_assert_int_eq(parse_n("\xef\xbb\xbf", 3, &d, &m), PL_OK);
	ck_assert_uint_eq(pl_module_num_funcs(m), 0);
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

START_TEST(test_null_text_with_length)
{
	pl_diags *d = pl_diags_new();
	pl_module *m = NULL;
	ck_assert_int_eq(pl_parse_buffer(NULL, 1, "x", d, &m), PL_EINVAL);
	ck_assert_ptr_null(m);
	pl_diags_free(d);
}
END_TEST

/* What the reader builds: names, types, attribute values, locations. */
START_TEST(test_parse_builds_ir)
{
	const char *text =
		"// header\n"
		"func @f(%x: bf16[2,3]) attributes {k = \"v\"} {\n"
		"  %a, %b = acme.op %x, %x {n = -7, s = \"a\\x00b\", l = [1, [2.5]]} : (f32[], i8[4])\n"
		"  return %b\n"
		"}\n";
	pl_diags *d;
	pl_module *m;
	ck_assert_int_eq(parse_n(text, strlen(text), &d, &m), PL_OK);
	ck_assert_uint_eq(pl_module_num_funcs(m), 1);
	ck_assert_uint_eq(pl_module_num_insts(m), 2);
	pl_func *f = pl_module_func_at(m, 0);
	ck_assert_ptr_eq(pl_module_find_func(m, "f"), f);
	ck_assert_str_eq(pl_func_name(f), "f");
	ck_assert_uint_eq(pl_func_line(f), 2);
	ck_assert_uint_eq(pl_func_col(f), 1);
	const char *sv;
	size_t sl;
	ck_assert_int_eq(pl_attrs_get_string(pl_func_attrs(f), "k", &sv, &sl), PL_OK);
	ck_assert_str_eq(sv, "v");

	pl_value *x = pl_func_arg(f, 0);
	ck_assert_str_eq(pl_value_name(x), "x");
	const pl_type *xt = pl_value_type(x);
	ck_assert_int_eq(pl_type_dtype(xt), PL_DTYPE_BF16);
	ck_assert_uint_eq(pl_type_rank(xt), 2);
	ck_assert_int_eq(pl_type_dim(xt, 0), 2);
	ck_assert_int_eq(pl_type_dim(xt, 1), 3);

	pl_inst *i = pl_func_first_inst(f);
	ck_assert_str_eq(pl_inst_opname(i), "acme.op");
	ck_assert_int_eq(pl_inst_op(i), PL_OP_OTHER);
	ck_assert_uint_eq(pl_inst_line(i), 3);
	ck_assert_uint_eq(pl_inst_col(i), 3);
	ck_assert_uint_eq(pl_inst_num_operands(i), 2);
	ck_assert_ptr_eq(pl_inst_operand(i, 0), x);
	ck_assert_ptr_eq(pl_inst_operand(i, 1), x);
	ck_assert_uint_eq(pl_value_num_uses(x), 2);
	ck_assert_uint_eq(pl_inst_num_results(i), 2);
	ck_assert_str_eq(pl_value_name(pl_inst_result(i, 0)), "a");
	ck_assert_str_eq(pl_value_name(pl_inst_result(i, 1)), "b");
	ck_assert_int_eq(pl_type_rank(pl_value_type(pl_inst_result(i, 0))), 0);
	ck_assert_int_eq(pl_type_dtype(pl_value_type(pl_inst_result(i, 1))), PL_DTYPE_I8);

	const pl_attrs *at = pl_inst_attrs_const(i);
	ck_assert_uint_eq(pl_attrs_count(at), 3);
	ck_assert_str_eq(pl_attrs_key_at(at, 0), "n");
	ck_assert_str_eq(pl_attrs_key_at(at, 1), "s");
	ck_assert_str_eq(pl_attrs_key_at(at, 2), "l");
	int64_t n;
	ck_assert_int_eq(pl_attrs_get_int(at, "n", &n), PL_OK);
	ck_assert_int_eq(n, -7);
	ck_assert_int_eq(pl_attrs_get_string(at, "s", &sv, &sl), PL_OK);
	ck_assert_uint_eq(sl, 3);
	ck_assert(memcmp(sv, "a\0b", 3) == 0);
	const pl_attr *l = pl_attrs_get(at, "l");
	ck_assert_int_eq(pl_attr_get_kind(l), PL_ATTR_LIST);
	ck_assert_uint_eq(pl_attr_list_size(l), 2);
	ck_assert_int_eq(pl_attr_get_int(pl_attr_list_at(l, 0)), 1);
	const pl_attr *inner = pl_attr_list_at(l, 1);
	ck_assert_uint_eq(pl_attr_list_size(inner), 1);
	ck_assert(pl_attr_get_float(pl_attr_list_at(inner, 0)) == 2.5);

	pl_inst *r = pl_inst_next(i);
	ck_assert_int_eq(pl_inst_op(r), PL_OP_RETURN);
	ck_assert_uint_eq(pl_inst_line(r), 4);
	ck_assert_ptr_eq(pl_inst_operand(r, 0), pl_inst_result(i, 1));
	ck_assert_ptr_null(pl_inst_next(r));
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

/* Every float spelling reads back as the value C reads. */
START_TEST(test_float_values)
{
	static const struct {
		const char *text;
		double v;
	} cases[] = {
		{"1.5", 1.5},     {"1e10", 1e10},   {"2.5e-3", 2.5e-3}, {".5", 0.5},
		{"1.", 1.0},      {"1E5", 1e5},     {"1e+5", 1e5},      {"-.5", -0.5},
		{"1.e2", 100.0},  {"0.0", 0.0},     {"-2.5E-2", -0.025},
	};
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		char text[128];
		snprintf(text, sizeof text, "func @f() { acme.x {v = %s} }", cases[k].text);
		pl_diags *d;
		pl_module *m;
		ck_assert_int_eq(parse_n(text, strlen(text), &d, &m), PL_OK);
		const pl_attr *a = pl_attrs_get(
			pl_inst_attrs_const(pl_func_first_inst(pl_module_func_at(m, 0))), "v");
		ck_assert_int_eq(pl_attr_get_kind(a), PL_ATTR_FLOAT);
		ck_assert_msg(pl_attr_get_float(a) == cases[k].v, "%s", cases[k].text);
		pl_module_free(m);
		pl_diags_free(d);
	}
	/* -0.0 keeps its sign */
	pl_diags *d;
	pl_module *m;
	const char *t = "func @f() { acme.x {v = -0.0, i = -0} }";
	ck_assert_int_eq(parse_n(t, strlen(t), &d, &m), PL_OK);
	const pl_attrs *at = pl_inst_attrs_const(pl_func_first_inst(pl_module_func_at(m, 0)));
	ck_assert(signbit(pl_attr_get_float(pl_attrs_get(at, "v"))));
	ck_assert_int_eq(pl_attr_get_kind(pl_attrs_get(at, "i")), PL_ATTR_INT);
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

/* The first error stops the parse: one message, whatever follows. */
START_TEST(test_first_error_only)
{
	expect_error("func @f() {\n  acme.x %a\n  acme.y %b\n}\nfunc @f() {}\n",
	             "test.pir:2:10: error: use of undefined value '%a'");
}
END_TEST

/* ---- printing API ------------------------------------------------------- */

static int failing_writer(void *ud, const char *bytes, size_t len)
{
	(void)bytes;
	(void)len;
	int *calls = ud;
	(*calls)++;
	return -1;
}

START_TEST(test_print_write_error)
{
	pl_diags *d;
	pl_module *m;
	const char *t = "func @f() {\n  acme.x\n}\n";
	ck_assert_int_eq(parse_n(t, strlen(t), &d, &m), PL_OK);
	int calls = 0;
	ck_assert_int_eq(pl_print_module(m, failing_writer, &calls), PL_EIO);
	ck_assert_int_eq(calls, 1);
	calls = 0;
	ck_assert_int_eq(pl_print_func(pl_module_func_at(m, 0), failing_writer, &calls), PL_EIO);
	ck_assert_int_eq(calls, 1);
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

START_TEST(test_print_func_and_inst)
{
	pl_diags *d;
	pl_module *m;
	const char *t = "func @a() {\n}\n\nfunc @b(%x: f32[2]) {\n"
	                "  %y = acme.op %x {k = [1, 2]} : f32[2]\n  return %y\n}\n";
	ck_assert_int_eq(parse_n(t, strlen(t), &d, &m), PL_OK);
	char *s = calloc(1, 1);
	ck_assert_int_eq(pl_print_func(pl_module_func_at(m, 1), tu_write_sb, &s), PL_OK);
	ck_assert_str_eq(s, "func @b(%x: f32[2]) {\n  %y = acme.op %x {k = [1, 2]} : f32[2]\n"
	                    "  return %y\n}\n");
	free(s);
	pl_inst *i = pl_func_first_inst(pl_module_func_at(m, 1));
	s = pl_print_inst_string(i);
	ck_assert_str_eq(s, "%y = acme.op %x {k = [1, 2]} : f32[2]");
	free(s);
	s = pl_print_inst_string(pl_inst_next(i));
	ck_assert_str_eq(s, "return %y");
	free(s);

	/* to a stdio stream */
	FILE *fp = tmpfile();
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(pl_print_module_file(m, fp), PL_OK);
	rewind(fp);
	char buf[512];
	size_t n = fread(buf, 1, sizeof buf - 1, fp);
	buf[n] = '\0';
	ck_assert_str_eq(buf, t);
	fclose(fp);
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

/* Output larger than the writer's 64 KiB buffer, and one piece larger than
 * it, arrive whole and in order. */
START_TEST(test_print_large_output)
{
	size_t big = 200000;
	char *s = malloc(big + 64);
	ck_assert_ptr_nonnull(s);
	strcpy(s, "func @f() {\n  acme.x {s = \"");
	size_t n = strlen(s);
	for (size_t k = 0; k < big; k++)
		s[n++] = (char)('a' + k % 26);
	strcpy(s + n, "\"}\n");
	n += 3;
	strcpy(s + n, "}\n");
	n += 2;
	expect_canonical(s, n);
	free(s);

	/* many short lines */
	s = malloc(64 * 5000 + 64);
	n = (size_t)sprintf(s, "func @g(%%a: f32[]) {\n");
	for (int k = 0; k < 5000; k++)
		n += (size_t)sprintf(s + n, "  %%v%d = acme.op %%a {k = %d} : f32[]\n", k, k);
	n += (size_t)sprintf(s + n, "}\n");
	expect_canonical(s, n);
	free(s);
}
END_TEST

/* ---- pl_parse_file ----------------------------------------------------- */

static char *write_temp(const char *text, size_t len)
{
	const char *dir = getenv("TMPDIR");
	char *path = malloc(4096);
	snprintf(path, 4096, "%s/pl-check-text-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

START_TEST(test_parse_file_errors)
{
	pl_diags *d = pl_diags_new();
	pl_module *m = (pl_module *)(uintptr_t)1;
	ck_assert_int_eq(pl_parse_file("/nonexistent/dir/x.pir", d, &m), PL_EIO);
	ck_assert_ptr_null(m);
	ck_assert_str_eq(tu_first_diag(d),
	                 "/nonexistent/dir/x.pir: error: cannot open: No such file or directory");
	pl_diags_clear(d);

	m = (pl_module *)(uintptr_t)1;
	ck_assert_int_eq(pl_parse_file(CORPUS_DIR, d, &m), PL_EIO);
	ck_assert_ptr_null(m);
	ck_assert_str_eq(tu_first_diag(d), CORPUS_DIR ": error: cannot read: Is a directory");
	pl_diags_clear(d);

	/* a syntax error names the file */
	const char *bad = "func @f() {\n  acme.x %nope\n}\n";
	char *path = write_temp(bad, strlen(bad));
	m = (pl_module *)(uintptr_t)1;
	ck_assert_int_eq(pl_parse_file(path, d, &m), PL_EPARSE);
	ck_assert_ptr_null(m);
	char want[4200];
	snprintf(want, sizeof want, "%s:2:10: error: use of undefined value '%%nope'", path);
	ck_assert_str_eq(tu_first_diag(d), want);
	unlink(path);
	free(path);
	pl_diags_clear(d);

	/* an empty file is an empty module */
	path = write_temp("", 0);
	ck_assert_int_eq(pl_parse_file(path, d, &m), PL_OK);
	ck_assert_uint_eq(pl_module_num_funcs(m), 0);
	ck_assert_str_eq(pl_module_source_name(m), path);
	pl_module_free(m);
	unlink(path);
	free(path);
	pl_diags_free(d);
}
END_TEST

/* "-" reads standard input, named "<stdin>": a pipe (read whole) and a
 * regular file (mapped). The test runs in its own process (Check forks),
 * so replacing fd 0 is harmless. */
START_TEST(test_parse_file_stdin)
{
	const char *good = "func @f(%a: f32[]) {\n  return %a\n}\n";
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_int_eq(write(fds[1], good, strlen(good)), (ssize_t)strlen(good));
	close(fds[1]);
	ck_assert_int_ge(dup2(fds[0], STDIN_FILENO), 0);
	close(fds[0]);
	pl_diags *d = pl_diags_new();
	pl_module *m = NULL;
	ck_assert_int_eq(pl_parse_file("-", d, &m), PL_OK);
	ck_assert_str_eq(pl_module_source_name(m), "<stdin>");
	char *out = tu_print(m);
	ck_assert_str_eq(out, good);
	free(out);
	pl_module_free(m);

	const char *bad = "func @f() {\n  acme.x %a\n}\n";
	char *path = write_temp(bad, strlen(bad));
	FILE *f = freopen(path, "rb", stdin);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(pl_parse_file("-", d, &m), PL_EPARSE);
	ck_assert_ptr_null(m);
	ck_assert_str_eq(tu_first_diag(d), "<stdin>:2:10: error: use of undefined value '%a'");
	unlink(path);
	free(path);
	pl_diags_free(d);
}
END_TEST

/* ---- errors ------------------------------------------------------------- */

START_TEST(test_err_unexpected_character)
{
	expect_error("func @f() {\n  #\n}", "test.pir:2:3: error: unexpected character '#'");
	expect_error("$", "test.pir:1:1: error: unexpected character '$'");
	expect_error("func @f() { acme.x / }", "test.pir:1:20: error: unexpected character '/'");
	expect_error("func @f() { acme.x . }", "test.pir:1:20: error: unexpected character '.'");
	/* columns count bytes; a tab is one; CR is white space */
	expect_error("\t#", "test.pir:1:2: error: unexpected character '#'");
	expect_error("func @f() {\r\n  ;", "test.pir:2:3: error: unexpected character ';'");
	expect_error("func @f() {\x01}", "test.pir:1:12: error: unexpected control character 0x01");
	expect_error("\x7f", "test.pir:1:1: error: unexpected control character 0x7f");
}
END_TEST

START_TEST(test_err_nul_byte)
{
	EXPECT_ERROR_LIT("func @f() {\0}", "test.pir:1:12: error: NUL byte in input");
	EXPECT_ERROR_LIT("// a\0b\nfunc", "test.pir:1:5: error: NUL byte in input");
	EXPECT_ERROR_LIT("func @f() { acme.x {s = \"a\0\"} }",
	                 "test.pir:1:27: error: NUL byte in input");
}
END_TEST

START_TEST(test_err_invalid_utf8)
{
	/* in a comment */
	expect_error("// \xff\nfunc", "test.pir:1:4: error: invalid UTF-8 byte 0xff");
	expect_error("// ok é\n// \xe2\x82", "test.pir:2:4: error: file ends: truncated UTF-8 sequence");
	expect_error("// \xe0\x80\x80", "test.pir:1:4: error: invalid UTF-8 sequence"); /* overlong */
	expect_error("// \xed\xa0\x80", "test.pir:1:4: error: invalid UTF-8 sequence"); /* surrogate */
	expect_error("// \xf4\x90\x80\x80", "test.pir:1:4: error: invalid UTF-8 sequence");
	expect_error("// \xc0\x80", "test.pir:1:4: error: invalid UTF-8 byte 0xc0");
	expect_error("// \x80", "test.pir:1:4: error: invalid UTF-8 byte 0x80");
	/* in a string */
	expect_error("func @f() { acme.x {s = \"\xc3\x28\"} }",
	             "test.pir:1:26: error: invalid UTF-8 sequence");
	expect_error("func @f() { acme.x {s = \"\xf8\"} }",
	             "test.pir:1:26: error: invalid UTF-8 byte 0xf8");
	/* bare */
	expect_error("\xfe", "test.pir:1:1: error: invalid UTF-8 byte 0xfe");
	expect_error("func @f() { \xe2\x82 }", "test.pir:1:13: error: invalid UTF-8 sequence");
	/* valid UTF-8 outside strings and comments is still not allowed */
	expect_error("func @f() { \xc3\xa9 }", "test.pir:1:13: error: unexpected non-ASCII character");
	/* a BOM is only allowed first */
	expect_error("func @f() {}\xef\xbb\xbf", "test.pir:1:13: error: unexpected non-ASCII character");
	/* after a BOM, columns start at the first character */
	expect_error("\xef\xbb\xbf#", "test.pir:1:1: error: unexpected character '#'");
}
END_TEST

START_TEST(test_err_unterminated_string)
{
	expect_error("func @f() { acme.x {s = \"abc", "test.pir:1:29: error: file ends inside the string (opened at 1:25): expected the closing '\"'");
	expect_error("func @f() { acme.x {s = \"abc\\", "test.pir:1:30: error: file ends inside the string (opened at 1:25): expected the closing '\"'");
	expect_error("func @f() { acme.x {s = \"ab\ncd\"} }",
	             "test.pir:1:25: error: unterminated string (newline in string)");
}
END_TEST

START_TEST(test_err_control_in_string)
{
	expect_error("func @f() { acme.x {s = \"a\x01\"} }",
	             "test.pir:1:27: error: control character 0x01 in string; use an escape");
	expect_error("func @f() { acme.x {s = \"a\r\"} }",
	             "test.pir:1:27: error: control character 0x0d in string; use an escape");
}
END_TEST

/* The reader scans a string for its first byte that is not itself (an
 * escape, a quote, a control, UTF-8) many bytes at a time: each such byte
 * at each offset of a long string is found where it is. */
START_TEST(test_string_special_byte_at_every_offset)
{
	static const struct {
		const char *in;   /* written in the literal */
		const char *want; /* the byte(s) in the value; NULL: an error */
	} specials[] = {
		{"\\n", "\n"}, {"\\\"", "\""}, {"\\\\", "\\"}, {"\\x41", "A"},
		{"\x7f", "\x7f"}, {"\t", "\t"}, {"\xc3\xa9", "\xc3\xa9"}, {"~", "~"},
		{" ", " "}, {"\x01", NULL}, {"\x1f", NULL}, {"\n", NULL},
	};
	const char *head = "func @f() { acme.x {s = \"";
	for (size_t sp = 0; sp < sizeof specials / sizeof *specials; sp++) {
		for (size_t at = 0; at < 48; at++) {
			char text[160], want[80];
			size_t n = (size_t)snprintf(text, sizeof text, "%s", head), w = 0;
			for (size_t k = 0; k < at; k++, n++)
				text[n] = want[w++] = (char)('a' + k % 26);
			n += (size_t)snprintf(text + n, sizeof text - n, "%s", specials[sp].in);
			if (specials[sp].want)
				w += (size_t)snprintf(want + w, sizeof want - w, "%s", specials[sp].want);
			for (size_t k = 0; k < 20; k++, n++)
				text[n] = want[w++] = (char)('A' + k);
			want[w] = '\0';
			snprintf(text + n, sizeof text - n, "\"} }");
			if (!specials[sp].want) {
				char msg[120];
				if (specials[sp].in[0] == '\n')
					snprintf(msg, sizeof msg,
					         "test.pir:1:25: error: unterminated string (newline in string)");
				else
					snprintf(msg, sizeof msg,
					         "test.pir:1:%zu: error: control character 0x%02x in string; "
					         "use an escape",
					         strlen(head) + at + 1, (unsigned char)specials[sp].in[0]);
				expect_error(text, msg);
				continue;
			}
			pl_diags *d;
			pl_module *m;
			ck_assert_msg(parse_n(text, strlen(text), &d, &m) == PL_OK, "%s", text);
			const char *v;
			size_t len;
			const pl_attrs *a =
				pl_inst_attrs_const(pl_func_first_inst(pl_module_func_at(m, 0)));
			ck_assert_int_eq(pl_attrs_get_string(a, "s", &v, &len), PL_OK);
			ck_assert_msg(len == strlen(want) && memcmp(v, want, len) == 0,
			              "special %zu at %zu: <%.*s>", sp, at, (int)len, v);
			pl_module_free(m);
			pl_diags_free(d);
		}
	}
}
END_TEST

START_TEST(test_err_unknown_escape)
{
	expect_error("func @f() { acme.x {s = \"a\\qb\"} }",
	             "test.pir:1:27: error: unknown escape sequence '\\q'");
	expect_error("func @f() { acme.x {s = \"\\r\"} }",
	             "test.pir:1:26: error: unknown escape sequence '\\r'");
	expect_error("func @f() { acme.x {s = \"\\\x01\"} }",
	             "test.pir:1:26: error: unknown escape sequence '\\?'");
}
END_TEST

START_TEST(test_err_bad_hex_escape)
{
	expect_error("func @f() { acme.x {s = \"\\xg0\"} }",
	             "test.pir:1:26: error: expected two hex digits after '\\x'");
	expect_error("func @f() { acme.x {s = \"\\x4\"} }",
	             "test.pir:1:26: error: expected two hex digits after '\\x'");
	expect_error("func @f() { acme.x {s = \"ab\\x", /* input ends */
	             "test.pir:1:30: error: file ends inside the string (opened at 1:25): expected the closing '\"'");
	expect_error("func @f() { acme.x {s = \"\\x4", /* input ends */
	             "test.pir:1:29: error: file ends inside the string (opened at 1:25): expected the closing '\"'");
}
END_TEST

START_TEST(test_err_int_range)
{
	expect_error("func @f() { acme.x {v = 9223372036854775808} }",
	             "test.pir:1:25: error: integer literal out of range of int64");
	expect_error("func @f() { acme.x {v = -9223372036854775809} }",
	             "test.pir:1:25: error: integer literal out of range of int64");
	expect_error("func @f() { acme.x {v = 123456789012345678901234567890} }",
	             "test.pir:1:25: error: integer literal out of range of int64");
	expect_error("func @f(%a: f32[18446744073709551616]) {}",
	             "test.pir:1:17: error: integer literal out of range of int64");
	/* the extremes themselves are fine */
	char *s = canon("func @f() { acme.x {a = -9223372036854775808, b = 9223372036854775807} }",
	                strlen("func @f() { acme.x {a = -9223372036854775808, b = 9223372036854775807} }"));
	ck_assert_str_eq(s, "func @f() {\n  acme.x {a = -9223372036854775808, b = 9223372036854775807}\n}\n");
	free(s);
}
END_TEST

START_TEST(test_err_float_range)
{
	expect_error("func @f() { acme.x {v = 1e400} }",
	             "test.pir:1:25: error: float literal out of range");
	expect_error("func @f() { acme.x {v = -1.5e999} }",
	             "test.pir:1:25: error: float literal out of range");
	char text[800];
	strcpy(text, "func @f() { acme.x {v = 0.");
	size_t n = strlen(text);
	memset(text + n, '0', 600);
	strcpy(text + n + 600, "1} }");
	expect_error(text, "test.pir:1:25: error: float literal longer than 511 characters");
}
END_TEST

START_TEST(test_err_bad_number)
{
	expect_error("func @f() { acme.x {v = 12ab} }",
	             "test.pir:1:27: error: unexpected character 'a' in number");
	expect_error("func @f() { acme.x {v = 1.5.3} }",
	             "test.pir:1:28: error: unexpected character '.' in number");
	expect_error("func @f() { acme.x {v = 1e} }",
	             "test.pir:1:26: error: unexpected character 'e' in number");
	expect_error("func @f() { acme.x {v = 5-3} }",
	             "test.pir:1:26: error: unexpected character '-' in number");
	expect_error("func @f() { acme.x {v = 0x10} }",
	             "test.pir:1:26: error: unexpected character 'x' in number");
	/* a '-' needs a digit (these were read as 0.0 before) */
	expect_error("func @f() { acme.x {v = -e5} }",
	             "test.pir:1:25: error: expected a digit after '-'");
	expect_error("func @f() { acme.x {v = -.} }",
	             "test.pir:1:25: error: expected a digit after '-'");
	expect_error("func @f() { acme.x {v = - 1} }",
	             "test.pir:1:25: error: expected a digit after '-'");
	expect_error("func @f() { acme.x {v = -} }",
	             "test.pir:1:25: error: expected a digit after '-'");
	expect_error("func @f() { acme.x {v = -x} }",
	             "test.pir:1:25: error: expected a digit after '-'");
}
END_TEST

START_TEST(test_err_missing_name)
{
	expect_error("func @f(% : f32[]) {}", "test.pir:1:9: error: expected a name after '%'");
	expect_error("func @ () {}", "test.pir:1:6: error: expected a name after '@'");
	expect_error("func @f() {\n  %= acme.x : f32[]\n}",
	             "test.pir:2:3: error: expected a name after '%'");
}
END_TEST

START_TEST(test_err_unknown_dtype)
{
	expect_error("func @f(%a: f33[]) {}", "test.pir:1:13: error: unknown dtype 'f33'");
	expect_error("func @f(%a: F32[]) {}", "test.pir:1:13: error: unknown dtype 'F32'");
	expect_error("func @f() {\n  %a = acme.x : float[]\n}",
	             "test.pir:2:17: error: unknown dtype 'float'");
	expect_error("func @f(%a: f32.x[]) {}", "test.pir:1:13: error: unknown dtype 'f32.x'");
}
END_TEST

/* The reader reads a type's extents and a list of integers written the
 * usual way ("[2, 3]") without a token each; written any other way (blanks,
 * a comment, a newline, leading zeros, 19 digits) they must read the same. */
START_TEST(test_types_and_int_lists_any_spacing)
{
	const char *text =
		"func @f(%a: f32[2, 3], %b: f32[ 2 ,3 ], %c: f32[2,\n 3 // three\n],\n"
		"        %d: f32[0000000000000000002, 3], %e: f32[], %f: f32[ ]) {\n"
		"  op {l = [1, 2, 3]}\n"
		"  op {l = [ 1,2 ,\n 3 ]}\n"
		"  op {l = [0000000000000000001, 2, 3]}\n"
		"  op {l = [], m = [ ], n = [1, 9223372036854775807, -4]}\n"
		"}\n";
	pl_diags *d;
	pl_module *m;
	ck_assert_int_eq(parse_n(text, strlen(text), &d, &m), PL_OK);
	pl_func *f = pl_module_find_func(m, "f");
	ck_assert_ptr_nonnull(f);
	const pl_type *t = pl_value_type(pl_func_arg(f, 0));
	ck_assert_uint_eq(pl_type_rank(t), 2);
	ck_assert_int_eq(pl_type_dim(t, 0), 2);
	ck_assert_int_eq(pl_type_dim(t, 1), 3);
	for (size_t k = 1; k < 4; k++) /* interned: the same type */
		ck_assert_ptr_eq(pl_value_type(pl_func_arg(f, k)), t);
	ck_assert_uint_eq(pl_type_rank(pl_value_type(pl_func_arg(f, 4))), 0);
	ck_assert_ptr_eq(pl_value_type(pl_func_arg(f, 5)), pl_value_type(pl_func_arg(f, 4)));
	pl_inst *i = pl_func_first_inst(f);
	const pl_attr *l = pl_attrs_get(pl_inst_attrs_const(i), "l");
	ck_assert_uint_eq(pl_attr_list_size(l), 3);
	for (size_t k = 0; k < 3; k++)
		ck_assert_int_eq(pl_attr_get_int(pl_attr_list_at(l, k)), (int64_t)k + 1);
	for (int k = 0; k < 2; k++) { /* interned: the same list */
		i = pl_inst_next(i);
		ck_assert(pl_attr_equal(pl_attrs_get(pl_inst_attrs_const(i), "l"), l));
	}
	i = pl_inst_next(i);
	const pl_attrs *a = pl_inst_attrs_const(i);
	ck_assert_uint_eq(pl_attr_list_size(pl_attrs_get(a, "l")), 0);
	ck_assert_uint_eq(pl_attr_list_size(pl_attrs_get(a, "m")), 0);
	const pl_attr *n = pl_attrs_get(a, "n");
	ck_assert_uint_eq(pl_attr_list_size(n), 3);
	ck_assert_int_eq(pl_attr_get_int(pl_attr_list_at(n, 1)), INT64_MAX);
	ck_assert_int_eq(pl_attr_get_int(pl_attr_list_at(n, 2)), -4);
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

/* Strings, floats and integers past 32 bits are interned when their list
 * or dictionary has been read, not as each is read: every one must still
 * land in its own entry or element (lists inside lists, escaped strings
 * between), and equal ones must be one string. */
START_TEST(test_attr_values_settled_in_place)
{
	const char *text =
		"func @f() {\n"
		"  op {a = \"x\", b = [\"x\", 1.5, [\"x\", 5000000000, \"y\\n\", 7], 2.5, \"z\"],"
		" c = 1.5, d = -5000000000, e = \"x\", f = \"y\\n\", g = 3}\n"
		"  op {a = \"x\", h = [5000000000, \"z\"]}\n"
		"}\n";
	pl_diags *d;
	pl_module *m;
	ck_assert_int_eq(parse_n(text, strlen(text), &d, &m), PL_OK);
	const pl_inst *i = pl_func_first_inst(pl_module_find_func(m, "f"));
	const pl_attrs *a = pl_inst_attrs_const(i);
	const char *x = pl_attr_get_string(pl_attrs_get(a, "a"), NULL);
	ck_assert_str_eq(x, "x");
	const pl_attr *b = pl_attrs_get(a, "b");
	ck_assert_uint_eq(pl_attr_list_size(b), 5);
	ck_assert_ptr_eq(pl_attr_get_string(pl_attr_list_at(b, 0), NULL), x);
	ck_assert(pl_attr_get_float(pl_attr_list_at(b, 1)) == 1.5);
	const pl_attr *inner = pl_attr_list_at(b, 2);
	ck_assert_uint_eq(pl_attr_list_size(inner), 4);
	ck_assert_ptr_eq(pl_attr_get_string(pl_attr_list_at(inner, 0), NULL), x);
	ck_assert_int_eq(pl_attr_get_int(pl_attr_list_at(inner, 1)), INT64_C(5000000000));
	size_t len;
	const char *y = pl_attr_get_string(pl_attr_list_at(inner, 2), &len);
	ck_assert_uint_eq(len, 2);
	ck_assert_mem_eq(y, "y\n", 2);
	ck_assert_int_eq(pl_attr_get_int(pl_attr_list_at(inner, 3)), 7);
	ck_assert(pl_attr_get_float(pl_attr_list_at(b, 3)) == 2.5);
	const char *z = pl_attr_get_string(pl_attr_list_at(b, 4), NULL);
	ck_assert_str_eq(z, "z");
	ck_assert(pl_attr_get_float(pl_attrs_get(a, "c")) == 1.5);
	ck_assert_int_eq(pl_attr_get_int(pl_attrs_get(a, "d")), -INT64_C(5000000000));
	ck_assert_ptr_eq(pl_attr_get_string(pl_attrs_get(a, "e"), NULL), x);
	ck_assert_ptr_eq(pl_attr_get_string(pl_attrs_get(a, "f"), NULL), y);
	ck_assert_int_eq(pl_attr_get_int(pl_attrs_get(a, "g")), 3);
	a = pl_inst_attrs_const(pl_inst_next(i));
	ck_assert_ptr_eq(pl_attr_get_string(pl_attrs_get(a, "a"), NULL), x);
	const pl_attr *h = pl_attrs_get(a, "h");
	ck_assert_int_eq(pl_attr_get_int(pl_attr_list_at(h, 0)), INT64_C(5000000000));
	ck_assert_ptr_eq(pl_attr_get_string(pl_attr_list_at(h, 1), NULL), z);
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

START_TEST(test_err_bad_type)
{
	expect_error("func @f(%a: f32[2,-1]) {}",
	             "test.pir:1:19: error: negative extent -1 in type");
	expect_error("func @f(%a: f32[1.5]) {}",
	             "test.pir:1:17: error: expected an integer extent, found '1.5'");
	expect_error("func @f(%a: f32[2,]) {}",
	             "test.pir:1:19: error: expected an integer extent, found ']'");
	expect_error("func @f(%a: f32 [2 3]) {}",
	             "test.pir:1:20: error: expected ',' or ']' in type, found '3'");
	expect_error("func @f(%a: f32) {}",
	             "test.pir:1:16: error: expected '[' after the dtype, found ')'");
	expect_error("func @f(%a: 5) {}", "test.pir:1:13: error: expected a type, found '5'");
	expect_error("func @f(%a: \"f32\") {}",
	             "test.pir:1:13: error: expected a type, found a string");
}
END_TEST

START_TEST(test_err_too_many_dims)
{
	char text[512];
	strcpy(text, "func @f(%a: f32[");
	for (int k = 0; k < 65; k++)
		strcat(text, k ? ",1" : "1");
	strcat(text, "]) {}");
	/* the 65th extent is at column 17 + 64 * 2 */
	char want[128];
	snprintf(want, sizeof want, "test.pir:1:%d: error: type has more than 64 dimensions",
	         17 + 64 * 2);
	expect_error(text, want);
	/* 64 is fine */
	strcpy(text, "func @f(%a: f32[");
	for (int k = 0; k < 64; k++)
		strcat(text, k ? ",1" : "1");
	strcat(text, "]) {\n}\n");
	expect_canonical(text, strlen(text));
}
END_TEST

START_TEST(test_err_expected_op_name)
{
	expect_error("func @f() { %a = 5 }", "test.pir:1:18: error: expected an op name, found '5'");
	expect_error("func @f() { %a = Foo : f32[] }",
	             "test.pir:1:18: error: expected an op name, found 'Foo'");
	expect_error("func @f() { \"s\" }", "test.pir:1:13: error: expected an op name, found a string");
	expect_error("func @f() { %a = %b }",
	             "test.pir:1:18: error: expected an op name, found '%b'");
	expect_error("func @f() { [ }", "test.pir:1:13: error: expected an op name, found '['");
	expect_error("func @f() { acme.X }", "test.pir:1:13: error: expected an op name, found 'acme.X'");
	/* a long token is cut in the message */
	expect_error("func @f() { %a = %aaaaaaaaaabbbbbbbbbbccccccccccddddddddddeeeeeeeeee }",
	             "test.pir:1:18: error: expected an op name, found "
	             "'%aaaaaaaaaabbbbbbbbbbccccccccccdddddddddd...'");
}
END_TEST

START_TEST(test_err_expected_equal)
{
	expect_error("func @f() { %a %b }",
	             "test.pir:1:16: error: expected '=' after the results, found '%b'");
	expect_error("func @f() { %a, %b : f32[] }",
	             "test.pir:1:20: error: expected '=' after the results, found ':'");
	expect_error("func @f() { %a, 5 = acme.x }",
	             "test.pir:1:17: error: expected a value after ',', found '5'");
}
END_TEST

START_TEST(test_err_count_mismatch)
{
	expect_error("func @f() { %a, %b = acme.x : f32[] }",
	             "test.pir:1:29: error: 2 results but 1 type");
	expect_error("func @f() { %a = acme.x : (f32[], f32[]) }",
	             "test.pir:1:25: error: 1 result but 2 types");
	expect_error("func @f() { %a, %b, %c = acme.x : (f32[], f32[]) }",
	             "test.pir:1:33: error: 3 results but 2 types");
	expect_error("func @f() { %a = acme.x : () }", "test.pir:1:25: error: 1 result but 0 types");
}
END_TEST

START_TEST(test_err_types_without_results)
{
	expect_error("func @f() { acme.x : f32[] }",
	             "test.pir:1:20: error: instruction without results has result types");
	expect_error("func @f() { acme.x : () }",
	             "test.pir:1:20: error: instruction without results has result types");
}
END_TEST

START_TEST(test_err_missing_colon)
{
	expect_error("func @f() { %a = acme.x }", "test.pir:1:25: error: expected ':' and 1 result type");
	expect_error("func @f() {\n  %a, %b = acme.x {k = 1}\n}",
	             "test.pir:3:1: error: expected ':' and 2 result types");
	/* a list followed by '=' begins the next instruction, so the current
	 * one has ended without its types */
	expect_error("func @f(%b: f32[]) { %a = acme.x %b, %c = acme.y : f32[] }",
	             "test.pir:1:34: error: expected ':' and 1 result type before the next instruction");
}
END_TEST

/* An instruction's tail (its attributes and result types, to the end of
 * its line) that was read before is looked up by its text: a repeat must
 * give what reading it again would, errors and all. */
START_TEST(test_repeated_tails)
{
	/* the same tail with another number of results */
	expect_error("func @f() {\n  %a = acme.x {k = 1} : f32[]\n  acme.y {k = 1} : f32[]\n}",
	             "test.pir:3:18: error: instruction without results has result types");
	expect_error("func @f() {\n  %a = acme.x : f32[]\n  %b, %c = acme.y : f32[]\n}",
	             "test.pir:3:19: error: 2 results but 1 type");
	/* a tail that goes on past its line, then the same first line with
	 * another continuation */
	expect_error("func @f(%a: f32[]) {\n"
	             "  %b = acme.x %a {k = [1,\n"
	             "  2]} : f32[]\n"
	             "  %c = acme.x %a {k = [1,\n"
	             "  3] : f32[]\n"
	             "}",
	             "test.pir:5:6: error: expected ',' or '}' in attributes, found ':'");
	/* attributes alone, then the same with types on the next line */
	expect_error("func @f(%a: f32[]) {\n"
	             "  acme.y %a {k = 1}\n"
	             "  acme.y %a {k = 1}\n"
	             "  : f32[]\n"
	             "}",
	             "test.pir:4:3: error: instruction without results has result types");
	/* a tail that shares its line with the next instruction, and tails
	 * that end in a comment */
	const char *src = "func @f() {\n"
	                  "  %a = acme.x {k = 1} : f32[] %b = acme.y {k = 1} : f32[]\n"
	                  "  %c = acme.z {k = 1} : f32[]\n"
	                  "  acme.w %c {k = 2} // one\n"
	                  "  acme.w %c {k = 2} // one\n"
	                  "  acme.w %c {k = 2}\n"
	                  "}\n";
	char *out = canon(src, strlen(src));
	ck_assert_str_eq(out, "func @f() {\n"
	                      "  %a = acme.x {k = 1} : f32[]\n"
	                      "  %b = acme.y {k = 1} : f32[]\n"
	                      "  %c = acme.z {k = 1} : f32[]\n"
	                      "  acme.w %c {k = 2}\n"
	                      "  acme.w %c {k = 2}\n"
	                      "  acme.w %c {k = 2}\n"
	                      "}\n");
	free(out);

	/* instructions of one tail share their attributes until one changes */
	pl_diags *d;
	pl_module *m;
	const char *text = "func @f() {\n"
	                   "  %a = acme.x {k = 1} : f32[]\n"
	                   "  %b = acme.x {k = 1} : f32[]\n"
	                   "}\n";
	ck_assert_int_eq(parse_n(text, strlen(text), &d, &m), PL_OK);
	pl_inst *a = pl_func_first_inst(pl_module_func_at(m, 0));
	pl_inst *b = pl_inst_next(a);
	ck_assert_int_eq(pl_attrs_set_int(pl_inst_attrs(a), "k", 2), PL_OK);
	int64_t ka, kb;
	ck_assert_int_eq(pl_attrs_get_int(pl_inst_attrs(a), "k", &ka), PL_OK);
	ck_assert_int_eq(pl_attrs_get_int(pl_inst_attrs(b), "k", &kb), PL_OK);
	ck_assert_int_eq(ka, 2);
	ck_assert_int_eq(kb, 1);
	pl_module_free(m);
	pl_diags_free(d);
}
END_TEST

START_TEST(test_err_undefined_value)
{
	expect_error("func @f() { acme.x %nope }",
	             "test.pir:1:20: error: use of undefined value '%nope'");
	/* a value of another function */
	expect_error("func @f(%a: f32[]) {}\nfunc @g() { acme.x %a }",
	             "test.pir:2:20: error: use of undefined value '%a'");
	/* the later operand of a list */
	expect_error("func @f(%a: f32[]) { acme.x %a, %a, %b }",
	             "test.pir:1:37: error: use of undefined value '%b'");
}
END_TEST

START_TEST(test_err_use_before_definition)
{
	expect_error("func @f() { %a = acme.x %a : f32[] }",
	             "test.pir:1:25: error: use of undefined value '%a'");
	expect_error("func @f() {\n  acme.use %b\n  %b = acme.x : f32[]\n}",
	             "test.pir:2:12: error: use of undefined value '%b'");
}
END_TEST

START_TEST(test_err_redefinition_value)
{
	expect_error("func @f() {\n  %a = acme.x : f32[]\n  %a = acme.y : f32[]\n}",
	             "test.pir:3:3: error: redefinition of value '%a'");
	expect_error("func @f(%a: f32[], %a: i8[]) {}",
	             "test.pir:1:20: error: redefinition of value '%a'");
	expect_error("func @f(%a: f32[]) { %a = acme.x : f32[] }",
	             "test.pir:1:22: error: redefinition of value '%a'");
	expect_error("func @f() { %a, %a = acme.x : (f32[], f32[]) }",
	             "test.pir:1:17: error: redefinition of value '%a'");
	/* the same name in two functions is fine */
	expect_canonical("func @f(%a: f32[]) {\n}\n\nfunc @g(%a: f32[]) {\n}\n",
	                 strlen("func @f(%a: f32[]) {\n}\n\nfunc @g(%a: f32[]) {\n}\n"));
}
END_TEST

START_TEST(test_err_redefinition_function)
{
	expect_error("func @f() {}\nfunc @f() {}", "test.pir:2:6: error: redefinition of function '@f'");
	/* among many functions (the name table grows) */
	char *text = malloc(200 * 32);
	text[0] = '\0';
	for (int k = 0; k < 150; k++)
		sprintf(text + strlen(text), "func @f%d() {}\n", k);
	strcat(text, "func @f77() {}\n");
	expect_error(text, "test.pir:151:6: error: redefinition of function '@f77'");
	free(text);
}
END_TEST

START_TEST(test_err_duplicate_attribute)
{
	expect_error("func @f() { acme.x {a = 1, b = 2, a = 3} }",
	             "test.pir:1:35: error: duplicate attribute 'a'");
	expect_error("func @f() attributes {k = 1, k = 1} {}",
	             "test.pir:1:30: error: duplicate attribute 'k'");
}
END_TEST

/* Appends "  kN = 0,\n" lines for N in [from, to). */
static void add_keys(char *buf, int from, int to)
{
	for (int k = from; k < to; k++)
		sprintf(buf + strlen(buf), "  k%d = 0,\n", k);
}

START_TEST(test_err_duplicate_attribute_large_dict)
{
	/* 100 keys, then k5 again: the message points at the repeat (line 103) */
	char *text = malloc(64 * 1024);
	strcpy(text, "func @f() {\nacme.x {\n");
	add_keys(text, 0, 100);
	strcat(text, "  k5 = 1\n}\n}\n");
	expect_error(text, "test.pir:103:3: error: duplicate attribute 'k5'");

	/* two repeats past the 64th key: the first in the text is named, even
	 * when its key sorts after the other's */
	strcpy(text, "func @f() {\nacme.x {\n");
	add_keys(text, 0, 70);
	strcat(text, "  k9 = 1,\n");
	add_keys(text, 70, 80);
	strcat(text, "  k1 = 1\n}\n}\n");
	expect_error(text, "test.pir:73:3: error: duplicate attribute 'k9'");

	/* a key repeated three times: its second occurrence */
	strcpy(text, "func @f() {\nacme.x {\n");
	add_keys(text, 0, 66);
	strcat(text, "  k3 = 1,\n  k3 = 2,\n  k2 = 1\n}\n}\n");
	expect_error(text, "test.pir:69:3: error: duplicate attribute 'k3'");

	/* a repeat within the first 64 keys of a large dictionary */
	strcpy(text, "func @f() {\nacme.x {\n");
	add_keys(text, 0, 10);
	strcat(text, "  k4 = 1,\n");
	add_keys(text, 10, 100);
	strcat(text, "  z = 1\n}\n}\n");
	expect_error(text, "test.pir:13:3: error: duplicate attribute 'k4'");

	/* 100 distinct keys are fine, and keep their order */
	strcpy(text, "func @f() {\nacme.x {\n");
	add_keys(text, 0, 100);
	strcat(text, "  z = 1\n}\n}\n");
	pl_diags *d;
	pl_module *m;
	ck_assert_int_eq(parse_n(text, strlen(text), &d, &m), PL_OK);
	const pl_attrs *at = pl_inst_attrs_const(pl_func_first_inst(pl_module_func_at(m, 0)));
	ck_assert_uint_eq(pl_attrs_count(at), 101);
	ck_assert_str_eq(pl_attrs_key_at(at, 0), "k0");
	ck_assert_str_eq(pl_attrs_key_at(at, 99), "k99");
	ck_assert_str_eq(pl_attrs_key_at(at, 100), "z");
	pl_module_free(m);
	pl_diags_free(d);
	free(text);
}
END_TEST

START_TEST(test_err_top_level)
{
	expect_error("acme.x", "test.pir:1:1: error: expected 'func', found 'acme.x'");
	expect_error("func @f() {}\n}", "test.pir:2:1: error: expected 'func', found '}'");
	expect_error("%a = acme.x : f32[]", "test.pir:1:1: error: expected 'func', found '%a'");
	expect_error("@f", "test.pir:1:1: error: expected 'func', found '@f'");
	expect_error("func func", "test.pir:1:6: error: expected a function name '@...', found 'func'");
}
END_TEST

START_TEST(test_err_function_header)
{
	expect_error("func @f(x) {}", "test.pir:1:9: error: expected an argument '%...', found 'x'");
	expect_error("func @f(%a f32[]) {}",
	             "test.pir:1:12: error: expected ':' after the argument, found 'f32'");
	expect_error("func @f(%a: f32[] %b: f32[]) {}",
	             "test.pir:1:19: error: expected ',' or ')' after the arguments, found '%b'");
	expect_error("func @f(%a: f32[],) {}",
	             "test.pir:1:19: error: expected an argument '%...', found ')'");
	expect_error("func @f() x", "test.pir:1:11: error: expected '{' to open the function body, found 'x'");
	expect_error("func @f() attributes x",
	             "test.pir:1:22: error: expected '{' after 'attributes', found 'x'");
	expect_error("func @f {}", "test.pir:1:9: error: expected '(' after the function name, found '{'");
}
END_TEST

START_TEST(test_err_attribute_syntax)
{
	expect_error("func @f() { acme.x {1 = 2} }",
	             "test.pir:1:21: error: expected an attribute name, found '1'");
	expect_error("func @f() { acme.x {a.b = 2} }",
	             "test.pir:1:21: error: expected an attribute name, found 'a.b'");
	expect_error("func @f() { acme.x {a 1} }",
	             "test.pir:1:23: error: expected '=' after the attribute name, found '1'");
	expect_error("func @f() { acme.x {a = foo} }",
	             "test.pir:1:25: error: expected an attribute value, found 'foo'");
	expect_error("func @f(%x: f32[]) { acme.x {a = %x} }",
	             "test.pir:1:34: error: expected an attribute value, found '%x'");
	expect_error("func @f() { acme.x {a = } }",
	             "test.pir:1:25: error: expected an attribute value, found '}'");
	expect_error("func @f() { acme.x {a = 1 b = 2} }",
	             "test.pir:1:27: error: expected ',' or '}' in attributes, found 'b'");
	expect_error("func @f() { acme.x {a = 1,} }",
	             "test.pir:1:27: error: expected an attribute name, found '}'");
	expect_error("func @f() { acme.x {a = [1 2]} }",
	             "test.pir:1:28: error: expected ',' or ']' in list, found '2'");
	expect_error("func @f() { acme.x {a = [1,]} }",
	             "test.pir:1:28: error: expected an attribute value, found ']'");
	expect_error("func @f() { acme.x {a = True} }",
	             "test.pir:1:25: error: expected an attribute value, found 'True'");
}
END_TEST

START_TEST(test_err_result_types_syntax)
{
	expect_error("func @f() { %a, %b = acme.x : (f32[] f32[]) }",
	             "test.pir:1:38: error: expected ',' or ')' in the result types, found 'f32'");
	expect_error("func @f() { %a = acme.x : 5 }", "test.pir:1:27: error: expected a type, found '5'");
}
END_TEST

START_TEST(test_err_nesting)
{
	char text[2048];
	strcpy(text, "func @f() { acme.x {v = ");
	size_t base = strlen(text);
	memset(text + base, '[', 257);
	memset(text + base + 257, ']', 257);
	strcpy(text + base + 514, "} }");
	/* the 257th '[' is the one too deep */
	char want[128];
	snprintf(want, sizeof want, "test.pir:1:%zu: error: attribute values nested deeper than 256",
	         base + 257);
	expect_error(text, want);
	/* depth counts nesting, not the number of lists */
	strcpy(text, "func @f() {\n  acme.x {v = [");
	for (int k = 0; k < 300; k++)
		strcat(text, k ? ", []" : "[]");
	strcat(text, "]}\n}\n");
	expect_canonical(text, strlen(text));
}
END_TEST

/* End of input after every kind of token. */
START_TEST(test_err_truncated)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{"func", "test.pir:1:5: error: file ends inside the function (opened at 1:1): expected a function name '@...'"},
		{"func @f", "test.pir:1:8: error: file ends inside the function (opened at 1:1): expected '(' after the function name"},
		{"func @f(", "test.pir:1:9: error: file ends inside the argument list (opened at 1:8): expected an argument '%...'"},
		{"func @f(%a", "test.pir:1:11: error: file ends inside the argument list (opened at 1:8): expected ':' after the argument"},
		{"func @f(%a:", "test.pir:1:12: error: file ends inside the argument list (opened at 1:8): expected a type"},
		{"func @f(%a: f32", "test.pir:1:16: error: file ends inside the type (opened at 1:13): expected '[' after the dtype"},
		{"func @f(%a: f32[", "test.pir:1:17: error: file ends inside the type (opened at 1:13): expected an integer extent"},
		{"func @f(%a: f32[4", "test.pir:1:18: error: file ends inside the type (opened at 1:13): expected ',' or ']' in type"},
		{"func @f(%a: f32[4,", "test.pir:1:19: error: file ends inside the type (opened at 1:13): expected an integer extent"},
		{"func @f(%a: f32[4]", "test.pir:1:19: error: file ends inside the argument list (opened at 1:8): expected ',' or ')' after the arguments"},
		{"func @f(%a: f32[4],", "test.pir:1:20: error: file ends inside the argument list (opened at 1:8): expected an argument '%...'"},
		{"func @f()", "test.pir:1:10: error: file ends inside the function (opened at 1:1): expected '{' to open the function body"},
		{"func @f() attributes", "test.pir:1:21: error: file ends inside the function (opened at 1:1): expected '{' after 'attributes'"},
		{"func @f() attributes {", "test.pir:1:23: error: file ends inside the attribute list (opened at 1:22): expected an attribute name"},
		{"func @f() attributes {}", "test.pir:1:24: error: file ends inside the function (opened at 1:1): expected '{' to open the function body"},
		{"func @f() {", "test.pir:1:12: error: file ends inside the function body (opened at 1:11): expected an instruction or '}'"},
		{"func @f() {\n  // comment\n", "test.pir:3:1: error: file ends inside the function body (opened at 1:11): expected an instruction or '}'"},
		{"func @f() { %a", "test.pir:1:15: error: file ends inside the instruction (opened at 1:13): expected '=' after the results"},
		{"func @f() { %a,", "test.pir:1:16: error: file ends inside the instruction (opened at 1:13): expected a value after ','"},
		{"func @f() { %a =", "test.pir:1:17: error: file ends inside the instruction (opened at 1:13): expected an op name"},
		{"func @f() { acme.x", "test.pir:1:19: error: file ends inside the function body (opened at 1:11): expected an instruction or '}'"},
		{"func @f(%b: f32[]) { acme.x %b", "test.pir:1:31: error: file ends inside the function body (opened at 1:20): expected an instruction or '}'"},
		{"func @f(%b: f32[]) { acme.x %b,", "test.pir:1:32: error: file ends inside the instruction (opened at 1:22): expected a value after ','"},
		{"func @f(%b: f32[]) { acme.x %b, %c =", "test.pir:1:37: error: file ends inside the instruction (opened at 1:29): expected an op name"},
		{"func @f() { acme.x {", "test.pir:1:21: error: file ends inside the attribute list (opened at 1:20): expected an attribute name"},
		{"func @f() { acme.x {a", "test.pir:1:22: error: file ends inside the attribute list (opened at 1:20): expected '=' after the attribute name"},
		{"func @f() { acme.x {a =", "test.pir:1:24: error: file ends inside the attribute list (opened at 1:20): expected an attribute value"},
		{"func @f() { acme.x {a = 1", "test.pir:1:26: error: file ends inside the attribute list (opened at 1:20): expected ',' or '}' in attributes"},
		{"func @f() { acme.x {a = 1,", "test.pir:1:27: error: file ends inside the attribute list (opened at 1:20): expected an attribute name"},
		{"func @f() { acme.x {a = [", "test.pir:1:26: error: file ends inside the list (opened at 1:25): expected an attribute value"},
		{"func @f() { acme.x {a = [1", "test.pir:1:27: error: file ends inside the list (opened at 1:25): expected ',' or ']' in list"},
		{"func @f() { acme.x {a = [1,", "test.pir:1:28: error: file ends inside the list (opened at 1:25): expected an attribute value"},
		{"func @f() { acme.x {a = [1]", "test.pir:1:28: error: file ends inside the attribute list (opened at 1:20): expected ',' or '}' in attributes"},
		{"func @f() { acme.x {a = 1}", "test.pir:1:27: error: file ends inside the function body (opened at 1:11): expected an instruction or '}'"},
		{"func @f() { %a = acme.x", "test.pir:1:24: error: file ends inside the instruction (opened at 1:13): expected ':' and 1 result type"},
		{"func @f() { %a = acme.x :", "test.pir:1:26: error: file ends inside the instruction (opened at 1:13): expected a type"},
		{"func @f() { %a = acme.x : (", "test.pir:1:28: error: file ends inside the result type list (opened at 1:27): expected a type"},
		{"func @f() { %a = acme.x : (f32[]", "test.pir:1:33: error: file ends inside the result type list (opened at 1:27): expected ',' or ')' in the result types"},
		{"func @f() { %a = acme.x : (f32[],", "test.pir:1:34: error: file ends inside the result type list (opened at 1:27): expected a type"},
		{"func @f() { %a = acme.x : f32[]", "test.pir:1:32: error: file ends inside the function body (opened at 1:11): expected an instruction or '}'"},
		{"func @f() {}\nfunc", "test.pir:2:5: error: file ends inside the function (opened at 2:1): expected a function name '@...'"},
	};
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
		expect_error(cases[k].text, cases[k].msg);
}
END_TEST

/* A rejected input gives no module and PL_EPARSE, and leaves the caller's
 * diagnostics list holding just the one error. */
START_TEST(test_rejected_input_returns_no_module)
{
	pl_diags *d = pl_diags_new();
	pl_diags_add(d, PL_SEV_NOTE, NULL, 0, 0, "earlier note");
	pl_module *m = (pl_module *)(uintptr_t)1;
	const char *t = "func @f() {\n  %a = acme.x : f32[]\n}\nfunc @g() { acme.y %a }\n";
	ck_assert_int_eq(pl_parse_buffer(t, strlen(t), "in.pir", d, &m), PL_EPARSE);
	ck_assert_ptr_null(m);
	ck_assert_uint_eq(pl_diags_count(d), 2);
	ck_assert_uint_eq(pl_diags_error_count(d), 1);
	ck_assert_int_eq(pl_diags_severity(d, 1), PL_SEV_ERROR);
	ck_assert_str_eq(pl_diags_file(d, 1), "in.pir");
	ck_assert_uint_eq(pl_diags_line(d, 1), 4);
	ck_assert_uint_eq(pl_diags_col(d, 1), 20);
	ck_assert_str_eq(pl_diags_message(d, 1), "use of undefined value '%a'");
	ck_assert_str_eq(pl_diags_format(d, 1), "in.pir:4:20: error: use of undefined value '%a'");
	pl_diags_free(d);
}
END_TEST

/* ---- limits ------------------------------------------------------------- */

#define MIB (1024u * 1024u)

/* "func @f(%NAME: f32[]) {\n  return %NAME\n}\n" with a NAME of n bytes. */
static char *func_with_name(size_t n, size_t *len)
{
	char *s = malloc(2 * n + 64);
	ck_assert_ptr_nonnull(s);
	size_t k = 0;
	memcpy(s + k, "func @f(%", 9);
	k += 9;
	memset(s + k, 'v', n);
	k += n;
	memcpy(s + k, ": f32[]) {\n  return %", 21);
	k += 21;
	memset(s + k, 'v', n);
	k += n;
	memcpy(s + k, "\n}\n", 4);
	k += 3;
	*len = k;
	return s;
}

START_TEST(test_limit_1mb_name)
{
	size_t len;
	char *s = func_with_name(MIB, &len);
	expect_canonical(s, len);
	free(s);
}
END_TEST

START_TEST(test_limit_1mb_line)
{
	/* one instruction line of over 1 MB: a long list and many operands */
	size_t cap = 3 * MIB;
	char *s = malloc(cap);
	ck_assert_ptr_nonnull(s);
	size_t n = (size_t)sprintf(s, "func @f(%%a: f32[]) {\n  acme.wide");
	for (int k = 0; k < 50000; k++)
		n += (size_t)sprintf(s + n, k ? ", %%a" : " %%a");
	n += (size_t)sprintf(s + n, " {l = [");
	for (int k = 0; k < 150000; k++)
		n += (size_t)sprintf(s + n, k ? ", %d" : "%d", k * 7 - 3);
	n += (size_t)sprintf(s + n, "]}\n}\n");
	ck_assert_uint_gt(n, MIB);
	expect_canonical(s, n);
	free(s);
}
END_TEST

START_TEST(test_limit_token_16mib)
{
	size_t len;
	/* a name of exactly 16 MiB is fine */
	char *s = func_with_name(PL_MAX_TOKEN_BYTES, &len);
	pl_diags *d;
	pl_module *m;
	ck_assert_int_eq(parse_n(s, len, &d, &m), PL_OK);
	ck_assert_uint_eq(strlen(pl_value_name(pl_func_arg(pl_module_func_at(m, 0), 0))),
	                  PL_MAX_TOKEN_BYTES);
	pl_module_free(m);
	pl_diags_free(d);
	free(s);

	/* one byte more is not */
	s = func_with_name(PL_MAX_TOKEN_BYTES + 1, &len);
	expect_error_n(s, len, "test.pir:1:9: error: token longer than 16777216 bytes");
	free(s);

	/* nor a string */
	size_t n = PL_MAX_TOKEN_BYTES + 1;
	s = malloc(n + 64);
	strcpy(s, "func @f() {\n  acme.x {s = \"");
	size_t k = strlen(s);
	memset(s + k, 'x', n);
	strcpy(s + k + n, "\"}\n}\n");
	expect_error(s, "test.pir:2:15: error: string longer than 16777216 bytes");
	/* an escaped string counts decoded bytes: 16 MiB of "\n" escapes is
	 * 32 MiB of text but exactly the limit */
	free(s);
	s = malloc(2 * (size_t)PL_MAX_TOKEN_BYTES + 64);
	strcpy(s, "func @f() {\n  acme.x {s = \"");
	k = strlen(s);
	for (size_t j = 0; j < PL_MAX_TOKEN_BYTES; j++) {
		s[k + 2 * j] = '\\';
		s[k + 2 * j + 1] = 'n';
	}
	strcpy(s + k + 2 * (size_t)PL_MAX_TOKEN_BYTES, "\"}\n}\n");
	ck_assert_int_eq(parse_n(s, strlen(s), &d, &m), PL_OK);
	size_t sl;
	const char *sv;
	ck_assert_int_eq(pl_attrs_get_string(pl_inst_attrs_const(pl_func_first_inst(
						     pl_module_func_at(m, 0))),
	                                     "s", &sv, &sl),
	                 PL_OK);
	ck_assert_uint_eq(sl, PL_MAX_TOKEN_BYTES);
	ck_assert(sv[0] == '\n' && sv[sl - 1] == '\n');
	pl_module_free(m);
	pl_diags_free(d);

	/* nor an op name */
	strcpy(s, "func @f() {\n  ");
	k = strlen(s);
	memset(s + k, 'o', n);
	strcpy(s + k + n, "\n}\n");
	expect_error(s, "test.pir:2:3: error: token longer than 16777216 bytes");
	free(s);
}
END_TEST

START_TEST(test_limit_attribute_count)
{
	/* 65535 attributes fit a dictionary; 65536 do not */
	size_t cap = 70000u * 16;
	char *s = malloc(cap);
	ck_assert_ptr_nonnull(s);
	size_t n = (size_t)sprintf(s, "func @f() {\n  acme.x {");
	for (int k = 0; k < 65535; k++)
		n += (size_t)sprintf(s + n, k ? ", a%d = %d" : "a%d = %d", k, k);
	strcpy(s + n, "}\n}\n");
	pl_diags *d;
	pl_module *m;
	ck_assert_int_eq(parse_n(s, strlen(s), &d, &m), PL_OK);
	const pl_attrs *at = pl_inst_attrs_const(pl_func_first_inst(pl_module_func_at(m, 0)));
	ck_assert_uint_eq(pl_attrs_count(at), 65535);
	int64_t v;
	ck_assert_int_eq(pl_attrs_get_int(at, "a65534", &v), PL_OK);
	ck_assert_int_eq(v, 65534);
	/* a pass cannot add one more either (ir.h), but can replace one */
	pl_attrs *w = pl_inst_attrs(pl_func_first_inst(pl_module_func_at(m, 0)));
	ck_assert_int_eq(pl_attrs_set_int(w, "zz", 1), PL_ELIMIT);
	ck_assert_uint_eq(pl_attrs_count(w), 65535);
	ck_assert_ptr_null(pl_attrs_get(w, "zz"));
	ck_assert_int_eq(pl_attrs_set_int(w, "a7", -7), PL_OK);
	ck_assert_int_eq(pl_attrs_get_int(w, "a7", &v), PL_OK);
	ck_assert_int_eq(v, -7);
	ck_assert_uint_eq(pl_attrs_count(w), 65535);
	pl_module_free(m);
	pl_diags_free(d);

	/* the 65536th key, after ", ", in line 2 */
	size_t col = n + 2 - (size_t)(strchr(s, '\n') + 1 - s) + 1;
	n += (size_t)sprintf(s + n, ", zz = 1}\n}\n");
	char want[128];
	snprintf(want, sizeof want, "test.pir:2:%zu: error: more than 65535 attributes", col);
	expect_error(s, want);
	free(s);
}
END_TEST

START_TEST(test_limit_op_names)
{
	/* more distinct op names than 16 bits number fit a module (up to
	 * 16777215, the known ones included): a pass adds another, and
	 * known ops keep their numbers */
	size_t room = 70000;
	size_t cap = (room + 2) * 24 + 64;
	char *s = malloc(cap);
	ck_assert_ptr_nonnull(s);
	size_t n = (size_t)sprintf(s, "func @f() {\n");
	for (size_t k = 0; k < room; k++)
		n += (size_t)sprintf(s + n, "  acme.o%zu\n", k);
	size_t before = n;
	strcpy(s + n, "}\n");
	pl_diags *d;
	pl_module *m;
	ck_assert_int_eq(parse_n(s, strlen(s), &d, &m), PL_OK);
	pl_func *f = pl_module_func_at(m, 0);
	char last[32];
	snprintf(last, sizeof last, "acme.o%zu", room - 1);
	ck_assert_str_eq(pl_inst_opname(pl_func_last_inst(f)), last);
	/* each instruction kept its own name (numbered by the hash of its
	 * bytes: no two confused), and one name is one interned string */
	size_t k = 0;
	for (const pl_inst *j = pl_func_first_inst(f); j; j = pl_inst_next(j), k++) {
		snprintf(last, sizeof last, "acme.o%zu", k);
		ck_assert_str_eq(pl_inst_opname(j), last);
	}
	ck_assert_uint_eq(k, room);
	pl_inst *i = NULL;
	ck_assert_int_eq(pl_inst_create(&i, f, "acme.more", NULL, 0, NULL, 0), PL_OK);
	ck_assert_str_eq(pl_inst_opname(i), "acme.more");
	ck_assert_int_eq(pl_inst_create(&i, f, "acme.o7", NULL, 0, NULL, 0), PL_OK);
	ck_assert_str_eq(pl_inst_opname(i), "acme.o7");
	ck_assert_ptr_eq(pl_inst_opname(i), pl_inst_opname(pl_inst_next(
		pl_inst_next(pl_inst_next(pl_inst_next(pl_inst_next(pl_inst_next(
		pl_inst_next(pl_func_first_inst(f))))))))));
	ck_assert_int_eq(pl_inst_op(i), PL_OP_OTHER);
	ck_assert_int_eq(pl_inst_create(&i, f, "all_gather", NULL, 0, NULL, 0), PL_OK);
	ck_assert_int_eq(pl_inst_op(i), PL_OP_ALL_GATHER);
	pl_module_free(m);
	pl_diags_free(d);

	/* the reader takes one more as well */
	sprintf(s + before, "  acme.more\n}\n");
	ck_assert_int_eq(parse_n(s, strlen(s), &d, &m), PL_OK);
	ck_assert_str_eq(pl_inst_opname(pl_func_last_inst(pl_module_func_at(m, 0))), "acme.more");
	pl_module_free(m);
	pl_diags_free(d);
	free(s);
}
END_TEST

/* A file over 16 MiB takes the path that gives parsed pages back while
 * reading; every value must still resolve and print back unchanged. */
START_TEST(test_limit_large_file)
{
	size_t cap = 26 * MIB;
	char *s = malloc(cap);
	ck_assert_ptr_nonnull(s);
	size_t n = (size_t)sprintf(s, "func @big(%%arg: f32[4]) {\n");
	size_t ninsts = 0;
	while (n < 24 * MIB) {
		/* uses reach back to the argument, at the start of the file */
		n += (size_t)sprintf(s + n, "  %%v%zu = acme.op %%arg {i = %zu} : f32[4]\n", ninsts,
		                     ninsts);
		ninsts++;
	}
	n += (size_t)sprintf(s + n, "  return %%v%zu\n}\n", ninsts - 1);
	char *path = write_temp(s, n);
	pl_diags *d = pl_diags_new();
	pl_module *m = NULL;
	ck_assert_int_eq(pl_parse_file(path, d, &m), PL_OK);
	ck_assert_uint_eq(pl_module_num_insts(m), ninsts + 1);
	ck_assert_uint_eq(pl_value_num_uses(pl_func_arg(pl_module_func_at(m, 0), 0)), ninsts);
	char *out = tu_print(m);
	ck_assert_uint_eq(strlen(out), n);
	ck_assert(memcmp(out, s, n) == 0);
	free(out);
	pl_module_free(m);
	pl_diags_free(d);
	unlink(path);
	free(path);
	free(s);
}
END_TEST

/* A string where an instruction should start, in a file read through a
 * mapping: the reader used to hand the string's decoded copy (heap memory)
 * to the page release as a position in the text, and madvise(DONTNEED)
 * everything from the mapping up to it. Here the memory in between is a
 * canary: a hole is left above it for the string's buffer, and the file,
 * too large for the hole, is mapped below it. */
START_TEST(test_limit_string_where_instruction_starts)
{
#ifdef __GLIBC__
	/* large blocks come from mmap (freeing one would raise the bar) */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
	/* written piecewise: no large block of our own */
	char *path = write_temp("func @f() { \"", 13);
	FILE *f = fopen(path, "ab");
	ck_assert_ptr_nonnull(f);
	for (size_t k = 0; k < 200 * 1024; k++)
		putc('s', f);
	fputs("\" }\n// ", f);
	for (size_t k = 0; k < 20 * MIB; k++)
		putc('p', f);
	putc('\n', f);
	ck_assert_int_eq(fclose(f), 0);

	size_t hole_size = MIB, canary_size = 16 * MIB;
	char *hole = mmap(NULL, hole_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert(hole != MAP_FAILED);
	unsigned char *canary = mmap(NULL, canary_size, PROT_READ | PROT_WRITE,
	                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert(canary != MAP_FAILED);
	memset(canary, 0xab, canary_size);
	munmap(hole, hole_size);

	pl_diags *d = pl_diags_new();
	pl_module *m = NULL;
	ck_assert_int_eq(pl_parse_file(path, d, &m), PL_EPARSE);
	ck_assert_ptr_null(m);
	char want[4200];
	snprintf(want, sizeof want, "%s:1:13: error: expected an op name, found a string", path);
	ck_assert_str_eq(tu_first_diag(d), want);
	size_t changed = 0;
	for (size_t k = 0; k < canary_size; k++)
		changed += canary[k] != 0xab;
	ck_assert_uint_eq(changed, 0);
	munmap(canary, canary_size);
	pl_diags_free(d);
	unlink(path);
	free(path);
}
END_TEST


/* A large file read on two threads gives the module one thread gives:
 * the same printed text, types as equal handles, and the same messages on
 * errors (in the second half, or a function name defined in both). */
static char *big_module(size_t *len, const char *inject_second_half)
{
	size_t cap = 32 << 20, n = 0;
	char *t = malloc(cap);
	ck_assert_ptr_nonnull(t);
	for (int f = 0; f < 400; f++) {
		n += (size_t)snprintf(t + n, cap - n, "func @f%d(%%x: f32[4,8]) {\n", f);
		if (f == 300 && inject_second_half)
			n += (size_t)snprintf(t + n, cap - n, "%s", inject_second_half);
		for (int i = 0; i < 500; i++)
			n += (size_t)snprintf(t + n, cap - n,
			                      "  %%v%d = acme.op %%x {domain = [2, 3], k = %d} : f32[4,8]\n",
			                      i, i % 7);
		n += (size_t)snprintf(t + n, cap - n, "}\n");
	}
	*len = n;
	return t;
}

START_TEST(test_threads_same_module)
{
	size_t len;
	char *text = big_module(&len, NULL);
	ck_assert_uint_gt(len, 8u << 20);
	char *path = write_temp(text, len);
	pl_diags *d = pl_diags_new();
	pl_module *one = NULL, *two = NULL;
	ck_assert_int_eq(pl_parse_file(path, d, &one), PL_OK);
	ck_assert_int_eq(pl_parse_file_threads(path, 2, d, &two), PL_OK);
	ck_assert_uint_eq(pl_module_num_insts(two), pl_module_num_insts(one));
	ck_assert_uint_eq(pl_module_num_funcs(two), 400);
	/* the last function came from the second half: its types are the
	 * module's own */
	pl_func *last = pl_module_func_at(two, 399);
	int64_t dims[] = {4, 8};
	ck_assert_ptr_eq(pl_value_type(pl_func_arg(last, 0)),
	                 pl_type_get(two, PL_DTYPE_F32, dims, 2));
	ck_assert_int_eq(pl_verify_module(two, d), PL_OK);
	/* the reserved attributes of the second half are found: the count is
	 * the domain's 6, not the result's 32 */
	uint64_t n = 0;
	ck_assert_int_eq(pl_inst_num_dynamic_instances(pl_func_last_inst(last), &n), PL_OK);
	ck_assert_uint_eq(n, 6);
	char *a = tu_print(one), *b = tu_print(two);
	ck_assert(strcmp(a, b) == 0);
	free(a);
	free(b);
	pl_module_free(one);
	pl_module_free(two);
	pl_diags_free(d);
	unlink(path);
	free(path);
	free(text);
}
END_TEST

START_TEST(test_threads_same_errors)
{
	const char *bad[] = {
		/* an error deep in the second half */
		"  %bad = acme.op %nope : f32[4,8]\n",
		/* a function defined in both halves */
		"}\nfunc @f10() {\n",
	};
	for (size_t k = 0; k < 2; k++) {
		size_t len;
		char *text = big_module(&len, bad[k]);
		char *path = write_temp(text, len);
		pl_diags *d1 = pl_diags_new(), *d2 = pl_diags_new();
		pl_module *one = NULL, *two = NULL;
		int rc1 = pl_parse_file(path, d1, &one);
		int rc2 = pl_parse_file_threads(path, 2, d2, &two);
		ck_assert_int_eq(rc1, PL_EPARSE);
		ck_assert_int_eq(rc2, PL_EPARSE);
		ck_assert_ptr_null(two);
		ck_assert_uint_eq(pl_diags_count(d2), 1);
		ck_assert_str_eq(pl_diags_format(d2, 0), pl_diags_format(d1, 0));
		pl_diags_free(d1);
		pl_diags_free(d2);
		unlink(path);
		free(path);
		free(text);
	}
}
END_TEST

static Suite *text_suite(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_corpus_not_empty);
	tcase_add_loop_test(tc, test_corpus_file, 0, (int)ncorpus);
	tcase_add_test(tc, test_corpus_buffer_equals_file);
	tcase_add_test(tc, test_empty_input);
	tcase_add_test(tc, test_null_text_with_length);
	tcase_add_test(tc, test_parse_builds_ir);
	tcase_add_test(tc, test_float_values);
	tcase_add_test(tc, test_first_error_only);
	tcase_add_test(tc, test_print_write_error);
	tcase_add_test(tc, test_print_func_and_inst);
	tcase_add_test(tc, test_print_large_output);
	tcase_add_test(tc, test_parse_file_errors);
	tcase_add_test(tc, test_parse_file_stdin);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_test(tc, test_err_unexpected_character);
	tcase_add_test(tc, test_err_nul_byte);
	tcase_add_test(tc, test_err_invalid_utf8);
	tcase_add_test(tc, test_err_unterminated_string);
	tcase_add_test(tc, test_err_control_in_string);
	tcase_add_test(tc, test_string_special_byte_at_every_offset);
	tcase_add_test(tc, test_err_unknown_escape);
	tcase_add_test(tc, test_err_bad_hex_escape);
	tcase_add_test(tc, test_err_int_range);
	tcase_add_test(tc, test_err_float_range);
	tcase_add_test(tc, test_err_bad_number);
	tcase_add_test(tc, test_err_missing_name);
	tcase_add_test(tc, test_err_unknown_dtype);
	tcase_add_test(tc, test_types_and_int_lists_any_spacing);
	tcase_add_test(tc, test_attr_values_settled_in_place);
	tcase_add_test(tc, test_err_bad_type);
	tcase_add_test(tc, test_err_too_many_dims);
	tcase_add_test(tc, test_err_expected_op_name);
	tcase_add_test(tc, test_err_expected_equal);
	tcase_add_test(tc, test_err_count_mismatch);
	tcase_add_test(tc, test_err_types_without_results);
	tcase_add_test(tc, test_err_missing_colon);
	tcase_add_test(tc, test_repeated_tails);
	tcase_add_test(tc, test_err_undefined_value);
	tcase_add_test(tc, test_err_use_before_definition);
	tcase_add_test(tc, test_err_redefinition_value);
	tcase_add_test(tc, test_err_redefinition_function);
	tcase_add_test(tc, test_err_duplicate_attribute);
	tcase_add_test(tc, test_err_duplicate_attribute_large_dict);
	tcase_add_test(tc, test_err_top_level);
	tcase_add_test(tc, test_err_function_header);
	tcase_add_test(tc, test_err_attribute_syntax);
	tcase_add_test(tc, test_err_result_types_syntax);
	tcase_add_test(tc, test_err_nesting);
	tcase_add_test(tc, test_err_truncated);
	tcase_add_test(tc, test_rejected_input_returns_no_module);
	suite_add_tcase(s, tc);

	tc = tcase_create("limits");
	tcase_set_timeout(tc, 120); /* big inputs; slow under sanitizers */
	tcase_add_test(tc, test_limit_1mb_name);
	tcase_add_test(tc, test_limit_1mb_line);
	tcase_add_test(tc, test_limit_token_16mib);
	tcase_add_test(tc, test_limit_attribute_count);
	tcase_add_test(tc, test_limit_op_names);
	tcase_add_test(tc, test_limit_large_file);
	tcase_add_test(tc, test_limit_string_where_instruction_starts);
	tcase_add_test(tc, test_threads_same_module);
	tcase_add_test(tc, test_threads_same_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	load_corpus();
	SRunner *sr = srunner_create(text_suite());
	srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_SILENT);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	free_corpus();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
