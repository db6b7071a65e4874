/* SPDX-License-Identifier: MIT */
/*
 * The box's network (the NET and NFT sections, artifact/sections.h).
 *
 * `net none` without loopback ports needs nothing from here: the box child
 * unshares a network namespace of its own (boxns.c). Everything else needs
 * that namespace made before the box: pasta (`net filtered`) must join
 * it, and the relay of loopback ports (relay.c) listens in it, while the
 * box child (CLONE_VFORK) keeps polexec suspended. So the pair is made
 * first, by a short-lived helper:
 *
 *   net_plan      (parent) the tier; pasta found; namespaces asked for
 *   net_prepare   (parent) names resolved once and pinned, ${VAR} entries
 *                 bound; the batch built: the artifact's messages and the
 *                 pinned addresses, one transaction; the text of the
 *                 box's /etc/hosts and resolv.conf
 *   net_start     (parent) the helper (CLONE_VM | CLONE_VFORK |
 *                 CLONE_FILES) makes the user and network namespaces,
 *                 brings lo up, installs the table, listens on the
 *                 loopback ports and leaves behind, in our fd table, both
 *                 namespaces, the listeners and the netlink socket it
 *                 used; then the relay and pasta are started on them
 *   (box child)   joins the pair (boxns.c) and, in its own mount
 *                 namespace, sees the pinned hosts file and a resolv.conf
 *                 naming no resolver (net_child_mounts)
 *   net_finish    (parent, after the box exited) the evidence sets read
 *                 through the kept socket, which also kept the namespace
 *                 alive; pasta and the relay stopped
 *
 * The box cannot change the table: it holds no capability once child.c has
 * dropped them, and the seccomp companion rules refuse netlink sockets
 * other than NETLINK_ROUTE.
 */
#include "net.h"
#include "fallback.h"
#include "observe/observe.h"
#include "box/boxns.h"
#include "box/trial.h"
#include "landlock/landlock.h"
#include "lib/kernel.h"
#include "broker.h"
#include "ebpf.h"
#include "nfnl.h"
#include "pasta.h"
#include "lib/protect.h"
#include "relay.h"
#include "resolve.h"
#include "observe/sbpf.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/netlink.h>

struct pinned_addr {
	int family; /* AF_INET or AF_INET6 */
	uint8_t a[16];
};

struct pinned {
	const char *shown; /* the name, or ${VAR} */
	uint32_t n;
	struct pinned_addr a[POLEXEC_MAX_NET_ADDRS];
};

static struct {
	const struct net_spec *spec;
	struct pinned *pin;
	struct nfnl_batch batch;
	char *hosts, *resolv; /* the box's /etc/hosts and resolv.conf */
	int userfd, netfd, nlfd;
	pid_t pasta_pid;
	struct text blocked; /* "ADDR:PORT/PROTO" JSON strings, comma-joined */
	int blocked_read;    /* -1 failed, 1 read */
	uint32_t full4, full6; /* elements read from blocked4, blocked6 */
	int backend_arg;       /* --net-backend: NET_BACKEND_* */
	int cgroup;	       /* the cgroup eBPF backend enforces it */
	int broker;	       /* the notify broker enforces it */
	int ladder;	       /* auto, without a namespace: cgroup, broker */
	const char *nobroker;  /* auto: why the broker could not be had */
	const struct policy *p;
	const char *fallback;	  /* why auto fell back to the namespace */
	char listed_why[640];	  /* the list's: "cgroup: ..." */
	int (*cgroup_open)(void); /* the box's cgroup v2, opened */
	char *cg2[8];		  /* cgroup2 mount points, for the child */
	int ncg2;
} N = {.userfd = -1, .netfd = -1, .nlfd = -1};

void net_backend_arg(int backend)
{
	N.backend_arg = backend;
}

int net_backend_asked(void)
{
	return N.backend_arg;
}

static const char *const pasta_paths[] = {"/usr/bin/pasta",
					  "/usr/local/bin/pasta"};

const char *net_pasta_path(void)
{
	size_t i;

	for (i = 0; i < sizeof(pasta_paths) / sizeof(pasta_paths[0]); i++)
		if (access(pasta_paths[i], X_OK) == 0)
			return pasta_paths[i];
	return NULL;
}

/* pasta opens the tun device itself; a 0600 one stops a non-root caller
 * with a message that does not say why. */
int net_tun_usable(void)
{
	return access("/dev/net/tun", R_OK | W_OK) == 0;
}

/*
 * The backend (docs/EGRESS.md): the cgroup programs where the policy
 * (`backend cgroup`) or --net-backend cgroup asks for them; the namespace
 * else, `auto` included. The cgroup backend gives the box the host's
 * loopback instead of its own (a box's own server is unreachable, a bind
 * to a chosen port refused), which changes what a policy means, so it is
 * never taken unasked. A backend forced that cannot be had is a refusal.
 * The list `backend cgroup namespace` takes the programs where they can
 * be had and installed, else the namespace, and says why in the record
 * (listed_fall_back); --net-backend still forces one backend.
 */
