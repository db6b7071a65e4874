/* SPDX-License-Identifier: MIT */
#include "backend.h"
#include "polbin.h"
#include "sections.h"

#include <linux/filter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add(struct compiled *c, uint32_t type, uint32_t flags, uint8_t *data,
	       size_t len)
{
	if (c->n >= BACKENDS_MAX) {
		free(data);
		return -1;
	}
	c->sec[c->n].type = type;
	c->sec[c->n].flags = flags;
	c->sec[c->n].data = data;
	c->sec[c->n].len = len;
	c->n++;
	return 0;
}

static int seccomp(const struct ir_policy *p, struct compiled *c, char *err,
		   size_t errlen)
{
	struct sock_filter *prog = NULL;
	char why[512];
	size_t n = 0;
	int v;

	if (seccomp_generate(p, &prog, &n, why, sizeof(why))) {
		snprintf(err, errlen, "seccomp: %s", why);
		return 2;
	}
	v = seccomp_validate(p, prog, n, why, sizeof(why));
	if (v != 0) {
		snprintf(err, errlen, "translation validation %s: %s",
			 v == 1 ? "found a mismatch" : "could not finish", why);
		free(prog);
		return 3;
	}
	if (add(c, POLBIN_SEC_SECCOMP, POLBIN_F_CRITICAL, (uint8_t *)prog,
		n * sizeof(*prog))) {
		snprintf(err, errlen, "too many sections");
		return 2;
	}
	return 0;
}

/* The OBSERVE section: the run record's programs and names, not
 * critical (a polexec without it enforces the same, records less). */
static int observe(const struct ir_policy *p, struct compiled *c, char *err,
		   size_t errlen)
{
	uint8_t *data = NULL;
	size_t len = 0;
	int rc = observe_section_build(p, &data, &len, err, errlen);

	if (rc)
		return rc;
	if (data && add(c, POLBIN_SEC_OBSERVE, 0, data, len)) {
		snprintf(err, errlen, "too many sections");
		return 2;
	}
	return 0;
}

/* The LANDLOCK section: fs grants, `net host` TCP ports, scopes. */
static int landlock(const struct ir_policy *p, struct compiled *c, char *err,
		    size_t errlen)
{
	uint8_t *data = NULL;
	size_t len = 0;
	char why[256];

	if (landlock_section_build(p, &data, &len, why, sizeof(why))) {
		snprintf(err, errlen, "%s", why);
		return 2;
	}
	if (data && add(c, POLBIN_SEC_LANDLOCK, POLBIN_F_CRITICAL, data, len)) {
		snprintf(err, errlen, "too many sections");
		return 2;
	}
	return 0;
}

/*
 * The NET section (net none and net filtered) and, for net filtered, the
 * NFT section: nft.c. `net host` and no net block get
 * neither.
 */
static int net(const struct ir_policy *p, struct compiled *c, char *err,
	       size_t errlen)
{
	uint8_t *data = NULL;
	size_t len = 0;

	if (net_section_build(p, &data, &len, err, errlen))
		return 2;
	if (!data)
		return 0;
	if (add(c, POLBIN_SEC_NET, POLBIN_F_CRITICAL, data, len)) {
		snprintf(err, errlen, "too many sections");
		return 2;
	}
	if (p->net.mode != IR_NET_FILTERED)
		return 0;
	if (nft_section_build(p, &data, &len, err, errlen))
		return 2;
	if (add(c, POLBIN_SEC_NFT, POLBIN_F_CRITICAL, data, len)) {
		snprintf(err, errlen, "too many sections");
		return 2;
	}
	return 0;
}

/*
 * The EBPF section (ebpf.c), beside NET: critical when the policy forces
 * the cgroup backend (a polexec that does not know it must refuse), else
 * not (an older polexec keeps the namespace). Proven equal to the IR
 * before it is written. A policy this backend cannot hold is an error
 * only when it forces it; else the artifact has the namespace alone.
 */
