// SPDX-License-Identifier: MIT
/*
 * polc selftest ARTIFACT (docs/SELFTEST.md): the leak gate a user runs on
 * their own host, as themselves, against their own artifact. For each
 * property below polc decides from the artifact's IR whether the policy
 * claims it, runs polc-probe in a box of that artifact (polexec, with a
 * run record), checks outside the box what only the outside sees, and
 * says held, open or not claimed, with the layer that held it and that
 * layer's tier from the record. Each probe has a twin (the same act where
 * the policy allows it) that must work, so a box that refuses everything
 * does not pass.
 *
 * Everything polc writes is in one temporary folder of its own (the
 * canaries, the folders it binds the policy's variables to, the record),
 * removed at the end.
 */
#include "cli.h"
#include "ir/ir.h"
#include "polbin.h"
#include "prove/prove.h"
#include "support/support.h"
#include "tables/tables.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <arpa/inet.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <net/if.h>
#include <net/route.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CANARY	   "polc-selftest-canary"
#define ENV_CANARY "POLC_SELFTEST_CANARY"
#define LEAK_FD	   7
#define MAX_VARS   64
#define MAX_ARGV   (2 * MAX_VARS + 24)
#define BOX_SECS   120

/*
 * held: the attack was refused, by a layer the record says is enforced;
 * degraded: refused, by a layer polexec ran below its strength where the
 * policy allows it (best_effort; the record says how); uncertified:
 * refused, but polexec ran in a mode that certifies nothing (--learn);
 * twin failed: the box refused what the policy allows.
 */
enum verdict {
	V_NOT_CLAIMED,
	V_HELD,
	V_DEGRADED,
	V_UNCERTIFIED,
	V_OPEN,
	V_BROKEN,
	V_ERROR
};
static const char *const verdict_names[] = {
    "not claimed", "held",	  "degraded", "uncertified",
    "open",	   "twin failed", "error"};

struct var {
	char name[IR_SYSCALL_NAME * 4];
	char *value;
};

/* One selftest run's state. */
struct st {
	const struct selftest_opts *o;
	struct ir_policy *p;
	char root[PATH_MAX];	 /* the temporary folder, real path */
	char out[PATH_MAX];	 /* root/outside: the canaries' folder */
	char probe[PATH_MAX];	 /* the probe's path in the box */
	char wdir[PATH_MAX];	 /* a writable folder in the box, or "" */
	char nxdir[PATH_MAX];	 /* writable, not executable, or "" */
	char twinfile[PATH_MAX]; /* a readable file in the box */
	char link[PATH_MAX];	 /* polc's symlink in a grant, or "" */
	char cwd[PATH_MAX];	 /* polexec's working folder */
	const char *twin_env;	 /* a variable the box has, or NULL */
	char *twin_env_value;	 /* for a `pass` variable: ours */
	const char *out_grant;	 /* the grant holding the canaries */
	uint32_t out_rights;	 /* its rights */
	struct var vars[MAX_VARS];
	size_t nvars;
	char nonce[40];
	int tcp, udp, unix_l, abst; /* polc's listeners */
	int tcp_port, udp_port;
	int ns_tcp, ns_udp, netns, userns; /* polc's network namespace */
	int ns_tcp_port, ns_udp_port;
	int in_ns;	  /* run the next box in it */
	char ns_why[200]; /* why there is none */
	char where[256];  /* the net row's destination, for its detail */
	char abstract[64];
	pid_t victim;
	int victim_pipe;
	json_t *rows;
	int worst;
	int fails;    /* properties not held */
	int refused;  /* polexec refused to run the artifact here */
	int degraded; /* held below strength, as the policy allows */
};

struct row {
	const char *name;
	enum verdict v;
	char layer[96];
	char detail[256];
};

/* snprintf that says whether it cut: 0, or -1 (out holds the start). */
static int fmt(char *out, size_t len, const char *f, ...)
    __attribute__((format(printf, 3, 4)));

