/* SPDX-License-Identifier: MIT */
/*
 * polexec --doctor ARTIFACT: what that policy needs, each need found or
 * missing on this machine, with how to get what is missing. The exit
 * status is 0 when everything is here, 1 otherwise (125 when the artifact
 * itself is defective, as for a run). The needs, by section:
 *   seccomp   the filter mode of seccomp and no_new_privs
 *   limits    each limit's tier, found by making (and removing) the box's
 *             cgroups as a run would; under `limits require` memory or
 *             pids without a cgroup is missing, under best_effort it is
 *             reported degraded
 *   landlock  the kernel's Landlock ABI against the policy's minimum:
 *             older is missing under `require`; best_effort runs with
 *             what the kernel has, degraded without Landlock (landlock.c)
 *   view      the box's own mount and pid namespaces: root, or a user
 *             namespace; each step tried in a throwaway child
 *             (box/trial.c), the rung it would get named (pivot_root,
 *             chroot, or under best_effort the host's tree: degraded)
 *   env       secrets need a mount namespace of the box's own: root, or
 *             a user namespace; and the folder each goes in must exist
 *             (or be made on /run's tmpfs), as the run checks it
 *   net       the box's network namespace (a user namespace when not
 *             root, or with pasta or loopback ports), made and its
 *             loopback brought up in a throwaway child, and for pasta
 *             (`net filtered`) the binary and /dev/net/tun; a user
 *             namespace that cannot be made names the likely cause
 *             (userns.c: the sysctls, AppArmor's restriction) and the fix
 *   any other critical section (a newer layer, a marker of a layer polc
 *             could not compile): this polexec does not enforce it
 *
 * The kernel's features, with no artifact, are `polc doctor`'s report
 * (compiler/cli/doctor.c): it needs no privilege and no box.
 */
#include "doctor.h"
#include "artifact.h"
#include "box/boxns.h"
#include "box/trial.h"
#include "box/view.h"
#include "landlock/landlock.h"
#include "net/broker.h"
#include "net/fallback.h"
#include "lib/kernel.h"
#include "limits/limits.h"
#include "net/ebpf.h"
#include "net/net.h"
#include "lib/util.h"
#include "secrets.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static const char hint_v2[] =
    "run polexec in a delegated cgroup v2 of its own: systemd-run --user "
    "--scope -p Delegate=yes polexec ... (with a user manager: loginctl "
    "enable-linger USER)";

static int write_errno; /* a failed write to stdout: its errno */
static int degraded;	/* lines that said degraded */

/* "  WHAT             STATUS   DETAIL" on stdout. */
static void line(const char *what, const char *status, const char *detail)
{
	if (out(STDOUT_FILENO, "  %-16s %-8s %s\n", what, status, detail) < 0)
		write_errno = errno;
	if (!strcmp(status, "degraded"))
		degraded++;
}

static int check_seccomp(void)
{
	uint32_t allow = SECCOMP_RET_ALLOW;

	if (sys_seccomp(SECCOMP_GET_ACTION_AVAIL, 0, &allow) < 0 ||
	    prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) < 0) {
		line("seccomp", "MISSING",
		     "the seccomp filter mode or no_new_privs is missing: a "
		     "kernel with CONFIG_SECCOMP_FILTER is needed");
		return 1;
	}
	line("seccomp", "found", "filter mode and no_new_privs");
	return 0;
}

/* A namespace of the box's own: found as root (when root suffices) or
 * with a user namespace, else missing with how to get one. */
static int check_ns(const char *what, const char *ns, int root_suffices)
{
	char detail[1400];
	int root = root_suffices && boxns_privileged();

	if (root || boxns_userns_available()) {
		snprintf(detail, sizeof(detail),
			 "a %s%s namespace of the box's own%s",
			 root ? "" : "user and a ", ns, root ? " (root)" : "");
		line(what, "found", detail);
		return 0;
	}
	snprintf(detail, sizeof(detail),
		 "the box's own %s namespace needs a user namespace, which "
		 "this user may not create: %s",
		 ns, boxns_userns_why());
	line(what, "MISSING", detail);
	return 1;
}

