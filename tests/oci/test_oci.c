// SPDX-License-Identifier: MIT
/*
 * polc import oci and polc export oci against the runtime's reading of a
 * profile (runc_model.c: libseccomp's own filter, built as runc builds
 * it), decision by decision on every x86_64 syscall number and a grid of
 * argument vectors: the policy's constants, one off either side, and
 * upper halves of zero, one and all ones.
 *
 *   import: PROFILE -> polc import -> policy -> polc's program, against
 *           the profile in the runtime (plus the egress companions polc
 *           adds: where one holds it decides, as rule resolution says);
 *   export: POLICY -> polc's program, against polc export -> profile in
 *           the runtime.
 *
 * Where they may differ, and only there, each difference is counted by
 * kind and checked for what it must be: numbers this libseccomp does not
 * know (the runtime drops their names), numbers above the profile's
 * largest syscall (runc's ENOSYS stub), and foreign arches and x32
 * numbers (a profile cannot say polc's badarch). Every other point must
 * agree.
 */
#include <errno.h>
#include <seccomp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <linux/audit.h>

#include "backend/backend.h"
#include "bpf_interp.h"
#include "cli/cli.h"
#include "diag.h"
#include "ir/ir.h"
#include "oci/oci.h"
#include "grid.h"
#include "runc_model.h"
#include "sema/sema.h"
#include "tables/tables.h"

#define X32_BIT	   0x40000000u
#define NR_TOP	   600	 /* numbers checked one by one: past every table */
#define GRID_MAX   60000 /* vectors per syscall number at most */
#define AGENT_JSON "bench/profiles/agent.json"

struct prog {
	struct ir_policy *p;
	struct sock_filter *f;
	size_t n;
};

struct counts {
	unsigned long agree, unknown, stub, badarch, companion;
	unsigned long points;
	int lenient;	     /* count other differences instead of failing */
	unsigned long other; /* differences of no kind above */
	char first[256];     /* the first of them */
};

static char tmpdir[64];

static void setup_tmp(void)
{
	if (tmpdir[0])
		return;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_oci.XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
}

static char *tmp_path(const char *name)
{
	char *p = NULL;

	setup_tmp();
	assert_true(asprintf(&p, "%s/%s", tmpdir, name) > 0);
	return p;
}

/* A policy file through the front end and the code generator. */
static void compile_file(const char *path, struct prog *out)
{
	const char *search[] = {"stdlib-policies"};
	struct sema_opts so = {search, 1};
	char err[640];
	struct diag d;

	memset(out, 0, sizeof(*out));
	diag_init(&d);
	if (sema_compile(&d, path, &so, &out->p)) {
		diag_print(&d, stderr);
		fail_msg("%s does not compile", path);
	}
	diag_fini(&d);
	if (seccomp_generate(out->p, &out->f, &out->n, err, sizeof(err)))
		fail_msg("%s: %s", path, err);
}

static void prog_free(struct prog *p)
{
	free(p->f);
	ir_policy_destroy(&p->p);
}

static uint32_t polc_decide(const struct prog *p, const struct seccomp_data *d)
{
	struct bpf_run_result res;
	char err[128];

	if (bpf_run(p->f, p->n, d, &res, err, sizeof(err)))
		fail_msg("polc's program: %s", err);
	return res.ret;
}

static int denies(uint32_t ret)
{
	uint32_t a = ret & SECCOMP_RET_ACTION_FULL;

	return a != SECCOMP_RET_ALLOW && a != SECCOMP_RET_LOG;
}

static uint32_t value_of(const struct ir_action *a)
{
	uint32_t v = 0;

	assert_int_equal(seccomp_action_value(a, &v), 0);
	return v;
}

/* ---- Comparing -------------------------------------------------------- */

/* The action p's companions give at d, if one holds: IR_ACT_ALLOW + 1
 * when none does. */
static struct ir_action companion_at(const struct ir_policy *p,
				     const struct seccomp_data *d)
{
	struct ir_action best = {IR_ACT_ALLOW + 1, 0};
	const char *name = syscall_name(SYSCALL_ARCH_X86_64, d->nr);
	uint64_t args[6];

	for (int i = 0; i < 6; i++)
		args[i] = d->args[i];
	for (size_t c = 0; name && c < ncompanions; c++) {
		const struct ir_rule *r = &companions[c].rule;
		int holds = !strcmp(companions[c].name, name) &&
			    companion_applies(&companions[c], p);

		for (uint32_t t = 0; holds && t < r->natoms; t++)
			holds = ir_atom_holds(&r->atoms[t], args);
		if (holds && ir_action_cmp(&r->action, &best) < 0)
			best = r->action;
	}
	return best;
}

