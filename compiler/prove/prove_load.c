/* SPDX-License-Identifier: MIT */
/*
 * The prover's inputs. A source goes through the semantic pass and what
 * `polc build` checks after it (check_builds() below). An
 * artifact is judged by the IR it really enforces: it is read with the
 * hostile-input reader polexec uses, its IR section decoded, and then
 * every backend is run again on that IR; the artifact's compiled sections
 * (everything but IR and META) must be exactly those, byte for byte, with
 * none missing and none extra. Otherwise the IR would be a claim about a
 * program that may not be the one polexec installs.
 */
#include "backend/backend.h"
#include "polbin.h"
#include "prove.h"
#include "support/support.h"

#include <errno.h>
#include <stdarg.h>
#include <linux/audit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t errlen, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

static int same_sections(const struct polbin *pb, const struct compiled *c)
{
	size_t ours = 0;

	for (uint32_t i = 0; i < pb->nsections; i++) {
		const struct polbin_section *s = &pb->sections[i];
		const struct compiled_section *m;

		if (s->type == POLBIN_SEC_IR || s->type == POLBIN_SEC_META)
			continue;
		m = backends_find(c, s->type);
		if (!m || m->flags != s->flags || m->len != s->len ||
		    (s->len && memcmp(m->data, s->data, s->len)))
			return 0;
		ours++;
	}
	/* Types are unique in both, so equal counts mean none missing. */
	return ours == c->n;
}

int prove_load_artifact(const uint8_t *buf, size_t len, struct ir_policy **out,
			char *err, size_t errlen)
{
	const struct polbin_section *irs;
	struct compiled c = {0};
	struct polbin pb;
	char why[512];
	int rc;

	*out = NULL;
	if (polbin_parse(buf, len, backends_known_sections, &pb, why,
			 sizeof(why)))
		return fail(err, errlen, PROVE_EINVAL, "%s", why);
	if (pb.arch != AUDIT_ARCH_X86_64)
		return fail(err, errlen, PROVE_EINVAL,
			    "artifact for arch 0x%08x, not x86_64", pb.arch);
	irs = polbin_find(&pb, POLBIN_SEC_IR);
	if (!irs)
		return fail(err, errlen, PROVE_EINVAL,
			    "artifact has no IR section");
	rc = ir_deserialize(irs->data, irs->len, out, why, sizeof(why));
	if (rc == IR_ENOMEM)
		return fail(err, errlen, PROVE_ENOMEM, "out of memory");
	if (rc != IR_OK)
		return fail(err, errlen, PROVE_EINVAL, "IR section: %s", why);
	rc = backends_compile(*out, &c, why, sizeof(why));
	if (rc) {
		ir_policy_destroy(out);
		return fail(err, errlen, PROVE_EINVAL,
			    "artifact's IR does not compile: %s", why);
	}
	rc = same_sections(&pb, &c);
	backends_free(&c);
	if (!rc) {
		ir_policy_destroy(out);
		return fail(err, errlen, PROVE_EINVAL,
			    "artifact's compiled sections do not match its IR");
	}
	return PROVE_OK;
}

/*
 * A source is judged only if `polc build` would write its artifact: the
 * same checks after the semantic pass (backends_build(): the IR reads
 * back, every backend compiles, translation validation passes), refused
 * with build's message. Otherwise check would give verdicts on policies
 * that can never run (a filter over the kernel's 4,096 instructions).
 */
static int check_builds(const struct ir_policy *p, const char *path,
			struct ir_policy **out, char *err, size_t errlen)
{
	struct compiled c;
	uint8_t *ir = NULL;
	size_t irlen = 0;
	char why[512];
	int rc = backends_build(p, &c, &ir, &irlen, why, sizeof(why));

	free(ir);
	backends_free(&c);
	if (!rc)
		return PROVE_OK;
	ir_policy_destroy(out);
	if (rc == 3)
		return fail(err, errlen, PROVE_EINTERNAL,
			    "%s: internal error: %s; please report this bug",
			    path, why);
	return fail(err, errlen,
		    strcmp(why, "out of memory") ? PROVE_EINVAL : PROVE_ENOMEM,
		    "%s: %s", path, why);
}

int prove_load(struct diag *d, const char *path, const struct sema_opts *so,
	       struct ir_policy **out, char *err, size_t errlen)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	/* One byte over the limit, so an oversized file is named as such. */
	if (readfile_all(path, &buf, &len, POLBIN_MAX_SIZE + 1))
		return fail(err, errlen, PROVE_EINVAL, "%s: %s", path,
			    readfile_strerror(errno));
	if (len >= POLBIN_MAGIC_LEN &&
	    !memcmp(buf, POLBIN_MAGIC, POLBIN_MAGIC_LEN)) {
		char why[512];

		rc = prove_load_artifact(buf, len, out, why, sizeof(why));
		free(buf);
		if (rc)
			fail(err, errlen, rc, "%s: %s", path, why);
		return rc;
	}
	free(buf);
	if (sema_compile(d, path, so, out))
		return fail(err, errlen, d->oom ? PROVE_ENOMEM : PROVE_EINVAL,
			    "%s: not a valid policy", path);
	return check_builds(*out, path, out, err, errlen);
}
