/* SPDX-License-Identifier: MIT */
/*
 * The net section: the address entries of `net filtered`, the loopback
 * ports, and the port rules of `net host`, which Landlock enforces with
 * one kernel rule per port, so their number is capped here.
 */
#include "sema_int.h"
#include "sections.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int parse_cidr(struct sema *s, const struct ast_word *w,
		      const char *text, struct ir_net_entry *e)
{
	char buf[64];
	const char *slash = strchr(text, '/');
	size_t n = slash ? (size_t)(slash - text) : strlen(text);
	unsigned bits, i;
	long long pfx;

	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, text, n);
	buf[n] = '\0';
	if (inet_pton(AF_INET, buf, e->addr) == 1)
		e->kind = IR_ADDR_V4, bits = 32;
	else if (inet_pton(AF_INET6, buf, e->addr) == 1)
		e->kind = IR_ADDR_V6, bits = 128;
	else
		return -1;
	pfx = bits;
	if (slash) {
		struct ast_word pw = *w;

		pw.text = (char *)(uintptr_t)(slash + 1);
		if (!*pw.text || sema_number(s, &pw, &pfx))
			return -2;
		if (pfx < 0 || pfx > bits) {
			diag_error(s->d, w->loc,
				   "prefix /%lld out of range for %s", pfx,
				   e->kind == IR_ADDR_V4 ? "IPv4" : "IPv6");
			return -2;
		}
	}
	e->prefix = (uint8_t)pfx;
	for (i = e->prefix; i < bits; i++) {
		if (e->addr[i / 8] & (0x80u >> (i % 8))) {
			diag_error(
			    s->d, w->loc,
			    "'%s' has host bits set below /%u; write the "
			    "network address",
			    text, e->prefix);
			return -2;
		}
	}
	return 0;
}

/* Words someone writing a firewall rule may put beside an address; none
 * has a dot, and a one-label host of that name is not worth the mistake. */
static int net_word(const char *name)
{
	static const char *const words[] = {
	    "port", "ports", "dport", "sport", "proto", "protocol", "to",
	    "from", "host",  "any",   "all",   "icmp",	"allow",    "deny"};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(name, words[i]))
			return 1;
	return 0;
}

/* ADDR[:PORTS] where ADDR is [v6], a v4 or v6 CIDR, a name or ${VAR}. */
static int parse_entry(struct sema *s, const struct ast_word *w,
		       struct ir_net_entry *e, int allow_names)
{
	char addr[300];
	const char *t = w->text, *ports = NULL, *colon;
	struct ir_port_range r = {0, 65535};
	size_t n;
	int rc;