static int listed(const struct net_spec *s)
{
	return s->ebpf.fallback && N.backend_arg == NET_BACKEND_AUTO;
}

/* `backend cgroup namespace`, where the cgroup backend cannot be had:
 * the namespace next, as the policy lists it. */
static void listed_fall_back(const char *why)
{
	snprintf(N.listed_why, sizeof(N.listed_why), "cgroup: %s", why);
	N.fallback = N.listed_why;
	N.cgroup = 0;
	warning("net: the cgroup backend cannot be had (%s): the network "
		"namespace enforces the egress, next in the policy's `backend "
		"cgroup namespace`",
		why);
}

static int want_cgroup(const struct net_spec *s)
{
	if (s->ebpf.forced && (N.backend_arg == NET_BACKEND_NAMESPACE ||
			       N.backend_arg == NET_BACKEND_BROKER))
		die("net: --net-backend %s, but the policy says `backend "
		    "cgroup`",
		    N.backend_arg == NET_BACKEND_BROKER ? "broker"
							: "namespace");
	if (N.backend_arg == NET_BACKEND_NAMESPACE)
		return 0;
	if (!s->ebpf.present) {
		if (N.backend_arg == NET_BACKEND_CGROUP)
			die("net: --net-backend cgroup, but the artifact has "
			    "no cgroup programs (a plain `net none`, or a "
			    "policy that says `backend namespace` or that the "
			    "cgroup backend cannot hold)");
		return 0;
	}
	if (!s->ebpf.forced && !s->ebpf.fallback &&
	    N.backend_arg != NET_BACKEND_CGROUP)
		return 0;
	if (ebpf_capable())
		return 1;
	if (listed(s)) {
		listed_fall_back("no CAP_BPF and CAP_NET_ADMIN in the initial "
				 "user namespace");
		return 0;
	}
	die("net: the cgroup backend needs CAP_BPF and CAP_NET_ADMIN, "
	    "which this process does not have (%s)",
	    s->ebpf.forced ? "the policy says `backend cgroup`"
			   : "--net-backend cgroup");
}

/* The namespace backend's plan: the pair, pasta, the relay. */
static void plan_namespace(const struct net_spec *s)
{
	unsigned ports;

	boxns_want(BOXNS_NET);
	ports = relay_ports(s);
	if (ports > POLBIN_NET_RELAY_MAX_PORTS)
		die("net: `loopback` lists %u ports; polexec relays at most %d",
		    ports, POLBIN_NET_RELAY_MAX_PORTS);
	/* The pair: a user and network namespace made before the box. */
	if (net_needs_pair(s))
		boxns_want(BOXNS_USER | BOXNS_MOUNT);
	if (net_needs_pasta(s)) {
		if (!net_pasta_path())
			die("net: `net filtered` needs pasta (Debian package "
			    "passt), not found in /usr/bin or "
			    "/usr/local/bin%s%s",
			    N.nobroker ? "; the notify broker cannot be had "
					 "either: "
				       : "",
			    N.nobroker ? N.nobroker : "");
		if (!net_tun_usable())
			die("net: pasta needs /dev/net/tun, which this user "
			    "may not open for reading and writing (udev's "
			    "usual mode for it is 0666)%s%s",
			    N.nobroker ? "; the notify broker cannot be had "
					 "either: "
				       : "",
			    N.nobroker ? N.nobroker : "");
	}
	if (boxns_wanted(BOXNS_USER) && !boxns_userns_available())
		die("net: the box's own network namespace needs a user "
		    "namespace, which this user may not create: %s%s%s",
		    boxns_userns_why(),
		    N.nobroker ? "; the notify broker cannot be had either: "
			       : "",
		    N.nobroker ? N.nobroker : "");
}

int net_namespace_usable(const struct net_spec *s)
{
	return boxns_userns_available() &&
	       (!net_needs_pasta(s) || (net_pasta_path() && net_tun_usable()));
}

/* Why not (after net_namespace_usable said so), for backend_fallback. */
static const char *namespace_why(const struct net_spec *s)
{
	static char why[512];

	if (!boxns_userns_available()) {
		snprintf(why, sizeof(why),
			 "no user namespace for this user: %s",
			 boxns_userns_why());
		return why;
	}
	if (!net_pasta_path())
		return "no pasta for `net filtered`";
	(void)s;
	return "no read-write /dev/net/tun for pasta";
}

/* Does a pinned address of a runtime entry allow (a, proto, port)? For
 * the broker (broker.c), as the RT rules do for the cgroup programs. */
static int pin_allows(int v6, const uint8_t *a, uint8_t proto, uint16_t port)
{
	uint32_t i, j;

	for (i = 0; N.pin && i < N.spec->nruntime; i++) {
		const struct net_rt *rt = &N.spec->rt[i];

		if (rt->proto != proto || port < rt->lo || port > rt->hi)
			continue;
		for (j = 0; j < N.pin[i].n; j++)
			if (N.pin[i].a[j].family == (v6 ? AF_INET6 : AF_INET) &&
			    !memcmp(N.pin[i].a[j].a, a, v6 ? 16 : 4))
				return 1;
	}
	return 0;
}

