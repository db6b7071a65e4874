/* SPDX-License-Identifier: MIT */
/*
 * Two parts of libc that the static polexec brings itself, because musl's
 * are a fifth of the stub for what polexec never uses (docs/BENCHMARKS.md):
 *
 * snprintf, vsnprintf: musl's printf core is 10 KiB, most of it floating
 * point and wide characters. These convert what polexec and artifact/
 * format, with C's meaning: the flags - and 0, a field width, a precision
 * (a number or *), the length modifiers l, ll and z, and the conversions
 * d i u x c s %. Anything else is copied as written. The compiler checks
 * every format polexec passes (format attributes, -Wformat=2).
 *
 * malloc, calloc, realloc, free: musl's allocator is 8 KiB. polexec
 * allocates a bounded amount once (the artifact, its decoded sections,
 * the environment, the record), keeps it until it exits or execs, and
 * runs no threads; so memory comes from an arena of anonymous mappings
 * and is never reused: free() returns nothing, realloc() grows the last
 * block in place or copies. What a fresh mapping holds is zero, and
 * nothing handed out is handed out again, so calloc() need not clear.
 *
 * setgroups, setresuid, setresgid, setrlimit: musl applies them to every
 * thread of the process (__synccall, with its semaphores and signal, 2
 * KiB); polexec's processes have one thread, so each is its system call.
 * fstatat (under stat, fstat, lstat) is the system call too: musl's adds
 * a fallback for kernels before 3.6, older than any polexec runs on.
 *
 * strstr: musl's two-way search is 1.3 KiB; polexec looks for short words
 * in a few KiB of text, where the plain search does as well.
 *
 * fork: musl's (1.8 KiB with the rwlocks and timed waits it pulls in)
 * runs atfork handlers and resets its thread list, locks and the child's
 * thread id; polexec runs one thread and registers no handler, so the
 * child needs only the system call. The child's musl thread struct keeps
 * the parent's thread id, which raise() and pthread_*() would use:
 * polexec calls neither.
 *
 * sigaction, signal: musl's (0.6 KiB) also serve its threads' internal
 * signals and the locks of abort(); for polexec's one thread each is the
 * system call, with musl's own return trampoline (__restore_rt) as the
 * kernel's restorer, as musl passes it.
 *
 * Only the static build defines POLEXEC_OWN_LIBC (stub/stub.mk); the fuzz
 * harness and every other build use their libc's.
 */
#ifdef POLEXEC_OWN_LIBC

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <signal.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>

/* --- snprintf ---------------------------------------------------------- */

struct sink {
	char *s;
	size_t cap; /* bytes s holds, the NUL included */
	size_t n;   /* bytes of output, whether or not they fit */
};

static void put(struct sink *o, const char *p, size_t n)
{
	for (; n; n--, p++, o->n++)
		if (o->n + 1 < o->cap)
			o->s[o->n] = *p;
}

static void pad(struct sink *o, char c, int width, size_t have)
{
	for (; width > 0 && (size_t)width > have; width--)
		put(o, &c, 1);
}

/* The digits of v in base, ending at end; returns where they start. */
static char *digits(char *end, unsigned long long v, unsigned base)
{
	do
		*--end = "0123456789abcdef"[v % base];
	while ((v /= base));
	return end;
}

int vsnprintf(char *restrict s, size_t cap, const char *restrict f, va_list ap)
{
	struct sink o = {s, cap, 0};

	for (; *f; f++) {
		int left = 0, zero = 0, width = 0, prec = -1, longs = 0;
		int size = 0;
		char num[24], *end = num + sizeof(num);
		const char *p, *sign = "";
		long long x;
		unsigned long long v;
		size_t n;

		if (*f != '%') {
			put(&o, f, 1);
			continue;
		}
		for (f++; *f == '-' || *f == '0'; f++) {
			if (*f == '-')
				left = 1;
			else
				zero = 1;
		}
		for (; *f >= '0' && *f <= '9'; f++)
			width = width * 10 + (*f - '0');
		if (*f == '.') {
			f++;
			if (*f == '*') {
				prec = va_arg(ap, int); /* < 0: as if none */
				f++;
			} else {
				for (prec = 0; *f >= '0' && *f <= '9'; f++)
					prec = prec * 10 + (*f - '0');
			}
		}
		for (; *f == 'l'; f++)
			longs++;
		if (*f == 'z') {
			size = 1;
			f++;
		}
		switch (*f) {
		case 's':
			p = va_arg(ap, const char *);
			p = p ? p : "(null)";
			n = prec < 0 ? strlen(p) : strnlen(p, (size_t)prec);
			zero = 0;
			break;
		case 'c':
			*--end = (char)va_arg(ap, int);
			p = end;
			n = 1;
			zero = 0;
			break;
		case 'd':
		case 'i':
			x = longs > 1 ? va_arg(ap, long long)
			    : longs   ? va_arg(ap, long)
			    : size    ? va_arg(ap, ssize_t)
				      : va_arg(ap, int);
			sign = x < 0 ? "-" : "";
			v = x < 0 ? 0 - (unsigned long long)x
				  : (unsigned long long)x;
			p = digits(end, v, 10);
			n = (size_t)(end - p);
			break;
		case 'u':
		case 'x':
			v = longs > 1 ? va_arg(ap, unsigned long long)
			    : longs   ? va_arg(ap, unsigned long)
			    : size    ? va_arg(ap, size_t)
				      : va_arg(ap, unsigned);
			p = digits(end, v, *f == 'x' ? 16 : 10);
			n = (size_t)(end - p);
			break;
		case '%':
			put(&o, "%", 1);
			continue;
		default: /* nothing polexec writes: copied as written */
			put(&o, "%", 1);
			if (!*f)
				goto done;
			put(&o, f, 1);
			continue;
		}
		/* [spaces] [sign] [zeros] text [spaces], width in all */
		if (!left && !zero)
			pad(&o, ' ', width, n + strlen(sign));
		put(&o, sign, strlen(sign));
		if (!left && zero)
			pad(&o, '0', width, n + strlen(sign));
		put(&o, p, n);
		if (left)
			pad(&o, ' ', width, n + strlen(sign));
	}
done:
	if (cap)
		s[o.n < cap ? o.n : cap - 1] = '\0';
	return o.n > INT_MAX ? -1 : (int)o.n;
}

