/* SPDX-License-Identifier: MIT */
/*
 * boxprobe: looks at the process it runs in and prints what it sees.
 *
 *   env NAME       "NAME=VALUE" or "NAME unset"
 *   environ        every variable, one a line, then "count=N"
 *   fd N           "fd N open" or "fd N closed" (exit 2 if it cannot tell)
 *   sid            "pid=P sid=S"
 *   sigs           "ignored: ..." and "blocked: ..." (signal numbers)
 *   exit N         exits with N
 *   sleep MS       prints "pid=P ready", sleeps MS ms, exits 0
 *   canary PATH    creates PATH (O_EXCL) holding "ran"
 *   read PATH      "read: N bytes" or "read: errno=N (TEXT)"
 *   parent-environ as read, on /proc/PPID/environ (PPID: our parent)
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int probe_fd(int fd)
{
	if (fcntl(fd, F_GETFD) >= 0) {
		printf("fd %d open\n", fd);
		return 0;
	}
	if (errno == EBADF) {
		printf("fd %d closed\n", fd);
		return 0;
	}
	printf("fd %d unknown: %s\n", fd, strerror(errno));
	return 2;
}

static int probe_sigs(void)
{
	sigset_t blocked;
	int sig;

	if (sigprocmask(SIG_BLOCK, NULL, &blocked) < 0)
		return 2;
	printf("ignored:");
	for (sig = 1; sig < 32; sig++) {
		struct sigaction sa;

		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			printf(" %d", sig);
	}
	printf("\nblocked:");
	for (sig = 1; sig < 32; sig++)
		if (sigismember(&blocked, sig) == 1)
			printf(" %d", sig);
	printf("\n");
	return 0;
}

static int canary(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0 || write(fd, "ran\n", 4) != 4 || close(fd) < 0) {
		perror("boxprobe: canary");
		return 2;
	}
	return 0;
}

static int read_file(const char *path)
{
	char buf[4096];
	ssize_t n, total = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		printf("read: errno=%d (%s)\n", errno, strerror(errno));
		return 0;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	if (n < 0)
		printf("read: errno=%d (%s)\n", errno, strerror(errno));
	else
		printf("read: %zd bytes\n", total);
	close(fd);
	return 0;
}

static int nap(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	printf("pid=%d ready\n", (int)getpid());
	fflush(stdout);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
	return 0;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	const char *arg = argc > 2 ? argv[2] : "";
	char **e;
	int n = 0;

	if (strcmp(what, "env") == 0) {
		const char *v = getenv(arg);

		if (v)
			printf("%s=%s\n", arg, v);
		else
			printf("%s unset\n", arg);
	} else if (strcmp(what, "environ") == 0) {
		for (e = environ; e && *e; e++, n++)
			printf("%s\n", *e);
		printf("count=%d\n", n);
	} else if (strcmp(what, "fd") == 0) {
		return probe_fd(atoi(arg));
	} else if (strcmp(what, "sid") == 0) {
		printf("pid=%d sid=%d\n", (int)getpid(), (int)getsid(0));
	} else if (strcmp(what, "sigs") == 0) {
		return probe_sigs();
	} else if (strcmp(what, "exit") == 0) {
		return atoi(arg);
	} else if (strcmp(what, "sleep") == 0) {
		return nap(atol(arg));
	} else if (strcmp(what, "canary") == 0) {
		return canary(arg);
	} else if (strcmp(what, "read") == 0) {
		return read_file(arg);
	} else if (strcmp(what, "parent-environ") == 0) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d/environ",
			 (int)getppid());
		return read_file(path);
	} else {
		fprintf(stderr, "boxprobe: unknown probe %s\n", what);
		return 2;
	}
	return 0;
}