/*
 * The notify broker (broker.c): the box stays in the caller's network;
 * with a mount namespace of its own where one can be had (root, or a user
 * namespace), for the pinned hosts file.
 */
static void plan_broker(const struct policy *p, const char *why)
{
	const char *no = broker_unavailable(p);

	if (no)
		die("net: the notify broker cannot be had (%s): %s", why, no);
	N.broker = 1;
	broker_plan(p, pin_allows);
	if (boxns_privileged() || boxns_userns_available())
		boxns_want(BOXNS_MOUNT);
	else if (p->net.nruntime)
		warning("net: notify broker without a mount namespace: the "
			"box sees the host's /etc/hosts, not the pinned names "
			"(they are enforced by address; DNS reaches only a "
			"resolver the policy lists)");
}

void net_plan(const struct policy *p, struct layer_state *l)
{
	const struct net_spec *s = &p->net;

	N.spec = s;
	N.p = p;
	if (!s->present) {
		l->tier = TIER_OFF;
		return;
	}
	l->tier = TIER_ENFORCED;
	/* The ladder's second rung (fallback.c): no namespace can be had. */
	if (net_fallback_wanted(p) && !boxns_net_privileged() &&
	    !boxns_userns_available()) {
		net_fallback_plan();
		l->tier = TIER_DEGRADED;
		l->reason = boxns_in_box()
				? "no network namespace (inside the outer "
				  "polexec box, whose policy refuses it): "
				  "seccomp refuses every socket but AF_UNIX"
				: "no network namespace (no user namespace "
				  "for this user): seccomp refuses every "
				  "socket but AF_UNIX";
		warning("net: none: no network namespace can be made here "
			"(%s); seccomp refuses every socket family but AF_UNIX"
			"%s",
			boxns_userns_why(),
			net_fallback_rung()[7]
			    ? ", Landlock every TCP bind and "
			      "connect"
			    : "");
		return;
	}
	if (p->broker_forced || N.backend_arg == NET_BACKEND_BROKER) {
		if (p->broker_forced &&
		    (N.backend_arg == NET_BACKEND_CGROUP ||
		     N.backend_arg == NET_BACKEND_NAMESPACE))
			die("net: --net-backend %s, but the policy says "
			    "`backend broker`",
			    N.backend_arg == NET_BACKEND_CGROUP ? "cgroup"
								: "namespace");
		if (s->ebpf.forced || s->ebpf.fallback)
			die("net: --net-backend broker, but the policy says "
			    "`backend cgroup%s`",
			    s->ebpf.fallback ? " namespace" : "");
		plan_broker(p, p->broker_forced ? "the policy says `backend "
						  "broker`"
						: "--net-backend broker");
		return;
	}
	N.cgroup = want_cgroup(s);
	/* auto, where no namespace can be had: the cgroup programs where
	 * this process may attach them, else the broker */
	if (!N.cgroup && N.backend_arg == NET_BACKEND_AUTO &&
	    !s->ebpf.fallback && !net_namespace_usable(s)) {
		if (s->ebpf.present && ebpf_capable() && landlock_abi() >= 6) {
			N.cgroup = N.ladder = 1;
			N.fallback = namespace_why(s);
		} else if (!(N.nobroker = broker_unavailable(p))) {
			N.ladder = 1;
			N.fallback = namespace_why(s);
			warning("net: the network namespace cannot be had (%s) "
				"nor the cgroup programs: the notify broker "
				"enforces the egress (docs/EGRESS.md)",
				N.fallback);
			plan_broker(p, "auto");
			return;
		}
	}
	if (!N.cgroup) {
		plan_namespace(s);
		return;
	}
	/* Its abstract unix sockets would be the host's (X11's, a
	 * container runtime's shim), which only Landlock's scope keeps from
	 * the box (net_child_scope) */
	if (landlock_abi() < 6 && listed(s)) {
		char why[160];

		snprintf(why, sizeof(why),
			 "Landlock ABI %d, below the 6 that keeps the host's "
			 "abstract unix sockets from the box",
			 landlock_abi());
		listed_fall_back(why);
		plan_namespace(s);
		return;
	}
	if (landlock_abi() < 6)
		die("net: the cgroup backend leaves the box in the caller's "
		    "network namespace, whose abstract unix sockets only "
		    "Landlock's scope keeps from it (ABI 6, Linux 6.12; this "
		    "kernel's: %d): use the namespace backend",
		    landlock_abi());
	/* The box stays in the caller's network, in a cgroup of its own
	 * (made with the limits' cgroups: net_wants_cgroup) that it cannot
	 * leave, with its own mount namespace for the pinned hosts file. */
	boxns_want(BOXNS_MOUNT | BOXNS_CGROUP);
}

int net_wants_cgroup(void)
{
	return N.cgroup;
}

