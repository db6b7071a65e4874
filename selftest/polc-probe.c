/* SPDX-License-Identifier: MIT */
/*
 * polc-probe: the probes `polc selftest` runs in a box (docs/SELFTEST.md).
 * One probe per run: `polc-probe PROBE TWIN ARGS...`. TWIN is 1 when the
 * twin (the same act where the policy allows it) is to be tried, 0 when
 * the policy itself denies the twin's call (polc decided it from the IR).
 * Each probe prints, in this order:
 *
 *   twin ok | twin fail CALL ERRNO | twin skip
 *   attack blocked ROUTE CALL ERRNO      (one line per route tried)
 *   attack open ROUTE                    (the route got through)
 *   done
 *
 * polc reads them, and checks outside the box what only the outside can
 * see (a canary's bytes, its listeners, its victim process). A probe the
 * box kills prints no "done": polc reads the signal from polexec's exit.
 *
 * Static musl, no stdio (musl's stdout asks the terminal with ioctl, which
 * a tight policy refuses): every line is one write(2). Nothing is written
 * but the files polc named, in the folders it made.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CANARY_MAGIC "polc-selftest-canary"

extern char **environ;

static void say(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	if (write(STDOUT_FILENO, line, (size_t)n) < 0)
		_exit(3);
}

static int twin(int ok, const char *call)
{
	if (ok)
		say("twin ok");
	else
		say("twin fail %s %d", call, errno);
	return ok;
}

static void blocked(const char *route, const char *call)
{
	say("attack blocked %s %s %d", route, call, errno);
}

/* 1 when fd reads as a canary (its first bytes are the magic). */
static int is_canary_fd(int fd)
{
	char buf[sizeof(CANARY_MAGIC)];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);

	return n == (ssize_t)sizeof(buf) - 1 &&
	       !memcmp(buf, CANARY_MAGIC, sizeof(buf) - 1);
}

/* Read the canary at path: an "open" or a "blocked" line. */
static void read_route(const char *route, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		blocked(route, "open");
		return;
	}
	if (is_canary_fd(fd))
		say("attack open %s", route);
	else
		say("attack blocked %s read %d", route, errno);
	close(fd);
}

static int read_ok(const char *path)
{
	char buf[256];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n >= 0;
}

/* The writable folder polc named: its own, or one to make in a tmpfs of
 * the box's. */
static void make_wdir(const char *wdir)
{
	if (strcmp(wdir, "-"))
		mkdir(wdir, 0700);
}

/* fs-read CANARY TWINFILE SYMLINK|- WDIR|- */
static void fs_read(int t, char **a)
{
	char path[4096];

	if (t)
		twin(read_ok(a[1]), "open");
	else
		say("twin skip");
	read_route("direct", a[0]);
	snprintf(path, sizeof(path), "/proc/self/root%s", a[0]);
	read_route("/proc/self/root", path);
	snprintf(path, sizeof(path), "/proc/1/root%s", a[0]);
	read_route("/proc/1/root", path);
	/* From the working folder up past the root, then down again. */
	snprintf(path, sizeof(path),
		 "../../../../../../../../../../../../../..%s", a[0]);
	read_route("..", path);
	if (strcmp(a[2], "-"))
		read_route("symlink(polc's)", a[2]);
	make_wdir(a[3]);
	if (strcmp(a[3], "-")) {
		snprintf(path, sizeof(path), "%s/box-symlink", a[3]);
		if (symlink(a[0], path) < 0)
			blocked("symlink(box's)", "symlink");
		else
			read_route("symlink(box's)", path);
		snprintf(path, sizeof(path), "%s/box-hardlink", a[3]);
		if (link(a[0], path) < 0)
			blocked("hardlink(box's)", "link");
		else
			read_route("hardlink(box's)", path);
	}
}