/* The IR action whose seccomp value is v (errno, kill, ...). */
static struct ir_action action_of(uint32_t v)
{
	switch (v & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_KILL_PROCESS:
		return (struct ir_action){IR_ACT_KILL_PROCESS, 0};
	case SECCOMP_RET_KILL_THREAD:
		return (struct ir_action){IR_ACT_KILL_THREAD, 0};
	case SECCOMP_RET_TRAP:
		return (struct ir_action){IR_ACT_TRAP, 0};
	case SECCOMP_RET_ERRNO:
		return (struct ir_action){IR_ACT_ERRNO,
					  (uint16_t)(v & SECCOMP_RET_DATA)};
	case SECCOMP_RET_LOG:
		return (struct ir_action){IR_ACT_LOG, 0};
	default:
		return (struct ir_action){IR_ACT_ALLOW, 0};
	}
}

/*
 * One point. with_companions: the runtime's answer has the companions
 * still to come (import). Returns 0, or fails the test with the point.
 */
static void point(const struct prog *p, const struct runc_model *m,
		  int with_companions, const struct seccomp_data *d,
		  struct counts *c)
{
	uint32_t ours = polc_decide(p, d), theirs = runc_model_decide(m, d);
	int native = d->arch == AUDIT_ARCH_X86_64 && (uint32_t)d->nr < X32_BIT;

	c->points++;
	if (native && with_companions) {
		struct ir_action comp = companion_at(p->p, d);

		if (comp.kind <= IR_ACT_ALLOW) {
			/* A companion holds: it and a rule that holds (not
			 * the default) decide together. */
			struct ir_action rt = action_of(theirs);

			if (theirs != m->def && ir_action_cmp(&rt, &comp) < 0)
				comp = rt;
			if (value_of(&comp) != theirs)
				c->companion++;
			theirs = value_of(&comp);
		}
	}
	if (ours == theirs) {
		c->agree++;
		return;
	}
	if (!native) {
		/* A profile cannot say badarch: polc's against libseccomp's
		 * (kill the thread, or the profile's i386 / x32 rules). */
		assert_int_equal(ours, value_of(&p->p->sys.badarch));
		/* An export lists x86_64 alone: libseccomp kills the thread
		 * of any other arch or x32 call, and gives -1 (no syscall,
		 * which tracers use) its default. */
		if (!with_companions)
			assert_int_equal(
			    theirs, d->nr == -1 && d->arch == AUDIT_ARCH_X86_64
					? m->def
					: SCMP_ACT_KILL_THREAD);
		c->badarch++;
		return;
	}
	if (m->stub && (uint32_t)d->nr > (uint32_t)m->stub_max &&
	    theirs == SCMP_ACT_ERRNO(ENOSYS) && denies(ours)) {
		c->stub++;
		return;
	}
	if (d->nr < SYSCALL_NR_LIMIT &&
	    syscall_name(SYSCALL_ARCH_X86_64, d->nr) &&
	    !seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, d->nr)) {
		/* Our table knows it, this libseccomp not: runc drops the
		 * name, and the call gets the default (or ENOSYS). */
		assert_true(theirs == m->def ||
			    theirs == SCMP_ACT_ERRNO(ENOSYS));
		c->unknown++;
		return;
	}
	if (!c->other++)
		snprintf(c->first, sizeof(c->first),
			 "nr %d arch 0x%x args %#llx %#llx %#llx %#llx: polc "
			 "0x%x, the runtime 0x%x",
			 d->nr, d->arch, (unsigned long long)d->args[0],
			 (unsigned long long)d->args[1],
			 (unsigned long long)d->args[2],
			 (unsigned long long)d->args[3], ours, theirs);
	if (!c->lenient)
		fail_msg("%s", c->first);
}

/*
 * Every number 0..NR_TOP with its grid, numbers far above and in the x32
 * range, and foreign arches. `other` (may be NULL) adds its constants to
 * the grid.
 */
static void compare_into(const struct prog *p, const struct ir_policy *other,
			 const struct runc_model *m, int with_companions,
			 struct counts *out)
{
	const struct ir_policy *ps[2] = {p->p, other};
	static const uint32_t far[] = {1023,	   1024,	0x3fffffff,
				       X32_BIT,	   X32_BIT | 1, X32_BIT | 41,
				       0x7fffffff, 0x80000000,	0xffffffff};
	static const uint32_t arches[] = {AUDIT_ARCH_I386, AUDIT_ARCH_AARCH64,
					  0};
	struct counts c = *out;
	struct grid g;

