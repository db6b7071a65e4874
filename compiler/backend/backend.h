/* SPDX-License-Identifier: MIT */
/*
 * The backends: one file per backend, each a pure function of the IR, and
 * the driver that runs them all (backends.c). Together they make the
 * compiled sections of an artifact, apart from the IR and metadata.
 * `polc build` writes them; the prover re-runs them on an artifact's IR
 * and requires the artifact's sections to be exactly these, so an
 * artifact is judged by the IR it really enforces.
 */
#ifndef POLC_BACKEND_H
#define POLC_BACKEND_H

#include "ir/ir.h"
#include "sections.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/filter.h>

/* ---- The driver (backends.c) -------------------------------------------- */

#define BACKENDS_MAX 12

struct compiled_section {
	uint32_t type;
	uint32_t flags;
	uint8_t *data;
	size_t len;
};

struct compiled {
	size_t n;
	struct compiled_section sec[BACKENDS_MAX];
};

/*
 * Runs every backend, translation validation included. Returns 0; 2 when
 * the policy cannot be compiled (err says why); 3 when validation caught a
 * compiler bug (err names the syscall and a witness). On failure *out is
 * empty.
 */
int backends_compile(const struct ir_policy *p, struct compiled *out, char *err,
		     size_t errlen);

/*
 * Everything `polc build` checks after the semantic pass, in its order,
 * for build and for `polc check` on a source alike (so check refuses what
 * build refuses, with the same message): the IR's canonical bytes must
 * read back through the hostile-input reader, then backends_compile().
 * *ir (the bytes, malloc'd) and *out are filled only on success. Returns
 * 0; 2 when the policy cannot be compiled or out of memory; 3 for a
 * compiler bug (the IR does not read back, or validation caught one).
 */
int backends_build(const struct ir_policy *p, struct compiled *out,
		   uint8_t **ir, size_t *irlen, char *err, size_t errlen);
void backends_free(struct compiled *c);
const struct compiled_section *backends_find(const struct compiled *c,
					     uint32_t type);

/*
 * The section types polc knows, 0-terminated (sections.c): what polc dump
 * and the prover's artifact reader accept (polbin_parse's known list).
 */
extern const uint32_t backends_known_sections[];

/* ---- seccomp (seccomp.c) ------------------------------------------------ */

/*
 * The seccomp backend: a classic-BPF program for AUDIT_ARCH_X86_64 from the
 * IR's syscall section. docs/SECCOMP.md describes the program's layout;
 * seccomp_validate() proves each program equal to the IR.
 */

/* Largest syscall number the dispatch looks at; anything above is x32 or
 * garbage and gets the bad-arch action. */
#define SECCOMP_X32_SYSCALL_BIT 0x40000000u

/*
 * Generate the program for p->sys. On success *prog (caller frees) holds
 * *ninsns <= POLBIN_SECCOMP_MAX_INSNS instructions and 0 is returned; on
 * failure -1 with a message in err.
 */
int seccomp_generate(const struct ir_policy *p, struct sock_filter **prog,
		     size_t *ninsns, char *err, size_t errlen);

/* The x86_64 number of an IR syscall name (a name of the syscall table, or
 * a decimal number: syscall_ir_nr()), or -1 when x86_64 has none. */
int seccomp_syscall_nr(const char *name);

/* The seccomp return value of an action. Returns 0, or -1 if invalid. */
int seccomp_action_value(const struct ir_action *a, uint32_t *ret);

/* ---- The observation programs (seccomp.c, seccomp_observe.c) ----------- */

