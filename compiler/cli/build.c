/* SPDX-License-Identifier: MIT */
/*
 * `polc build`: front end, IR, backends, translation validation, artifact.
 * Nothing is written unless every step succeeded; the outputs are written
 * by output.c's rule (a regular file replaced atomically, a device or FIFO
 * written in place), so a failed build never leaves a half-written or
 * stale-looking file behind. `-o -` writes the artifact to standard
 * output.
 */
#include "cli.h"
#include "diag.h"
#include "backend/backend.h"
#include "ir/ir.h"
#include "polbin.h"
#include "polbin_write.h"
#include "sections.h"
#include "sema/sema.h"
#include "sha256.h"

#include <fcntl.h>
#include <linux/audit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct bytes {
	uint8_t *p;
	size_t len;
};

/* An output of the build: `-` is standard output, anything else a path
 * written by the rule of output.c. Says what failed; returns 0 or -1. */
static int write_output(const char *what, const char *path, const void *data,
			size_t len)
{
	char err[256];
	int rc;

	if (!strcmp(path, "-"))
		rc =
		    output_write_fd(STDOUT_FILENO, data, len, err, sizeof(err));
	else
		rc = output_write(path, data, len, err, sizeof(err));
	if (rc)
		fprintf(stderr, "polc: %s %s: %s\n", what, path, err);
	return rc;
}

static void meta_put(struct bytes *b, uint16_t key, const char *val, int *oom)
{
	size_t n = strlen(val);
	uint8_t *np;

	if (*oom || n > 0xffff)
		return;
	np = realloc(b->p, b->len + 4 + n);
	if (!np) {
		*oom = 1;
		return;
	}
	b->p = np;
	np += b->len;
	np[0] = (uint8_t)key;
	np[1] = (uint8_t)(key >> 8);
	np[2] = (uint8_t)n;
	np[3] = (uint8_t)(n >> 8);
	memcpy(np + 4, val, n);
	b->len += 4 + n;
}

static int source_digest(const char *path, char hex[2 * SHA256_LEN + 1])
{
	uint8_t d[SHA256_LEN], buf[8192];
	struct sha256 s;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	sha256_init(&s);
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		sha256_update(&s, buf, (size_t)r);
	close(fd);
	if (r < 0)
		return -1;
	sha256_final(&s, d);
	sha256_hex(d, hex);
	return 0;
}

static char *default_output(const char *in)
{
	size_t n = strlen(in);
	char *out;

	if (n > 4 && !strcmp(in + n - 4, ".pol"))
		n -= 4;
	out = malloc(n + 8);
	if (out) {
		memcpy(out, in, n);
		strcpy(out + n, ".polbin");
	}
	return out;
}

static int assemble(const struct build_opts *o, const struct ir_policy *p,
		    const char *out_path)
{
	struct bytes ir = {0}, meta = {0};
	const struct compiled_section *s;
	char hex[2 * SHA256_LEN + 1], err[640];
	struct compiled c = {0};
	struct polbin_writer *w = polbin_writer_create(AUDIT_ARCH_X86_64);
	uint8_t d[SHA256_LEN], *file = NULL;
	size_t flen = 0;
	int rc = 2, oom = 0;
	size_t i;

	if (!w)
		goto oom;
	rc = backends_build(p, &c, &ir.p, &ir.len, err, sizeof(err));
	if (rc) {
		if (rc == 3)
			fprintf(stderr,
				"polc: internal error: %s\npolc: no artifact "
				"written; please report this bug\n",
				err);
		else
			fprintf(stderr, "polc: %s\n", err);
		goto out;
	}
	meta_put(&meta, POLBIN_META_NAME, p->name, &oom);
	if (source_digest(o->input, hex) == 0)
		meta_put(&meta, POLBIN_META_SOURCE_SHA256, hex, &oom);
	meta_put(&meta, POLBIN_META_COMPILER, "polc " POLC_VERSION, &oom);
	meta_put(&meta, POLBIN_META_RECORD_ARGV,
		 p->fs.observe & IR_OBSERVE_ARGV_REDACTED ? "redacted"
							  : "record",
		 &oom);
	sha256(ir.p, ir.len, d);
	sha256_hex(d, hex);
	meta_put(&meta, POLBIN_META_IR_SHA256, hex, &oom);
	if (oom)
		goto oom;
	if (polbin_writer_add(w, POLBIN_SEC_META, 0, meta.p, meta.len) ||
	    polbin_writer_add(w, POLBIN_SEC_IR, POLBIN_F_CRITICAL, ir.p,
			      ir.len))
		goto oom;
	rc = 2;
	for (i = 0; i < c.n; i++)
		if (polbin_writer_add(w, c.sec[i].type, c.sec[i].flags,
				      c.sec[i].data, c.sec[i].len))
			goto oom;
	if ((s = backends_find(&c, POLBIN_SEC_UNENFORCED)))
		fprintf(stderr,
			"polc: warning: %.*s: not enforced by this version; "
			"polexec will refuse to run this artifact\n",
			(int)s->len, (const char *)s->data);
	if (o->emit_bpf) {
		s = backends_find(&c, POLBIN_SEC_SECCOMP);
		if (!s) {
			fprintf(stderr, "polc: --emit-bpf: the policy has no "
					"syscalls section\n");
			goto out;
		}
		if (write_output("--emit-bpf", o->emit_bpf, s->data, s->len))
			goto out;
	}
	if (polbin_writer_finish(w, &file, &flen))
		goto oom;
	if (write_output("write", out_path, file, flen))
		goto out;
	rc = 0;
	goto out;
oom:
	fputs("polc: out of memory\n", stderr);
	rc = 2;
out:
	free(ir.p);
	free(meta.p);
	backends_free(&c);
	free(file);
	polbin_writer_destroy(&w);
	return rc;
}

int build_policy(const struct build_opts *o)
{
	struct sema_opts so = {o->search, o->nsearch};
	struct ir_policy *p = NULL;
	char *out_path = NULL;
	struct diag d;
	int rc = 2;

	diag_init(&d);
	if (o->max_errors >= 0)
		d.max_errors = o->max_errors;
	if (sema_compile(&d, o->input, &so, &p)) {
		diag_print(&d, stderr);
		diag_fini(&d);
		return 2;
	}
	diag_print(&d, stderr); /* warnings */
	out_path = o->output ? strdup(o->output) : default_output(o->input);
	if (!out_path) {
		fputs("polc: out of memory\n", stderr);
		goto out;
	}
	rc = assemble(o, p, out_path);
out:
	free(out_path);
	ir_policy_destroy(&p);
	diag_fini(&d);
	return rc;
}