	memset(e, 0, sizeof(*e));
	if (t[0] == '[') {
		const char *end = strchr(t, ']');

		if (!end || (end[1] && end[1] != ':'))
			goto bad;
		n = (size_t)(end - t - 1);
		if (end[1] == ':')
			ports = end + 2;
		t++;
	} else if ((colon = strchr(t, ':')) && strchr(colon + 1, ':')) {
		n = strlen(t); /* a bare IPv6 address: no port */
	} else if (colon) {
		n = (size_t)(colon - t);
		ports = colon + 1;
	} else {
		n = strlen(t);
	}
	if (n == 0 || n >= sizeof(addr))
		goto bad;
	memcpy(addr, t, n);
	addr[n] = '\0';
	if (ports && sema_ports(s, w, ports, &r))
		return -1;
	e->port_lo = r.lo;
	e->port_hi = r.hi;
	rc = parse_cidr(s, w, addr, e);
	if (rc == -2)
		return -1;
	if (rc == 0)
		return 0;
	if (!allow_names) {
		diag_error(s->d, w->loc,
			   "expected an address or CIDR, got '%s'", addr);
		return -1;
	}
	if (addr[0] == '$') {
		if (sema_check_vars(s, w, addr))
			return -1;
		if (addr[n - 1] != '}' || strchr(addr + 1, '$'))
			goto bad;
		e->kind = IR_ADDR_VAR;
	} else {
		uint8_t a[4];
		size_t i;

		for (i = 0; i < n; i++)
			addr[i] = (char)tolower((unsigned char)addr[i]);
		if (!ir_is_hostname(addr))
			goto bad;
		if (net_word(addr)) {
			/* `allow 10.0.0.0/8 port 443` would pin a host
			 * named "port": caught here, not at run time */
			diag_error(s->d, w->loc,
				   "'%s' is a word, not a host name: a port "
				   "follows its address, as in "
				   "example.com:443 or 10.0.0.0/8:443",
				   addr);
			return -1;
		}
		if (ir_reads_as_ipv4(addr, a)) {
			/* a libc would connect to the address, polexec
			 * would look the name up: refused, never guessed */
			diag_error(s->d, w->loc,
				   "'%s' reads as the IPv4 address "
				   "%u.%u.%u.%u (inet_aton's forms), not as a "
				   "host name; write %u.%u.%u.%u%s%s",
				   addr, a[0], a[1], a[2], a[3], a[0], a[1],
				   a[2], a[3], ports ? ":" : "",
				   ports ? ports : "");
			return -1;
		}
		e->kind = IR_ADDR_NAME;
	}
	e->name = strdup(addr);
	if (!e->name) {
		s->oom = 1;
		return -1;
	}
	return 0;
bad:
	diag_error(s->d, w->loc,
		   "expected HOST[:PORT], IP[:PORT], CIDR[:PORT] or "
		   "[IPv6]:PORT, got '%s'",
		   w->text);
	return -1;
}

static void net_add(struct sema *s, struct ir_net_entry *e, struct loc loc)
{
	size_t i;

	for (i = 0; i < s->nnet; i++) {
		const struct ir_net_entry *o = &s->net[i].e;

		if (o->verdict == e->verdict && o->kind == e->kind &&
		    o->prefix == e->prefix && o->proto == e->proto &&
		    !memcmp(o->addr, e->addr, sizeof(o->addr)) &&
		    !(o->name || e->name
			  ? !o->name || !e->name || strcmp(o->name, e->name)
			  : 0) &&
		    o->port_lo == e->port_lo && o->port_hi == e->port_hi &&
		    /* restated by another file (two presets): kept, and
		     * merged by ir_canonicalize() */
		    s->net[i].loc.file == loc.file) {
			diag_error(s->d, loc, "duplicate net entry");
			diag_note(s->d, s->net[i].loc, "first given here");
			free(e->name);
			return;
		}
	}
	if (s->nnet >= IR_MAX_NET) {
		diag_error(s->d, loc, "more than %d net entries", IR_MAX_NET);
		free(e->name);
		return;
	}
	if (sema_grow(s, (void **)&s->net, &s->capnet, s->nnet,
		      sizeof(*s->net))) {
		free(e->name);
		return;
	}
	s->net[s->nnet].e = *e;
	s->net[s->nnet].loc = loc;
	s->nnet++;
}

/* Every address of e a loopback one (as the egress backends judge it:
 * 127.0.0.0/8, 0.0.0.0, ::1, ::, and IPv4-mapped 127.0.0.0/8). */
static int all_loopback(const struct ir_net_entry *e)
{
	static const uint8_t zero[16], v6lo[16] = {[15] = 1},
				       mapped[12] = {[10] = 0xff, [11] = 0xff};

	if (e->kind == IR_ADDR_V4)
		return (e->prefix >= 8 && e->addr[0] == 127) ||
		       (e->prefix == 32 && !memcmp(e->addr, zero, 4));
	if (e->kind == IR_ADDR_V6)
		return (e->prefix == 128 && (!memcmp(e->addr, v6lo, 16) ||
					     !memcmp(e->addr, zero, 16))) ||
		       (e->prefix >= 104 && !memcmp(e->addr, mapped, 12) &&
			e->addr[12] == 127);
	return 0;
}