/* fs-write CANARY NEWFILE TWINDIR|- */
static void fs_write(int t, char **a)
{
	char path[4096];
	int fd;

	make_wdir(a[2]);
	if (t && strcmp(a[2], "-")) {
		snprintf(path, sizeof(path), "%s/twin-write", a[2]);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		twin(fd >= 0 && write(fd, "x", 1) == 1, "open");
		if (fd >= 0)
			close(fd);
	} else {
		say("twin skip");
	}
	fd = open(a[0], O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		blocked("append", "open");
	else if (write(fd, "pwned\n", 6) != 6)
		blocked("append", "write");
	else
		say("attack open append");
	if (fd >= 0)
		close(fd);
	fd = open(a[1], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		blocked("create", "open");
	else
		say("attack open create");
	if (fd >= 0)
		close(fd);
}

/* Run argv in a child; its exit status, or -1 (errno) when it could not
 * be forked or was killed. */
static int run_child(const char *path, int execfd)
{
	char *args[] = {"polc-probe", "exit0", "0", NULL};
	int st;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (execfd >= 0)
			syscall(SYS_execveat, execfd, "", args, environ,
				AT_EMPTY_PATH);
		else
			execve(path, args, environ);
		_exit(100 + (errno & 0x3f));
	}
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	if (!WIFEXITED(st)) {
		errno = EINTR;
		return -1;
	}
	return WEXITSTATUS(st);
}

/* The child's status as a line: 0 ran (open), 100+E exec failed. */
static void exec_result(const char *route, int rc)
{
	if (rc == 0) {
		say("attack open %s", route);
		return;
	}
	if (rc >= 100)
		errno = rc - 100;
	blocked(route, rc < 0 ? "fork" : "execve");
}

/* Copy our own bytes to fd. */
static int copy_self(int fd)
{
	char buf[65536];
	ssize_t n;
	int in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);

	if (in < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, (size_t)n) != n) {
			close(in);
			return -1;
		}
	close(in);
	return n < 0 ? -1 : 0;
}

/* The exec probes' twin: ourselves, from where we were started. */
static void twin_exec(int t, const char *self)
{
	int rc;

	if (!t) {
		say("twin skip");
		return;
	}
	rc = run_child(self, -1);
	if (rc >= 100)
		errno = rc - 100;
	twin(rc == 0, "execve");
}

/* fs-exec SELF WDIR: a copy of ourselves in a writable folder, run. */
static void fs_exec(int t, char **a)
{
	char path[4096];
	int fd;

	twin_exec(t, a[0]);
	make_wdir(a[1]);
	snprintf(path, sizeof(path), "%s/polc-probe-copy", a[1]);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
	if (fd < 0) {
		blocked("writable-grant", "open");
		return;
	}
	if (copy_self(fd) < 0 || fchmod(fd, 0700) < 0) {
		blocked("writable-grant", "write");
		close(fd);
		return;
	}
	close(fd);
	exec_result("writable-grant", run_child(path, -1));
}

/* memfd-exec SELF */
static void memfd_exec(int t, char **a)
{
	char path[64];
	int fd;

	twin_exec(t, a[0]);
	fd = (int)syscall(SYS_memfd_create, "polc-probe", 0);
	if (fd < 0) {
		blocked("memfd", "memfd_create");
		return;
	}
	if (copy_self(fd) < 0) {
		blocked("memfd", "write");
		return;
	}
	exec_result("memfd(execveat)", run_child(NULL, fd));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	exec_result("memfd(/proc/self/fd)", run_child(path, -1));
}

/* The call a helper failed in, for its "blocked" line. */
static const char *failed_call = "";

static int unix_connect(const char *name, int abstract)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	size_t n = strlen(name);
	socklen_t len;
	int fd, rc;

	if (n >= sizeof(sa.sun_path) - 1) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(sa.sun_path + abstract, name, n);
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + abstract +
			  n + !abstract);
	failed_call = "socket";
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	failed_call = "connect";
	rc = connect(fd, (struct sockaddr *)&sa, len);
	close(fd);
	return rc;
}

/* unix-socket PATH: the host's pathname socket. */
static void unix_socket(int t, char **a)
{
	int sv[2];

	if (t) {
		twin(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0,
		     "socketpair");
	} else {
		say("twin skip");
	}
	if (unix_connect(a[0], 0) < 0)
		blocked("connect", failed_call);
	else
		say("attack open connect");
}

/* abstract-socket NAME: the host's abstract socket; the twin listens on
 * NAME-box and connects to it. */