void net_cgroup(int made, const char *why, int (*open_fd)(void))
{
	N.cgroup_open = open_fd;
	if (!N.cgroup || made)
		return;
	if (N.spec->ebpf.forced || N.backend_arg == NET_BACKEND_CGROUP)
		die("net: the cgroup backend needs a cgroup v2 of the box's "
		    "own, which polexec could not make: %s",
		    why);
	if (listed(N.spec)) {
		char text[600];

		snprintf(text, sizeof(text), "no cgroup v2 for the box: %s",
			 why);
		listed_fall_back(text);
		plan_namespace(N.spec);
		return;
	}
	N.cgroup = 0;
	if (N.ladder) {
		N.fallback = "no network namespace, no cgroup v2 for the box";
		plan_broker(N.p, "auto");
		return;
	}
	N.fallback = "no cgroup v2 for the box";
	warning("net: no cgroup v2 for the box (%s): the network "
		"namespace enforces the egress instead",
		why);
	plan_namespace(N.spec);
}

/* --- names, variables, hosts ------------------------------------------ */

static void pin_add(struct pinned *pn, int family, const void *a)
{
	size_t len = family == AF_INET ? 4 : 16;
	uint32_t i;

	for (i = 0; i < pn->n; i++)
		if (pn->a[i].family == family && !memcmp(pn->a[i].a, a, len))
			return;
	if (pn->n >= POLEXEC_MAX_NET_ADDRS)
		die("net: %s resolves to more than %d addresses", pn->shown,
		    POLEXEC_MAX_NET_ADDRS);
	pn->a[pn->n].family = family;
	memset(pn->a[pn->n].a, 0, 16);
	memcpy(pn->a[pn->n].a, a, len);
	pn->n++;
}

static void pin_one(void *arg, int family, const uint8_t *a)
{
	pin_add(arg, family, a);
}

/* Once, at start: the addresses the name has now are the ones the box
 * may reach for the whole run, whatever the name says later (resolve.c:
 * the hosts file, then DNS). */
static void resolve(struct pinned *pn, const char *name)
{
	const char *why = NULL;

	if (resolve_host(name, pin_one, pn, &why))
		die("net: resolve %s: %s", name, why);
}

/* ${VAR}: one IP address, or a host name resolved like a listed one. A
 * CIDR is refused: the prover decided the policy for one address. */
static void bind_var(struct pinned *pn, const struct net_rt *rt,
		     const struct vars *vars)
{
	size_t len = strlen(rt->name);
	const char *v = vars_lookup(vars, rt->name + 2, len - 3);
	uint8_t a[16];

	if (!v)
		die("net: %s is not bound (--var %.*s=ADDRESS)", rt->name,
		    (int)(len - 3), rt->name + 2);
	if (inet_pton(AF_INET, v, a) == 1) {
		pin_add(pn, AF_INET, a);
	} else if (inet_pton(AF_INET6, v, a) == 1) {
		pin_add(pn, AF_INET6, a);
	} else {
		if (strchr(v, '/'))
			die("net: %s is bound to a CIDR; a net entry's "
			    "variable takes one address or a host name",
			    rt->name);
		if (!polbin_is_hostname(v, strlen(v)))
			die("net: %s is bound to something that is neither "
			    "an IP address nor a host name",
			    rt->name);
		resolve(pn, v);
	}
}

static void hosts_files(void)
{
	static const char resolv[] =
	    "# polexec: the box has no resolver. A DNS query is a way out\n"
	    "# (data in the names it asks for), so names are resolved once\n"
	    "# at start and pinned in /etc/hosts.\n"
	    "options attempts:1 timeout:1\n";
	char *text, *at;
	size_t cap = 256, i;
	uint32_t j;

	for (i = 0; i < N.spec->nruntime; i++)
		cap += (size_t)N.pin[i].n *
		       (INET6_ADDRSTRLEN + 2 + strlen(N.spec->rt[i].name));
	text = xcalloc(cap, 1);
	at = text + snprintf(text, cap,
			     "127.0.0.1\tlocalhost\n"
			     "::1\tlocalhost ip6-localhost\n");
	for (i = 0; i < N.spec->nruntime; i++) {
		const struct net_rt *rt = &N.spec->rt[i];

		if (rt->kind != POLBIN_NET_RT_NAME)
			continue;
		for (j = 0; j < N.pin[i].n; j++) {
			char a[INET6_ADDRSTRLEN];

			inet_ntop(N.pin[i].a[j].family, N.pin[i].a[j].a, a,
				  sizeof(a));
			at += snprintf(at, cap - (size_t)(at - text),
				       "%s\t%s\n", a, rt->name);
		}
	}
	N.hosts = text;
	N.resolv = xstrndup(resolv, sizeof(resolv) - 1);
}