/*
 * Beside the decision program, polc builds three programs from the same
 * plan for the run record (docs/OBSERVE.md). Each equals the decision
 * except where it returns SECCOMP_RET_USER_NOTIF (0x7fc00000), and
 * polexec's supervisor answers a notification with the decision
 * program's own action, so the decision stays the compiled program's:
 *
 *   SECCOMP_DECIDE   the decision: the SECCOMP section
 *   SECCOMP_NOTIFY   USER_NOTIF where the decision is errno or
 *                    kill_process (but a rule's errno(ENOSYS), a fallback,
 *                    not a denial), or allow on a call the policy observes
 *                    (fs `observe destructive`)
 *   SECCOMP_LEARN    USER_NOTIF where the decision is neither allow nor
 *                    log, or allow on an observed call or, with an fs
 *                    section, on a call whose path Landlock would decide
 *   SECCOMP_EXPLAIN  the code of the deciding rule
 *                    (seccomp_explain_code()), of the default
 *                    (SECCOMP_EXPLAIN_DEFAULT) or of the bad-arch action
 *                    (SECCOMP_EXPLAIN_BADARCH); never loaded into a kernel
 */
enum seccomp_variant {
	SECCOMP_DECIDE = 0,
	SECCOMP_NOTIFY = 1,
	SECCOMP_LEARN = 2,
	SECCOMP_EXPLAIN = 3,
};

#define SECCOMP_EXPLAIN_DEFAULT 0u
#define SECCOMP_EXPLAIN_BADARCH 1u
#define SECCOMP_EXPLAIN_RULE0	2u

/* How a variant observes a syscall the decision allows. */
enum seccomp_observe {
	SECCOMP_OBSERVE_NO = 0,
	SECCOMP_OBSERVE_ALWAYS = 1,
	/* when (low word of argument *arg) & *mask is not 0 (O_TRUNC) */
	SECCOMP_OBSERVE_IF_SET = 2,
};

/* Generate variant v of p's program; as seccomp_generate(). */
int seccomp_generate_variant(const struct ir_policy *p, enum seccomp_variant v,
			     struct sock_filter **prog, size_t *ninsns,
			     char *err, size_t errlen);

/* How variant v of p observes the syscall `name`; arg and mask are set
 * for SECCOMP_OBSERVE_IF_SET (either may be NULL). */
int seccomp_observed(const struct ir_policy *p, enum seccomp_variant v,
		     const char *name, unsigned *arg, uint32_t *mask);
/* The i-th name a variant may observe (whether it does depends on the
 * policy: seccomp_observed()), or NULL past the end. */
const char *seccomp_observed_at(enum seccomp_variant v, unsigned i);
/* Does variant v notify where the decision is the action a, taken by the
 * rule (or default, or bad-arch action) with explain code `code`? */
int seccomp_variant_notifies(enum seccomp_variant v, const struct ir_action *a,
			     uint32_t code);
/* The explain code of rule `rule` of sc, an element of s->calls. */
uint32_t seccomp_explain_code(const struct ir_syscalls *s,
			      const struct ir_syscall *sc, uint32_t rule);
/* ---- The seccomp layer as libseccomp rules (seccomp_oci.c) ------------- */

/*
 * One rule as libseccomp states it: syscall, action, and for each argument
 * (arg & mask[k]) == value[k] (mask 0: no condition on it). The rules of
 * one syscall are disjoint, so libseccomp's missing precedence does not
 * matter, and none has the default action; together with the default they
 * decide every argument vector as ir_eval_syscall() does, comparing an int
 * argument on its low 32 bits as the kernel reads it (its masks lie there).
 * polc export oci writes them as an OCI profile (docs/OCI.md).
 */
struct seccomp_oci_rule {
	char syscall[IR_SYSCALL_NAME];
	struct ir_action action;
	uint64_t mask[6], value[6];
};

struct seccomp_oci_rules {
	struct seccomp_oci_rule *v; /* grouped by syscall, in IR order */
	size_t n;
};

/* 0, or -1 with err (a syscall needing too many regions, memory). */
int seccomp_oci_rules(const struct ir_syscalls *s,
		      struct seccomp_oci_rules *out, char *err, size_t errlen);
void seccomp_oci_rules_free(struct seccomp_oci_rules *r);

/* ---- Translation validation (seccomp_validate.c) ------------------------ */

