// SPDX-License-Identifier: MIT
/*
 * The policy text: a header comment, one comment for every entry of the
 * profile (why it is not applied, or what runc makes of it), the rules in
 * profile order, with the kernel's argument names. Written as polc fmt
 * writes it, so fmt leaves it unchanged.
 */
#include "ir/ir.h"
#include "oci_int.h"
#include "tables/tables.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_COLS 78

static void _line(struct imp *m, enum line_kind k, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void _line(struct imp *m, enum line_kind k, const char *fmt, ...)
{
	struct line *v = imp_grow(m, m->l, &m->capl, m->nl, sizeof(*m->l));
	va_list ap;
	char *t = NULL;

	if (!v)
		return;
	m->l = v;
	if (fmt) {
		va_start(ap, fmt);
		if (vasprintf(&t, fmt, ap) < 0) {
			m->oom = 1;
			t = NULL;
		}
		va_end(ap);
		if (!t)
			return;
	}
	m->l[m->nl++] = (struct line){k, t};
}

/* A comment, wrapped at words into lines of `# ` at depth 4. */
static void _comment(struct imp *m, int indent, const char *text)
{
	const char *p = text;
	int width = TEXT_COLS - indent - 2;

	while (*p) {
		int n = (int)strlen(p), cut = n;

		if (n > width) {
			for (cut = width; cut > 0 && p[cut] != ' '; cut--)
				;
			if (cut == 0)
				cut = width;
		}
		_line(m, L_COMMENT, "%*s# %.*s", indent, "", cut, p);
		p += cut;
		while (*p == ' ')
			p++;
	}
}

/* `ACTION name name ...`, as many statements as it takes to wrap. */
static void _names_stmt(struct imp *m, const char *act, const char **v,
			size_t n)
{
	char buf[256];
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		size_t w = strlen(v[i]) + 1;

		if (len && len + w > TEXT_COLS) {
			_line(m, L_STMT, "%s", buf);
			len = 0;
		}
		if (!len)
			len = (size_t)snprintf(buf, sizeof(buf), "    %s", act);
		len +=
		    (size_t)snprintf(buf + len, sizeof(buf) - len, " %s", v[i]);
	}
	if (len)
		_line(m, L_STMT, "%s", buf);
}

static void _number(char *buf, size_t len, uint64_t v)
{
	if (v < 4096)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)v);
}

/* One atom as policy text, with the kernel's argument names. */
static void _atom_text(char *buf, size_t len, const char *sc,
		       const struct ir_atom *a)
{
	const struct syscall_args *sa = syscall_args_find(sc);
	int hi = a->width == 64 && !(uint32_t)a->mask && sa &&
		 a->arg < sa->nargs && sa->args[a->arg].width == 32;
	uint64_t full = hi		 ? 0xffffffffull
			: a->width == 32 ? 0xffffffffull
					 : UINT64_MAX;
	uint64_t mask = hi ? a->mask >> 32 : a->mask;
	uint64_t val = hi ? a->value >> 32 : a->value;
	char name[48], v[32];
	int n;

	if (sa && a->arg < sa->nargs)
		snprintf(name, sizeof(name), "%s%s", sa->args[a->arg].name,
			 hi ? ".hi" : "");
	else
		snprintf(name, sizeof(name), "arg%u", a->arg);
	n = snprintf(buf, len, "%s", name);
	if (mask != full)
		n += snprintf(buf + n, len - (size_t)n, " & 0x%llx",
			      (unsigned long long)mask);
	_number(v, sizeof(v), val);
	snprintf(buf + n, len - (size_t)n, " %s %s", ir_op_str(a->op), v);
}

static void _rule_stmt(struct imp *m, const char *sc, const struct rule *r)
{
	char act[32], text[IR_MAX_ATOMS * 64 + 64], atom[64];
	size_t n;

	n = (size_t)snprintf(text, sizeof(text), "    %s %s",
			     ir_action_str(&r->act, act, sizeof(act)), sc);
	for (uint32_t i = 0; i < r->natoms; i++) {
		_atom_text(atom, sizeof(atom), sc, &r->atoms[i]);
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s",
				      i ? " && " : " if ", atom);
	}
	_line(m, L_STMT, "%s", text);
}

static const char *const drop_text[] = {
    [DUP] = "the same rule as",
    [UNCOND] = "replaced by the unconditional rule of",
    [SAME_UNCOND] = "already given by",
};