/*
 * An allow of a loopback address reaches nothing under any backend: the
 * namespace gives the box a loopback of its own, and the cgroup programs
 * and the broker let a box reach the host's loopback only at `loopback`
 * ports. Valid (a deny-free no-op), so a warning, not an error: a
 * resolver on the host's loopback (systemd-resolved's 127.0.0.53) is the
 * case users meet.
 */
static void lint_loopback_allow(struct sema *s, const struct ast_word *w)
{
	diag_warning(s->d, w->loc,
		     "'%s' is a loopback address: an allow never reaches it "
		     "(the namespace backend gives the box a loopback of its "
		     "own; the cgroup programs and the broker reach the "
		     "host's loopback only at 'loopback' ports, TCP); write "
		     "'loopback PORT' for a host service on loopback, or list "
		     "the resolver behind a loopback stub (127.0.0.53)",
		     w->text);
}

/* allow|deny ENTRY... [tcp] [udp] */
static void net_entry_stmt(struct sema *s, const struct ast_stmt *st,
			   uint8_t verdict)
{
	int tcp = 0, udp = 0, entries = 0;
	size_t i;

	for (i = 1; i < st->nwords; i++) {
		if (!strcmp(st->words[i].text, "tcp"))
			tcp = 1;
		else if (!strcmp(st->words[i].text, "udp"))
			udp = 1;
	}
	/* An allow without a protocol is TCP; a deny without one is both,
	 * so that "never this range" cannot leave UDP open by omission. */
	if (!tcp && !udp) {
		tcp = 1;
		udp = verdict == IR_NET_DENY;
	}
	for (i = 1; i < st->nwords; i++) {
		const struct ast_word *w = &st->words[i];
		struct ir_net_entry e;

		if (!strcmp(w->text, "tcp") || !strcmp(w->text, "udp"))
			continue;
		if (w->kind != AST_WORD) {
			diag_error(s->d, w->loc, "expected an address");
			continue;
		}
		entries++;
		if (parse_entry(s, w, &e, verdict == IR_NET_ALLOW))
			continue;
		if (verdict == IR_NET_ALLOW && all_loopback(&e))
			lint_loopback_allow(s, w);
		e.verdict = verdict;
		if (tcp) {
			struct ir_net_entry t = e;

			t.proto = IR_PROTO_TCP;
			if (udp && e.name && !(t.name = strdup(e.name))) {
				s->oom = 1;
				free(e.name);
				continue;
			}
			net_add(s, &t, w->loc);
		}
		if (udp) {
			e.proto = IR_PROTO_UDP;
			net_add(s, &e, w->loc);
		}
	}
	if (!entries)
		diag_error(s->d, st->loc, "no address given");
}

/*
 * PORTS... for loopback, or for connect and bind (landlock set): each of
 * those becomes one kernel rule per port, so a range is capped; `*` (every
 * port) leaves the direction unrestricted instead.
 */
static void ports_stmt(struct sema *s, const struct ast_stmt *st,
		       struct range_list *l, int landlock)
{
	size_t i, j;

	if (st->nwords < 2)
		diag_error(s->d, st->loc, "expected ports after '%s'",
			   st->words[0].text);
	for (i = 1; i < st->nwords; i++) {
		const struct ast_word *w = &st->words[i];
		struct ir_port_range r;

		if (sema_ports(s, w, w->text, &r))
			continue;
		if (landlock && !(r.lo == 0 && r.hi == 65535) &&
		    (unsigned)r.hi - r.lo + 1 > SEMA_MAX_LL_PORTS) {
			diag_error(s->d, w->loc,
				   "port range %u-%u is %u Landlock rules, one "
				   "per port; at most %d per direction (write "
				   "'*' for every port)",
				   r.lo, r.hi, (unsigned)r.hi - r.lo + 1,
				   SEMA_MAX_LL_PORTS);
			continue;
		}
		/* a restatement by another file is kept: the IR merges it */
		for (j = 0; j < l->n; j++) {
			if (l->v[j].r.lo == r.lo && l->v[j].r.hi == r.hi &&
			    l->v[j].loc.file == w->loc.file) {
				sema_dup(s, w->loc, l->v[j].loc, "port",
					 w->text);
				break;
			}
		}
		if (j < l->n)
			continue;
		if (l->n >= IR_MAX_NET) {
			diag_error(s->d, w->loc, "more than %d port entries",
				   IR_MAX_NET);
			return;
		}
		if (sema_grow(s, (void **)&l->v, &l->cap, l->n, sizeof(*l->v)))
			continue;
		l->v[l->n].r = r;
		l->v[l->n++].loc = w->loc;
	}
}