/* Each rule path the policy names literally (no ~, no ${VAR}) and does not
 * mark optional, opened as a run opens it: a missing one is a refusal. */
static int check_rule_paths(const struct ll_spec *l)
{
	char detail[POLBIN_LL_MAX_PATH + 96];
	int missing = 0;
	uint32_t i;

	for (i = 0; i < l->nfs; i++) {
		const struct ll_rule *r = &l->fs[i];
		int fd;

		if (r->flags & POLBIN_LL_F_OPTIONAL || strchr(r->path, '$') ||
		    r->path[0] == '~')
			continue;
		fd = landlock_open_rule(r->path, r->flags & POLBIN_LL_F_FOLLOW);
		if (fd >= 0) {
			close(fd);
			continue;
		}
		snprintf(detail, sizeof(detail),
			 "%s: %s (the rule is not optional)", r->path,
			 strerror(errno));
		line("landlock path", "MISSING", detail);
		missing++;
	}
	return missing;
}

static int check_landlock(const struct ll_spec *l)
{
	char detail[240];
	int require = l->mode == POLBIN_LL_REQUIRE, abi;
	const char *status = "found";

	if (!l->present)
		return 0;
	abi = sys_landlock_create_ruleset(NULL, 0,
					  LANDLOCK_CREATE_RULESET_VERSION);
	if (abi < 0) {
		snprintf(detail, sizeof(detail),
			 "Landlock is unavailable (%s); the policy asks for "
			 "ABI >= %u",
			 strerror(errno), l->abi_min);
		status = require ? "MISSING" : "degraded";
	} else if (abi < (int)l->abi_min) {
		/* best_effort drops only what this ABI lacks (landlock.c) */
		snprintf(detail, sizeof(detail),
			 "the kernel's ABI is %d, below the policy's %u%s", abi,
			 l->abi_min,
			 require ? " (require)"
				 : " (best_effort: the record names any "
				   "right it lacks)");
		status = require ? "MISSING" : "found";
	} else {
		snprintf(detail, sizeof(detail),
			 "the kernel's ABI is %d; the policy asks for >= %u",
			 abi, l->abi_min);
	}
	line("landlock", status, detail);
	return status[0] == 'M';
}

/* `user U:G`: the box's ids, as view_plan takes them (a box running as
 * another uid than root's is bound by RLIMIT_NPROC: limits_doctor), in
 * a user namespace unless root may make namespaces itself. */
static int check_user(const struct policy *p)
{
	char detail[1400];

	boxns_map_user(p->view.uid, p->view.gid);
	if (!boxns_wanted(BOXNS_USER)) {
		snprintf(detail, sizeof(detail), "%u:%u, taken by root",
			 p->view.uid, p->view.gid);
		line("user", "found", detail);
		return 0;
	}
	if (boxns_userns_available()) {
		snprintf(detail, sizeof(detail),
			 "%u:%u, in a user namespace of the box's own",
			 p->view.uid, p->view.gid);
		line("user", "found", detail);
		return 0;
	}
	snprintf(detail, sizeof(detail),
		 "`user %u:%u` needs a user namespace, which this user may "
		 "not create: %s",
		 p->view.uid, p->view.gid, boxns_userns_why());
	line("user", "MISSING", detail);
	return 1;
}

/*
 * The view's ladder, tried as the run tries it (box/trial.c): the rung it
 * would get, or under `fs` (require) what is missing and how to get it.
 */