static void abstract_socket(int t, char **a)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	char own[100];
	int fd = -1, ok = 0;

	if (t) {
		snprintf(own, sizeof(own), "%s-box", a[0]);
		memcpy(sa.sun_path + 1, own, strlen(own));
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		ok = fd >= 0 &&
		     bind(fd, (struct sockaddr *)&sa,
			  (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
				      1 + strlen(own))) == 0 &&
		     listen(fd, 1) == 0 && unix_connect(own, 1) == 0;
		twin(ok, "connect");
		if (fd >= 0)
			close(fd);
	} else {
		say("twin skip");
	}
	if (unix_connect(a[0], 1) < 0)
		blocked("connect", failed_call);
	else
		say("attack open connect");
}

/* signal PID */
static void signal_probe(int t, char **a)
{
	if (t)
		twin(kill(getpid(), 0) == 0, "kill");
	else
		say("twin skip");
	if (kill((pid_t)atoi(a[0]), SIGUSR1) < 0)
		blocked("kill", "kill");
	else
		say("attack open kill");
}

/* ptrace PID ADDR: attach, and read its memory at ADDR (polc's, which
 * its forked victim shares). The twin reads our own. */
static void ptrace_probe(int t, char **a)
{
	pid_t pid = (pid_t)atoi(a[0]);
	char mine[8] = "mine", got[8];
	struct iovec l = {got, sizeof(got)}, r = {mine, sizeof(mine)};

	if (t)
		twin(syscall(SYS_process_vm_readv, getpid(), &l, 1, &r, 1, 0) ==
			 (long)sizeof(got),
		     "process_vm_readv");
	else
		say("twin skip");
	if (syscall(SYS_ptrace, PTRACE_SEIZE, pid, 0, 0) < 0) {
		blocked("ptrace", "ptrace");
	} else {
		syscall(SYS_ptrace, PTRACE_DETACH, pid, 0, 0);
		say("attack open ptrace");
	}
	r.iov_base = (void *)(uintptr_t)strtoull(a[1], NULL, 16);
	if (syscall(SYS_process_vm_readv, pid, &l, 1, &r, 1, 0) < 0)
		blocked("process_vm_readv", "process_vm_readv");
	else
		say("attack open process_vm_readv");
}

/* fd N: read(2) only, which the tightest policy allows. */
static void fd_probe(int t, char **a)
{
	if (t)
		twin(write(STDOUT_FILENO, "", 0) == 0, "write");
	else
		say("twin skip");
	if (is_canary_fd(atoi(a[0])))
		say("attack open read");
	else
		blocked("read", "read");
}

/* env NAME TWIN|- */
static void env_probe(int t, char **a)
{
	if (t && strcmp(a[1], "-")) {
		errno = ENOENT;
		twin(getenv(a[1]) != NULL, "getenv");
	} else {
		say("twin skip");
	}
	errno = ENOENT;
	if (getenv(a[0]))
		say("attack open getenv");
	else
		blocked("getenv", "getenv");
}

static int inet_socket(int type, struct sockaddr_in *sa, uint16_t port)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons(port);
	sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return socket(AF_INET, type | SOCK_CLOEXEC, 0);
}

/* The attack's destination: PORT on 127.0.0.1, or ADDR:PORT (an
 * address in polc's own network namespace, outside the box). */
static int inet_dest(int type, struct sockaddr_in *sa, const char *dest)
{
	const char *colon = strchr(dest, ':');
	char addr[INET_ADDRSTRLEN] = "";
	int fd =
	    inet_socket(type, sa, (uint16_t)atoi(colon ? colon + 1 : dest));

	if (colon && (size_t)(colon - dest) < sizeof(addr)) {
		memcpy(addr, dest, (size_t)(colon - dest));
		if (inet_pton(AF_INET, addr, &sa->sin_addr) != 1) {
			if (fd >= 0)
				close(fd);
			errno = EINVAL;
			return -1;
		}
	}
	return fd;
}

/* A TCP connection to ourselves on the box's 127.0.0.1. */
static int tcp_self(void)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);
	int l = inet_socket(SOCK_STREAM, &sa, 0), c = -1, ok = 0;

	if (l >= 0 && bind(l, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
	    listen(l, 1) == 0 &&
	    getsockname(l, (struct sockaddr *)&sa, &len) == 0) {
		c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		ok = c >= 0 &&
		     connect(c, (struct sockaddr *)&sa, sizeof(sa)) == 0;
	}
	if (c >= 0)
		close(c);
	if (l >= 0)
		close(l);
	return ok;
}