	for (int nr = 0; nr <= NR_TOP; nr++) {
		uint64_t args[6];

		grid_fill(&g, ps, 2, nr);
		for (size_t i = 0; grid_vector(&g, i, GRID_MAX, args); i++) {
			struct seccomp_data d = {.nr = nr,
						 .arch = AUDIT_ARCH_X86_64};

			memcpy(d.args, args, sizeof(args));
			point(p, m, with_companions, &d, &c);
		}
	}
	for (size_t i = 0; i < sizeof(far) / sizeof(far[0]); i++) {
		struct seccomp_data d = {.nr = (int)far[i],
					 .arch = AUDIT_ARCH_X86_64};

		point(p, m, with_companions, &d, &c);
		for (size_t a = 0; a < sizeof(arches) / sizeof(arches[0]);
		     a++) {
			d.arch = arches[a];
			point(p, m, with_companions, &d, &c);
		}
	}
	*out = c;
}

static void compare(const char *what, const struct prog *p,
		    const struct ir_policy *other, const struct runc_model *m,
		    int with_companions)
{
	struct counts c = {0};

	compare_into(p, other, m, with_companions, &c);
	printf("%s: %lu points: %lu agree (%lu through the egress "
	       "companions); differ by design: %lu on numbers libseccomp "
	       "%u.%u.%u does not know, %lu above the profile's largest "
	       "syscall (runc's ENOSYS stub, both deny), %lu on foreign "
	       "arches and x32 numbers (badarch)\n",
	       what, c.points, c.agree, c.companion, c.unknown,
	       seccomp_version()->major, seccomp_version()->minor,
	       seccomp_version()->micro, c.stub, c.badarch);
	/* Everything else agreed, or point() failed. */
	assert_int_equal(c.points, c.agree + c.unknown + c.stub + c.badarch);
	assert_true(c.agree > c.points / 2);
}

/* ---- Import --------------------------------------------------------- */

static void import_to(const char *profile, const char *const *caps,
		      size_t ncaps, int kernel_view, const char *out)
{
	struct oci_import_opts o = {.input = profile,
				    .output = out,
				    .caps = caps,
				    .ncaps = ncaps,
				    .kernel = "6.18",
				    .kernel_view = kernel_view,
				    .max_errors = -1};

	assert_int_equal(import_oci(&o), 0);
}

static void check_import(const char *profile, const char *const *extra,
			 size_t nextra)
{
	const char *caps[32];
	char *pol = tmp_path("imported.pol"), what[256];
	struct runc_model m;
	struct prog p;
	char err[256];

	for (size_t i = 0; i < oci_ndocker_caps; i++)
		caps[i] = oci_docker_caps[i];
	for (size_t i = 0; i < nextra; i++)
		caps[oci_ndocker_caps + i] = extra[i];
	import_to(profile, extra, nextra, 0, pol);
	compile_file(pol, &p);
	if (runc_model_build(profile, caps, oci_ndocker_caps + nextra, 6, 18,
			     &m, err, sizeof(err)))
		fail_msg("%s: %s", profile, err);
	snprintf(what, sizeof(what), "import %s%s", profile,
		 nextra ? " with capabilities added" : "");
	compare(what, &p, NULL, &m, 1);
	runc_model_free(&m);
	prog_free(&p);
	unlink(pol);
	free(pol);
}

static void test_import_agent(void **state)
{
	(void)state;
	check_import(AGENT_JSON, NULL, 0);
}

static void test_import_agent_with_caps(void **state)
{
	const char *extra[] = {"CAP_SYS_ADMIN", "CAP_SYS_PTRACE"};

	(void)state;
	check_import(AGENT_JSON, extra, 2);
}

/* Every operator, on int and 64-bit arguments, values across both
 * halves, conditions ANDed and ORed (one index twice). */
