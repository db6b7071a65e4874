/* SPDX-License-Identifier: MIT */
/*
 * The VIEW section and the NOEXEC program from the IR (formats in
 * artifact/sections.h, the design in docs/VIEW.md). Decisions made here,
 * once:
 *
 *   - a policy with an fs section gets a view of its own: a mount
 *     namespace whose root is an empty tmpfs holding each grant at its own
 *     path and the box's own mounts (tmpfs, dev, proc), and a pid
 *     namespace with polexec's init as pid 1. Without an fs section the
 *     box sees the host's tree, as before.
 *   - each grant's mount attributes from its own rights: read-only
 *     without a right that changes the tree, noexec without execute,
 *     nodev without a device right (nosuid always, polexec's own rule).
 *     Landlock grants by the union of the rules above a path, so polexec
 *     keeps only the restrictions the enclosing grant's mount also has:
 *     the view takes away nothing Landlock's model gives.
 *   - the box's own mounts get Landlock rules on their roots, with the
 *     rights their kind has in the IR.
 *   - the merged-/usr links (/bin, /lib, ...) are copied into the root
 *     from the host, unless a rule lies at or under them or on /.
 *   - the NOEXEC program: refused execveat(AT_EMPTY_PATH) and memfd_create
 *     without MFD_NOEXEC_SEAL, stacked by polexec only where it could not
 *     make memfds non-executable; validated like the policy's program.
 */
#include "backend.h"
#include "support/support.h"
#include "polbin.h"
#include "sections.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MFD_NOEXEC_SEAL_BIT 0x8u
#define MFD_EXEC_BIT	    0x10u
#define AT_EMPTY_PATH_BIT   0x1000u
#define EACCES_NUM	    13

/* Rights that change the tree: without one, the mount is read-only. */
#define VIEW_WRITE                                                             \
	(IR_FS_WRITE_FILE | IR_FS_REMOVE_DIR | IR_FS_REMOVE_FILE |             \
	 IR_FS_MAKE_CHAR | IR_FS_MAKE_DIR | IR_FS_MAKE_REG | IR_FS_MAKE_SOCK | \
	 IR_FS_MAKE_FIFO | IR_FS_MAKE_BLOCK | IR_FS_MAKE_SYM | IR_FS_REFER |   \
	 IR_FS_TRUNCATE)
#define VIEW_DEVICES (IR_FS_IOCTL_DEV | IR_FS_MAKE_CHAR | IR_FS_MAKE_BLOCK)

static const char *const links[] = {"/bin",   "/lib",	 "/lib32",
				    "/lib64", "/libx32", "/sbin"};

int view_on(const struct ir_policy *p)
{
	return p->fs.present;
}

uint8_t view_attrs(uint32_t rights)
{
	uint8_t a = 0;

	if (!(rights & VIEW_WRITE))
		a |= POLBIN_VIEW_A_RDONLY;
	if (!(rights & IR_FS_EXECUTE))
		a |= POLBIN_VIEW_A_NOEXEC;
	if (!(rights & VIEW_DEVICES))
		a |= POLBIN_VIEW_A_NODEV;
	return a;
}

static void entry(struct bytes *b, uint8_t kind, uint8_t attrs, uint32_t rule,
		  uint64_t size, uint64_t access, const char *path)
{
	size_t n = path ? strlen(path) : 0;
	static const uint8_t zero[8];

	bytes_le(b, kind, 1);
	bytes_le(b, attrs, 1);
	bytes_le(b, n, 2);
	bytes_le(b, rule, 4);
	bytes_le(b, size, 8);
	bytes_le(b, access, 8);
	bytes_put(b, path, n);
	bytes_put(b, zero, (8 - n % 8) % 8);
}

/* Does a rule of p lie at or under `dir`, or on /? */
static int taken(const struct ir_policy *p, const char *dir)
{
	size_t n = strlen(dir);
	uint32_t i;

	for (i = 0; i < p->fs.nrules; i++) {
		const char *r = p->fs.rules[i].path;

		if (!strcmp(r, "/") ||
		    (!strncmp(r, dir, n) && (r[n] == '\0' || r[n] == '/')))
			return 1;
	}
	return 0;
}