/* The rules of a net block, and the modes each one applies to. */
enum { NK_ALLOW, NK_DENY, NK_LOOPBACK, NK_CONNECT, NK_BIND, NK_COUNT };
static const char *const net_keys[NK_COUNT] = {"allow", "deny", "loopback",
					       "connect", "bind"};
static const char *const net_modes[] = {"none", "filtered", "host"};

static int key_applies(int k, uint32_t mode)
{
	switch (k) {
	case NK_ALLOW:
	case NK_DENY:
		return mode == IR_NET_FILTERED;
	case NK_LOOPBACK:
		return mode != IR_NET_HOST;
	default:
		return mode == IR_NET_HOST;
	}
}

static void key_not_here(struct sema *s, struct loc at, int k, uint32_t mode)
{
	diag_error(s->d, at,
		   "'%s' does not apply to 'net %s' (allow, deny: filtered; "
		   "loopback: none, filtered; connect, bind: host)",
		   net_keys[k], net_modes[mode]);
}

/*
 * `net MODE { ... }` in a policy; `net { ... }` (rules, no mode) in a
 * fragment, so that several fragments (std/net/npm, std/net/pypi) merge
 * their rules under the one mode the policy states. A fragment's rules
 * are checked against that mode once every file is read
 * (sema_lint_net), since the policy may state it after the `use`.
 */
void sema_net(struct sema *s, const struct ast_stmt *st)
{
	static const char *const backends[] = {"auto", "cgroup", "namespace",
					       "broker"};
	uint32_t mode = 0, backend = IR_NET_BACKEND_AUTO;
	int modeless = st->nwords == 1 && st->has_block && !st->cond;
	size_t i;
	int rc;

	if (!modeless &&
	    ((st->nwords != 2 && ((st->nwords != 4 && st->nwords != 5) ||
				  strcmp(st->words[2].text, "backend"))) ||
	     st->cond || st->words[1].kind != AST_WORD)) {
		diag_error(s->d, st->loc,
			   s->in_fragment
			       ? "expected 'net { ... }' (rules, for the "
				 "policy's mode) or 'net none|filtered|host "
				 "[{ ... }]'"
			       : "expected 'net none|filtered|host [backend "
				 "auto|cgroup|namespace|broker|cgroup "
				 "namespace] [{ ... }]'");
		return;
	}
	if (modeless && !s->in_fragment) {
		diag_error(s->d, st->loc,
			   "a policy states its net mode: 'net "
			   "none|filtered|host { ... }' ('net { ... }' "
			   "without one is for fragments)");
		return;
	}
	if (!modeless) {
		for (mode = 0; mode < 3; mode++)
			if (!strcmp(st->words[1].text, net_modes[mode]))
				break;
		if (mode == 3) {
			sema_unknown(s, &st->words[1], "network mode",
				     net_modes, 3);
			return;
		}
		if (st->nwords == 5 &&
		    (strcmp(st->words[3].text, "cgroup") ||
		     strcmp(st->words[4].text, "namespace"))) {
			diag_error(s->d, st->words[3].loc,
				   "a backend list is 'backend cgroup "
				   "namespace' (the cgroup programs, else the "
				   "network namespace); no other list");
			return;
		}
		if (st->nwords == 5)
			backend = IR_NET_BACKEND_CGROUP_NAMESPACE;
		if (st->nwords == 4) {
			for (backend = 0; backend < 4; backend++)
				if (!strcmp(st->words[3].text,
					    backends[backend]))
					break;
			if (backend == 4) {
				sema_unknown(s, &st->words[3], "net backend",
					     backends, 4);
				return;
			}
		}
		if (st->nwords >= 4 && mode == IR_NET_HOST) {
			diag_error(s->d, st->words[2].loc,
				   "'net host' has no egress backend to "
				   "choose");
			return;
		}
		/* The same mode from another file merges, rules and all; a
		 * mode decided by a using file drops this statement with its
		 * rules. */
		rc = sema_once(s, &s->net_mode, st->loc, "net mode", mode);
		if (rc < 0 || rc == SEMA_DROP)
			return;
		s->p->net.present = 1;
		s->p->net.mode = mode;
		s->p->net.backend = backend;
	}
	for (i = 0; i < st->nchildren; i++) {
		const struct ast_stmt *c = &st->children[i];
		const char *k = c->words[0].text;
		int key;

		if (c->cond || c->has_block) {
			diag_error(s->d, c->loc,
				   "net rules take no condition "
				   "or block");
			continue;
		}
		for (key = 0; key < NK_COUNT; key++)
			if (!strcmp(k, net_keys[key]))
				break;
		if (key == NK_COUNT) {
			sema_unknown(s, &c->words[0], "net rule", net_keys,
				     NK_COUNT);
			continue;
		}
		if (!modeless && !key_applies(key, mode)) {
			key_not_here(s, c->words[0].loc, key, mode);
			continue;
		}
		if (modeless && !s->frag_net[key].set) {
			s->frag_net[key].set = 1;
			s->frag_net[key].loc = c->words[0].loc;
		}
		if (key == NK_ALLOW)
			net_entry_stmt(s, c, IR_NET_ALLOW);
		else if (key == NK_DENY)
			net_entry_stmt(s, c, IR_NET_DENY);
		else if (key == NK_LOOPBACK)
			ports_stmt(s, c, &s->loopback, 0);
		else
			ports_stmt(s, c,
				   key == NK_CONNECT ? &s->connect : &s->bind,
				   1);
	}
}