static int ebpf(const struct ir_policy *p, struct compiled *c, char *err,
		size_t errlen)
{
	uint8_t *data = NULL;
	size_t len = 0;
	char why[512];
	int rc = ebpf_section_build(p, &data, &len, why, sizeof(why));

	if (rc > 0 && p->net.backend != IR_NET_BACKEND_CGROUP &&
	    p->net.backend != IR_NET_BACKEND_CGROUP_NAMESPACE &&
	    p->net.backend != IR_NET_BACKEND_BROKER)
		return 0;
	if (rc) {
		snprintf(err, errlen, "net backend %s: %s",
			 p->net.backend == IR_NET_BACKEND_BROKER ? "broker"
			 : p->net.backend == IR_NET_BACKEND_CGROUP_NAMESPACE
			     ? "cgroup namespace"
			     : "cgroup",
			 why);
		return 2;
	}
	if (!data)
		return 0;
	rc = ebpf_validate(p, data, len, why, sizeof(why));
	if (rc) {
		free(data);
		snprintf(err, errlen, "translation validation %s: %s",
			 rc > 0 ? "found a mismatch" : "could not finish", why);
		return 3;
	}
	if (add(c, POLBIN_SEC_EBPF,
		p->net.backend == IR_NET_BACKEND_CGROUP ? POLBIN_F_CRITICAL : 0,
		data, len)) {
		snprintf(err, errlen, "too many sections");
		return 2;
	}
	return 0;
}

/*
 * Layers the IR states that no backend of this polc compiles yet: none
 * today (fs and landlock are the LANDLOCK section, net the NET and NFT
 * sections, `net host` needs nothing but its Landlock port rules). The
 * UNENFORCED mechanism stays for the next layer that lands in the language
 * before its backend.
 */
static void unenforced_layers(const struct ir_policy *p, char *buf, size_t len)
{
	(void)p;
	(void)len;
	buf[0] = '\0';
}

/* The VIEW section and, with a view, the NOEXEC program (view.c). */
static int view(const struct ir_policy *p, struct compiled *c, char *err,
		size_t errlen)
{
	struct sock_filter *prog = NULL;
	uint8_t *data = NULL;
	size_t len = 0, n = 0;
	int rc;

	if (view_section_build(p, &data, &len, err, errlen))
		return 2;
	if (data && add(c, POLBIN_SEC_VIEW, POLBIN_F_CRITICAL, data, len))
		goto full;
	if ((rc = view_noexec_build(p, &prog, &n, err, errlen)))
		return rc;
	if (prog && add(c, POLBIN_SEC_NOEXEC, POLBIN_F_CRITICAL,
			(uint8_t *)prog, n * sizeof(*prog)))
		goto full;
	return 0;
full:
	snprintf(err, errlen, "too many sections");
	return 2;
}

/* The NONET program for `net none` (nonet.c): not critical, so a polexec
 * that does not know it refuses such a box as before, for want of a
 * namespace, rather than every `net none` artifact. */
static int nonet(const struct ir_policy *p, struct compiled *c, char *err,
		 size_t errlen)
{
	struct sock_filter *prog = NULL;
	size_t n = 0;
	int rc;

	if ((rc = nonet_build(p, &prog, &n, err, errlen)))
		return rc;
	if (prog &&
	    add(c, POLBIN_SEC_NONET, 0, (uint8_t *)prog, n * sizeof(*prog))) {
		snprintf(err, errlen, "too many sections");
		return 2;
	}
	return 0;
}

/* The BROKER program (broker.c), beside the EBPF section whose rules the
 * broker decides by: critical when the policy says `backend broker` (a
 * polexec that does not know it must refuse), else not. */