static int fmt(char *out, size_t len, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vsnprintf(out, len, f, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* --- the artifact's IR ------------------------------------------------- */

/* The IR's answer for one call (arguments as given, the rest 0); a policy
 * without a syscalls layer allows all. 1 when allowed. */
static int allows(const struct ir_policy *p, const char *call, uint64_t a0,
		  uint64_t a1, uint64_t a2)
{
	uint64_t args[6] = {a0, a1, a2, 0, 0, 0};
	struct ir_action act;

	if (!p->sys.present)
		return 1;
	act = ir_eval_syscall(&p->sys, ir_find_syscall(&p->sys, call), args);
	return act.kind == IR_ACT_ALLOW || act.kind == IR_ACT_LOG;
}

static const char *var_value(const struct st *s, const char *name)
{
	for (size_t i = 0; i < s->nvars; i++)
		if (!strcmp(s->vars[i].name, name))
			return s->vars[i].value;
	return NULL;
}

/* path with its ${VAR} or ~ bound, into out; -1 when unbound. */
static int bind_path(const struct st *s, const char *path, char *out,
		     size_t len)
{
	const char *rest = path, *v = "";
	char name[128];

	if (path[0] == '~') {
		v = var_value(s, "HOME");
		rest = path + 1;
	} else if (!strncmp(path, "${", 2)) {
		const char *end = strchr(path, '}');

		if (!end || (size_t)(end - path - 2) >= sizeof(name))
			return -1;
		memcpy(name, path + 2, (size_t)(end - path - 2));
		name[end - path - 2] = '\0';
		v = var_value(s, name);
		rest = end + 1;
	}
	if (!v)
		return -1;
	if (fmt(out, len, "%s%s", v, rest))
		return -1;
	return 0;
}

/* Is path at or under dir? */
static int under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (!strcmp(dir, "/"))
		return 1;
	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

/* The deepest fs rule holding path (bound), or NULL. */
static const struct ir_fs_rule *rule_for(const struct st *s, const char *path)
{
	const struct ir_fs_rule *best = NULL;
	size_t bestlen = 0;
	char b[PATH_MAX];

	for (uint32_t i = 0; i < s->p->fs.nrules; i++) {
		const struct ir_fs_rule *r = &s->p->fs.rules[i];

		if (bind_path(s, r->path, b, sizeof(b)) || !under(path, b))
			continue;
		if (!best || strlen(b) > bestlen) {
			best = r;
			bestlen = strlen(b);
		}
	}
	return best;
}

/* --- the temporary folder and the variables ---------------------------- */

static int mkdirs(const char *path)
{
	char b[PATH_MAX];

	if (fmt(b, sizeof(b), "%s", path))
		return -1;
	for (char *q = b + 1; *q; q++) {
		if (*q != '/')
			continue;
		*q = '\0';
		if (mkdir(b, 0755) < 0 && errno != EEXIST)
			return -1;
		*q = '/';
	}
	return mkdir(b, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

static int put_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	size_t n = strlen(text);

	if (fd < 0)
		return -1;
	if (write(fd, text, n) != (ssize_t)n) {
		close(fd);
		return -1;
	}
	return close(fd);
}

static int add_var(struct st *s, const char *name, const char *value)
{
	if (var_value(s, name))
		return 0;
	if (s->nvars == MAX_VARS || strlen(name) >= sizeof(s->vars[0].name))
		return -1;
	fmt(s->vars[s->nvars].name, sizeof(s->vars[0].name), "%s", name);
	s->vars[s->nvars].value = strdup(value);
	if (!s->vars[s->nvars].value)
		return -1;
	s->nvars++;
	return 0;
}

/* NAME of "${NAME}..." into name; 0, or -1 when s starts otherwise. */
static int var_name(const char *v, char *name, size_t len)
{
	const char *end;

	if (strncmp(v, "${", 2) || !(end = strchr(v, '}')) ||
	    (size_t)(end - v - 2) >= len)
		return -1;
	memcpy(name, v + 2, (size_t)(end - v - 2));
	name[end - v - 2] = '\0';
	return 0;
}

/*
 * Every variable the policy names, bound to something of polc's own: a
 * folder under root/var for a path, a file for a secret's source, a
 * documentation address (192.0.2.1) for a destination, "selftest" for a
 * value.
 */
static int bind_vars(struct st *s)
{
	const struct ir_policy *p = s->p;
	char name[128], path[PATH_MAX];

	/* A secret's source: ${NAME} a file of polc's, ${NAME}/REST a file
	 * REST in a folder of polc's. */
	for (uint32_t i = 0; i < p->env.nentries; i++) {
		const struct ir_env_entry *e = &p->env.entries[i];
		char *slash;

		if (e->kind != IR_ENV_SECRET || !e->value ||
		    var_name(e->value, name, sizeof(name)))
			continue;
		fmt(path, sizeof(path), "%s/secret-%s", s->root, name);
		if (!strchr(e->value, '}')[1]) {
			if (!var_value(s, name) &&
			    (put_file(path, "polc-selftest-secret\n", 0600) ||
			     add_var(s, name, path)))
				return -1;
			continue;
		}
		if (add_var(s, name, path) ||
		    bind_path(s, e->value, path, sizeof(path)))
			return -1;
		slash = strrchr(path, '/');
		*slash = '\0';
		if (mkdirs(path))
			return -1;
		*slash = '/';
		if (access(path, F_OK) &&
		    put_file(path, "polc-selftest-secret\n", 0600))
			return -1;
	}
	for (uint32_t i = 0; i < p->fs.nrules; i++) {
		const char *r = p->fs.rules[i].path;

		if (r[0] == '~')
			fmt(name, sizeof(name), "HOME");
		else if (var_name(r, name, sizeof(name)))
			continue;
		fmt(path, sizeof(path), "%s/var/%s", s->root, name);
		if (add_var(s, name, path))
			return -1;
	}
	if (p->fs.workspace && !var_name(p->fs.workspace, name, sizeof(name))) {
		fmt(path, sizeof(path), "%s/var/%s", s->root, name);
		if (add_var(s, name, path))
			return -1;
	}
	/* The folders (a rule under a variable too), made; the box's own
	 * where root runs a box that takes `user U:G` */
	for (uint32_t i = 0; i < p->fs.nrules; i++) {
		const struct ir_fs_rule *r = &p->fs.rules[i];

		if ((r->path[0] == '~' || r->path[0] == '$') &&
		    (bind_path(s, r->path, path, sizeof(path)) ||
		     mkdirs(path) ||
		     (p->user.present && geteuid() == 0 &&
		      chown(path, p->user.uid, p->user.gid) < 0)))
			return -1;
	}
	for (uint32_t i = 0; i < p->net.nentries; i++) {
		const struct ir_net_entry *e = &p->net.entries[i];

		if (e->kind == IR_ADDR_VAR && e->name &&
		    !var_name(e->name, name, sizeof(name)) &&
		    add_var(s, name, "192.0.2.1"))
			return -1;
	}
	for (uint32_t i = 0; i < p->env.nentries; i++) {
		const struct ir_env_entry *e = &p->env.entries[i];

		for (const char *v = e->value; v && (v = strstr(v, "${"));
		     v += 2)
			if (!var_name(v, name, sizeof(name)) &&
			    add_var(s, name, "selftest"))
				return -1;
	}
	return 0;
}

/* --- where the probes act ----------------------------------------------- */

/* A bound var-rule's folder with the rights want (and, with nowant, none
 * of those), into out; 1 when found. */
static int var_folder(const struct st *s, uint32_t want, uint32_t nowant,
		      char *out)
{
	for (uint32_t i = 0; i < s->p->fs.nrules; i++) {
		const struct ir_fs_rule *r = &s->p->fs.rules[i];

		if ((r->path[0] != '$' && r->path[0] != '~') ||
		    r->kind != IR_FS_GRANT || (r->rights & want) != want ||
		    (r->rights & nowant))
			continue;
		if (!bind_path(s, r->path, out, PATH_MAX))
			return 1;
	}
	return 0;
}

/*
 * A folder in a tmpfs of the box's with (or without) execute, into out;
 * 1 found. The probe makes it; its name holds the nonce, so where a
 * weakened box writes the host's folder instead, what it made is polc's
 * own to remove (teardown()).
 */
static int tmpfs_folder(const struct st *s, int exec, char *out)
{
	for (uint32_t i = 0; i < s->p->fs.nrules; i++) {
		const struct ir_fs_rule *r = &s->p->fs.rules[i];

		if (r->kind == IR_FS_TMPFS &&
		    !!(r->rights & IR_FS_EXECUTE) == exec)
			return !fmt(out, PATH_MAX, "%s/polc-selftest-%s",
				    r->path, s->nonce);
	}
	return 0;
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out;
	ssize_t n = -1;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	if (out >= 0)
		while ((n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)n) != n) {
				n = -1;
				break;
			}
	close(in);
	if (out < 0 || close(out) < 0)
		return -1;
	return n < 0 ? -1 : 0;
}

/*
 * The places: the probe's path in the box (its own, under an executable
 * grant, else a copy in an executable folder of polc's), a writable
 * folder, a writable folder that does not execute, the twin's file, and
 * polc's symlink to the canary inside a grant.
 */
static int places(struct st *s, const char *probe, char *err, size_t errlen)
{
	const int fs = s->p->fs.present;
	const struct ir_fs_rule *r;
	char d[PATH_MAX];

	fmt(s->probe, sizeof(s->probe), "%s", probe);
	r = fs ? rule_for(s, probe) : NULL;
	if (fs &&
	    (!r || r->kind != IR_FS_GRANT || !(r->rights & IR_FS_EXECUTE))) {
		if (!var_folder(s, IR_FS_EXECUTE | IR_FS_MAKE_REG, 0, d)) {
			fmt(err, errlen,
			    "the policy grants no folder the probe can "
			    "run from: %s is outside its executable "
			    "grants, and no ${VAR} folder is writable "
			    "and executable (an installed polc keeps the "
			    "probe under /usr/lib/polc)",
			    probe);
			return -1;
		}
		fmt(s->probe, sizeof(s->probe), "%s/.polc-probe", d);
		if (copy_file(probe, s->probe)) {
			fmt(err, errlen, "copy the probe to %s: %s", s->probe,
			    strerror(errno));
			return -1;
		}
	}
	if (!var_folder(s, IR_FS_WRITE_FILE | IR_FS_MAKE_REG, 0, s->wdir) &&
	    !tmpfs_folder(s, 0, s->wdir) && !tmpfs_folder(s, 1, s->wdir)) {
		if (!fs) {
			fmt(s->wdir, sizeof(s->wdir), "%s/var", s->root);
			if (mkdirs(s->wdir))
				return -1;
		} else
			s->wdir[0] = '\0';
	}
	if (!var_folder(s, IR_FS_WRITE_FILE | IR_FS_MAKE_REG, IR_FS_EXECUTE,
			s->nxdir) &&
	    !tmpfs_folder(s, 0, s->nxdir))
		s->nxdir[0] = '\0';
	if (var_folder(s, IR_FS_READ_FILE, 0, d)) {
		char canary[PATH_MAX + 16];

		fmt(s->twinfile, sizeof(s->twinfile), "%s/twin.txt", d);
		fmt(s->link, sizeof(s->link), "%s/canary-link", d);
		fmt(canary, sizeof(canary), "%s/read.canary", s->out);
		if (put_file(s->twinfile, "twin\n", 0644) ||
		    symlink(canary, s->link) < 0) {
			fmt(err, errlen, "make %s: %s", s->twinfile,
			    strerror(errno));
			return -1;
		}
	} else {
		fmt(s->twinfile, sizeof(s->twinfile), "%s", s->probe);
		s->link[0] = '\0';
	}
	if (s->wdir[0] && s->wdir[0] != '/')
		s->wdir[0] = '\0';
	fmt(s->cwd, sizeof(s->cwd), "%s",
	    s->wdir[0] && under(s->wdir, s->root) ? s->wdir : s->root);
	/* Who holds the canaries' folder. */
	r = fs ? rule_for(s, s->out) : NULL;
	if (r && r->kind == IR_FS_GRANT) {
		s->out_grant = r->path;
		s->out_rights = r->rights;
	}
	return 0;
}

/* A variable the box has: the first `set`, else a `pass` (polc sets it
 * in polexec's environment). */
static void twin_env(struct st *s)
{
	for (int pass = 0; pass < 2 && !s->twin_env; pass++)
		for (uint32_t i = 0; i < s->p->env.nentries; i++) {
			const struct ir_env_entry *e = &s->p->env.entries[i];

			if (e->kind == (pass ? IR_ENV_PASS : IR_ENV_SET)) {
				s->twin_env = e->name;
				break;
			}
		}
}

/* --- polc's listeners and its victim ------------------------------------ */

static int loopback_listed(const struct ir_policy *p, int port)
{
	for (uint32_t i = 0; i < p->net.nloopback; i++)
		if (port >= p->net.loopback[i].lo &&
		    port <= p->net.loopback[i].hi)
			return 1;
	for (uint32_t i = 0; i < p->net.nconnect; i++)
		if (port >= p->net.connect[i].lo &&
		    port <= p->net.connect[i].hi)
			return 1;
	return 0;
}

static int inet_listener(struct st *s, int type, int *port)
{
	for (int tries = 0; tries < 16; tries++) {
		struct sockaddr_in sa = {.sin_family = AF_INET};
		socklen_t len = sizeof(sa);
		int fd =
		    socket(AF_INET, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

		sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (fd < 0)
			return -1;
		if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
		    (type == SOCK_STREAM && listen(fd, 8) < 0) ||
		    getsockname(fd, (struct sockaddr *)&sa, &len) < 0) {
			close(fd);
			return -1;
		}
		*port = ntohs(sa.sin_port);
		if (!loopback_listed(s->p, *port))
			return fd;
		close(fd);
	}
	errno = EADDRINUSE;
	return -1;
}

static int unix_listener(const char *name, int abstract)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	size_t n = strlen(name);
	int fd;

	if (n + 2 > sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(sa.sun_path + abstract, name, n);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa,
		 (socklen_t)(offsetof(struct sockaddr_un, sun_path) + abstract +
			     n + !abstract)) < 0 ||
	    listen(fd, 8) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Did anything connect (stream) or arrive (datagram)? Drains it. */
static int arrived(int fd, int stream)
{
	char buf[256];
	int got = 0, c;

	if (fd < 0)
		return 0;
	if (!stream)
		while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) >= 0)
			got = 1;
	else
		while ((c = accept4(fd, NULL, NULL, SOCK_CLOEXEC)) >= 0) {
			got = 1;
			close(c);
		}
	return got;
}