static int udp_self(void)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);
	char b[4];
	int s = inet_socket(SOCK_DGRAM, &sa, 0), ok = 0;

	if (s >= 0 && bind(s, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
	    getsockname(s, (struct sockaddr *)&sa, &len) == 0 &&
	    sendto(s, "ping", 4, 0, (struct sockaddr *)&sa, sizeof(sa)) == 4)
		ok = recv(s, b, sizeof(b), MSG_DONTWAIT) == 4;
	if (s >= 0)
		close(s);
	return ok;
}

/* tcp [ADDR:]PORT NONCE: to the host's 127.0.0.1:PORT, or ADDR:PORT in
 * polc's network namespace, where polc listens. */
static void tcp_probe(int t, char **a)
{
	struct sockaddr_in sa;
	int fd;

	if (t)
		twin(tcp_self(), "connect");
	else
		say("twin skip");
	fd = inet_dest(SOCK_STREAM, &sa, a[0]);
	if (fd < 0) {
		blocked("connect", "socket");
		return;
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		blocked("connect", "connect");
	} else if (write(fd, a[1], strlen(a[1])) < 0) {
		blocked("connect", "write");
	} else {
		say("attack open connect");
	}
	close(fd);
}

/* tcp-reply PORT NONCE: to a listed host loopback port, where polc's
 * server answers "ok"; open (reached) only when the answer came back,
 * so a relay that accepts first and connects out later is waited for
 * (bounded: 20 s). */
static void tcp_reply_probe(int t, char **a)
{
	struct timeval tv = {20, 0};
	struct sockaddr_in sa;
	char buf[8] = "";
	ssize_t n;
	int fd;

	(void)t;
	say("twin skip");
	fd = inet_socket(SOCK_STREAM, &sa, (uint16_t)atoi(a[0]));
	if (fd < 0) {
		blocked("connect", "socket");
		return;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		blocked("connect", "connect");
	else if (write(fd, a[1], strlen(a[1])) < 0)
		blocked("connect", "write");
	else if ((n = read(fd, buf, sizeof(buf) - 1)) < 2 ||
		 memcmp(buf, "ok", 2))
		blocked("connect", "read");
	else
		say("attack open connect");
	close(fd);
}

/* udp [ADDR:]PORT NONCE */
static void udp_probe(int t, char **a)
{
	struct timespec gap = {0, 50 * 1000 * 1000};
	struct sockaddr_in sa;
	size_t n = strlen(a[1]);
	int fd, i;

	if (t)
		twin(udp_self(), "sendto");
	else
		say("twin skip");
	fd = inet_dest(SOCK_DGRAM, &sa, a[0]);
	if (fd < 0) {
		blocked("sendto", "socket");
		return;
	}
	/* Sent: only polc's listener can say whether it arrived. Three
	 * times, 50 ms apart: a relay (pasta) forwards a datagram after the
	 * box sent it, and a box that ended at once could be gone with its
	 * relay before a lone one was on its way (a held verdict, 1 run in
	 * 6 here, where the policy let it through). */
	for (i = 0; i < 3; i++) {
		if (sendto(fd, a[1], n, 0, (struct sockaddr *)&sa,
			   sizeof(sa)) != (ssize_t)n) {
			blocked("sendto", "sendto");
			close(fd);
			return;
		}
		nanosleep(&gap, NULL);
	}
	say("attack sent sendto");
	close(fd);
}

/* memory CAP: touch up to CAP + 64 MiB, 8 MiB at a time. */
static void memory_probe(int t, char **a)
{
	unsigned long long cap = strtoull(a[0], NULL, 10), got = 0;
	const size_t step = 8u << 20;
	char *p;

	if (t) {
		p = mmap(NULL, 1u << 20, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED) {
			memset(p, 1, 1u << 20);
			munmap(p, 1u << 20);
		}
		twin(p != MAP_FAILED, "mmap");
	} else {
		say("twin skip");
	}
	while (got < cap + (64ull << 20)) {
		p = mmap(NULL, step, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			blocked("allocate", "mmap");
			return;
		}
		memset(p, 1, step);
		got += step;
	}
	say("attack open allocate");
}

/* pids CAP: fork until CAP + 8 processes, or a refusal. */
static void pids_probe(int t, char **a)
{
	long cap = atol(a[0]), n = 0, i;
	pid_t *kids;
	pid_t pid;
	int st;

	if (t) {
		pid = fork();
		if (pid == 0)
			_exit(0);
		twin(pid > 0 && waitpid(pid, &st, 0) == pid, "fork");
	} else {
		say("twin skip");
	}
	kids = calloc((size_t)cap + 8, sizeof(*kids));
	if (!kids) {
		blocked("fork", "calloc");
		return;
	}
	for (n = 0; n < cap + 8; n++) {
		pid = fork();
		if (pid == 0) {
			pause();
			_exit(0);
		}
		if (pid < 0)
			break;
		kids[n] = pid;
	}
	if (n < cap + 8)
		blocked("fork", "fork");
	else
		say("attack open fork");
	for (i = 0; i < n; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], &st, 0);
	}
}