/*
 * Translation validation of the seccomp program: prove that the program
 * returns, for every arch, syscall number and argument vector, the action
 * the IR gives (ir_eval_syscall() for x86_64 numbers, the bad-arch action
 * for x32 numbers and foreign arches). docs/SECCOMP.md says what is proven
 * and how.
 */

/* Milliseconds the solver may spend on one query; over it, we fail. */
#define SECCOMP_VALIDATE_TIMEOUT_MS 10000u

/*
 * How a validation went. A "part" is one syscall number whose program
 * path reads an argument or whose rules test one, or one of the five
 * ranges proven with nr (and arch) free: numbers above the table, x32
 * numbers, i386, aarch64, any arch but x86_64. Parts are decided by the
 * exact word procedure (bpf/wordsat.h) unless the program leaves its
 * fragment or a budget runs out; then Z3 decides them. The Z3 context is
 * only created for the first such part.
 */
struct seccomp_validate_stats {
	unsigned int concrete;	     /* numbers settled by one concrete run */
	unsigned int exact_syscalls; /* numbers decided without Z3 */
	unsigned int z3_syscalls;    /* numbers that needed Z3 */
	unsigned int brute_syscalls; /* of those, decided by the values */
	unsigned int exact_ranges;   /* ranges decided without Z3 */
	unsigned int z3_ranges;	     /* ranges that needed Z3 */
};

/* Flags of seccomp_validate_stats(). */
#define SECCOMP_VALIDATE_FORCE_Z3 1u /* every part through Z3 (tests) */
#define SECCOMP_VALIDATE_NO_EXACT                                              \
	2u /* numbers skip the exact route (tests)                             \
	    */

/*
 * Returns 0 when the program is proven equal to the policy; 1 on a
 * mismatch, with err naming the syscall, a witness argument vector and both
 * actions, e.g.
 *   socket(arg0=0x10000002a, arg1=0x0, ...): program allow, policy errno(EPERM)
 * and -1 on an internal error or when the solver cannot decide (a timeout
 * is a failure, never a pass).
 */
int seccomp_validate(const struct ir_policy *p, const struct sock_filter *prog,
		     size_t n, char *err, size_t errlen);

/*
 * The same, with flags (SECCOMP_VALIDATE_*) and, when st is not NULL, how
 * each part was decided (filled as far as the validation got).
 */
int seccomp_validate_stats(const struct ir_policy *p,
			   const struct sock_filter *prog, size_t n,
			   unsigned int flags,
			   struct seccomp_validate_stats *st, char *err,
			   size_t errlen);

/*
 * The same for an observation program (docs/OBSERVE.md): prog is proven to
 * return, for every input, what seccomp_observe.c's specification of
 * variant `var` gives over ir_eval_syscall() and ir_explain_syscall().
 */
int seccomp_validate_variant(const struct ir_policy *p,
			     enum seccomp_variant var,
			     const struct sock_filter *prog, size_t n,
			     unsigned int flags,
			     struct seccomp_validate_stats *st, char *err,
			     size_t errlen);

/* ---- The OBSERVE section (observe.c) ------------------------------------ */

/*
 * The OBSERVE section (artifact/sections.h): the NOTIFY, LEARN and EXPLAIN
 * programs, each validated, and the names polexec reports with. *out is
 * NULL when the policy has no seccomp layer. Returns 0; 2 with err filled
 * when a program cannot be built; 3 when validation caught a compiler bug.
 */
int observe_section_build(const struct ir_policy *p, uint8_t **out, size_t *len,
			  char *err, size_t errlen);

/*
 * How the record shows argument `arg` of `syscall`: a POLBIN_OBS_ARG_*
 * kind, and in *table the constant table of an ENUM or FLAGS kind. The
 * kinds part of a denial's key (INT, ENUM, FLAGS, MODE) are those `polc
 * suggest` may write conditions on.
 */
int observe_arg_format(const char *syscall, unsigned arg, unsigned *table);