/* The pinned addresses of runtime entry i into its sets rt4_i, rt6_i. */
static void batch_pins(uint32_t i)
{
	uint8_t *keys = xcalloc(POLEXEC_MAX_NET_ADDRS, 16);
	int fam;

	for (fam = 4; fam <= 6; fam += 2) {
		size_t klen = fam == 4 ? 4 : 16;
		uint32_t j, n = 0;
		char set[32];

		for (j = 0; j < N.pin[i].n; j++)
			if (N.pin[i].a[j].family ==
			    (fam == 4 ? AF_INET : AF_INET6))
				memcpy(keys + klen * n++, N.pin[i].a[j].a,
				       klen);
		snprintf(set, sizeof(set), "rt%d_%u", fam, i);
		nfnl_batch_add_elems(&N.batch, set, keys, klen, n);
	}
	free(keys);
}

/* What the box's own filter answers socket(v[0], v[1], v[2]): 1 when it
 * would make it (allow or log), else 0. */
static int box_may_make(const struct policy *p, const int *v)
{
	struct seccomp_data d;
	unsigned bad, act;
	int i;

	if (!p->nfilter)
		return 1;
	if (sbpf_check(p->filter, p->nfilter, &bad))
		return 0; /* a program we cannot read refuses */
	memset(&d, 0, sizeof(d));
	d.nr = __NR_socket;
	d.arch = POLEXEC_AUDIT_ARCH;
	for (i = 0; i < 3; i++)
		d.args[i] = (uint32_t)v[i];
	act = sbpf_run(p->filter, p->nfilter, &d) & SECCOMP_RET_ACTION_FULL;
	return act == SECCOMP_RET_ALLOW || act == SECCOMP_RET_LOG;
}

/*
 * After it: none of fds 0, 1 and 2, which reach the box as the caller gave
 * them (child.c closes the others), is a socket the box could not make.
 * A socket lives in the network namespace it was made in: an inet socket
 * handed over by the caller is a way out of `net none` or `net filtered`
 * that no table in the box's namespace sees (connect(AF_UNSPEC) dissolves
 * a connection, and the next connect goes anywhere). Under those modes
 * only AF_UNIX sockets pass; without them, a socket passes when the box's
 * own filter would let it make one like it (the companions refuse raw,
 * packet and other-netlink sockets). Pipes, terminals and files pass.
 */
static void check_std_fds(const struct policy *p)
{
	static const int opt[3] = {SO_DOMAIN, SO_TYPE, SO_PROTOCOL};
	int fd, k, v[3];

	for (fd = 0; fd <= 2; fd++) {
		socklen_t l = sizeof(int);
		struct stat st;
		int r = fstat(fd, &st);

		if (r < 0 && errno != EBADF) /* EBADF: not open, nothing */
			die_with_error("net: fd %d: fstat", fd);
		if (r < 0 || !S_ISSOCK(st.st_mode))
			continue;
		for (k = 0; k < 3; k++)
			if (getsockopt(fd, SOL_SOCKET, opt[k], &v[k], &l) < 0)
				die_with_error("net: fd %d: getsockopt", fd);
		if (v[0] == AF_UNIX || (!p->net.present && box_may_make(p, v)))
			continue;
		die("net: fd %d is a socket (family %d, type %d, protocol %d) "
		    "%s",
		    fd, v[0], v[1], v[2],
		    p->net.present
			? "of the caller's network, which `net none` and `net "
			  "filtered` keep the box out of: only pipes, "
			  "terminals, files and AF_UNIX sockets may be its fds "
			  "0-2"
			: "that the box's syscall rules would not let it make");
	}
}

/* The namespace backend's table: the static rules, the pins. */
static void nft_batch(void)
{
	uint32_t i;

	nfnl_batch_begin(&N.batch);
	nfnl_batch_add_static(&N.batch, N.spec->nft, N.spec->nft_len);
	for (i = 0; i < N.spec->nruntime; i++)
		batch_pins(i);
	nfnl_batch_end(&N.batch);
}

void net_prepare(const struct policy *p, const struct vars *vars)
{
	const struct net_spec *s = &p->net;
	uint32_t i;

	check_std_fds(p);
	if (!net_needs_pair(s) && !N.cgroup && !N.broker)
		return;
	N.pin = xcalloc(s->nruntime ? s->nruntime : 1, sizeof(*N.pin));
	for (i = 0; i < s->nruntime; i++) {
		N.pin[i].shown = s->rt[i].name;
		if (s->rt[i].kind == POLBIN_NET_RT_NAME)
			resolve(&N.pin[i], s->rt[i].name);
		else
			bind_var(&N.pin[i], &s->rt[i], vars);
	}
	if (s->mode == POLBIN_NET_FILTERED && !N.cgroup)
		nft_batch();
	/* the broker without a mount namespace: no file of the box's own */
	if (!N.broker || boxns_wanted(BOXNS_MOUNT))
		hosts_files();
}

/* --- the helper: the namespace pair and its table ---------------------- */

static char helper_stack[32 << 10] __attribute__((aligned(16)));

/* Shares our memory and fd table (CLONE_VM | CLONE_FILES): what it opens
 * is ours when it has exited; it allocates nothing. */