static int check_view(const struct policy *p)
{
	int best = p->view.flags & POLBIN_VIEW_F_BEST_EFFORT;
	int user = view_in_userns(p);
	char detail[1400];
	struct trial t = {TRIAL_OK, 0, 0};

	if (!(p->view.flags & POLBIN_VIEW_F_ROOT))
		return 0;
	if (user && !boxns_userns_available()) {
		snprintf(detail, sizeof(detail),
			 "no user namespace for this user (%s)",
			 boxns_userns_why());
	} else if (trial_run(user, TRIAL_WANT_VIEW, &t) < 0) {
		line("view", "MISSING", "the trial of its steps failed");
		return 1;
	} else if (t.step == TRIAL_OK || t.step == TRIAL_CHROOT) {
		snprintf(detail, sizeof(detail),
			 "a %smount and pid namespace of the box's own, rung "
			 "%s%s%s%s%s",
			 user ? "user, " : "",
			 t.step == TRIAL_OK ? "pivot_root" : "chroot",
			 t.step == TRIAL_OK ? "" : " (pivot_root: ",
			 t.step == TRIAL_OK ? "" : strerror(t.err),
			 t.step == TRIAL_OK ? "" : "; ",
			 t.step == TRIAL_OK ? "" : trial_hint(&t));
		if (t.step == TRIAL_CHROOT)
			snprintf(detail + strlen(detail),
				 sizeof(detail) - strlen(detail), ")");
		/* view_plan: a /proc bound in place of a fresh procfs is
		 * a degraded view */
		if (t.proc_rbind)
			snprintf(
			    detail + strlen(detail),
			    sizeof(detail) - strlen(detail),
			    "; proc: a fresh procfs is refused here (masked "
			    "/proc paths), the container's /proc bound: %s",
			    trial_hint(&(struct trial){TRIAL_PROCFS, 0, 0}));
		line("view",
		     t.step == TRIAL_OK && !t.proc_rbind ? "found" : "degraded",
		     detail);
		return 0;
	} else {
		snprintf(detail, sizeof(detail), "%s: %s (%s)",
			 trial_step_name(t.step), strerror(t.err),
			 trial_hint(&t));
	}
	if (!best) {
		line("view", "MISSING", detail);
		return 1;
	}
	snprintf(detail + strlen(detail), sizeof(detail) - strlen(detail),
		 "; fs best_effort: rung landlock, the host's tree with "
		 "/dev, /tmp and /proc replaced");
	line("view", "degraded", detail);
	return 0;
}

/* The box's mount namespace, and the folder each secret goes in, as the
 * run checks it (secrets.c; a place naming a variable is the run's). */
static int check_secrets(const struct policy *p)
{
	char why[PATH_MAX * 2 + 200], detail[sizeof(why) + 64];
	int missing = -1;
	uint32_t i;

	for (i = 0; i < p->nenv; i++) {
		const struct env_entry *e = &p->env[i];

		if (e->kind != ENV_SECRET)
			continue;
		if (missing < 0)
			missing = check_ns("env secrets", "mount", 1);
		if (e->dest && !strchr(e->dest, '$') && e->dest[0] == '/' &&
		    secrets_folder_why(e->dest, why, sizeof(why))) {
			snprintf(detail, sizeof(detail), "secret %s: %s",
				 e->name, why);
			line("env secrets", "MISSING", detail);
			missing++;
		}
	}
	return missing < 0 ? 0 : missing;
}

/* The box's network namespace made and its loopback brought up, in a
 * throwaway child, as the run does (box/trial.c). */
static int check_net_trial(const struct net_spec *n)
{
	char detail[1400];
	struct trial t = {TRIAL_OK, 0, 0};

	if (trial_run(net_needs_pair(n) || !boxns_net_privileged(),
		      TRIAL_WANT_NET, &t) < 0) {
		line("net loopback", "MISSING",
		     "the trial of the box's network namespace failed");
		return 1;
	}
	if (t.step == TRIAL_OK)
		return 0;
	snprintf(detail, sizeof(detail), "%s: %s (%s)", trial_step_name(t.step),
		 strerror(t.err), trial_hint(&t));
	line("net loopback", "MISSING", detail);
	return 1;
}