/* The constant name of v for an ENUM argument (AF_INET6), or NULL. */
const char *observe_value_name(const char *syscall, unsigned arg, uint64_t v);
/* Writes rule r of sc as policy text (a companion's own text for a
 * companion's rule) to f; 1 when r is a companion, else 0. */
int observe_rule_text(FILE *f, const struct ir_syscall *sc,
		      const struct ir_rule *r);

/* ---- Landlock (landlock.c) ---------------------------------------------- */

/*
 * The Landlock backend: the IR's fs grants, `net host` TCP ports and the
 * scopes, as the LANDLOCK section polexec installs (artifact/sections.h
 * has the format, docs/LANDLOCK.md the design). The section is a pure
 * function of the IR, so the prover can rebuild and compare it.
 */

/*
 * The Landlock layer is on when the policy has an fs section, a landlock
 * statement, or `net host` port rules: the IR's landlock.present, which
 * ir_canonicalize() sets for all three.
 */
int landlock_layer_on(const struct ir_policy *p);

/*
 * The fs rights the ruleset handles: every one this polc knows, but
 * connect_unix only when a grant lacks it (docs/VIEW.md). 0 without an
 * fs section.
 */
uint32_t landlock_handled_fs(const struct ir_policy *p);
/* The section's path rules: the fs section's grants, in IR order. */
uint32_t landlock_path_rules(const struct ir_policy *p);

/*
 * The requirement the section carries, as POLBIN_LL_*: the IR's, where the
 * landlock statement's or the default (IR_DEFAULT_LL_*: `require`, ABI 1,
 * or ABI 4 with `net host` port rules) is written out.
 */
void landlock_requirement(const struct ir_policy *p, uint32_t *abi_min,
			  uint32_t *mode);

/*
 * Builds the section into *out (malloc'd). 0 with *out NULL when the layer
 * is off; 2 with err filled when the IR cannot be compiled (a port list
 * past POLBIN_LL_MAX_PORTS), or out of memory.
 */
int landlock_section_build(const struct ir_policy *p, uint8_t **out,
			   size_t *len, char *err, size_t errlen);

/* ---- The view: VIEW and NOEXEC (view.c) --------------------------------- */

/*
 * The box's own view (docs/VIEW.md): with an fs section, a mount namespace
 * whose root holds only what the section names, and a pid namespace; the
 * user statement. Formats in artifact/sections.h.
 */

/* Does the box get a view of its own (an fs section)? */
int view_on(const struct ir_policy *p);
/* A grant's mount attributes (POLBIN_VIEW_A_*) from its own rights. */
uint8_t view_attrs(uint32_t rights);
/*
 * The VIEW section, or *out NULL when the policy has neither an fs
 * section nor a user statement. 0, or 2 with err.
 */
int view_section_build(const struct ir_policy *p, uint8_t **out, size_t *len,
		       char *err, size_t errlen);
/*
 * The NOEXEC program (with a view only, else *prog NULL): translation
 * validated like the policy's. 0; 2 (err) when it cannot be compiled; 3
 * when validation caught a compiler bug.
 */
int view_noexec_build(const struct ir_policy *p, struct sock_filter **prog,
		      size_t *n, char *err, size_t errlen);
/*
 * A small program of polc's own (NOEXEC, NONET) from its IR q: generated,
 * then translation validated like the policy's; `what` names it in err.
 * 0; 2 when it cannot be compiled; 3 when validation caught a bug.
 */
int seccomp_build_checked(const struct ir_policy *q, const char *what,
			  struct sock_filter **prog, size_t *n, char *err,
			  size_t errlen);

/* ---- net none without a namespace: NONET (nonet.c) ---------------------- */

/* Does the policy get the NONET program (`net none`, no loopback ports)? */
int nonet_on(const struct ir_policy *p);
/*
 * The NONET program (socket but AF_UNIX and io_uring_setup refused), *prog
 * NULL when nonet_on() is not: translation validated like the policy's.
 * 0; 2 (err) when it cannot be compiled; 3 when validation caught a bug.
 */
