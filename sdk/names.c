/* sdk/names.c — the lexical classes of names, and naming of values a pass
 * created (the printer needs every value of a function to have its own
 * name). */
#include "internal.h"

#include <stdlib.h>

bool pl_is_name_(const char *s, size_t len)
{
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$' || c == '-'))
			return false;
	}
	return true;
}

bool pl_is_opname_(const char *s, size_t len)
{
	if (len == 0 || !((s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
		return false;
	for (size_t i = 1; i < len; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.'))
			return false;
	}
	return true;
}

bool pl_is_key_(const char *s, size_t len)
{
	if (len == 0 || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') ||
	                  s[0] == '_'))
		return false;
	for (size_t i = 1; i < len; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_'))
			return false;
	}
	return true;
}

/* A set of C strings, by content. */
struct name_set {
	const char **slots;
	size_t cap, count;
};

static bool set_grow(struct name_set *s)
{
	size_t cap = s->cap ? s->cap * 2 : 64;
	const char **slots = calloc(cap, sizeof *slots);
	if (!slots)
		return false;
	for (size_t i = 0; i < s->cap; i++) {
		if (!s->slots[i])
			continue;
		size_t j = pl_hash_bytes_(s->slots[i], strlen(s->slots[i])) & (cap - 1);
		while (slots[j])
			j = (j + 1) & (cap - 1);
		slots[j] = s->slots[i];
	}
	free(s->slots);
	s->slots = slots;
	s->cap = cap;
	return true;
}

/* Inserts name; false when it was there already (or out of memory, which
 * *oom tells). */
static bool set_insert(struct name_set *s, const char *name, bool *oom)
{
	if ((s->count + 1) * 2 > s->cap && !set_grow(s)) {
		*oom = true;
		return false;
	}
	size_t j = pl_hash_bytes_(name, strlen(name)) & (s->cap - 1);
	while (s->slots[j]) {
		if (strcmp(s->slots[j], name) == 0)
			return false;
		j = (j + 1) & (s->cap - 1);
	}
	s->slots[j] = name;
	s->count++;
	return true;
}

static bool set_contains(const struct name_set *s, const char *name)
{
	if (!s->cap)
		return false;
	size_t j = pl_hash_bytes_(name, strlen(name)) & (s->cap - 1);
	while (s->slots[j]) {
		if (strcmp(s->slots[j], name) == 0)
			return true;
		j = (j + 1) & (s->cap - 1);
	}
	return false;
}

/* Every value of f gets a name of its own: the first holder of a name keeps
 * it, later holders get "name.N", unnamed values get the lowest free number.
 * Deterministic: it depends only on the function's order. */
int pl_assign_names_(pl_func *f)
{
	if (!f->names_dirty)
		return PL_OK;
	struct name_set set = {0};
	pl_value **todo = NULL;
	size_t ntodo = 0, todo_cap = 0;
	bool oom = false;
	int rc = PL_ENOMEM;

#define VISIT(val)                                                           \
	do {                                                                 \
		pl_value *v_ = (val);                                        \
		if (v_->name && set_insert(&set, v_->name, &oom))            \
			break;                                               \
		if (oom)                                                     \
			goto out;                                            \
		if (ntodo == todo_cap) {                                     \
			todo_cap = todo_cap ? todo_cap * 2 : 16;             \
			pl_value **t_ = realloc(todo, todo_cap * sizeof *t_); \
			if (!t_)                                             \
				goto out;                                    \
			todo = t_;                                           \
		}                                                            \
		todo[ntodo++] = v_;                                          \
	} while (0)

	for (size_t k = 0; k < f->nargs; k++)
		VISIT(&f->args[k]->v);
	for (pl_inst *i = f->first; i; i = i->next)
		for (uint32_t k = 0; k < i->nres; k++)
			VISIT(&pl_inst_res_(i)[k]);
#undef VISIT

	uint64_t next_number = 0;
	for (size_t t = 0; t < ntodo; t++) {
		pl_value *v = todo[t];
		char buf[64];
		const char *base = v->name;
		struct pl_strbuf sb = {0};
		for (uint64_t n = 1;; n++) {
			sb.len = 0;
			if (base) {
				pl_sb_puts(&sb, base);
				pl_sb_putc(&sb, '.');
				size_t len = pl_fmt_u64(buf, n);
				pl_sb_put(&sb, buf, len);
			} else {
				size_t len = pl_fmt_u64(buf, next_number++);
				pl_sb_put(&sb, buf, len);
			}
			if (sb.failed) {
				pl_sb_free(&sb);
				goto out;
			}
			if (!set_contains(&set, sb.data))
				break;
		}
		char *name = pl_arena_strndup(&f->m->arena, sb.data, sb.len);
		pl_sb_free(&sb);
		if (!name)
			goto out;
		set_insert(&set, name, &oom);
		if (oom)
			goto out;
		v->name = name;
	}
	f->names_dirty = false;
	rc = PL_OK;
out:
	free(set.slots);
	free(todo);
	return rc;
}