/* The victim: a child of polc's that writes 'S' when SIGUSR1 lands. */
static int start_victim(struct st *s)
{
	int pfd[2];
	sigset_t set;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -1;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	s->victim = fork();
	if (s->victim < 0)
		return -1;
	if (s->victim == 0) {
		struct timespec ts = {BOX_SECS * 30, 0};

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(pfd[0]);
		sigprocmask(SIG_BLOCK, &set, NULL);
		if (sigtimedwait(&set, NULL, &ts) == SIGUSR1)
			(void)!write(pfd[1], "S", 1);
		_exit(0);
	}
	close(pfd[1]);
	s->victim_pipe = pfd[0];
	return 0;
}

static int victim_signalled(struct st *s)
{
	struct pollfd p = {s->victim_pipe, POLLIN, 0};
	char c;

	/* the signal is delivered before kill() returns to the box */
	return poll(&p, 1, 200) == 1 && read(s->victim_pipe, &c, 1) == 1;
}

/* --- polc's own network namespace ---------------------------------------- */

/*
 * Where the caller may make one (root, or a user namespace of its own), the
 * net probes' boxes run in a throwaway network namespace of polc's: lo, a
 * veth pair whose peer is a dead end (TEST-NET-3, 203.0.113.2/24, a default
 * route via .1, so that pasta finds an interface), and polc's TCP and UDP
 * listeners on NS_ADDR (TEST-NET-2), a non-loopback address of that
 * namespace. Nothing in it reaches the outside: it has no interface but
 * its own.
 */
#define NS_ADDR	   "198.51.100.1"
#define NS_GW	   "203.0.113.1"
#define NS_IF_ADDR "203.0.113.2"

static struct rtattr *nl_attr(struct nlmsghdr *n, unsigned short type,
			      const void *data, size_t len)
{
	struct rtattr *a =
	    (struct rtattr *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));

	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(a), data, len);
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + RTA_ALIGN(a->rta_len);
	return a;
}

static void nl_end(struct nlmsghdr *n, struct rtattr *a)
{
	a->rta_len = (unsigned short)((char *)n + n->nlmsg_len - (char *)a);
}

/* ip link add st0 type veth peer name st1 */
static int make_veth(void)
{
	union {
		struct nlmsghdr n;
		char buf[512];
	} m;
	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC};
	struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
	struct rtattr *info, *data, *peer;
	char ack[512];
	ssize_t got;
	int fd, rc = -1;

	memset(&m, 0, sizeof(m));
	m.n.nlmsg_len = NLMSG_LENGTH(sizeof(ifi));
	m.n.nlmsg_type = RTM_NEWLINK;
	m.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK;
	memcpy(NLMSG_DATA(&m.n), &ifi, sizeof(ifi));
	nl_attr(&m.n, IFLA_IFNAME, "st0", 4);
	info = nl_attr(&m.n, IFLA_LINKINFO, NULL, 0);
	nl_attr(&m.n, IFLA_INFO_KIND, "veth", 4);
	data = nl_attr(&m.n, IFLA_INFO_DATA, NULL, 0);
	peer = nl_attr(&m.n, VETH_INFO_PEER, &ifi, sizeof(ifi));
	nl_attr(&m.n, IFLA_IFNAME, "st1", 4);
	nl_end(&m.n, peer);
	nl_end(&m.n, data);
	nl_end(&m.n, info);
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -1;
	if (sendto(fd, &m, m.n.nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) == (ssize_t)m.n.nlmsg_len &&
	    (got = recv(fd, ack, sizeof(ack), 0)) >=
		(ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr))) {
		const struct nlmsghdr *h = (const struct nlmsghdr *)ack;
		const struct nlmsgerr *e = NLMSG_DATA(h);

		if (h->nlmsg_type == NLMSG_ERROR && e->error == 0)
			rc = 0;
		else
			errno =
			    h->nlmsg_type == NLMSG_ERROR ? -e->error : EPROTO;
	}
	close(fd);
	return rc;
}

