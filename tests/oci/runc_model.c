// SPDX-License-Identifier: MIT
/* A profile compiled as Docker and runc do; see runc_model.h. */
#include "runc_model.h"

#include <errno.h>
#include <jansson.h>
#include <seccomp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bpf_interp.h"
#include "oci/oci.h"

#define X32_BIT 0x40000000u

int runc_model_optimize;

static int fail(char *err, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

static int has(const char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

static int in_array(json_t *a, const char *s)
{
	size_t i;
	json_t *v;

	json_array_foreach(a, i,
			   v) if (json_is_string(v) &&
				  !strcmp(json_string_value(v), s)) return 1;
	return 0;
}

/* moby's setupSeccomp() filter for one entry. */
struct host {
	const char *const *caps;
	size_t ncaps;
	unsigned kmaj, kmin;
};

static int kernel_ge(const struct host *h, json_t *mk)
{
	unsigned maj = 0, min = 0;

	sscanf(json_string_value(mk), "%u.%u", &maj, &min);
	return h->kmaj > maj || (h->kmaj == maj && h->kmin >= min);
}

static int applies(const struct host *h, json_t *s)
{
	json_t *ex = json_object_get(s, "excludes");
	json_t *in = json_object_get(s, "includes"), *v;
	size_t i;

	if (json_is_object(ex)) {
		json_t *a = json_object_get(ex, "arches");

		if (json_array_size(a) && in_array(a, "amd64"))
			return 0;
		json_array_foreach(json_object_get(ex, "caps"), i,
				   v) if (has(h->caps, h->ncaps,
					      json_string_value(v))) return 0;
		if (json_is_string(json_object_get(ex, "minKernel")) &&
		    kernel_ge(h, json_object_get(ex, "minKernel")))
			return 0;
	}
	if (json_is_object(in)) {
		json_t *a = json_object_get(in, "arches");

		if (json_array_size(a) && !in_array(a, "amd64"))
			return 0;
		json_array_foreach(json_object_get(in, "caps"), i,
				   v) if (!has(h->caps, h->ncaps,
					       json_string_value(v))) return 0;
		if (json_is_string(json_object_get(in, "minKernel")) &&
		    !kernel_ge(h, json_object_get(in, "minKernel")))
			return 0;
	}
	return 1;
}

/* runc's getAction(): SCMP_ACT_KILL is kill_thread, errno default EPERM. */
static int action(const char *name, json_t *errno_ret, uint32_t *out)
{
	uint32_t e = json_is_integer(errno_ret)
			 ? (uint32_t)json_integer_value(errno_ret)
			 : EPERM;

	if (!strcmp(name, "SCMP_ACT_KILL") ||
	    !strcmp(name, "SCMP_ACT_KILL_THREAD"))
		*out = SCMP_ACT_KILL_THREAD;
	else if (!strcmp(name, "SCMP_ACT_KILL_PROCESS"))
		*out = SCMP_ACT_KILL_PROCESS;
	else if (!strcmp(name, "SCMP_ACT_TRAP"))
		*out = SCMP_ACT_TRAP;
	else if (!strcmp(name, "SCMP_ACT_ERRNO"))
		*out = SCMP_ACT_ERRNO(e & 0xffff);
	else if (!strcmp(name, "SCMP_ACT_ALLOW"))
		*out = SCMP_ACT_ALLOW;
	else if (!strcmp(name, "SCMP_ACT_LOG"))
		*out = SCMP_ACT_LOG;
	else
		return -1;
	return 0;
}

static const struct {
	const char *name;
	enum scmp_compare op;
} ops[] = {
    {"SCMP_CMP_NE", SCMP_CMP_NE},
    {"SCMP_CMP_LT", SCMP_CMP_LT},
    {"SCMP_CMP_LE", SCMP_CMP_LE},
    {"SCMP_CMP_EQ", SCMP_CMP_EQ},
    {"SCMP_CMP_GE", SCMP_CMP_GE},
    {"SCMP_CMP_GT", SCMP_CMP_GT},
    {"SCMP_CMP_MASKED_EQ", SCMP_CMP_MASKED_EQ},
};

static int condition(json_t *a, struct scmp_arg_cmp *c)
{
	const char *op = json_string_value(json_object_get(a, "op"));

	memset(c, 0, sizeof(*c));
	c->arg = (unsigned)json_integer_value(json_object_get(a, "index"));
	c->datum_a = c->datum_b = 0;
	oci_json_u64(json_object_get(a, "value"), &c->datum_a);
	oci_json_u64(json_object_get(a, "valueTwo"), &c->datum_b);
	for (size_t i = 0; op && i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(op, ops[i].name)) {
			c->op = ops[i].op;
			return c->arg < 6 ? 0 : -1;
		}
	return -1;
}

/* runc's matchCall(). */
static int add_rules(scmp_filter_ctx ctx, uint32_t def, json_t *s,
		     const char *name, char *err, size_t errlen)
{
	json_t *args = json_object_get(s, "args"), *a;
	struct scmp_arg_cmp c[16];
	unsigned counts[6] = {0}, n = 0;
	int nr, rc = 0, split = 0;
	uint32_t act;
	size_t i;

	if (action(json_string_value(json_object_get(s, "action")),
		   json_object_get(s, "errnoRet"), &act))
		return fail(err, errlen, "%s: action", name);
	if (act == def)
		return 0;
	nr = seccomp_syscall_resolve_name(name);
	if (nr == __NR_SCMP_ERROR)
		return 0; /* "unknown seccomp syscall ignored" */
	if (!json_array_size(args)) {
		rc = seccomp_rule_add(ctx, act, nr, 0);
	} else {
		json_array_foreach(args, i, a)
		{
			if (n == 16 || condition(a, &c[n]))
				return fail(err, errlen, "%s: condition", name);
			split |= ++counts[c[n].arg] > 1;
			n++;
		}
		if (split)
			for (unsigned k = 0; k < n && !rc; k++)
				rc = seccomp_rule_add_array(ctx, act, nr, 1,
							    &c[k]);
		else
			rc = seccomp_rule_add_array(ctx, act, nr, n, c);
	}
	if (rc)
		return fail(err, errlen, "libseccomp refuses a rule for %s: %s",
			    name, strerror(-rc));
	return 0;
}

static uint32_t arch_token(const char *scmp)
{
	static const struct {
		const char *n;
		uint32_t a;
	} v[] = {
	    {"SCMP_ARCH_X86_64", SCMP_ARCH_X86_64},
	    {"SCMP_ARCH_X86", SCMP_ARCH_X86},
	    {"SCMP_ARCH_X32", SCMP_ARCH_X32},
	    {"SCMP_ARCH_AARCH64", SCMP_ARCH_AARCH64},
	    {"SCMP_ARCH_ARM", SCMP_ARCH_ARM},
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!strcmp(v[i].n, scmp))
			return v[i].a;
	return 0;
}

/* The profile's arches: "architectures", or archMap's x86_64 entry. */
static size_t arches(json_t *root, const char **out)
{
	json_t *list = json_object_get(root, "architectures"), *v, *m;
	size_t i, n = 0;

	json_array_foreach(list, i, v) if (n < 8) out[n++] =
	    json_string_value(v);
	json_array_foreach(json_object_get(root, "archMap"), i, m)
	{
		size_t k;
		json_t *s;

		if (strcmp(
			json_string_value(json_object_get(m, "architecture")),
			"SCMP_ARCH_X86_64"))
			continue;
		out[n++] = "SCMP_ARCH_X86_64";
		json_array_foreach(json_object_get(m, "subArchitectures"), k,
				   s) if (n < 8) out[n++] =
		    json_string_value(s);
	}
	return n;
}

static int export_bpf(scmp_filter_ctx ctx, struct runc_model *m, char *err,
		      size_t errlen)
{
	int fd = memfd_create("runc-model", 0);
	off_t len;

	if (fd < 0 || seccomp_export_bpf(ctx, fd))
		return fail(err, errlen, "seccomp_export_bpf failed");
	len = lseek(fd, 0, SEEK_END);
	m->n = (size_t)len / sizeof(struct sock_filter);
	m->prog = malloc((size_t)len);
	if (!m->prog || pread(fd, m->prog, (size_t)len, 0) != len) {
		close(fd);
		return fail(err, errlen, "reading libseccomp's program");
	}
	close(fd);
	return 0;
}

int runc_model_build(const char *path, const char *const *caps, size_t ncaps,
		     unsigned kmaj, unsigned kmin, struct runc_model *m,
		     char *err, size_t errlen)
{
	struct host h = {caps, ncaps, kmaj, kmin};
	const char *arch[8], *defname;
	json_error_t je;
	json_t *root = NULL, *s;
	char *text = NULL;
	size_t tlen = 0;
	FILE *f = fopen(path, "r");
	scmp_filter_ctx ctx = NULL;
	size_t i, narch;
	int rc = -1, amd64 = 0;

	memset(m, 0, sizeof(*m));
	m->x86_64_max = -1;
	if (f) {
		FILE *mem = open_memstream(&text, &tlen);
		int ch;

		while (mem && (ch = fgetc(f)) != EOF)
			fputc(ch, mem);
		if (mem)
			fclose(mem);
		fclose(f);
	}
	if (!text)
		return fail(err, errlen, "%s: cannot read", path);
	root = oci_json_loadb(text, tlen, &je);
	free(text);
	if (!root)
		return fail(err, errlen, "%s: %s", path, je.text);
	defname = json_string_value(json_object_get(root, "defaultAction"));
	if (!defname ||
	    action(defname, json_object_get(root, "defaultErrnoRet"),
		   &m->def)) {
		fail(err, errlen, "defaultAction");
		goto out;
	}
	ctx = seccomp_init(m->def);
	if (!ctx) {
		fail(err, errlen, "seccomp_init");
		goto out;
	}
	seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	if (runc_model_optimize)
		seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE,
				 (uint32_t)runc_model_optimize);
	narch = arches(root, arch);
	for (i = 0; i < narch; i++) {
		uint32_t a = arch_token(arch[i]);
		int r;

		if (!a) {
			fail(err, errlen, "arch %s", arch[i]);
			goto out;
		}
		amd64 |= a == SCMP_ARCH_X86_64;
		r = seccomp_arch_add(ctx, a);
		if (r && r != -EEXIST) {
			fail(err, errlen, "seccomp_arch_add %s", arch[i]);
			goto out;
		}
	}
	json_array_foreach(json_object_get(root, "syscalls"), i, s)
	{
		json_t *names = json_object_get(s, "names"), *n;
		size_t k;

		if (!applies(&h, s))
			continue;
		json_array_foreach(names, k, n)
		{
			const char *name = json_string_value(n);
			int nr = seccomp_syscall_resolve_name_arch(
			    SCMP_ARCH_X86_64, name);

			/* findLastSyscalls(): every name of the config. */
			if (nr > m->x86_64_max)
				m->x86_64_max = nr;
			if (add_rules(ctx, m->def, s, name, err, errlen))
				goto out;
		}
	}
	/* generatePatch(): not for a permissive default; the stub only
	 * covers arches the profile lists (runc 1.1.5). */
	m->stub = amd64 && m->x86_64_max > 0 && m->def != SCMP_ACT_ALLOW &&
		  m->def != SCMP_ACT_LOG;
	m->stub_max = m->x86_64_max;
	rc = export_bpf(ctx, m, err, errlen);
out:
	if (ctx)
		seccomp_release(ctx);
	json_decref(root);
	if (rc)
		runc_model_free(m);
	return rc;
}

uint32_t runc_model_decide(const struct runc_model *m,
			   const struct seccomp_data *d)
{
	struct bpf_run_result res;
	char err[128];

	if (m->stub && d->arch == AUDIT_ARCH_X86_64 &&
	    !((uint32_t)d->nr & X32_BIT) && d->nr > m->stub_max)
		return SCMP_ACT_ERRNO(ENOSYS);
	if (bpf_run(m->prog, m->n, d, &res, err, sizeof(err)))
		return 0xdeadbeef; /* never a seccomp action */
	return res.ret;
}

void runc_model_free(struct runc_model *m)
{
	free(m->prog);
	memset(m, 0, sizeof(*m));
}