/* Entry ei: its comment, then its statements, syscall by syscall. */
static void _emit_entry(struct imp *m, int ei)
{
	const struct entry *e = &m->e[ei];
	char head[96], *text = NULL, act[32];
	const char *uncond[SYSCALL_NR_LIMIT];
	size_t nu = 0;

	_line(m, L_BLANK, NULL);
	snprintf(head, sizeof(head), "syscalls[%d]", ei);
	imp_append(m, &text, "", head);
	if (e->cond) {
		imp_append(m, &text, " ", "(");
		imp_append(m, &text, "", e->cond);
		imp_append(m, &text, "", ")");
	}
	if (e->comment) {
		imp_append(m, &text, ": ", e->comment);
	}
	if (!e->applies) {
		imp_append(m, &text, ". ", "Not for this container:");
		imp_append(m, &text, " ", e->why ? e->why : "");
		if (e->names)
			imp_append(m, &text, " ", "(");
		if (e->names) {
			char *t = text;

			text = NULL;
			if (asprintf(&text, "%s%s)", t, e->names) < 0)
				m->oom = 1;
			free(t);
		}
	} else if (e->is_default) {
		imp_append(m, &text, ". ",
			   "The default action, which runc skips:");
		imp_append(m, &text, " ", e->names ? e->names : "");
	} else if (e->never) {
		imp_append(m, &text, ". ", "Its conditions never hold:");
		imp_append(m, &text, " ", e->names ? e->names : "");
	} else if (e->or_split) {
		imp_append(
		    m, &text, ". ",
		    "Two conditions on one argument: runc adds each as a "
		    "rule of its own, so they are joined by OR.");
	}
	if (e->elsewhere) {
		imp_append(m, &text, ". ",
			   "Other arches' syscalls, none on x86_64:");
		imp_append(m, &text, " ", e->elsewhere);
	}
	if (text)
		_comment(m, 4, text);
	free(text);
	if (!e->applies || e->is_default || e->never)
		return;
	ir_action_str(&e->act, act, sizeof(act));
	/* Unconditional rules of this entry first, in one statement. */
	for (size_t k = 0; k < m->nc; k++) {
		const struct call *c = &m->c[k];

		for (size_t i = 0; i < c->n; i++)
			if (c->r[i].entry == ei && !c->r[i].drop &&
			    c->r[i].natoms == 0)
				uncond[nu++] = c->name;
	}
	_names_stmt(m, act, uncond, nu);
	for (size_t k = 0; k < m->nc; k++) {
		const struct call *c = &m->c[k];

		for (size_t i = 0; i < c->n; i++) {
			const struct rule *r = &c->r[i];
			char note[160];

			if (r->entry != ei)
				continue;
			if (r->drop) {
				snprintf(note, sizeof(note),
					 "%s: %s syscalls[%d]", c->name,
					 drop_text[r->drop], r->other);
				_comment(m, 4, note);
			} else if (r->natoms) {
				_rule_stmt(m, c->name, r);
			}
		}
	}
}

static void _header(struct imp *m)
{
	char *caps = NULL, *text = NULL;

	for (size_t i = 0; i < m->ncaps; i++)
		imp_append(m, &caps, " ", m->caps[i]);
	if (asprintf(&text,
		     "Imported by polc import oci (polc %s) from %s, for "
		     "x86_64: a container with the capabilities %s, on "
		     "Linux %u.%u. Every entry of the profile is here, as "
		     "runc reads it (docs/OCI.md)%s. polc adds its egress "
		     "companions (docs/LANGUAGE.md).",
		     POLC_VERSION, m->at.file->path, caps ? caps : "(none)",
		     m->kmaj, m->kmin,
		     m->o->kernel_view
			 ? "; int arguments are compared as the kernel reads "
			   "them (--int-args kernel), not on 64 bits"
			 : "") < 0)
		m->oom = 1;
	else {
		char *safe = imp_printable(m, text);

		if (safe)
			_comment(m, 0, safe);
		free(safe);
	}
	free(text);
	free(caps);
}

/* Drop the blank lines polc fmt would drop, so fmt changes nothing. */
int imp_write_lines(struct imp *m, FILE *out)
{
	int last_stmt = 0;

	for (size_t i = 0; i < m->nl; i++) {
		const struct line *l = &m->l[i];

		if (l->kind == L_BLANK) {
			size_t j = i + 1;

			while (j < m->nl && m->l[j].kind == L_COMMENT)
				j++;
			if (last_stmt && j < m->nl && m->l[j].kind == L_STMT &&
			    m->l[i + 1].kind != L_BLANK)
				fputc('\n', out);
			continue;
		}
		fprintf(out, "%s\n", l->text);
		last_stmt = l->kind == L_STMT;
	}
	return ferror(out) ? -1 : 0;
}

/* What the policy is called: the profile's file name, made an identifier
 * of letters, digits, '_', '-' and '.'. */
static char *_policy_name(struct imp *m)
{
	const char *in = m->at.file->path, *base = strrchr(in, '/');
	char *n;
	size_t k;

	if (m->o->name)
		base = m->o->name;
	else
		base = base ? base + 1 : in;
	n = strdup(*base ? base : "imported");
	if (!n) {
		m->oom = 1;
		return NULL;
	}
	k = strlen(n);
	if (!m->o->name && k > 5 && !strcmp(n + k - 5, ".json"))
		n[k - 5] = '\0';
	for (char *p = n; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' ||
		      *p == '.'))
			*p = '_';
	return n;
}

void imp_emit_policy(struct imp *m)
{
	char act[32], bad[32], *name = _policy_name(m), *text = NULL;
	struct ir_action badarch = {IR_ACT_KILL_THREAD, 0};

	_header(m);
	_line(m, L_STMT, "policy \"%s\" {", name ? name : "imported");
	free(name);
	_line(m, L_STMT, "  syscalls default %s {",
	      ir_action_str(&m->def, act, sizeof(act)));
	if (asprintf(&text,
		     "The profile's arches for x86_64: %s. polc compiles for "
		     "x86_64 alone: every other arch gets the badarch action, "
		     "%s, which is what libseccomp does with an arch a "
		     "filter does not list%s.",
		     m->arches ? m->arches : "(none: the native one)",
		     ir_action_str(&badarch, bad, sizeof(bad)),
		     m->subarches ? "; the profile's i386 and x32 rules are "
				    "not kept"
				  : "") < 0)
		m->oom = 1;
	else
		_comment(m, 4, text);
	free(text);
	_line(m, L_STMT, "    badarch %s", bad);
	for (size_t i = 0; i < m->ne; i++)
		_emit_entry(m, (int)i);
	_line(m, L_CLOSE, "  }");
	_line(m, L_CLOSE, "}");
}