static int move_ranges(struct range_list *l, struct ir_port_range **out,
		       uint32_t *n)
{
	size_t i;

	if (!l->n)
		return 0;
	*out = calloc(l->n, sizeof(**out));
	if (!*out)
		return -1;
	for (i = 0; i < l->n; i++)
		(*out)[i] = l->v[i].r;
	*n = (uint32_t)l->n;
	return 0;
}

/* ---- lints over the whole policy (docs/LANDLOCK.md) -------------------- */

static int range_src_cmp(const void *a, const void *b)
{
	const struct range_src *x = a, *y = b;

	return x->r.lo != y->r.lo ? (x->r.lo < y->r.lo ? -1 : 1)
				  : (x->r.hi > y->r.hi) - (x->r.hi < y->r.hi);
}

/*
 * The ports of l, overlaps merged, counted from the lowest: the total once
 * it passes cap, with *at the entry that passed it; 0 within the cap, or
 * when every_port and the entries cover every port (an unrestricted
 * Landlock direction).
 */
static unsigned long ports_past(struct sema *s, const struct range_list *l,
				unsigned long cap, int every_port,
				struct loc *at)
{
	struct range_src *v;
	unsigned long total = 0, past = 0;
	uint32_t hi = 0;
	size_t i;

	if (!l->n)
		return 0;
	v = malloc(l->n * sizeof(*v));
	if (!v) {
		s->oom = 1;
		return 0;
	}
	memcpy(v, l->v, l->n * sizeof(*v));
	qsort(v, l->n, sizeof(*v), range_src_cmp);
	if (every_port && v[0].r.lo == 0) {
		uint32_t reach = v[0].r.hi;

		for (i = 1; i < l->n && v[i].r.lo <= reach + 1; i++)
			if (v[i].r.hi > reach)
				reach = v[i].r.hi;
		if (reach == 65535) {
			free(v);
			return 0;
		}
	}
	for (i = 0; i < l->n && !past; i++) {
		uint32_t lo = i && v[i].r.lo <= hi ? hi + 1 : v[i].r.lo;

		if (v[i].r.hi >= lo)
			total += v[i].r.hi - lo + 1;
		if (!i || v[i].r.hi > hi)
			hi = v[i].r.hi;
		if (total > cap) {
			past = total;
			*at = v[i].loc;
		}
	}
	free(v);
	return past;
}

