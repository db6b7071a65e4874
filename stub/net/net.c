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
#include "nfnl.h"
#include "pasta.h"
#include "lib/protect.h"
#include "relay.h"
#include "resolve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
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
} N = {.userfd = -1, .netfd = -1, .nlfd = -1};

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

void net_plan(const struct policy *p, struct layer_state *l)
{
	const struct net_spec *s = &p->net;
	unsigned ports;

	N.spec = s;
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
		l->reason = "no network namespace (no user namespace for this "
			    "user): seccomp refuses every socket but AF_UNIX";
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
			    "passt), not found in /usr/bin or /usr/local/bin");
		if (!net_tun_usable())
			die("net: pasta needs /dev/net/tun, which this user "
			    "may not open for reading and writing (udev's "
			    "usual mode for it is 0666)");
	}
	if (boxns_wanted(BOXNS_USER) && !boxns_userns_available())
		die("net: the box's own network namespace needs a user "
		    "namespace, which this user may not create: %s",
		    boxns_userns_why());
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

void net_prepare(const struct policy *p, const struct vars *vars)
{
	const struct net_spec *s = &p->net;
	uint32_t i;

	if (!net_needs_pair(s))
		return;
	N.pin = xcalloc(s->nruntime ? s->nruntime : 1, sizeof(*N.pin));
	for (i = 0; i < s->nruntime; i++) {
		N.pin[i].shown = s->rt[i].name;
		if (s->rt[i].kind == POLBIN_NET_RT_NAME)
			resolve(&N.pin[i], s->rt[i].name);
		else
			bind_var(&N.pin[i], &s->rt[i], vars);
	}
	if (s->mode == POLBIN_NET_FILTERED) {
		nfnl_batch_begin(&N.batch);
		nfnl_batch_add_static(&N.batch, s->nft, s->nft_len);
		for (i = 0; i < s->nruntime; i++)
			batch_pins(i);
		nfnl_batch_end(&N.batch);
	}
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

void net_start(void)
{
	if (!N.spec || !net_needs_pair(N.spec))
		return;
	make_pair();
	relay_start();
	if (net_needs_pasta(N.spec))
		N.pasta_pid = pasta_start(net_pasta_path(), N.userfd, N.netfd);
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

static void add_blocked(const uint8_t *key, void *arg)
{
	int v6 = *(int *)arg, f = v6 ? AF_INET6 : AF_INET;
	char a[INET6_ADDRSTRLEN], dest[INET6_ADDRSTRLEN + 16];
	const uint8_t *proto = key + (v6 ? 16 : 4), *port = proto + 4;

	if (v6)
		N.full6++;
	else
		N.full4++;
	inet_ntop(f, key, a, sizeof(a));
	snprintf(dest, sizeof(dest), "%s%s%s:%u/%s", v6 ? "[" : "", a,
		 v6 ? "]" : "", (unsigned)port[0] << 8 | port[1],
		 proto[0] == 6	  ? "tcp"
		 : proto[0] == 17 ? "udp"
				  : "?");
	text_add(&N.blocked, "%s\"%s\"", N.blocked.len ? "," : "", dest);
	obs_net(dest, pinned_name(f, key), "blocked");
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
		 s->mode == POLBIN_NET_FILTERED ? "nft+pasta"
		 : s->nloopback			? "loopback ports via polexec"
						: "none");
	text_add(t, ",\"rung\":\"%s\"",
		 net_fallback_on() ? net_fallback_rung() : "namespace");
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
		 N.blocked_read == 1 && N.full4 < POLBIN_NFT_BLOCKED_SIZE &&
			 N.full6 < POLBIN_NFT_BLOCKED_SIZE
		     ? "true"
		     : "false");
}