static int helper_main(void *arg)
{
	(void)arg;
	boxns_helper_enter(); /* boxns.c: user + net, lo up */
	relay_listen(N.spec);
	if (N.spec->mode == POLBIN_NET_FILTERED) {
		N.nlfd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
				NETLINK_NETFILTER);
		if (N.nlfd < 0)
			die_with_error("net: socket(NETLINK_NETFILTER)");
		nfnl_batch_send(N.nlfd, &N.batch);
	}
	N.userfd = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
	if (N.userfd < 0)
		die_with_error("net: open /proc/self/ns/user");
	N.netfd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (N.netfd < 0)
		die_with_error("net: open /proc/self/ns/net");
	_exit(0);
}

static void make_pair(void)
{
	int status;
	pid_t pid = clone(helper_main, helper_stack + sizeof(helper_stack),
			  CLONE_VM | CLONE_VFORK | CLONE_FILES | SIGCHLD, NULL);

	if (pid < 0)
		die_with_error("net: clone");
	protect_after_clone();
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die_with_error("net: waitpid(helper)");
	if (die_child_failure())
		die_child_said();
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || N.netfd < 0)
		die("net: the namespace helper failed (status 0x%x)", status);
	boxns_premade(N.userfd, N.netfd);
}

static void cgroup2_mounts(void);

static void start_namespace(void)
{
	if (!N.spec || !net_needs_pair(N.spec))
		return;
	make_pair();
	relay_start();
	if (net_needs_pasta(N.spec))
		N.pasta_pid = pasta_start(net_pasta_path(), N.userfd, N.netfd);
}

/* The cgroup backend: every pinned address of each runtime entry, with
 * its protocol and ports, into the programs' rules. */
static void start_cgroup(void)
{
	const struct net_spec *s = N.spec;
	struct ebpf_pin *pins;
	uint32_t i, j, n = 0;
	int cg, rc;

	cgroup2_mounts();
	for (i = 0; i < s->nruntime; i++)
		n += N.pin[i].n;
	pins = xcalloc(n ? n : 1, sizeof(*pins));
	for (i = 0, n = 0; i < s->nruntime; i++)
		for (j = 0; j < N.pin[i].n; j++, n++) {
			pins[n].v6 = N.pin[i].a[j].family == AF_INET6;
			pins[n].proto = s->rt[i].proto;
			pins[n].lo = s->rt[i].lo;
			pins[n].hi = s->rt[i].hi;
			memcpy(pins[n].a, N.pin[i].a[j].a, 16);
		}
	cg = N.cgroup_open ? N.cgroup_open() : -1;
	if (cg < 0)
		die_with_error("net: cgroup backend: open the box's cgroup");
	rc = ebpf_install(&s->ebpf, pins, n, cg);
	close(cg);
	free(pins);
	if (rc == 0)
		return;
	/* the programs undone (-1): the namespace, where the list names it;
	 * else (or when the undo failed) the refusal removes the cgroup */
	if (rc != -1 || !listed(s))
		die("net: cgroup backend: %s", ebpf_why());
	listed_fall_back(ebpf_why());
	plan_namespace(s);
	if (boxns_wanted(BOXNS_NET))
		trial_net_or_die(boxns_wanted(BOXNS_USER));
	if (s->mode == POLBIN_NET_FILTERED)
		nft_batch();
	start_namespace();
}

void net_start(void)
{
	if (N.broker)
		return; /* the supervisor, with the box */
	if (N.spec && N.cgroup) {
		start_cgroup();
		return;
	}
	start_namespace();
}

/*
 * The cgroup backend: every cgroup2 mount point of the caller's tree, read
 * from /proc/self/mountinfo in the parent (the child may not allocate).
 * The box child makes each read-only in its own mount namespace: a box
 * running as uid 0, even without capabilities, may write a root-owned
 * cgroup.procs, and without nsdelegate on the mount its cgroup namespace
 * does not stop it from moving itself out of its cgroup, and out from
 * under the programs. A mount point written with escapes (a space in it)
 * is a refusal: polexec would not find it to protect it.
 */
static void cgroup2_mounts(void)
{
	char buf[16384];
	ssize_t n;
	size_t have = 0;
	char *line, *nl;
	int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die_with_error("net: open /proc/self/mountinfo");
	while (have < sizeof(buf) - 1 &&
	       (n = read(fd, buf + have, sizeof(buf) - 1 - have)) > 0)
		have += (size_t)n;
	close(fd);
	if (have == sizeof(buf) - 1)
		die("net: /proc/self/mountinfo is longer than %zu bytes",
		    sizeof(buf) - 1);
	buf[have] = '\0';
	for (line = buf; (nl = strchr(line, '\n')); line = nl + 1) {
		char *sep, *mp, *end;
		int i;

		*nl = '\0';
		sep = strstr(line, " - ");
		if (!sep || strncmp(sep + 3, "cgroup2 ", 8))
			continue;
		/* fields: ID PARENT MAJ:MIN ROOT MOUNTPOINT ... */
		for (i = 0, mp = line; i < 4 && mp; i++)
			mp = strchr(mp, ' '), mp = mp ? mp + 1 : NULL;
		if (!mp || !(end = strchr(mp, ' ')))
			continue;
		*end = '\0';
		if (strchr(mp, '\\'))
			die("net: a cgroup2 mount point with escapes (%s)", mp);
		if (N.ncg2 == (int)(sizeof(N.cg2) / sizeof(N.cg2[0])))
			die("net: more than %d cgroup2 mounts", N.ncg2);
		N.cg2[N.ncg2++] = xstrndup(mp, strlen(mp));
	}
}

