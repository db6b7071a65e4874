/* SPDX-License-Identifier: MIT */
/*
 * --doctor: the limits tiers this machine offers (doctor.c prints them),
 * and with an artifact the tier each of its limits would get (tiers.c).
 */
#include "limits_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char hint_v2[] =
    "run polexec in a delegated cgroup v2 of its own: systemd-run --user "
    "--scope -p Delegate=yes polexec ... (with a user manager: loginctl "
    "enable-linger USER)";

int limits_probe_cgroup_v2(char *d, size_t len)
{
	char mnt[PATH_MAX], path[PATH_MAX], dir[PATH_MAX], ctl[256];
	char sub[PATH_MAX + 32];
	int mem, pids, writable;

	if (cg_mountpoint(NULL, mnt, sizeof(mnt)) < 0) {
		snprintf(d, len, "not mounted; to use it, %s", hint_v2);
		return 1;
	}
	if (cg_selfpath(NULL, path, sizeof(path)) < 0 ||
	    join(dir, sizeof(dir), "%s%s", mnt, strcmp(path, "/") ? path : "") <
		0 ||
	    read_text(dir, "cgroup.controllers", ctl, sizeof(ctl)) < 0) {
		snprintf(d, len, "mounted at %s, polexec's cgroup unreadable",
			 mnt);
		return 1;
	}
	ctl[strcspn(ctl, "\n")] = '\0';
	mem = has_token(ctl, "memory");
	pids = has_token(ctl, "pids");
	snprintf(sub, sizeof(sub), "%s/cgroup.subtree_control", dir);
	writable = access(dir, W_OK) == 0 && access(sub, W_OK) == 0;
	if (mem && pids && writable) {
		snprintf(d, len, "%s: memory and pids delegated to polexec",
			 dir);
		return 0;
	}
	snprintf(d, len, "%s offers [%s]%s; %s%s", dir, ctl,
		 writable ? "" : ", not writable by this user",
		 !mem || !pids
		     ? "memory and pids are not v2 controllers here (a hybrid "
		       "host keeps them in v1; boot with "
		       "systemd.unified_cgroup_hierarchy=1 for v2); then "
		     : "",
		 hint_v2);
	return 1;
}

int limits_probe_cgroup_v1(char *d, size_t len)
{
	static const char *const ctrls[] = {"memory", "pids"};
	char mnt[PATH_MAX], path[PATH_MAX], dir[PATH_MAX];
	size_t used = 0, i;
	int ok = 0;

	for (i = 0; i < 2; i++) {
		const char *state;

		if (cg_mountpoint(ctrls[i], mnt, sizeof(mnt)) < 0 ||
		    cg_selfpath(ctrls[i], path, sizeof(path)) < 0)
			state = "not mounted";
		else if (join(dir, sizeof(dir), "%s%s", mnt,
			      strcmp(path, "/") ? path : "") < 0 ||
			 access(dir, W_OK) < 0)
			state = "mounted, not writable (needs root)";
		else {
			state = "usable";
			ok++;
		}
		if (used < len)
			used +=
			    (size_t)snprintf(d + used, len - used, "%s%s %s",
					     i ? "; " : "", ctrls[i], state);
	}
	return ok == 2 ? 0 : 1;
}

int limits_probe_rlimits(char *d, size_t len)
{
	struct rlimit nofile, nproc;

	if (sys_prlimit(RLIMIT_NOFILE, NULL, &nofile) < 0 ||
	    sys_prlimit(RLIMIT_NPROC, NULL, &nproc) < 0) {
		snprintf(d, len, "getrlimit: %s", strerror(errno));
		return 1;
	}
	snprintf(d, len,
		 "AS NPROC NOFILE CPU FSIZE CORE (hard nofile %llu); "
		 "RLIMIT_NPROC %s",
		 (unsigned long long)nofile.rlim_max,
		 getuid() == 0 ? "does not bind root"
		 : boxns_userns_available()
		     ? "counts the box alone in its own user namespace"
		     : "counts every process of this uid (no user namespace)");
	return 0;
}

static void doctor_line(const char *what, const char *status,
			const char *detail)
{
	printf("  %-16s %-8s %s\n", what, status, detail);
}

int limits_doctor(const struct policy *p)
{
	int require = !!(p->limits.flags & POLBIN_LIMITS_F_REQUIRE),
	    missing = 0;
	uint32_t want;
	char line[2048];
	int i;

	if (!p->limits.present || !(p->limits.flags & POLBIN_LIMITS_F_STATED)) {
		doctor_line("limits", "found", "none stated (core dumps off)");
		return 0;
	}
	L.spec = &p->limits;
	(void)cg_acquire(&want); /* cg_tier() below reads what it got */
	for (i = 0; i < POLBIN_LIM_COUNT; i++) {
		const char *status = "found", *tier;
		char what[32];

		if (!is_set(i) || i == POLBIN_LIM_GRACE ||
		    (i == POLBIN_LIM_CORE && !p->limits.value[i]))
			continue;
		snprintf(what, sizeof(what), "limits %s", lim_name[i]);
		if (i == POLBIN_LIM_MEMORY || i == POLBIN_LIM_PIDS) {
			uint32_t bit =
			    i == POLBIN_LIM_MEMORY ? CG_MEMORY : CG_PIDS;

			tier = cg_tier(bit);
			if (!tier && i == POLBIN_LIM_PIDS && getuid() != 0 &&
			    boxns_userns_available())
				tier = "rlimit-userns (the box's own count)";
			if (!tier) {
				status = require ? "MISSING" : "degraded";
				missing += require;
				snprintf(line, sizeof(line),
					 "only %s here (%s); %s. To get a "
					 "cgroup: run as root where cgroup v1 "
					 "is mounted, or %s",
					 i == POLBIN_LIM_MEMORY
					     ? "RLIMIT_AS of each process"
					 : getuid() == 0
					     ? "not enforced, root is exempt "
					       "from RLIMIT_NPROC"
					     : "RLIMIT_NPROC of the whole uid",
					 L.cg_why,
					 require ? "`limits require` refuses "
						   "that"
						 : "best_effort runs with a "
						   "warning",
					 hint_v2);
				doctor_line(what, status, line);
				continue;
			}
		} else {
			tier = i == POLBIN_LIM_WALL ? "parent (SIGTERM, then "
						      "SIGKILL after grace)"
						    : "rlimit";
		}
		doctor_line(what, status, tier);
	}
	limits_abort();
	return missing;
}