int snprintf(char *restrict s, size_t cap, const char *restrict f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vsnprintf(s, cap, f, ap);
	va_end(ap);
	return n;
}

/* --- malloc -------------------------------------------------------------- */

#define ARENA_CHUNK (1u << 20)

/* Before each block: its size. 16 bytes, so blocks stay 16-aligned. */
struct block {
	size_t size;
	size_t unused;
};

static char *arena, *arena_end; /* the rest of the current mapping */

static size_t round16(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

static void *map(size_t len)
{
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return m == MAP_FAILED ? NULL : m;
}

void *malloc(size_t n)
{
	size_t need;
	struct block *b;

	if (n > SIZE_MAX / 4) {
		errno = ENOMEM;
		return NULL;
	}
	need = sizeof(*b) + round16(n);
	if (need >= ARENA_CHUNK / 4) {
		/* a large block gets a mapping of its own */
		b = map(need);
	} else {
		if ((size_t)(arena_end - arena) < need) {
			arena = map(ARENA_CHUNK);
			arena_end = arena ? arena + ARENA_CHUNK : NULL;
		}
		b = (struct block *)(void *)arena;
		if (b)
			arena += need;
	}
	if (!b)
		return NULL;
	b->size = n;
	return b + 1;
}

void *calloc(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	return malloc(n * size);
}

void *realloc(void *p, size_t n)
{
	struct block *b = (struct block *)p - 1;
	char *q;

	if (!p)
		return malloc(n);
	if (n <= b->size)
		return p;
	/* the last block of the arena grows in place */
	if ((char *)p + round16(b->size) == arena && n <= SIZE_MAX / 4 &&
	    round16(n) - round16(b->size) <= (size_t)(arena_end - arena)) {
		arena += round16(n) - round16(b->size);
		b->size = n;
		return p;
	}
	q = malloc(n);
	if (q)
		memcpy(q, p, b->size);
	return q;
}

void free(void *p)
{
	(void)p; /* the arena is never reused: memory returns at exit */
}

/* --- system calls, and a plain search ---------------------------------- */

int setgroups(size_t n, const gid_t *list)
{
	return (int)syscall(SYS_setgroups, n, list);
}

int setresuid(uid_t r, uid_t e, uid_t s)
{
	return (int)syscall(SYS_setresuid, r, e, s);
}

int setresgid(gid_t r, gid_t e, gid_t s)
{
	return (int)syscall(SYS_setresgid, r, e, s);
}

int setrlimit(int what, const struct rlimit *rl)
{
	return (int)syscall(SYS_prlimit64, 0, what, rl, NULL);
}

char *strstr(const char *h, const char *n)
{
	size_t len = strlen(n);

	for (; *h; h++)
		if (!strncmp(h, n, len))
			return (char *)(uintptr_t)h;
	return len ? NULL : (char *)(uintptr_t)h;
}

pid_t fork(void)
{
	return (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
}

/* The kernel's struct sigaction on x86-64, where a handler's return needs
 * a restorer; polexec's static build is x86-64 (stub/stub.mk, musl-gcc). */
struct k_sigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	unsigned long mask;
};

void __restore_rt(void); /* musl's: the rt_sigreturn system call */

#define K_SA_RESTORER 0x04000000

int sigaction(int sig, const struct sigaction *restrict sa,
	      struct sigaction *restrict old)
{
	struct k_sigaction k, was;

	if (sa) {
		k.handler = sa->sa_handler;
		k.flags = (unsigned long)sa->sa_flags | K_SA_RESTORER;
		k.restorer = __restore_rt;
		memcpy(&k.mask, &sa->sa_mask, sizeof(k.mask));
	}
	if (syscall(SYS_rt_sigaction, sig, sa ? &k : NULL, old ? &was : NULL,
		    sizeof(k.mask)) < 0)
		return -1;
	if (old) {
		memset(old, 0, sizeof(*old));
		old->sa_handler = was.handler;
		old->sa_flags = (int)was.flags;
		memcpy(&old->sa_mask, &was.mask, sizeof(was.mask));
	}
	return 0;
}

void (*signal(int sig, void (*handler)(int)))(int)
{
	struct sigaction sa = {.sa_handler = handler, .sa_flags = SA_RESTART},
			 old;

	return sigaction(sig, &sa, &old) < 0 ? SIG_ERR : old.sa_handler;
}

int fstatat(int dfd, const char *restrict path, struct stat *restrict st,
	    int flags)
{
	return (int)syscall(SYS_newfstatat, dfd, path, st, flags);
}

#endif