/* One range alone is checked where it is read (ports_stmt). */
static void lint_port_total(struct sema *s, const struct range_list *l,
			    const char *dir)
{
	struct loc at;
	unsigned long n;

	if (l->n < 2 || !(n = ports_past(s, l, SEMA_MAX_LL_PORTS, 1, &at)))
		return;
	diag_error(s->d, at,
		   "the %s ports reach %lu Landlock rules, one per port; at "
		   "most %d per direction",
		   dir, n, SEMA_MAX_LL_PORTS);
}

/* A valid policy polexec refuses at start: said at build time instead. */
static void lint_loopback_total(struct sema *s)
{
	struct loc at;
	unsigned long n =
	    ports_past(s, &s->loopback, POLBIN_NET_RELAY_MAX_PORTS, 0, &at);

	if (n)
		diag_warning(s->d, at,
			     "the loopback ports reach %lu; polexec relays at "
			     "most %d and refuses to start this box",
			     n, POLBIN_NET_RELAY_MAX_PORTS);
}

/* `require` below ABI 4 drops `net host` port rules on older kernels. */
static void lint_landlock_abi(struct sema *s)
{
	const struct ir_policy *p = s->p;

	if (!s->landlock.set || p->landlock.mode != IR_LL_REQUIRE ||
	    p->landlock.abi_min >= 4 || !p->net.present ||
	    p->net.mode != IR_NET_HOST || !(s->connect.n || s->bind.n))
		return;
	diag_warning(s->d, s->landlock.loc,
		     "'net host' port rules need Landlock ABI 4, but this "
		     "requires only ABI %u: on a kernel with ABI %u..3 "
		     "polexec runs without them (degraded); write 'abi >= 4' "
		     "to refuse such kernels",
		     p->landlock.abi_min, p->landlock.abi_min);
}

/* A fragment's net rules need the policy's mode, and one they apply to. */
static void lint_fragment_rules(struct sema *s)
{
	int k;

	for (k = 0; k < NK_COUNT; k++) {
		if (!s->frag_net[k].set)
			continue;
		if (!s->net_mode.set) {
			diag_error(s->d, s->frag_net[k].loc,
				   "this fragment's '%s' rules need a net "
				   "mode, and the policy states none: write "
				   "'net %s' in the policy",
				   net_keys[k],
				   k == NK_CONNECT || k == NK_BIND
				       ? "host"
				       : "filtered");
		} else if (!key_applies(k, s->p->net.mode)) {
			key_not_here(s, s->frag_net[k].loc, k, s->p->net.mode);
			diag_note(s->d, s->net_mode.loc,
				  "the policy's net mode is set here");
		}
	}
}

void sema_lint_net(struct sema *s)
{
	lint_fragment_rules(s);
	lint_port_total(s, &s->connect, "connect");
	lint_port_total(s, &s->bind, "bind");
	lint_loopback_total(s);
	lint_landlock_abi(s);
}

int sema_finish_net(struct sema *s)
{
	struct ir_policy *p = s->p;
	size_t i;

	if (s->nnet) {
		p->net.entries = calloc(s->nnet, sizeof(*p->net.entries));
		if (!p->net.entries)
			return -1;
		for (i = 0; i < s->nnet; i++)
			p->net.entries[i] = s->net[i].e;
		p->net.nentries = (uint32_t)s->nnet;
		s->nnet = 0;
	}
	if (move_ranges(&s->loopback, &p->net.loopback, &p->net.nloopback) ||
	    move_ranges(&s->connect, &p->net.connect, &p->net.nconnect) ||
	    move_ranges(&s->bind, &p->net.bind, &p->net.nbind))
		return -1;
	return 0;
}