static int if_set(int fd, const char *name, const char *addr, const char *mask)
{
	struct ifreq ifr;
	struct sockaddr_in *sa = (struct sockaddr_in *)&ifr.ifr_addr;

	memset(&ifr, 0, sizeof(ifr));
	fmt(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (addr) {
		sa->sin_family = AF_INET;
		inet_pton(AF_INET, addr, &sa->sin_addr);
		if (ioctl(fd, SIOCSIFADDR, &ifr) < 0)
			return -1;
		inet_pton(AF_INET, mask, &sa->sin_addr);
		if (ioctl(fd, SIOCSIFNETMASK, &ifr) < 0)
			return -1;
	}
	if (strchr(name, ':'))
		return 0;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		return -1;
	ifr.ifr_flags |= IFF_UP;
	return ioctl(fd, SIOCSIFFLAGS, &ifr);
}

static int put_map(const char *file, const char *text)
{
	int fd = open(file, O_WRONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok ? 0 : -1;
}

/* In the holder, after it unshared: the namespace, the listeners, the
 * namespace files; fds[] gets tcp, udp, net, user (-1 without one). */
static const char *netns_fill(int userns, uid_t uid, gid_t gid, int *fds)
{
	struct sockaddr_in sa = {.sin_family = AF_INET};
	struct rtentry rt;
	char map[64];
	int fd;

	if (userns) {
		fmt(map, sizeof(map), "%u %u 1", (unsigned)uid, (unsigned)uid);
		if (put_map("/proc/self/uid_map", map) ||
		    put_map("/proc/self/setgroups", "deny"))
			return "uid_map";
		fmt(map, sizeof(map), "%u %u 1", (unsigned)gid, (unsigned)gid);
		if (put_map("/proc/self/gid_map", map))
			return "gid_map";
	}
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || if_set(fd, "lo", NULL, NULL))
		return "lo up";
	if (make_veth())
		return "add a veth pair";
	if (if_set(fd, "st0", NS_IF_ADDR, "255.255.255.0") ||
	    if_set(fd, "st1", NULL, NULL) ||
	    if_set(fd, "lo:1", NS_ADDR, "255.255.255.255"))
		return "address the interfaces";
	memset(&rt, 0, sizeof(rt));
	((struct sockaddr_in *)&rt.rt_dst)->sin_family = AF_INET;
	((struct sockaddr_in *)&rt.rt_genmask)->sin_family = AF_INET;
	((struct sockaddr_in *)&rt.rt_gateway)->sin_family = AF_INET;
	inet_pton(AF_INET, NS_GW,
		  &((struct sockaddr_in *)&rt.rt_gateway)->sin_addr);
	rt.rt_flags = RTF_UP | RTF_GATEWAY;
	rt.rt_dev = "st0";
	if (ioctl(fd, SIOCADDRT, &rt) < 0)
		return "default route";
	close(fd);
	inet_pton(AF_INET, NS_ADDR, &sa.sin_addr);
	for (int i = 0; i < 2; i++) {
		socklen_t len = sizeof(sa);

		sa.sin_port = 0;
		fds[i] = socket(AF_INET,
				(i ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC |
				    SOCK_NONBLOCK,
				0);
		if (fds[i] < 0 ||
		    bind(fds[i], (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
		    (!i && listen(fds[i], 8) < 0) ||
		    getsockname(fds[i], (struct sockaddr *)&sa, &len) < 0)
			return "listen";
	}
	fds[2] = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	fds[3] = userns ? open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC) : -1;
	if (fds[2] < 0 || (userns && fds[3] < 0))
		return "open /proc/self/ns";
	return NULL;
}

/*
 * Make polc's network namespace: a holder child unshares (a network
 * namespace as root, else a user and a network namespace), fills it and
 * sends back its listeners and namespace files. 0, or -1 with why (the
 * loopback probes are the fallback).
 */
static int make_netns(struct st *s, char *why, size_t len)
{
	int sp[2], st, nfds;
	pid_t pid;
	char msg[160] = "";
	union {
		struct cmsghdr c;
		char buf[CMSG_SPACE(4 * sizeof(int))];
	} cbuf;
	struct iovec iov = {msg, sizeof(msg) - 1};
	struct msghdr mh = {.msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = cbuf.buf,
			    .msg_controllen = sizeof(cbuf.buf)};
	struct cmsghdr *c;
	ssize_t n;

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sp) < 0) {
		fmt(why, len, "socketpair: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fmt(why, len, "fork: %s", strerror(errno));
		close(sp[0]);
		close(sp[1]);
		return -1;
	}
	if (pid == 0) {
		uid_t uid = geteuid();
		gid_t gid = getegid();
		int fds[4] = {-1, -1, -1, -1}, userns = 0;
		const char *fail = NULL;

		close(sp[0]);
		if (uid != 0 || unshare(CLONE_NEWNET) < 0) {
			userns = 1;
			if (unshare(CLONE_NEWUSER | CLONE_NEWNET) < 0)
				fail = "unshare";
		}
		if (!fail)
			fail = netns_fill(userns, uid, gid, fds);
		if (fail) {
			fmt(msg, sizeof(msg), "%s: %s", fail, strerror(errno));
			(void)!send(sp[1], msg, strlen(msg), 0);
			_exit(1);
		}
		memset(&cbuf, 0, sizeof(cbuf));
		mh.msg_controllen = CMSG_SPACE((userns ? 4 : 3) * sizeof(int));
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN((userns ? 4 : 3) * sizeof(int));
		memcpy(CMSG_DATA(c), fds, (userns ? 4 : 3) * sizeof(int));
		iov.iov_len = 2;
		memcpy(msg, "ok", 2);
		_exit(sendmsg(sp[1], &mh, 0) == 2 ? 0 : 1);
	}
	close(sp[1]);
	do
		n = recvmsg(sp[0], &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	close(sp[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	c = n == 2 && !memcmp(msg, "ok", 2) ? CMSG_FIRSTHDR(&mh) : NULL;
	if (!c || c->cmsg_type != SCM_RIGHTS) {
		fmt(why, len, "%s", n > 0 ? msg : "the holder died");
		return -1;
	}
	nfds = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
	{
		int fds[4] = {-1, -1, -1, -1};

		memcpy(fds, CMSG_DATA(c),
		       (size_t)(nfds > 4 ? 4 : nfds) * sizeof(int));
		s->ns_tcp = fds[0];
		s->ns_udp = fds[1];
		s->netns = fds[2];
		s->userns = fds[3];
	}
	for (int i = 0; i < 2; i++) {
		struct sockaddr_in sa;
		socklen_t l = sizeof(sa);

		if (getsockname(i ? s->ns_udp : s->ns_tcp,
				(struct sockaddr *)&sa, &l) < 0) {
			fmt(why, len, "the holder's listeners: %s",
			    strerror(errno));
			return -1;
		}
		*(i ? &s->ns_udp_port : &s->ns_tcp_port) = ntohs(sa.sin_port);
	}
	return 0;
}

/* Does the policy's egress list NS_ADDR:port (then the namespace cannot
 * tell a hole from what the policy allows)? */
static int ns_listed(const struct ir_policy *p, int port)
{
	struct in_addr a;

	inet_pton(AF_INET, NS_ADDR, &a);
	for (uint32_t i = 0; i < p->net.nentries; i++) {
		const struct ir_net_entry *e = &p->net.entries[i];
		uint32_t net, want = ntohl(a.s_addr), mask;

		if (e->verdict != IR_NET_ALLOW || port < e->port_lo ||
		    port > e->port_hi)
			continue;
		if (e->kind != IR_ADDR_V4) /* a name, a variable of ours */
			continue;
		memcpy(&net, e->addr, 4);
		mask = e->prefix ? ~0u << (32 - e->prefix) : 0;
		if ((ntohl(net) & mask) == (want & mask))
			return 1;
	}
	return 0;
}

/* --- one box ------------------------------------------------------------- */

struct box {
	char out[16384];
	size_t outlen;
	char err[4096];
	size_t errlen;
	int status; /* wait status of polexec */
	json_t *record;
};

static void drain(int fd, char *buf, size_t *len, size_t cap, int *open_)
{
	ssize_t n = read(fd, buf + *len, cap - 1 - *len);

	if (n > 0)
		*len += (size_t)n;
	else if (n == 0 || errno != EINTR)
		*open_ = 0;
	if (*len == cap - 1) /* full: the rest is dropped */
		*open_ = n > 0;
	buf[*len] = '\0';
}

/* Run the probe (args...) under polexec; 0, or -1 with err (not run). */
static int run_box(struct st *s, struct box *b, char *const *probe_args,
		   char *err, size_t errlen)
{
	const char *argv[MAX_ARGV];
	char varargs[MAX_VARS][PATH_MAX + 160], rec[PATH_MAX + 16];
	int opipe[2], epipe[2], oo = 1, eo = 1, n = 0;
	time_t deadline = time(NULL) + BOX_SECS;
	pid_t pid;

	memset(b, 0, sizeof(*b));
	fmt(rec, sizeof(rec), "%s/record.json", s->root);
	unlink(rec);
	argv[n++] = s->o->polexec;
	argv[n++] = "--record";
	argv[n++] = rec;
	for (size_t i = 0; i < s->nvars; i++) {
		fmt(varargs[i], sizeof(varargs[i]), "%s=%s", s->vars[i].name,
		    s->vars[i].value);
		argv[n++] = "--var";
		argv[n++] = varargs[i];
	}
	argv[n++] = s->o->artifact;
	argv[n++] = "--";
	argv[n++] = s->probe;
	for (int i = 0; probe_args[i] && n < MAX_ARGV - 1; i++)
		argv[n++] = probe_args[i];
	argv[n] = NULL;
	if (pipe2(opipe, O_CLOEXEC) < 0 || pipe2(epipe, O_CLOEXEC) < 0) {
		fmt(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fmt(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		char canary[PATH_MAX + 16];
		int in = open("/dev/null", O_RDONLY), fd;

		fmt(canary, sizeof(canary), "%s/fd.canary", s->out);
		fd = open(canary, O_RDONLY); /* inherited: the leaked fd */
		if (s->in_ns &&
		    ((s->userns >= 0 && setns(s->userns, CLONE_NEWUSER) < 0) ||
		     setns(s->netns, CLONE_NEWNET) < 0)) {
			fprintf(stderr,
				"polc: selftest: enter polc's network "
				"namespace: %s\n",
				strerror(errno));
			_exit(125);
		}
		if (in < 0 || fd < 0 || dup2(in, 0) < 0 ||
		    dup2(opipe[1], 1) < 0 || dup2(epipe[1], 2) < 0 ||
		    (fd != LEAK_FD && dup2(fd, LEAK_FD) < 0) ||
		    chdir(s->cwd) < 0 || setenv(ENV_CANARY, s->nonce, 1) ||
		    (s->twin_env_value &&
		     setenv(s->twin_env, s->twin_env_value, 1))) {
			fprintf(stderr, "polc: selftest: prepare the box: %s\n",
				strerror(errno));
			_exit(125);
		}
		execv(argv[0], (char *const *)(uintptr_t)argv);
		fprintf(stderr, "polc: selftest: run %s: %s\n", argv[0],
			strerror(errno));
		_exit(125);
	}
	close(opipe[1]);
	close(epipe[1]);
	while (oo || eo) {
		struct pollfd pf[2] = {{oo ? opipe[0] : -1, POLLIN, 0},
				       {eo ? epipe[0] : -1, POLLIN, 0}};

		if (time(NULL) > deadline) {
			kill(pid, SIGKILL);
			break;
		}
		if (poll(pf, 2, 1000) < 0 && errno != EINTR)
			break;
		if (pf[0].revents)
			drain(opipe[0], b->out, &b->outlen, sizeof(b->out),
			      &oo);
		if (pf[1].revents)
			drain(epipe[0], b->err, &b->errlen, sizeof(b->err),
			      &eo);
	}
	close(opipe[0]);
	close(epipe[0]);
	while (waitpid(pid, &b->status, 0) < 0)
		if (errno != EINTR) {
			fmt(err, errlen, "wait: %s", strerror(errno));
			return -1;
		}
	b->record = json_load_file(rec, JSON_REJECT_DUPLICATES, NULL);
	return 0;
}

/* The record's tier of a layer, "" when it has none. */
static const char *tier(const struct box *b, const char *layer)
{
	json_t *t = json_object_get(
	    json_object_get(json_object_get(b->record, "layers"), layer),
	    "tier");

	return json_is_string(t) ? json_string_value(t) : "";
}

/* A limit's tier, or its status where that says it is degraded. */
static const char *limit_tier(const struct box *b, const char *limit)
{
	json_t *l =
	    json_object_get(json_object_get(b->record, "limits"), limit);
	json_t *t = json_object_get(l, "tier"),
	       *st = json_object_get(l, "status");

	if (json_is_string(st) &&
	    !strncmp(json_string_value(st), "degraded", 8))
		return json_string_value(st);
	return json_is_string(t) ? json_string_value(t) : "";
}

/*
 * A held row whose layer's tier says "degraded(WHY)": degraded, the
 * layer column shortened and WHY in the detail. A record of a mode
 * other than enforce (polexec --learn) certifies no row.
 */
static void grade(struct row *r, const struct box *b)
{
	json_t *mode = json_object_get(b->record, "mode");
	char *d = strstr(r->layer, "(degraded"), why[160] = "";
	size_t n = strlen(r->detail);

	if (r->v != V_HELD)
		return;
	if (d) {
		r->v = V_DEGRADED;
		fmt(why, sizeof(why), "%s", d + 1);
		if (why[strlen(why) - 1] == ')')
			why[strlen(why) - 1] = '\0';
		fmt(d, sizeof(r->layer) - (size_t)(d - r->layer), "(degraded)");
	}
	if (json_is_string(mode) &&
	    strcmp(json_string_value(mode), "enforce")) {
		r->v = V_UNCERTIFIED;
		fmt(r->detail + n, sizeof(r->detail) - n,
		    "; polexec ran in %s mode: nothing is certified",
		    json_string_value(mode));
	} else if (d) {
		fmt(r->detail + n, sizeof(r->detail) - n, "; %s", why);
	}
}

/* Did the box get net none's second rung, or the notify broker (net.rung
 * "seccomp...")? Either way its loopback is the caller's (the broker's
 * ports only the listed ones) and it has no UDP socket. Or the cgroup
 * backend (net.rung "cgroup"): the caller's loopback too, its eBPF
 * programs let only the listed TCP ports through. */
static int net_fallback_rung(const struct box *b)
{
	json_t *r = json_object_get(
	    json_object_get(json_object_get(b->record, "layers"), "net"),
	    "rung");

	return json_is_string(r) &&
	       (!strncmp(json_string_value(r), "seccomp", 7) ||
		!strcmp(json_string_value(r), "cgroup"));
}

/* Did the notify broker enforce the box's egress (net.rung
 * "seccomp-notify")? It refuses every abstract unix connect, the box's
 * own too: polexec makes the connect, outside the box's Landlock scope. */
static int broker_rung(const struct box *b)
{
	json_t *r = json_object_get(
	    json_object_get(json_object_get(b->record, "layers"), "net"),
	    "rung");

	return json_is_string(r) &&
	       !strcmp(json_string_value(r), "seccomp-notify");
}

/* Did polexec record a seccomp denial of call? */
static int denied_by_seccomp(const struct box *b, const char *call)
{
	json_t *d = json_object_get(b->record, "denials"), *e;
	size_t i;

	json_array_foreach(d, i, e)
	{
		json_t *l = json_object_get(e, "layer"),
		       *c = json_object_get(e, "syscall");

		if (json_is_string(l) && json_is_string(c) &&
		    !strcmp(json_string_value(l), "seccomp") &&
		    !strcmp(json_string_value(c), call))
			return 1;
	}
	return 0;
}

/* The first seccomp denial's call and action, or NULL. */
static const char *first_seccomp_denial(const struct box *b, const char **act)
{
	json_t *d = json_object_get(b->record, "denials"), *e;
	size_t i;

	json_array_foreach(d, i, e)
	{
		json_t *l = json_object_get(e, "layer"),
		       *c = json_object_get(e, "syscall"),
		       *a = json_object_get(e, "action");

		if (json_is_string(l) && json_is_string(c) &&
		    json_is_string(a) &&
		    !strcmp(json_string_value(l), "seccomp")) {
			*act = json_string_value(a);
			return json_string_value(c);
		}
	}
	return NULL;
}

/* The IR's errno for the probe's call (its name as the probe says it),
 * with no arguments; 0 when the IR allows it or answers otherwise. */
static int ir_errno(const struct ir_policy *p, const char *call)
{
	static const char *const alias[][2] = {{"open", "openat"},
					       {"io_uring", "io_uring_setup"}};
	uint64_t args[6] = {0};
	struct ir_action a;

	for (size_t i = 0; i < sizeof(alias) / sizeof(*alias); i++)
		if (!strcmp(call, alias[i][0]))
			call = alias[i][1];
	if (!p->sys.present)
		return 0;
	a = ir_eval_syscall(&p->sys, ir_find_syscall(&p->sys, call), args);
	return a.kind == IR_ACT_ERRNO ? a.errnum : 0;
}

/* --- verdicts ------------------------------------------------------------ */

enum kind { K_FS, K_NET, K_PROC, K_FD, K_ENV, K_MEM, K_PIDS, K_KERNEL };

/*
 * The box's lines, and what the outside saw (outside_open), into a
 * verdict and the layer that held it.
 */
static void judge(struct st *s, struct row *r, struct box *b, enum kind k,
		  int outside_open)
{
	const char *out = b->out, *line;
	char call[64] = "", route[64] = "";
	const char *act = "";
	int twin_ok = -1, open_ = 0, blocks = 0, done = 0, e = 0;
	int sig = WIFSIGNALED(b->status) ? WTERMSIG(b->status)
		  : WIFEXITED(b->status) && WEXITSTATUS(b->status) > 128
		      ? WEXITSTATUS(b->status) - 128
		      : 0;

	if (WIFEXITED(b->status) && WEXITSTATUS(b->status) == 125) {
		char *nl = strchr(b->err, '\n');

		if (nl)
			*nl = '\0';
		r->v = V_ERROR;
		fmt(r->detail, sizeof(r->detail), "polexec refused: %.200s",
		    b->err);
		s->refused = 1;
		return;
	}
	for (line = out; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, "twin ok", 7))
			twin_ok = 1;
		else if (!strncmp(line, "twin fail", 9))
			twin_ok = 0;
		else if (!strncmp(line, "twin skip", 9))
			twin_ok = 2;
		else if (!strncmp(line, "attack open ", 12)) {
			open_ = 1;
			if (!route[0])
				sscanf(line + 12, "%63s", route);
		} else if (!strncmp(line, "attack blocked ", 15)) {
			if (!blocks++)
				sscanf(line + 15, "%63s %63s %d", route, call,
				       &e);
		} else if (!strncmp(line, "done", 4))
			done = 1;
	}
	/* net none's second rung (no network namespace could be had:
	 * seccomp refuses every socket family but AF_UNIX) takes the box's
	 * own loopback too, as its record says, and the notify broker has
	 * the caller's loopback and no UDP: the twin cannot work there, and
	 * the attack is judged alone (by the rung's tier) */
	if (twin_ok == 0 && k == K_NET && net_fallback_rung(b))
		twin_ok = 2;
	/* likewise the notify broker, for the box's own abstract socket
	 * (docs/EGRESS.md, "Unix sockets") */
	if (twin_ok == 0 && !strcmp(r->name, "ipc.abstract-socket") &&
	    broker_rung(b))
		twin_ok = 2;
	if (twin_ok == 0 || (twin_ok < 0 && sig)) {
		r->v = V_BROKEN;
		fmt(r->detail, sizeof(r->detail),
		    "the twin, which the policy allows, failed%s%s",
		    sig ? ": killed by SIG" : "", sig ? sigabbrev_np(sig) : "");
		return;
	}
	if (twin_ok < 0) {
		r->v = V_ERROR;
		fmt(r->detail, sizeof(r->detail),
		    "the probe did not run (exit %d): %.180s",
		    WIFEXITED(b->status) ? WEXITSTATUS(b->status) : -1, b->err);
		return;
	}
	if (open_ || outside_open) {
		r->v = V_OPEN;
		fmt(r->detail, sizeof(r->detail), "%s%s",
		    open_ ? "got through by " : "arrived outside",
		    open_ ? route : "");
		return;
	}
	if (!blocks && !sig && done && k != K_NET) {
		r->v = V_ERROR;
		fmt(r->detail, sizeof(r->detail), "no attack was made");
		return;
	}
	r->v = V_HELD;
	if (sig && (sig == SIGSYS || first_seccomp_denial(b, &act))) {
		const char *c = first_seccomp_denial(b, &act);

		fmt(r->layer, sizeof(r->layer), "seccomp (%s)",
		    tier(b, "seccomp"));
		fmt(r->detail, sizeof(r->detail), "killed by SIG%s%s%s%s%s",
		    sigabbrev_np(sig), c ? ": " : "", c ? c : "", c ? " " : "",
		    c ? act : "");
		return;
	}
	if (sig) {
		fmt(r->layer, sizeof(r->layer), "limits (%s)",
		    k == K_MEM ? limit_tier(b, "memory")
			       : limit_tier(b, "pids"));
		fmt(r->detail, sizeof(r->detail), "killed by SIG%s",
		    sigabbrev_np(sig));
		return;
	}
	if (blocks > 1)
		fmt(r->detail, sizeof(r->detail),
		    "%d ways, none got through; %s: %s", blocks, route,
		    e ? strerror(e) : "refused");
	else if (blocks)
		fmt(r->detail, sizeof(r->detail), "%s: %s", route,
		    e ? strerror(e) : "refused");
	else
		fmt(r->detail, sizeof(r->detail), "nothing arrived");
	if (call[0] &&
	    (denied_by_seccomp(b, call) || (e && ir_errno(s->p, call) == e))) {
		fmt(r->layer, sizeof(r->layer), "seccomp (%s)",
		    tier(b, "seccomp"));
		return;
	}
	switch (k) {
	case K_FS:
		if (e == ENOENT && s->p->fs.present)
			fmt(r->layer, sizeof(r->layer), "view (%s)",
			    tier(b, "view"));
		else
			fmt(r->layer, sizeof(r->layer), "landlock (%s)",
			    tier(b, "landlock"));
		break;
	case K_NET:
		if (s->p->net.mode == IR_NET_HOST)
			fmt(r->layer, sizeof(r->layer), "landlock (%s)",
			    tier(b, "landlock"));
		else
			fmt(r->layer, sizeof(r->layer), "net %s (%s)",
			    s->p->net.mode == IR_NET_NONE ? "none" : "filtered",
			    tier(b, "net"));
		break;
	case K_PROC:
		if (e == ESRCH || e == ENOENT || e == ECONNREFUSED)
			fmt(r->layer, sizeof(r->layer), "%s (%s)",
			    e == ECONNREFUSED ? "net namespace"
					      : "view: pid namespace",
			    tier(b, e == ECONNREFUSED ? "net" : "view"));
		else
			fmt(r->layer, sizeof(r->layer), "landlock (%s)",
			    tier(b, "landlock"));
		break;
	case K_FD:
		fmt(r->layer, sizeof(r->layer), "polexec (fds closed)");
		break;
	case K_ENV:
		fmt(r->layer, sizeof(r->layer), "env (%s)", tier(b, "env"));
		break;
	case K_MEM:
	case K_PIDS:
		fmt(r->layer, sizeof(r->layer), "limits (%s)",
		    limit_tier(b, k == K_MEM ? "memory" : "pids"));
		break;
	case K_KERNEL:
		/* not the policy's answer: the kernel's, or the box's */
		fmt(r->layer, sizeof(r->layer), "the kernel (%s)",
		    e ? strerrorname_np(e) : "?");
		break;
	}
}

/* --- the table ----------------------------------------------------------- */

static void report(struct st *s, const struct row *r, const struct box *b)
{
	json_t *o = json_object();

	json_object_set_new(o, "property", json_string(r->name));
	json_object_set_new(o, "verdict", json_string(verdict_names[r->v]));
	json_object_set_new(o, "layer", json_string(r->layer));
	json_object_set_new(o, "detail", json_string(r->detail));
	if (b && b->record)
		json_object_set(o, "record_layers",
				json_object_get(b->record, "layers"));
	json_array_append_new(s->rows, o);
	if (r->v == V_OPEN || r->v == V_BROKEN || r->v == V_UNCERTIFIED)
		s->fails++;
	if (r->v == V_DEGRADED)
		s->degraded++;
	if (r->v == V_ERROR)
		s->worst = 2;
	if (!s->o->json)
		printf("%-22s %-12s %-32s %s\n", r->name, verdict_names[r->v],
		       r->layer[0] ? r->layer : "-", r->detail);
}

static void not_claimed(struct st *s, const char *name, const char *f, ...)
    __attribute__((format(printf, 3, 4)));

static void not_claimed(struct st *s, const char *name, const char *f, ...)
{
	struct row r = {.name = name, .v = V_NOT_CLAIMED};
	va_list ap;

	va_start(ap, f);
	vsnprintf(r.detail, sizeof(r.detail), f, ap);
	va_end(ap);
	report(s, &r, NULL);
}

/* Run one probe and report it; outside() checks what the outside saw.
 * 1 (nothing reported, the reason in ns_why) when polexec refused to run
 * in polc's network namespace: the caller falls back to the loopback. */
static int probe(struct st *s, const char *name, enum kind k, int twin,
		 int (*outside)(struct st *), char *const *args)
{
	char *argv[12], err[512];
	struct row r = {.name = name};
	struct box *b = calloc(1, sizeof(*b));
	int i, n = 0;

	if (!b) {
		r.v = V_ERROR;
		fmt(r.detail, sizeof(r.detail), "out of memory");
		report(s, &r, NULL);
		return 0;
	}
	argv[n++] = (char *)args[0];
	argv[n++] = twin ? "1" : "0";
	for (i = 1; args[i] && n < 11; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (run_box(s, b, argv, err, sizeof(err))) {
		r.v = V_ERROR;
		fmt(r.detail, sizeof(r.detail), "%s", err);
	} else if (s->in_ns && WIFEXITED(b->status) &&
		   WEXITSTATUS(b->status) == 125) {
		char *nl = strchr(b->err, '\n');

		if (nl)
			*nl = '\0';
		fmt(s->ns_why, sizeof(s->ns_why),
		    "polexec refused to run there: %.150s", b->err);
		json_decref(b->record);
		free(b);
		return 1;
	} else {
		judge(s, &r, b, k, outside ? outside(s) : 0);
		grade(&r, b);
	}
	if (s->where[0] && r.v != V_ERROR) {
		size_t l = strlen(r.detail);

		fmt(r.detail + l, sizeof(r.detail) - l, "; %s", s->where);
	}
	report(s, &r, b);
	json_decref(b->record);
	free(b);
	return 0;
}

/* --- the outside's checks ------------------------------------------------ */

static int write_outside(struct st *s)
{
	char path[PATH_MAX + 32], buf[64] = "";
	int fd, n = 0;

	fmt(path, sizeof(path), "%s/write.canary", s->out);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = (int)read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	if (n != (int)strlen(CANARY "\n") ||
	    memcmp(buf, CANARY "\n", (size_t)n))
		return 1;
	fmt(path, sizeof(path), "%s/new.canary", s->out);
	return access(path, F_OK) == 0;
}

static int unix_outside(struct st *s)
{
	return arrived(s->unix_l, 1);
}
static int abstract_outside(struct st *s)
{
	return arrived(s->abst, 1);
}
static int tcp_outside(struct st *s)
{
	return arrived(s->tcp, 1);
}
static int udp_outside(struct st *s)
{
	return arrived(s->udp, 0);
}
static int tcp_ns_outside(struct st *s)
{
	return arrived(s->ns_tcp, 1);
}
static int udp_ns_outside(struct st *s)
{
	struct pollfd p = {s->ns_udp, POLLIN, 0};

	/* a box's relay (pasta) may send it on after the box ended */
	poll(&p, 1, 200);
	return arrived(s->ns_udp, 0);
}
static int signal_outside(struct st *s)
{
	return victim_signalled(s);
}

/* --- the properties ------------------------------------------------------ */

static void fs_probes(struct st *s)
{
	const int fs = s->p->fs.present;
	char canary[PATH_MAX + 16], fresh[PATH_MAX + 16], sock[PATH_MAX + 16];
	const char *why_r = NULL, *why_w = NULL;

	fmt(canary, sizeof(canary), "%s/read.canary", s->out);
	if (!fs)
		why_r = why_w = "the policy has no fs section: the box sees "
				"the host's files";
	else if (s->out_grant && (s->out_rights & IR_FS_READ_FILE))
		why_r = "the policy grants the canaries' folder";
	if (fs && s->out_grant && (s->out_rights & IR_FS_WRITE_FILE))
		why_w = "the policy grants the canaries' folder writable";
	if (why_r)
		not_claimed(s, "fs.read-outside", "%s%s%s%s", why_r,
			    s->out_grant ? " (" : "",
			    s->out_grant ? s->out_grant : "",
			    s->out_grant ? ")" : "");
	else {
		char *a[] = {"fs-read",
			     canary,
			     s->twinfile,
			     s->link[0] ? s->link : "-",
			     s->wdir[0] ? s->wdir : "-",
			     NULL};

		probe(s, "fs.read-outside", K_FS,
		      allows(s->p, "openat", 0, 0, 0), NULL, a);
	}
	if (why_w)
		not_claimed(s, "fs.write-outside", "%s", why_w);
	else {
		char w[PATH_MAX + 16];
		char *a[] = {"fs-write", w, fresh, s->wdir[0] ? s->wdir : "-",
			     NULL};

		fmt(w, sizeof(w), "%s/write.canary", s->out);
		fmt(fresh, sizeof(fresh), "%s/new.canary", s->out);
		probe(s, "fs.write-outside", K_FS,
		      allows(s->p, "openat", 0, 0, 0), write_outside, a);
	}
	if (!fs)
		not_claimed(s, "fs.exec-writable",
			    "the policy has no fs section");
	else if (!s->nxdir[0])
		not_claimed(s, "fs.exec-writable",
			    "every folder the policy grants writable is "
			    "executable, or none is writable");
	else {
		char *a[] = {"fs-exec", s->probe, s->nxdir, NULL};

		probe(s, "fs.exec-writable", K_FS,
		      allows(s->p, "fork", 0, 0, 0), NULL, a);
	}
	if (!fs && allows(s->p, "memfd_create", 0, 0, 0))
		not_claimed(s, "fs.exec-memfd",
			    "no fs section, and memfd_create is allowed");
	else {
		char *a[] = {"memfd-exec", s->probe, NULL};

		probe(s, "fs.exec-memfd", K_FS, allows(s->p, "fork", 0, 0, 0),
		      NULL, a);
	}
	fmt(sock, sizeof(sock), "%s/host.sock", s->out);
	if (!fs && allows(s->p, "connect", 0, 0, 0))
		not_claimed(s, "ipc.unix-socket",
			    "the policy has no fs section: the host's "
			    "sockets are there");
	else if (s->out_grant && (s->out_rights & IR_FS_CONNECT_UNIX))
		not_claimed(s, "ipc.unix-socket",
			    "the policy grants the socket's folder");
	else {
		char *a[] = {"unix-socket", sock, NULL};

		probe(s, "ipc.unix-socket", K_FS,
		      allows(s->p, "socketpair", AF_UNIX, SOCK_STREAM, 0),
		      unix_outside, a);
	}
}

static int passes(const struct ir_policy *p, const char *name)
{
	for (uint32_t i = 0; i < p->env.nentries; i++)
		if (p->env.entries[i].kind == IR_ENV_PASS &&
		    !strcmp(p->env.entries[i].name, name))
			return 1;
	return 0;
}

static void ipc_probes(struct st *s)
{
	const struct ir_policy *p = s->p;
	int own_ns = p->net.mode != IR_NET_HOST;
	char pid[24], addr[40];

	if (!own_ns && !p->landlock.present &&
	    allows(p, "socket", AF_UNIX, SOCK_STREAM, 0) &&
	    allows(p, "connect", 0, 0, 0))
		not_claimed(s, "ipc.abstract-socket",
			    "net host without Landlock");
	else {
		char *a[] = {"abstract-socket", s->abstract + 1, NULL};

		probe(s, "ipc.abstract-socket", K_PROC,
		      allows(p, "socket", AF_UNIX, SOCK_STREAM, 0) &&
			  allows(p, "bind", 0, 0, 0) &&
			  allows(p, "listen", 0, 0, 0),
		      abstract_outside, a);
	}
	fmt(pid, sizeof(pid), "%d", (int)s->victim);
	fmt(addr, sizeof(addr), "%lx", (unsigned long)(uintptr_t)s);
	if (!p->fs.present && !p->landlock.present &&
	    allows(p, "kill", (uint64_t)s->victim, SIGUSR1, 0))
		not_claimed(s, "proc.signal-outside",
			    "no view, no Landlock, and kill is allowed");
	else {
		char *a[] = {"signal", pid, NULL};

		probe(s, "proc.signal-outside", K_PROC,
		      allows(p, "kill", 1, 0, 0), signal_outside, a);
	}
	if (!p->fs.present && !p->landlock.present &&
	    allows(p, "ptrace", 0x4206, (uint64_t)s->victim, 0))
		not_claimed(s, "proc.ptrace-outside",
			    "no view, no Landlock, and ptrace is allowed");
	else {
		char *a[] = {"ptrace", pid, addr, NULL};

		probe(s, "proc.ptrace-outside", K_PROC,
		      allows(p, "process_vm_readv", 1, 0, 0), NULL, a);
	}
	{
		char fd[8];
		char *a[] = {"fd", fd, NULL};

		fmt(fd, sizeof(fd), "%d", LEAK_FD);
		probe(s, "proc.leaked-fd", K_FD, allows(p, "write", 1, 0, 0),
		      NULL, a);
	}
	if (passes(p, ENV_CANARY))
		not_claimed(s, "env.host-variable",
			    "the policy passes " ENV_CANARY " in");
	else {
		char tw[128];
		char *a[] = {"env", ENV_CANARY, tw, NULL};

		fmt(tw, sizeof(tw), "%s", s->twin_env ? s->twin_env : "-");

		probe(s, "env.host-variable", K_ENV, 1, NULL, a);
	}
}

/*
 * What the policy allows must work too: the first host loopback port it
 * lists, served by polc on 127.0.0.1 and reached from the box (held:
 * reached; twin failed: the box could not reach what the policy lists).
 */
static void listed_probe(struct st *s, int sock_in)
{
	const struct ir_policy *p = s->p;
	struct row r = {.name = "net.loopback-listed"};
	struct sockaddr_in sa = {.sin_family = AF_INET};
	char port[8], err[256];
	char *argv[] = {"tcp", "0", port, s->nonce, NULL};
	struct box *b;
	int fd, one = 1, pfd[2], st;
	pid_t server;
	char c;

	if (p->net.mode == IR_NET_HOST || !p->net.nloopback)
		return;
	fmt(port, sizeof(port), "%u", (unsigned)p->net.loopback[0].lo);
	if (!sock_in) {
		not_claimed(s, r.name,
			    "the syscalls layer denies the sockets to reach "
			    "127.0.0.1:%s",
			    port);
		return;
	}
	sa.sin_port = htons(p->net.loopback[0].lo);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, 8) < 0) {
		not_claimed(s, r.name,
			    "127.0.0.1:%s cannot be served here (%s): not "
			    "checked",
			    port, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	/* A server of polc's answers "ok" to the nonce and says it saw it:
	 * the box reads the answer, so what it reports happened before it
	 * ended (polexec's relay accepts first and connects out after). */
	if (pipe2(pfd, O_CLOEXEC) < 0 || (server = fork()) < 0) {
		not_claimed(s, r.name, "serve 127.0.0.1:%s: %s", port,
			    strerror(errno));
		close(fd);
		return;
	}
	if (server == 0) {
		char got[64] = "";
		ssize_t n = 0;
		int conn;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		alarm(BOX_SECS);
		fcntl(fd, F_SETFL, 0);
		conn = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
		if (conn >= 0)
			n = read(conn, got, sizeof(got) - 1);
		if (n > 0 && !strncmp(got, s->nonce, strlen(s->nonce))) {
			(void)!write(conn, "ok\n", 3);
			(void)!write(pfd[1], "S", 1);
		}
		_exit(0);
	}
	close(pfd[1]);
	argv[0] = "tcp-reply";
	b = calloc(1, sizeof(*b));
	if (!b || run_box(s, b, argv, err, sizeof(err))) {
		r.v = V_ERROR;
		fmt(r.detail, sizeof(r.detail), "%s",
		    b ? err : "out of memory");
	} else if (strstr(b->out, "attack open") && read(pfd[0], &c, 1) == 1) {
		r.v = V_HELD;
		fmt(r.layer, sizeof(r.layer), "net %s (%s)",
		    p->net.mode == IR_NET_NONE ? "none" : "filtered",
		    tier(b, "net"));
		fmt(r.detail, sizeof(r.detail),
		    "reached 127.0.0.1:%s, as the policy lists", port);
		grade(&r, b);
	} else {
		r.v = WIFEXITED(b->status) && WEXITSTATUS(b->status) == 125
			  ? V_ERROR
			  : V_BROKEN;
		fmt(r.detail, sizeof(r.detail),
		    "the policy lists 127.0.0.1:%s; the box did not reach "
		    "polc's server there",
		    port);
	}
	kill(server, SIGKILL);
	waitpid(server, &st, 0);
	close(pfd[0]);
	report(s, &r, b);
	close(fd);
	if (b)
		json_decref(b->record);
	free(b);
}

static void close_netns(struct st *s)
{
	for (int *fd = &s->ns_tcp; fd <= &s->userns; fd++) {
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
	}
}

/*
 * TCP or UDP to a destination the policy does not list: NS_ADDR in polc's
 * network namespace where there is one (the box runs in it), else polc's
 * listener on the caller's 127.0.0.1. The row says which.
 */
static void unlisted_probe(struct st *s, const char *name, int udp, int twin)
{
	char dest[40];
	char *a[] = {udp ? "udp" : "tcp", dest, s->nonce, NULL};

	if (s->netns >= 0 &&
	    ns_listed(s->p, udp ? s->ns_udp_port : s->ns_tcp_port)) {
		close_netns(s);
		fmt(s->ns_why, sizeof(s->ns_why), "the policy lists " NS_ADDR);
	}
	if (s->netns >= 0) {
		fmt(dest, sizeof(dest), NS_ADDR ":%d",
		    udp ? s->ns_udp_port : s->ns_tcp_port);
		fmt(s->where, sizeof(s->where),
		    "to %s, in a network namespace of polc's", dest);
		s->in_ns = 1;
		if (!probe(s, name, K_NET, twin,
			   udp ? udp_ns_outside : tcp_ns_outside, a)) {
			s->in_ns = 0;
			s->where[0] = '\0';
			return;
		}
		s->in_ns = 0;
		close_netns(s);
	}
	fmt(dest, sizeof(dest), "%d", udp ? s->udp_port : s->tcp_port);
	fmt(s->where, sizeof(s->where),
	    "to 127.0.0.1:%s on the host's loopback (no namespace: %s)", dest,
	    s->ns_why);
	probe(s, name, K_NET, twin, udp ? udp_outside : tcp_outside, a);
	s->where[0] = '\0';
}

static void net_probes(struct st *s)
{
	const struct ir_policy *p = s->p;
	int sock_in = allows(p, "socket", AF_INET, SOCK_STREAM, 0) &&
		      allows(p, "bind", 0, 0, 0) &&
		      allows(p, "listen", 0, 0, 0) &&
		      allows(p, "connect", 0, 0, 0);
	int sock_ud = allows(p, "socket", AF_INET, SOCK_DGRAM, 0) &&
		      allows(p, "bind", 0, 0, 0) &&
		      allows(p, "sendto", 0, 0, 0) &&
		      allows(p, "recvfrom", 0, 0, 0);

	if (p->net.mode == IR_NET_HOST && !p->net.nconnect &&
	    allows(p, "socket", AF_INET, SOCK_STREAM, 0))
		not_claimed(s, "net.tcp-unlisted",
			    "net host: the box has the host's network");
	else
		unlisted_probe(s, "net.tcp-unlisted", 0,
			       sock_in && p->net.mode != IR_NET_HOST);
	if (p->net.mode == IR_NET_HOST &&
	    allows(p, "socket", AF_INET, SOCK_DGRAM, 0))
		not_claimed(s, "net.udp-unlisted",
			    "net host: the box has the host's network");
	else
		unlisted_probe(s, "net.udp-unlisted", 1, sock_ud);
	listed_probe(s, sock_in);
}

static void limit_probes(struct st *s)
{
	const struct ir_limits *l = &s->p->limits;
	char v[32];

	if (!(l->set & (1u << IR_LIM_MEMORY)))
		not_claimed(s, "limits.memory",
			    "the policy sets no memory cap");
	else {
		char *a[] = {"memory", v, NULL};

		fmt(v, sizeof(v), "%llu",
		    (unsigned long long)l->value[IR_LIM_MEMORY]);
		probe(s, "limits.memory", K_MEM,
		      allows(s->p, "mmap", 0, 1 << 20, 3), NULL, a);
	}
	if (!(l->set & (1u << IR_LIM_PIDS)))
		not_claimed(s, "limits.pids", "the policy sets no pids cap");
	else {
		char *a[] = {"pids", v, NULL};

		fmt(v, sizeof(v), "%llu",
		    (unsigned long long)l->value[IR_LIM_PIDS]);
		probe(s, "limits.pids", K_PIDS, allows(s->p, "fork", 0, 0, 0),
		      NULL, a);
	}
}

static void kernel_probes(struct st *s)
{
	static const struct {
		const char *name, *probe, *call;
		uint64_t a0, a1;
	} k[] = {
	    {"kernel.io_uring", "io_uring", "io_uring_setup", 1, 0},
	    {"kernel.bpf", "bpf", "bpf", 0, 0},
	    {"kernel.userfaultfd", "userfaultfd", "userfaultfd", O_CLOEXEC, 0},
	    {"kernel.perf_event_open", "perf_event_open", "perf_event_open", 0,
	     0},
	    {"kernel.keyctl", "keyctl", "keyctl", 0, (uint64_t)-3},
	    {"kernel.unshare", "unshare", "unshare", 0x10000000, 0},
	};

	for (size_t i = 0; i < sizeof(k) / sizeof(*k); i++) {
		char what[32];
		char *a[] = {"kernel", what, NULL};
		struct row r = {.name = k[i].name};
		struct box *b;
		char err[256];

		fmt(what, sizeof(what), "%s", k[i].probe);
		if (allows(s->p, k[i].call, k[i].a0, k[i].a1, 0)) {
			not_claimed(s, k[i].name,
				    "the syscalls layer allows %s", k[i].call);
			continue;
		}
		/* Claimed by seccomp: the call is denied. */
		b = calloc(1, sizeof(*b));
		if (!b)
			continue;
		{
			char *argv[] = {a[0], "1", a[1], NULL};

			if (run_box(s, b, argv, err, sizeof(err))) {
				r.v = V_ERROR;
				fmt(r.detail, sizeof(r.detail), "%s", err);
			} else {
				judge(s, &r, b, K_KERNEL, 0);
				grade(&r, b);
			}
		}
		report(s, &r, b);
		json_decref(b->record);
		free(b);
	}
}

/* --- set-up and clean-up ------------------------------------------------- */

static int rm_tree(int dirfd, const char *name)
{
	int fd = openat(dirfd, name,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d;
	struct dirent *e;

	if (fd < 0)
		return unlinkat(dirfd, name, 0);
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			rm_tree(fd, e->d_name);
	closedir(d);
	return unlinkat(dirfd, name, AT_REMOVEDIR);
}

static int setup(struct st *s, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");
	char tmpl[PATH_MAX], path[PATH_MAX + 32];
	unsigned char rnd[8];
	int fd;

	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	fmt(tmpl, sizeof(tmpl), "%s/polc-selftest.XXXXXX", tmp);
	if (!mkdtemp(tmpl) || !realpath(tmpl, s->root)) {
		fmt(err, errlen, "make a folder in %s: %s", tmp,
		    strerror(errno));
		return -1;
	}
	chmod(s->root, 0755);
	fmt(s->out, sizeof(s->out), "%s/outside", s->root);
	if (mkdir(s->out, 0755) < 0)
		goto fail;
	if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
		goto fail;
	fmt(s->nonce, sizeof(s->nonce), "%02x%02x%02x%02x%02x%02x%02x%02x",
	    rnd[0], rnd[1], rnd[2], rnd[3], rnd[4], rnd[5], rnd[6], rnd[7]);
	fmt(s->abstract, sizeof(s->abstract), "@polc-selftest-%s", s->nonce);
	static const char *const files[] = {"read.canary", "write.canary",
					    "fd.canary"};
	/* A box that takes another uid (`user U:G`, root's caller) would
	 * find root's 0644 canaries refused by their mode: writable to all,
	 * so that only the box's layers can be what holds them. */
	int open_mode = s->p->user.present && geteuid() == 0;

	if (open_mode && chmod(s->out, 0777) < 0)
		goto fail;
	for (size_t i = 0; i < 3; i++) {
		fmt(path, sizeof(path), "%s/%s", s->out, files[i]);
		if (put_file(path, CANARY "\n", 0644) ||
		    (open_mode && chmod(path, 0666) < 0))
			goto fail;
	}
	fmt(path, sizeof(path), "%s/host.sock", s->out);
	s->unix_l = unix_listener(path, 0);
	s->abst = unix_listener(s->abstract + 1, 1);
	s->tcp = inet_listener(s, SOCK_STREAM, &s->tcp_port);
	s->udp = inet_listener(s, SOCK_DGRAM, &s->udp_port);
	if (s->unix_l < 0 || s->abst < 0 || s->tcp < 0 || s->udp < 0)
		goto fail;
	fd = start_victim(s);
	if (fd < 0)
		goto fail;
	if (make_netns(s, s->ns_why, sizeof(s->ns_why)) < 0)
		close_netns(s);
	return 0;
fail:
	fmt(err, errlen, "set up in %s: %s", s->root, strerror(errno));
	return -1;
}

static void teardown(struct st *s)
{
	int st;

	if (s->victim > 0) {
		kill(s->victim, SIGKILL);
		waitpid(s->victim, &st, 0);
	}
	for (int *fd = &s->tcp; fd <= &s->abst; fd++)
		if (*fd >= 0)
			close(*fd);
	close_netns(s);
	for (char *d = s->wdir; d; d = d == s->wdir ? s->nxdir : NULL)
		if (d[0] == '/' && strstr(d, s->nonce) && !under(d, s->root))
			rm_tree(AT_FDCWD, d);
	if (s->root[0] && rm_tree(AT_FDCWD, s->root) < 0 && errno != ENOENT)
		fprintf(stderr, "polc: selftest: remove %s: %s\n", s->root,
			strerror(errno));
	for (size_t i = 0; i < s->nvars; i++)
		free(s->vars[i].value);
}

int selftest_run(const struct selftest_opts *o)
{
	struct st s;
	char err[640];
	uint8_t *buf;
	size_t len;
	int rc = 2;

	memset(&s, 0, sizeof(s));
	s.o = o;
	s.tcp = s.udp = s.unix_l = s.abst = s.victim_pipe = -1;
	s.ns_tcp = s.ns_udp = s.netns = s.userns = -1;
	if (readfile_all(o->artifact, &buf, &len, POLBIN_MAX_SIZE + 1)) {
		fprintf(stderr, "polc: selftest: %s: %s\n", o->artifact,
			readfile_strerror(errno));
		return 2;
	}
	if (prove_load_artifact(buf, len, &s.p, err, sizeof(err))) {
		free(buf);
		fprintf(stderr, "polc: selftest: %s: %s\n", o->artifact, err);
		return 2;
	}
	free(buf);
	if (setup(&s, err, sizeof(err)) || bind_vars(&s) ||
	    places(&s, o->probe, err, sizeof(err))) {
		if (!err[0])
			fmt(err, sizeof(err), "bind the variables: %s",
			    strerror(errno));
		fprintf(stderr, "polc: selftest: %s\n", err);
		goto out;
	}
	twin_env(&s);
	if (s.twin_env && s.p->env.present) {
		for (uint32_t i = 0; i < s.p->env.nentries; i++)
			if (!strcmp(s.p->env.entries[i].name, s.twin_env) &&
			    s.p->env.entries[i].kind == IR_ENV_PASS)
				s.twin_env_value = "selftest";
	}
	s.rows = json_array();
	if (!o->json) {
		printf("polc selftest: %s (policy \"%s\") as uid %u, "
		       "canaries in %s\n",
		       o->artifact, s.p->name ? s.p->name : "?",
		       (unsigned)getuid(), s.out);
		printf("%-22s %-12s %-32s %s\n", "property", "verdict",
		       "held by (tier)", "detail");
	}
	/* Once polexec refuses the artifact, it refuses every box: stop. */
	fs_probes(&s);
	if (!s.refused)
		ipc_probes(&s);
	if (!s.refused)
		net_probes(&s);
	if (!s.refused)
		limit_probes(&s);
	if (!s.refused)
		kernel_probes(&s);
	rc = s.worst ? s.worst : s.fails ? 1 : 0;
	if (o->json) {
		json_t *top = json_pack(
		    "{s:s, s:s?, s:i, s:s, s:o}", "artifact", o->artifact,
		    "policy", s.p->name, "uid", (int)getuid(), "verdict",
		    rc == 0   ? "held"
		    : rc == 1 ? "open"
			      : "error",
		    "properties", s.rows);

		s.rows = NULL;
		if (!top || json_dumpf(top, stdout, JSON_INDENT(2)) < 0)
			rc = 2;
		putchar('\n');
		json_decref(top);
	} else {
		printf("verdict: %s (%d not held, %d degraded)\n",
		       rc == 0	   ? "every property the policy claims held"
		       : rc == 1   ? "OPEN: a property the policy claims did "
				     "not hold"
		       : s.refused ? "error: polexec refused to run the "
				     "artifact on this host"
				   : "error: some probes could not run",
		       s.fails, s.degraded);
	}
	if (fflush(stdout))
		rc = 2;
out:
	json_decref(s.rows);
	teardown(&s);
	ir_policy_destroy(&s.p);
	return rc;
}