static const char ops_profile[] =
    "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": 1,\n"
    " \"architectures\": [\"SCMP_ARCH_X86_64\"],\n"
    " \"syscalls\": [\n"
    "  {\"names\": [\"read\", \"write\", \"exit_group\"], \"action\": "
    "\"SCMP_ACT_ALLOW\"},\n"
    "  {\"names\": [\"socket\"], \"action\": \"SCMP_ACT_ALLOW\", "
    "\"args\": [{\"index\": 0, \"value\": 38, \"op\": \"SCMP_CMP_LT\"}]},\n"
    "  {\"names\": [\"socket\"], \"action\": \"SCMP_ACT_ALLOW\", "
    "\"args\": [{\"index\": 0, \"value\": 40, \"op\": \"SCMP_CMP_GT\"}]},\n"
    "  {\"names\": [\"socket\"], \"action\": \"SCMP_ACT_TRAP\", "
    "\"args\": [{\"index\": 0, \"value\": 39, \"op\": \"SCMP_CMP_EQ\"}]},\n"
    "  {\"names\": [\"personality\"], \"action\": \"SCMP_ACT_ALLOW\", "
    "\"args\": [{\"index\": 0, \"value\": 4294967296, \"op\": "
    "\"SCMP_CMP_LE\"}]},\n"
    "  {\"names\": [\"dup2\"], \"action\": \"SCMP_ACT_ALLOW\", "
    "\"args\": [{\"index\": 0, \"value\": 8589934597, \"op\": "
    "\"SCMP_CMP_GE\"}, {\"index\": 1, \"value\": 3, \"op\": "
    "\"SCMP_CMP_NE\"}]},\n"
    "  {\"names\": [\"kill\"], \"action\": \"SCMP_ACT_ERRNO\", "
    "\"errnoRet\": 3, \"args\": [{\"index\": 1, \"value\": "
    "9223372032559808512, \"valueTwo\": 4294967296, \"op\": "
    "\"SCMP_CMP_MASKED_EQ\"}]},\n"
    "  {\"names\": [\"mmap\"], \"action\": \"SCMP_ACT_ALLOW\", "
    "\"args\": [{\"index\": 1, \"value\": 4096, \"op\": \"SCMP_CMP_GE\"}, "
    "{\"index\": 1, \"value\": 1048576, \"op\": \"SCMP_CMP_LT\"}]},\n"
    "  {\"names\": [\"mprotect\"], \"action\": \"SCMP_ACT_KILL\", "
    "\"args\": [{\"index\": 2, \"value\": 4, \"valueTwo\": 4, \"op\": "
    "\"SCMP_CMP_MASKED_EQ\"}]},\n"
    "  {\"names\": [\"mprotect\"], \"action\": \"SCMP_ACT_ALLOW\", "
    "\"args\": [{\"index\": 2, \"value\": 4, \"valueTwo\": 0, \"op\": "
    "\"SCMP_CMP_MASKED_EQ\"}]},\n"
    "  {\"names\": [\"fcntl\"], \"action\": \"SCMP_ACT_LOG\", "
    "\"args\": [{\"index\": 1, \"value\": 1030, \"op\": \"SCMP_CMP_NE\"}, "
    "{\"index\": 0, \"value\": 2, \"op\": \"SCMP_CMP_GT\"}]}\n"
    " ]}\n";

static void test_import_operators(void **state)
{
	char *json = tmp_path("ops.json");
	FILE *f = fopen(json, "w");

	(void)state;
	assert_non_null(f);
	fputs(ops_profile, f);
	assert_int_equal(fclose(f), 0);
	check_import(json, NULL, 0);
	unlink(json);
	free(json);
}

/* ---- Export --------------------------------------------------------- */

static void check_export(const char *policy)
{
	char *json = tmp_path("exported.json"), err[256], what[256];
	struct oci_export_opts o = {
	    .input = policy, .output = json, .max_errors = -1};
	const char *search[] = {"stdlib-policies"};
	struct runc_model m;
	struct prog p;

	o.search = search;
	o.nsearch = 1;
	assert_int_equal(export_oci(&o), 0);
	compile_file(policy, &p);
	if (runc_model_build(json, oci_docker_caps, oci_ndocker_caps, 6, 18, &m,
			     err, sizeof(err)))
		fail_msg("%s exported: %s", policy, err);
	snprintf(what, sizeof(what), "export %s", policy);
	compare(what, &p, NULL, &m, 0);
	runc_model_free(&m);
	prog_free(&p);
	unlink(json);
	free(json);
}

static void test_export_examples(void **state)
{
	/* ci.pol: net none, whose companions allow-list socket families */
	static const char *const pols[] = {
	    "examples/hello.pol", "examples/shell.pol", "examples/ci.pol"};

	(void)state;
	for (size_t i = 0; i < sizeof(pols) / sizeof(pols[0]); i++)
		check_export(pols[i]);
}

/* Import, then export what was imported: the agent profile's policy in
 * the runtime again. */
static void test_export_imported(void **state)
{
	char *pol = tmp_path("agent.pol");

	(void)state;
	import_to(AGENT_JSON, NULL, 0, 0, pol);
	check_export(pol);
	import_to(AGENT_JSON, NULL, 0, 1, pol); /* --int-args kernel */
	check_export(pol);
	unlink(pol);
	free(pol);
}