static int broker(const struct ir_policy *p, struct compiled *c, char *err,
		  size_t errlen)
{
	struct sock_filter *prog = NULL;
	size_t n = 0;
	int rc;

	if (p->net.backend == IR_NET_BACKEND_BROKER &&
	    p->net.mode == IR_NET_NONE && !p->net.nloopback) {
		snprintf(err, errlen,
			 "net backend broker: a `net none` without loopback "
			 "ports has nothing to broker (write `net none`)");
		return 2;
	}
	if (p->net.backend == IR_NET_BACKEND_BROKER && !p->sys.present) {
		snprintf(err, errlen,
			 "net backend broker: the policy has no syscalls "
			 "block, which the broker's notify program needs");
		return 2;
	}
	for (size_t i = 0; i < c->n; i++)
		if (c->sec[i].type == POLBIN_SEC_EBPF)
			goto have_rules;
	return 0; /* no rules to decide by: the namespace alone */
have_rules:
	if ((rc = broker_build(p, &prog, &n, err, errlen)))
		return rc;
	if (prog &&
	    add(c, POLBIN_SEC_BROKER,
		p->net.backend == IR_NET_BACKEND_BROKER ? POLBIN_F_CRITICAL : 0,
		(uint8_t *)prog, n * sizeof(*prog))) {
		snprintf(err, errlen, "too many sections");
		return 2;
	}
	return 0;
}

int backends_compile(const struct ir_policy *p, struct compiled *c, char *err,
		     size_t errlen)
{
	char layers[128], why[256];
	uint8_t *data = NULL;
	size_t len = 0;
	int rc;

	memset(c, 0, sizeof(*c));
	if (p->sys.present && ((rc = seccomp(p, c, err, errlen)) ||
			       (rc = observe(p, c, err, errlen))))
		goto fail;
	if ((rc = landlock(p, c, err, errlen)))
		goto fail;
	if ((rc = view(p, c, err, errlen)))
		goto fail;
	if ((rc = nonet(p, c, err, errlen)))
		goto fail;
	rc = 2;
	if (env_section_build(p, &data, &len, why, sizeof(why))) {
		snprintf(err, errlen, "env: %s", why);
		goto fail;
	}
	if (add(c, POLBIN_SEC_ENV, POLBIN_F_CRITICAL, data, len))
		goto full;
	if (limits_section_build(p, &data, &len, why, sizeof(why))) {
		snprintf(err, errlen, "%s", why);
		goto fail;
	}
	if (add(c, POLBIN_SEC_LIMITS, POLBIN_F_CRITICAL, data, len))
		goto full;
	if ((rc = net(p, c, err, errlen)) || (rc = ebpf(p, c, err, errlen)) ||
	    (rc = broker(p, c, err, errlen)))
		goto fail;
	rc = 2;
	unenforced_layers(p, layers, sizeof(layers));
	if (layers[0]) {
		data = (uint8_t *)strdup(layers);
		if (!data) {
			snprintf(err, errlen, "out of memory");
			goto fail;
		}
		if (add(c, POLBIN_SEC_UNENFORCED, POLBIN_F_CRITICAL, data,
			strlen(layers)))
			goto full;
	}
	return 0;
full:
	snprintf(err, errlen, "too many sections");
fail:
	backends_free(c);
	return rc;
}

int backends_build(const struct ir_policy *p, struct compiled *out,
		   uint8_t **ir, size_t *irlen, char *err, size_t errlen)
{
	struct ir_policy *back = NULL;
	char why[512];
	int rc;

	memset(out, 0, sizeof(*out));
	*ir = NULL;
	*irlen = 0;
	if (ir_serialize(p, ir, irlen) != IR_OK) {
		snprintf(err, errlen, "out of memory");
		return 2;
	}
	/* polexec and the prover read this back: never compile what our
	 * own reader would refuse. */
	rc = ir_deserialize(*ir, *irlen, &back, why, sizeof(why));
	ir_policy_destroy(&back);
	if (rc == IR_ENOMEM) {
		snprintf(err, errlen, "out of memory");
		rc = 2;
	} else if (rc != IR_OK) {
		snprintf(err, errlen, "the IR does not read back: %s", why);
		rc = 3;
	} else {
		rc = backends_compile(p, out, err, errlen);
	}
	if (rc) {
		free(*ir);
		*ir = NULL;
		*irlen = 0;
	}
	return rc;
}

void backends_free(struct compiled *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->sec[i].data);
	memset(c, 0, sizeof(*c));
}

const struct compiled_section *backends_find(const struct compiled *c,
					     uint32_t type)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->sec[i].type == type)
			return &c->sec[i];
	return NULL;
}