/* --- in the box child ---------------------------------------------------- */

void net_box_files(const char **hosts, const char **resolv)
{
	*hosts = N.hosts;
	*resolv = N.resolv;
}

/* The child may not allocate: text is the parent's, written as is. */
static void put_file(const char *path, const char *text)
{
	size_t n = strlen(text);
	int fd = open(
	    path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0444);

	if (fd < 0)
		die_with_error("child: net: create %s", path);
	if (write(fd, text, n) != (ssize_t)n || close(fd) < 0)
		die_with_error("child: net: write %s", path);
}

static void bind_file(const char *src, const char *target, int required)
{
	if (mount(src, target, NULL, MS_BIND, NULL) < 0) {
		if (!required && errno == ENOENT)
			return;
		die_with_error("child: net: bind the box's %s", target);
	}
	if (mount(NULL, target, NULL,
		  MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV |
		      MS_NOEXEC,
		  NULL) < 0)
		die_with_error("child: net: remount %s read-only", target);
}

/*
 * The files are made on a tmpfs mounted for a moment on /tmp (any folder
 * would do; /tmp exists everywhere), bound over the host's, and /tmp is
 * given back: the binds keep the tmpfs. All of it in the box's own mount
 * namespace, so the host sees nothing.
 */
void net_child_mounts(void)
{
	int i;

	for (i = 0; i < N.ncg2; i++)
		if (mount(NULL, N.cg2[i], NULL,
			  MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID |
			      MS_NODEV | MS_NOEXEC,
			  NULL) < 0 &&
		    errno != ENOENT)
			die_with_error("child: net: make %s read-only",
				       N.cg2[i]);
	if (!N.hosts)
		return;
	if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  "size=64k,nr_inodes=8,mode=0755") < 0)
		die_with_error("child: net: mount a tmpfs on /tmp");
	put_file("/tmp/hosts", N.hosts);
	put_file("/tmp/resolv.conf", N.resolv);
	bind_file("/tmp/hosts", "/etc/hosts", 1);
	/* A host without /etc/resolv.conf: the box's libc then asks
	 * 127.0.0.1, which is the box's own loopback, with no one there. */
	bind_file("/tmp/resolv.conf", "/etc/resolv.conf", 0);
	if (umount2("/tmp", MNT_DETACH) < 0)
		die_with_error("child: net: unmount the tmpfs from /tmp");
}

/* --- after the box ------------------------------------------------------- */

/* The pinned name whose addresses hold a (family f), or NULL. */
static const char *pinned_name(int f, const uint8_t *a)
{
	uint32_t i, j;

	for (i = 0; i < N.spec->nruntime; i++)
		for (j = 0; j < N.pin[i].n; j++)
			if (N.spec->rt[i].kind == POLBIN_NET_RT_NAME &&
			    N.pin[i].a[j].family == f &&
			    !memcmp(N.pin[i].a[j].a, a, f == AF_INET ? 4 : 16))
				return N.spec->rt[i].name;
	return NULL;
}

/* One blocked destination into the record and the denials. */
static void blocked_dest(int v6, const uint8_t *addr, uint8_t proto,
			 uint16_t port, void *arg)
{
	int f = v6 ? AF_INET6 : AF_INET;
	char a[INET6_ADDRSTRLEN], dest[INET6_ADDRSTRLEN + 16];

	(void)arg;
	if (v6)
		N.full6++;
	else
		N.full4++;
	inet_ntop(f, addr, a, sizeof(a));
	snprintf(dest, sizeof(dest), "%s%s%s:%u/%s", v6 ? "[" : "", a,
		 v6 ? "]" : "", (unsigned)port,
		 proto == 6    ? "tcp"
		 : proto == 17 ? "udp"
			       : "?");
	text_add(&N.blocked, "%s\"%s\"", N.blocked.len ? "," : "", dest);
	obs_net(dest, pinned_name(f, addr), "blocked");
}

/* A key of blocked4/blocked6: addr, proto (1 + 3), port (2 BE + 2). */
static void add_blocked(const uint8_t *key, void *arg)
{
	int v6 = *(int *)arg;
	const uint8_t *proto = key + (v6 ? 16 : 4), *port = proto + 4;

	blocked_dest(v6, key, proto[0], (uint16_t)(port[0] << 8 | port[1]),
		     NULL);
}