static const char hi_policy[] =
    "policy \"hi\" {\n"
    "  syscalls default allow {\n"
    "    errno(EPERM) socket if family == AF_VSOCK\n"
    "    errno(EXDEV) mkdir mkdirat\n"
    "    kill_thread ptrace\n"
    "    trap personality if personality.hi != 0\n"
    "    errno(E2BIG) mmap if len > 0x40000000 && prot & 0x4 == 0x4\n"
    "    log fchmod if mode & 0o7000 != 0\n"
    "    errno(EINVAL) ioctl if cmd in {0x5412, 0x541c}\n"
    "    errno(EMFILE) dup3 if newfd > 1000 && newfd < 2000\n"
    "  }\n"
    "}\n";

static void test_export_operators(void **state)
{
	char *pol = tmp_path("hi.pol");
	FILE *f = fopen(pol, "w");

	(void)state;
	assert_non_null(f);
	fputs(hi_policy, f);
	assert_int_equal(fclose(f), 0);
	check_export(pol);
	unlink(pol);
	free(pol);
}

/* The grid sees the difference the 32-bit rule makes: a profile that
 * compares an int on 64 bits is caught, and so is an import as the kernel
 * reads it (against the profile's 64-bit meaning). */
static void count_other(const char *policy, const char *json,
			int with_companions, struct counts *c)
{
	struct runc_model m;
	struct prog p;
	char err[256];

	compile_file(policy, &p);
	if (runc_model_build(json, oci_docker_caps, oci_ndocker_caps, 6, 18, &m,
			     err, sizeof(err)))
		fail_msg("%s: %s", json, err);
	memset(c, 0, sizeof(*c));
	c->lenient = 1;
	compare_into(&p, NULL, &m, with_companions, c);
	runc_model_free(&m);
	prog_free(&p);
}

static void test_controls(void **state)
{
	char *pol = tmp_path("hi.pol"), *json = tmp_path("hi.json");
	char *bad = tmp_path("hi64.json"), *text = NULL, *at;
	struct oci_export_opts o = {
	    .input = pol, .output = json, .max_errors = -1};
	struct counts c;
	size_t len = 0;
	FILE *f = fopen(pol, "w");

	(void)state;
	assert_non_null(f);
	fputs(hi_policy, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(export_oci(&o), 0);
	/* The AF_VSOCK rule with its int mask widened to 64 bits, the way
	 * profiles are usually written. */
	f = fopen(json, "r");
	assert_non_null(f);
	text = calloc(1, 1 << 20);
	len = fread(text, 1, (1 << 20) - 1, f);
	fclose(f);
	at = strstr(text, "\"value\": 4294967295, \"valueTwo\": 40");
	assert_non_null(at);
	f = fopen(bad, "w");
	fwrite(text, 1, (size_t)(at - text), f);
	fputs("\"value\": 40, \"op\": \"SCMP_CMP_EQ\"", f);
	fputs(strstr(at, "\"op\": \"SCMP_CMP_MASKED_EQ\"") +
		  strlen("\"op\": \"SCMP_CMP_MASKED_EQ\""),
	      f);
	fclose(f);
	count_other(pol, bad, 0, &c);
	printf("control: AF_VSOCK compared on 64 bits: %lu of %lu points "
	       "differ, first %s\n",
	       c.other, c.points, c.first);
	assert_true(c.other > 0);
	/* The agent profile imported as the kernel reads its ints. */
	import_to(AGENT_JSON, NULL, 0, 1, pol);
	count_other(pol, AGENT_JSON, 1, &c);
	printf("control: agent.json imported with --int-args kernel: %lu of "
	       "%lu points differ from the profile's 64-bit meaning, first "
	       "%s\n",
	       c.other, c.points, c.first);
	assert_true(c.other > 0);
	(void)len;
	free(text);
	unlink(bad);
	unlink(json);
	unlink(pol);
	free(bad);
	free(json);
	free(pol);
}

static int teardown(void **state)
{
	(void)state;
	if (tmpdir[0])
		rmdir(tmpdir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_import_agent),
	    cmocka_unit_test(test_import_agent_with_caps),
	    cmocka_unit_test(test_import_operators),
	    cmocka_unit_test(test_export_examples),
	    cmocka_unit_test(test_export_imported),
	    cmocka_unit_test(test_export_operators),
	    cmocka_unit_test(test_controls),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