int nonet_build(const struct ir_policy *p, struct sock_filter **prog, size_t *n,
		char *err, size_t errlen);

/* ---- The notify broker: BROKER (broker.c) -------------------------------- */

/* May the broker enforce the policy's net layer (`net filtered`, or `net
 * none` with loopback ports; a seccomp layer; backend auto or broker)? */
int broker_on(const struct ir_policy *p);
/*
 * The BROKER program (*prog NULL when broker_on() is not): NOTIFY of the
 * policy's syscalls with the broker's calls notified, translation
 * validated as NOTIFY is. 0; 2 (err) when it cannot be compiled; 3 when
 * validation caught a bug.
 */
int broker_build(const struct ir_policy *p, struct sock_filter **prog,
		 size_t *n, char *err, size_t errlen);

/* ---- Egress: NET and NFT (nft.c, nft_print.c) --------------------------- */

/*
 * The egress backend: the IR's net block as the NET section (version 2) and,
 * for `net filtered`, the NFT section: the nfnetlink messages of the table
 * inet "polc" (formats in artifact/sections.h), built with libnftnl.
 */

/* At most this many elements in the four interval sets together. */
#define NFT_MAX_ELEMS 16384

/*
 * One element of allow4/allow6/deny4/deny6: the box of addresses lo..hi
 * (network order, 4 or 16 bytes used), one protocol, ports plo..phi.
 */
struct nft_elem {
	uint8_t lo[16], hi[16];
	uint8_t proto;
	uint16_t plo, phi;
};

/*
 * The static entries of one verdict (IR_NET_ALLOW or IR_NET_DENY) and one
 * family (4 or 6) as pairwise disjoint boxes, sorted by (proto, address,
 * port), neighbours with equal port sets merged: what the set holds. A
 * malloc'd *out (NULL when *n is 0). Returns 0, or -1 with a reason.
 */
int nft_elements(const struct ir_policy *p, int verdict, int family,
		 struct nft_elem **out, size_t *n, char *err, size_t errlen);

/*
 * The NET section of p, or *out NULL when p has none (no net block, `net
 * host`): the 24-byte header, loopback ranges merged, runtime entries
 * (names and ${VAR} allows in IR order). Returns 0, or -1 with a reason.
 */
int net_section_build(const struct ir_policy *p, uint8_t **out, size_t *len,
		      char *err, size_t errlen);

/*
 * The NFT section of a `net filtered` p: NLMSG_ALIGNed nfnetlink messages,
 * seq 0, pid 0, no batch begin/end. Deterministic. Returns 0, or -1 with a
 * reason (too many elements, over POLBIN_NET_MAX_NFT, not filtered).
 */
int nft_section_build(const struct ir_policy *p, uint8_t **out, size_t *len,
		      char *err, size_t errlen);

/* The runtime allow entries of p (names and ${VAR}), in IR order. */
size_t nft_runtime_count(const struct ir_policy *p);
const struct ir_net_entry *nft_runtime_entry(const struct ir_policy *p,
					     size_t i);

/*
 * The table of the NFT section as nft syntax (what `nft -f` accepts), from
 * the IR: `polc dump` shows it, and the test suite loads it with nft to
 * check that the kernel lists it exactly as it lists the section's
 * messages. The runtime sets are shown empty, each with a comment naming
 * the entry polexec fills it from. Writes the table of a `net filtered`
 * p. Returns 0, or -1 with a reason.
 */
int nft_print(const struct ir_policy *p, FILE *out, char *err, size_t errlen);

/* ---- Egress: the cgroup eBPF backend (ebpf.c) --------------------------- */

/*
 * Does p get an EBPF section? `net none` with loopback ports and `net
 * filtered`, unless the policy forces the namespace; any `net none` or
 * `net filtered` that forces the cgroup backend.
 */
