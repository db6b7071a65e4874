/* SPDX-License-Identifier: MIT */
/*
 * `polc build`: front end, IR, backends, translation validation, artifact.
 * Nothing is written unless every step succeeded; the artifact is written
 * to a temporary file and renamed, so a failed build never leaves a
 * half-written or stale-looking output behind.
 */
#include "build.h"
#include "diag.h"
#include "env_backend.h"
#include "ir.h"
#include "polbin.h"
#include "polbin_write.h"
#include "seccomp_backend.h"
#include "seccomp_validate.h"
#include "sections.h"
#include "sema.h"
#include "sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct bytes {
	uint8_t *p;
	size_t len;
};

static int write_file(const char *path, const void *data, size_t len)
{
	char *tmp = NULL;
	size_t off = 0;
	int fd;

	if (asprintf(&tmp, "%s.tmp-XXXXXX", path) < 0)
		return -1;
	fd = mkstemp(tmp);
	if (fd < 0)
		goto fail;
	while (off < len) {
		ssize_t w = write(fd, (const uint8_t *)data + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			goto fail_fd;
		off += (size_t)w;
	}
	/* No fsync: rename keeps readers from a half-written file, and a
	 * build is cheap to redo after a crash. */
	if (fchmod(fd, 0644) || close(fd)) {
		fd = -1;
		goto fail;
	}
	if (rename(tmp, path))
		goto fail;
	free(tmp);
	return 0;
fail_fd:
	close(fd);
fail : {
	int e = errno;

	unlink(tmp);
	free(tmp);
	errno = e;
}
	return -1;
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

/* Layers the IR states that no backend of this polc compiles yet. */
static void unenforced_layers(const struct ir_policy *p, char *buf, size_t len)
{
	buf[0] = '\0';
	if (p->fs.present || p->landlock.present)
		strncat(buf, "fs(landlock) ", len - strlen(buf) - 1);
	if (p->net.present)
		strncat(buf, "net ", len - strlen(buf) - 1);
	if (p->limits.present)
		strncat(buf, "limits ", len - strlen(buf) - 1);
	if (buf[0])
		buf[strlen(buf) - 1] = '\0';
}

static int seccomp_section(const struct ir_policy *p, struct bytes *out,
			   const char *emit_bpf)
{
	struct sock_filter *prog = NULL;
	char err[512];
	size_t n = 0;
	int v;

	if (seccomp_generate(p, &prog, &n, err, sizeof(err))) {
		fprintf(stderr, "polc: seccomp: %s\n", err);
		return 2;
	}
	v = seccomp_validate(p, prog, n, err, sizeof(err));
	if (v != 0) {
		fprintf(stderr,
			"polc: internal error: translation validation %s: %s\n"
			"polc: no artifact written; please report this bug\n",
			v == 1 ? "found a mismatch" : "could not finish", err);
		free(prog);
		return 3;
	}
	out->p = (uint8_t *)prog;
	out->len = n * sizeof(*prog);
	if (emit_bpf && write_file(emit_bpf, out->p, out->len)) {
		fprintf(stderr, "polc: --emit-bpf %s: %s\n", emit_bpf,
			strerror(errno));
		return 2;
	}
	return 0;
}

static int assemble(const struct build_opts *o, const struct ir_policy *p,
		    const char *out_path)
{
	struct bytes ir = {0}, meta = {0}, sec = {0}, env = {0};
	char hex[2 * SHA256_LEN + 1], layers[128], err[256];
	struct polbin_writer *w = polbin_writer_create(AUDIT_ARCH_X86_64);
	uint8_t d[SHA256_LEN], *file = NULL;
	size_t flen = 0;
	int rc = 2, oom = 0;

	if (!w || ir_serialize(p, &ir.p, &ir.len) != IR_OK)
		goto oom;
	/* polexec and the prover read this back: never write what our own
	 * reader would refuse. */
	{
		struct ir_policy *back = NULL;

		if (ir_deserialize(ir.p, ir.len, &back, err, sizeof(err)) !=
		    IR_OK) {
			fprintf(stderr,
				"polc: internal error: the IR does not read "
				"back: %s\npolc: no artifact written; please "
				"report this bug\n",
				err);
			rc = 3;
			goto out;
		}
		ir_policy_destroy(&back);
	}
	meta_put(&meta, POLBIN_META_NAME, p->name, &oom);
	if (source_digest(o->input, hex) == 0)
		meta_put(&meta, POLBIN_META_SOURCE_SHA256, hex, &oom);
	meta_put(&meta, POLBIN_META_COMPILER, "polc " POLC_VERSION, &oom);
	sha256(ir.p, ir.len, d);
	sha256_hex(d, hex);
	meta_put(&meta, POLBIN_META_IR_SHA256, hex, &oom);
	if (oom)
		goto oom;
	if (polbin_writer_add(w, POLBIN_SEC_META, 0, meta.p, meta.len) ||
	    polbin_writer_add(w, POLBIN_SEC_IR, POLBIN_F_CRITICAL, ir.p,
			      ir.len))
		goto oom;
	if (p->sys.present) {
		rc = seccomp_section(p, &sec, o->emit_bpf);
		if (rc)
			goto out;
		rc = 2;
		if (polbin_writer_add(w, POLBIN_SEC_SECCOMP, POLBIN_F_CRITICAL,
				      sec.p, sec.len))
			goto oom;
	} else if (o->emit_bpf) {
		fprintf(stderr, "polc: --emit-bpf: the policy has no syscalls "
				"section\n");
		goto out;
	}
	if (env_section_build(p, &env.p, &env.len, err, sizeof(err))) {
		fprintf(stderr, "polc: env: %s\n", err);
		goto out;
	}
	if (polbin_writer_add(w, POLBIN_SEC_ENV, POLBIN_F_CRITICAL, env.p,
			      env.len))
		goto oom;
	unenforced_layers(p, layers, sizeof(layers));
	if (layers[0]) {
		fprintf(stderr,
			"polc: warning: %s: not enforced by this version; "
			"polexec will refuse to run this artifact\n",
			layers);
		if (polbin_writer_add(w, POLBIN_SEC_UNENFORCED,
				      POLBIN_F_CRITICAL, layers,
				      strlen(layers)))
			goto oom;
	}
	if (polbin_writer_finish(w, &file, &flen))
		goto oom;
	if (write_file(out_path, file, flen)) {
		fprintf(stderr, "polc: write %s: %s\n", out_path,
			strerror(errno));
		goto out;
	}
	rc = 0;
	goto out;
oom:
	fputs("polc: out of memory\n", stderr);
	rc = 2;
out:
	free(ir.p);
	free(meta.p);
	free(sec.p);
	free(env.p);
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