static int check_net(const struct policy *p)
{
	const struct net_spec *n = &p->net;
	int pasta = net_needs_pasta(n), missing, cgroup, forced;
	int asked = net_backend_asked();

	if (!n->present)
		return 0;
	/* net.c: the second rung where no namespace can be had */
	if (net_fallback_wanted(p) && !boxns_net_privileged() &&
	    !boxns_userns_available()) {
		line("net none", "degraded",
		     "no network namespace here: rung seccomp (every socket "
		     "family but AF_UNIX refused) and Landlock's TCP rules "
		     "where the kernel has them");
		return 0;
	}
	/* the cgroup backend (net/ebpf.c): taken only when the policy
	 * forces it (or --net-backend cgroup); where it is forced and not
	 * had, it is missing */
	/* the notify broker (net/broker.c): forced, or auto's last rung
	 * where neither a namespace nor the cgroup programs can be had */
	if (asked == NET_BACKEND_BROKER || p->broker_forced ||
	    (asked == NET_BACKEND_AUTO && n->ebpf.present && p->nbroker &&
	     !net_namespace_usable(n) &&
	     !(ebpf_capable() && landlock_abi() >= 6))) {
		const char *no = broker_unavailable_here(p);

		if (no)
			line("net backend", "MISSING", no);
		else
			line("net backend", "found",
			     p->broker_forced || asked == NET_BACKEND_BROKER
				 ? "the notify broker (seccomp user "
				   "notification), as the policy or "
				   "--net-backend says"
				 : "the notify broker (seccomp user "
				   "notification): no network namespace and no "
				   "cgroup programs here");
		return no != NULL;
	}
	/* `backend cgroup namespace`: the programs where they can be had,
	 * else the namespace, checked below as for any namespace box */
	if (n->ebpf.fallback && asked == NET_BACKEND_AUTO) {
		if (ebpf_capable() && landlock_abi() >= 6) {
			line(
			    "net backend", "found",
			    "cgroup eBPF programs (CAP_BPF and CAP_NET_ADMIN), "
			    "first in the policy's `backend cgroup namespace`; "
			    "the network namespace where they fail to install");
		} else {
			line(
			    "net backend", "found",
			    ebpf_capable()
				? "the network namespace, next in the policy's "
				  "`backend cgroup namespace` (the cgroup "
				  "programs need Landlock ABI 6 here)"
				: "the network namespace, next in the policy's "
				  "`backend cgroup namespace` (the cgroup "
				  "programs need CAP_BPF and CAP_NET_ADMIN)");
		}
	}
	forced = n->ebpf.forced || asked == NET_BACKEND_CGROUP;
	/* net.c: the box in the caller's network needs Landlock's
	 * abstract-unix scope (ABI 6), or the cgroup backend is refused */
	cgroup = forced && ebpf_capable() && landlock_abi() >= 6;
	if (n->ebpf.fallback && asked == NET_BACKEND_AUTO)
		/* said above; the namespace's needs below, for a fallback */
		cgroup = ebpf_capable() && landlock_abi() >= 6;
	else if (cgroup)
		line("net backend", "found",
		     "cgroup eBPF programs (CAP_BPF and CAP_NET_ADMIN), as the "
		     "policy or --net-backend says");
	else if (forced && ebpf_capable())
		line("net backend", "MISSING",
		     "the policy or --net-backend says `cgroup`, which needs "
		     "Landlock ABI 6 (Linux 6.12) to keep the host's abstract "
		     "unix sockets from the box");
	else if (forced)
		line("net backend", "MISSING",
		     "the policy or --net-backend says `cgroup`, which needs "
		     "CAP_BPF and CAP_NET_ADMIN (root)");
	else if (asked == NET_BACKEND_NAMESPACE)
		line("net backend", "found",
		     "the network namespace, as --net-backend says");
	else if (n->ebpf.present && ebpf_capable() && landlock_abi() >= 6)
		line("net backend", "found",
		     "the network namespace; the cgroup programs could be "
		     "attached here too, with --net-backend cgroup");
	else if (p->nbroker && !broker_unavailable_here(p))
		line("net backend", "found",
		     "the network namespace; the notify broker could be used "
		     "here too, with --net-backend broker");
	else
		line("net backend", "found", "the network namespace");
	/* the pair (net.c) is a user namespace's, root's too */
	missing =
	    check_ns(n->mode == POLBIN_NET_FILTERED ? "net filtered"
		     : n->nloopback		    ? "net loopback"
						    : "net none",
		     "network", !net_needs_pair(n) && boxns_net_privileged());
	if (!missing)
		missing = check_net_trial(n);
	if (pasta && !net_pasta_path()) {
		line("pasta", "MISSING",
		     "install the Debian package passt (/usr/bin/pasta)");
		missing++;
	} else if (pasta) {
		line("pasta", "found", net_pasta_path());
	}
	if (pasta && !net_tun_usable()) {
		line("/dev/net/tun", "MISSING",
		     "pasta opens it: this user needs read and write access "
		     "(udev's usual mode is 0666)");
		missing++;
	}
	return cgroup ? 0 : missing + forced;
}