int ebpf_wanted(const struct ir_policy *p);
/*
 * The EBPF section of p (artifact/sections.h), or *out NULL when p has
 * none: the programs of bpf/egress/ read from the object polc carries,
 * the rules derived from the IR. 0; 1 (err) when this backend cannot
 * hold the policy (too many port ranges on one address); -1 (err) on a
 * broken object or no memory.
 */
int ebpf_section_build(const struct ir_policy *p, uint8_t **out, size_t *len,
		       char *err, size_t errlen);
/*
 * Translation validation: the section decodes as polexec decodes it, its
 * programs are this polc's, and its rules, looked up as the kernel's LPM
 * map looks them up, give at every address where either side can change
 * exactly the port ranges the IR's static allow and deny entries give,
 * and the loopback ports. 0; 1 (err) on a mismatch; -1 (err) when it
 * could not decide.
 */
int ebpf_validate(const struct ir_policy *p, const uint8_t *s, size_t len,
		  char *err, size_t errlen);
/* The section decoded (ebpf_print.c): pointers into s. 0; -1 (err) when
 * it is malformed: header, program framing, rule keys (kinds, protocols,
 * prefixes, host bits, order) and values (ranges sorted, disjoint, apart,
 * the unused zero). */
struct ebpf_decoded {
	uint32_t flags, nrules;
	const uint8_t *prog[POLBIN_EBPF_NPROG];
	uint32_t ninsn[POLBIN_EBPF_NPROG];
	const uint8_t *rules;
};
int ebpf_decode(const uint8_t *s, size_t len, struct ebpf_decoded *dc,
		char *err, size_t errlen);
/* The section for humans (polc dump). 0; -1 (err) when it is malformed. */
int ebpf_print(const uint8_t *s, size_t len, FILE *out, char *err,
	       size_t errlen);
/* polc doctor: do the programs load here (libbpf; nothing attached)? 0
 * and what loaded; 1 and why not, in d. */
int ebpf_probe(char *d, size_t len);
/* "connect4", ... for a hook number. */
const char *ebpf_hook_name(uint32_t hook);

/* ---- Limits (limits.c) -------------------------------------------------- */

/*
 * The limits backend: the IR's limits block as the LIMITS section polexec
 * reads (format in artifact/sections.h).
 */

/*
 * Encodes p->limits into a malloc'd *out of POLBIN_LIMITS_LEN bytes. Every
 * policy gets the section: without a limits block it holds only the
 * defaults. The IR carries them written out (ir_canonicalize(): core
 * IR_DEFAULT_CORE, grace IR_DEFAULT_GRACE_MS unless given), and the
 * section is the IR's limits as they are, so polexec decides nothing and
 * the prover judges the values polexec applies.
 *
 * The IR is checked again here, as polexec will check the section: known
 * limit bits, the value of an unset limit 0, a set value nonzero (core
 * excepted) and within the bounds of artifact/sections.h, a known mode.
 * Returns 0, or -1 with a one-line reason in err (*out is then NULL).
 */
int limits_section_build(const struct ir_policy *p, uint8_t **out, size_t *len,
			 char *err, size_t errlen);

/* ---- Environment (env.c) ------------------------------------------------ */

/*
 * The env backend: the IR's env block as the ENV section polexec reads
 * (format in artifact/sections.h).
 */

/*
 * Encodes p->env into a malloc'd *out of *len bytes. A policy without an
 * env block gets an empty recipe (count 0): the box's environment is empty
 * either way, and the section says so explicitly.
 *
 * The IR is checked again here, as polexec will check it: at most
 * IR_MAX_ENV entries, names valid identifiers and unique, each string at
 * most IR_MAX_STR bytes, pass carrying no value, set a value, secret a
 * source and a destination, and every `$` in a value or destination
 * starting a well-formed ${NAME}. Returns 0, or -1 with a one-line reason
 * in err (*out is then NULL).
 */
int env_section_build(const struct ir_policy *p, uint8_t **out, size_t *len,
		      char *err, size_t errlen);

#endif