/* A port the box's own loopback refused (the refused4/6 sets). */
static void add_refused(const uint8_t *key, void *arg)
{
	char dest[32];

	snprintf(dest, sizeof(dest), "%s:%u/tcp",
		 *(int *)arg ? "[::1]" : "127.0.0.1",
		 (unsigned)key[0] << 8 | key[1]);
	obs_net(dest, NULL, "refused");
}

void net_finish(void)
{
	int v4 = 0, v6 = 1;

	if (N.broker) {
		N.blocked_read = 1;
		broker_each_blocked(blocked_dest, NULL);
	}
	if (N.cgroup) {
		N.blocked_read = 1;
		if (ebpf_each_blocked(blocked_dest, NULL) < 0) {
			out(STDERR_FILENO,
			    "polexec: net: read the blocked destinations: "
			    "%s\n",
			    strerror(errno));
			N.blocked_read = -1;
		}
	}
	if (N.nlfd >= 0) {
		N.blocked_read = 1;
		if (nfnl_dump_set(N.nlfd, "blocked4", POLBIN_NFT_KEY4_LEN,
				  add_blocked, &v4) < 0 ||
		    nfnl_dump_set(N.nlfd, "blocked6", POLBIN_NFT_KEY6_LEN,
				  add_blocked, &v6) < 0 ||
		    nfnl_dump_set(N.nlfd, "refused4", 2, add_refused, &v4) <
			0 ||
		    nfnl_dump_set(N.nlfd, "refused6", 2, add_refused, &v6) <
			0) {
			out(STDERR_FILENO,
			    "polexec: net: read the blocked destinations: "
			    "%s\n",
			    strerror(errno));
			N.blocked_read = -1;
		}
	}
	net_abort();
}

/* Also the refusal path: no pasta or relay outlives polexec's decision. */
void net_abort(void)
{
	relay_stop();
	if (N.pasta_pid > 0)
		pasta_stop(N.pasta_pid);
	N.pasta_pid = 0;
}

/* --- the record ------------------------------------------------------- */

void net_record(struct text *t, int refused)
{
	const struct net_spec *s = N.spec;
	uint32_t i, j;

	if (!s || !s->present) {
		text_add(t, ",\"mode\":\"host\",\"egress\":\"not contained\"");
		return;
	}
	text_add(t, ",\"mode\":\"%s\",\"egress\":\"%s\"",
		 s->mode == POLBIN_NET_FILTERED ? "filtered" : "none",
		 N.cgroup			  ? "cgroup-ebpf"
		 : N.broker			  ? "notify broker"
		 : s->mode == POLBIN_NET_FILTERED ? "nft+pasta"
		 : s->nloopback			  ? "loopback ports via polexec"
						  : "none");
	if (N.fallback) {
		text_add(t, ",\"backend_fallback\":");
		text_json(t, N.fallback);
	}
	text_add(t, ",\"rung\":\"%s\"",
		 net_fallback_on() ? net_fallback_rung()
		 : N.cgroup	   ? "cgroup"
		 : N.broker	   ? "seccomp-notify"
				   : "namespace");
	text_add(t, ",\"loopback\":[");
	for (i = 0; i < s->nloopback; i++)
		text_add(t, i ? ",\"%u-%u\"" : "\"%u-%u\"", s->loopback[i][0],
			 s->loopback[i][1]);
	text_add(t, "]");
	if (refused || !N.pin)
		return;
	text_add(t, ",\"pinned\":[");
	for (i = 0; i < s->nruntime; i++) {
		text_add(t, "%s{\"entry\":\"%s\",\"addresses\":[", i ? "," : "",
			 s->rt[i].name);
		for (j = 0; j < N.pin[i].n; j++) {
			char a[INET6_ADDRSTRLEN];

			inet_ntop(N.pin[i].a[j].family, N.pin[i].a[j].a, a,
				  sizeof(a));
			text_add(t, j ? ",\"%s\"" : "\"%s\"", a);
		}
		text_add(t, "]}");
	}
	text_add(t, "]");
	if (s->mode != POLBIN_NET_FILTERED)
		return;
	/* A full evidence set takes no more: the list may then be short. */
	text_add(t,
		 ",\"blocked\":[%.*s],\"blocked_read\":%s,"
		 "\"blocked_complete\":%s",
		 (int)N.blocked.len, N.blocked.s ? N.blocked.s : "",
		 N.blocked_read == 1 ? "true" : "false",
		 N.blocked_read == 1 &&
			 (N.broker ? broker_blocked_complete()
			  : N.cgroup
			      ? N.full4 + N.full6 < POLBIN_EBPF_BLOCKED_SIZE
			      : N.full4 < POLBIN_NFT_BLOCKED_SIZE &&
				    N.full6 < POLBIN_NFT_BLOCKED_SIZE)
		     ? "true"
		     : "false");
}

void net_child_scope(void)
{
	/* below ABI 6 the broker refuses abstract connects itself, and
	 * the cgroup backend is refused (net_plan) */
	if ((N.cgroup || broker_on()) && landlock_abi() >= 6)
		landlock_scope_abstract();
}