/* With an artifact: what it needs, found or missing; 0 or 1. */
static int check_artifact(const char *path)
{
	static struct policy policy;
	struct polbin pb;
	uint32_t everything[256], i;
	int missing = 0;
	char err[256];

	artifact_read(path, &policy);
	for (i = 0; i < 255; i++)
		everything[i] = i + 1;
	everything[255] = 0;
	if (polbin_parse(policy.buf, policy.len, everything, &pb, err,
			 sizeof(err)) < 0)
		die("doctor: %s: %s", path, err);
	out(STDOUT_FILENO, "what %s needs:\n", path);
	for (i = 0; i < pb.nsections; i++) {
		const struct polbin_section *s = &pb.sections[i];

		if (!(s->flags & POLBIN_F_CRITICAL) ||
		    artifact_implements(s->type))
			continue;
		missing++;
		line(s->type == POLBIN_SEC_UNENFORCED
			 ? "uncompiled"
			 : polbin_section_name(s->type),
		     "MISSING",
		     s->type == POLBIN_SEC_UNENFORCED
			 ? "the policy states layers polc could not compile; "
			   "no polexec runs it"
			 : "this polexec does not enforce this layer; a newer "
			   "polexec is needed");
	}
	if (!missing) {
		/* validated as for a run */
		artifact_decode(path, &policy, policy.buf, policy.len);
		if (policy.nfilter)
			missing += check_seccomp();
		missing += check_landlock(&policy.ll);
		if (policy.ll.present)
			missing += check_rule_paths(&policy.ll);
		/* the box's ids, as view_plan takes them: a box running as
		 * another uid than root's is bound by RLIMIT_NPROC */
		if (policy.view.flags & POLBIN_VIEW_F_USER)
			missing += check_user(&policy);
		if (policy.view.present)
			missing += check_view(&policy);
		missing += limits_doctor(&policy, hint_v2, line);
		missing += check_secrets(&policy);
		missing += check_net(&policy);
	}
	if (missing)
		out(STDOUT_FILENO,
		    "%d need%s missing: polexec would refuse or degrade "
		    "this artifact here\n",
		    missing, missing == 1 ? " is" : "s are");
	else if (degraded)
		out(STDOUT_FILENO,
		    "it runs here, degraded in %d layer%s (--require-enforced "
		    "would refuse it)\n",
		    degraded, degraded == 1 ? "" : "s");
	else
		out(STDOUT_FILENO, "everything it needs is here\n");
	return missing ? 1 : 0;
}

int doctor(const char *artifact)
{
	int rc;

	if (!artifact)
		die("doctor: the kernel's features are `polc doctor` now; "
		    "`polexec --doctor ARTIFACT` says what one artifact needs "
		    "here");
	rc = check_artifact(artifact);
	if (write_errno) {
		errno = write_errno;
		die_with_error("doctor: write");
	}
	return rc;
}