int view_section_build(const struct ir_policy *p, uint8_t **out, size_t *len,
		       char *err, size_t errlen)
{
	uint64_t handled = landlock_handled_fs(p);
	uint32_t flags = 0, n = 0, rule = 0, i, l = 0;
	struct bytes b = {0};

	*out = NULL;
	*len = 0;
	if (!view_on(p) && !p->user.present)
		return 0;
	if (view_on(p))
		flags |= POLBIN_VIEW_F_ROOT;
	if (view_on(p) && p->fs.mode == IR_VIEW_BEST_EFFORT)
		flags |= POLBIN_VIEW_F_BEST_EFFORT;
	if (p->user.present)
		flags |= POLBIN_VIEW_F_USER;
	for (i = 0; view_on(p) && i < sizeof(links) / sizeof(*links); i++)
		n += !taken(p, links[i]);
	if (view_on(p))
		n += p->fs.nrules;
	if (n > POLBIN_VIEW_MAX) {
		snprintf(err, errlen, "view: %u entries, the limit is %d", n,
			 POLBIN_VIEW_MAX);
		return 2;
	}
	bytes_le(&b, POLBIN_VIEW_VERSION, 4);
	bytes_le(&b, flags, 4);
	bytes_le(&b, p->user.uid, 4);
	bytes_le(&b, p->user.gid, 4);
	bytes_le(&b, n, 4);
	bytes_le(&b, 0, 4);
	/* The rules are sorted by path; the links merge into that order. */
	for (i = 0; view_on(p) && i <= p->fs.nrules; i++) {
		const struct ir_fs_rule *r =
		    i < p->fs.nrules ? &p->fs.rules[i] : NULL;

		for (; l < sizeof(links) / sizeof(*links) &&
		       (!r || strcmp(links[l], r->path) < 0);
		     l++)
			if (!taken(p, links[l]))
				entry(&b, POLBIN_VIEW_LINK, 0, 0, 0, 0,
				      links[l]);
		if (!r)
			break;
		switch (r->kind) {
		case IR_FS_GRANT:
			entry(&b, POLBIN_VIEW_BIND, view_attrs(r->rights),
			      rule++, 0, 0, NULL);
			break;
		case IR_FS_TMPFS:
			entry(&b, POLBIN_VIEW_TMPFS,
			      r->rights & IR_FS_EXECUTE ? 0
							: POLBIN_VIEW_A_NOEXEC,
			      0, r->size, r->rights & handled, r->path);
			break;
		default:
			entry(&b,
			      r->kind == IR_FS_DEV ? POLBIN_VIEW_DEV
						   : POLBIN_VIEW_PROC,
			      0, 0, 0, r->rights & handled, r->path);
			break;
		}
	}
	if (b.oom) {
		free(b.p);
		snprintf(err, errlen, "out of memory");
		return 2;
	}
	*out = b.p;
	*len = b.len;
	return 0;
}

static void atom(struct ir_rule *r, uint8_t arg, uint64_t mask, uint8_t op,
		 uint64_t value)
{
	struct ir_atom *a = &r->atoms[r->natoms++];

	a->arg = arg;
	a->width = 32;
	a->op = op;
	a->mask = mask;
	a->value = value;
}

int view_noexec_build(const struct ir_policy *p, struct sock_filter **prog,
		      size_t *n, char *err, size_t errlen)
{
	struct ir_rule rules[2];
	struct ir_syscall calls[2];
	struct ir_policy q;

	*prog = NULL;
	*n = 0;
	if (!view_on(p))
		return 0;
	memset(&q, 0, sizeof(q));
	memset(rules, 0, sizeof(rules));
	memset(calls, 0, sizeof(calls));
	rules[0].action = (struct ir_action){IR_ACT_ERRNO, EACCES_NUM};
	atom(&rules[0], 4, AT_EMPTY_PATH_BIT, IR_OP_NE, 0);
	rules[1].action = (struct ir_action){IR_ACT_ERRNO, EACCES_NUM};
	atom(&rules[1], 1, MFD_NOEXEC_SEAL_BIT | MFD_EXEC_BIT, IR_OP_NE,
	     MFD_NOEXEC_SEAL_BIT);
	snprintf(calls[0].name, sizeof(calls[0].name), "execveat");
	calls[0].nrules = 1;
	calls[0].rules = &rules[0];
	snprintf(calls[1].name, sizeof(calls[1].name), "memfd_create");
	calls[1].nrules = 1;
	calls[1].rules = &rules[1];
	q.sys.present = 1;
	q.sys.def = (struct ir_action){IR_ACT_ALLOW, 0};
	q.sys.badarch = (struct ir_action){IR_ACT_KILL_PROCESS, 0};
	q.sys.ncalls = 2;
	q.sys.calls = calls;
	return seccomp_build_checked(&q, "noexec", prog, n, err, errlen);
}

int seccomp_build_checked(const struct ir_policy *q, const char *what,
			  struct sock_filter **prog, size_t *n, char *err,
			  size_t errlen)
{
	char why[512];
	int v;

	if (seccomp_generate(q, prog, n, why, sizeof(why))) {
		snprintf(err, errlen, "%s: %s", what, why);
		return 2;
	}
	v = seccomp_validate(q, *prog, *n, why, sizeof(why));
	if (v != 0) {
		snprintf(err, errlen, "%s: translation validation %s: %s", what,
			 v == 1 ? "found a mismatch" : "could not finish", why);
		free(*prog);
		*prog = NULL;
		return 3;
	}
	return 0;
}