/* The kernel surfaces: one call each, harmless where it gets through. */
static long surface(const char *what)
{
	if (!strcmp(what, "io_uring")) {
		unsigned char params[120] = {0};

		return syscall(SYS_io_uring_setup, 1, params);
	}
	if (!strcmp(what, "bpf")) {
		/* BPF_MAP_CREATE, an array of one 4-byte value */
		uint32_t attr[16] = {2, 4, 4, 1};

		return syscall(SYS_bpf, 0, attr, sizeof(attr));
	}
	if (!strcmp(what, "userfaultfd"))
		return syscall(SYS_userfaultfd, O_CLOEXEC);
	if (!strcmp(what, "perf_event_open")) {
		struct perf_event_attr pe = {.type = PERF_TYPE_SOFTWARE,
					     .size = sizeof(pe),
					     .config = PERF_COUNT_SW_CPU_CLOCK,
					     .disabled = 1,
					     .exclude_kernel = 1,
					     .exclude_hv = 1};

		return syscall(SYS_perf_event_open, &pe, 0, -1, -1, 0);
	}
	if (!strcmp(what, "keyctl")) /* KEYCTL_GET_KEYRING_ID, session */
		return syscall(SYS_keyctl, 0, -3, 0);
	if (!strcmp(what, "unshare"))
		return syscall(SYS_unshare, CLONE_NEWUSER);
	errno = EINVAL;
	return -1;
}

/* kernel SURFACE: the twin is the probe running and writing. */
static void kernel_probe(int t, char **a)
{
	if (t)
		twin(write(STDOUT_FILENO, "", 0) == 0, "write");
	else
		say("twin skip");
	if (surface(a[0]) < 0)
		blocked(a[0], a[0]);
	else
		say("attack open %s", a[0]);
}

static const struct probe {
	const char *name;
	int nargs;
	void (*run)(int twin, char **args);
} probes[] = {
    {"fs-read", 4, fs_read},
    {"fs-write", 3, fs_write},
    {"fs-exec", 2, fs_exec},
    {"memfd-exec", 1, memfd_exec},
    {"unix-socket", 1, unix_socket},
    {"abstract-socket", 1, abstract_socket},
    {"signal", 1, signal_probe},
    {"ptrace", 2, ptrace_probe},
    {"fd", 1, fd_probe},
    {"env", 2, env_probe},
    {"tcp", 2, tcp_probe},
    {"udp", 2, udp_probe},
    {"tcp-reply", 2, tcp_reply_probe},
    {"memory", 1, memory_probe},
    {"pids", 1, pids_probe},
    {"kernel", 1, kernel_probe},
};

int main(int argc, char **argv)
{
	size_t i;

	if (argc >= 2 && !strcmp(argv[1], "exit0"))
		return 0;
	for (i = 0; argc >= 3 && i < sizeof(probes) / sizeof(*probes); i++) {
		if (strcmp(argv[1], probes[i].name))
			continue;
		if (argc != 3 + probes[i].nargs)
			break;
		probes[i].run(argv[2][0] == '1', argv + 3);
		say("done");
		return 0;
	}
	say("polc-probe: usage: polc-probe PROBE 0|1 ARGS... (a probe of "
	    "polc selftest)");
	return 2;
}
