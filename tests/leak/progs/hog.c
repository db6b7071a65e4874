/* SPDX-License-Identifier: MIT */
/*
 * hog: uses one resource until it has what it asked for or the kernel
 * says no, and prints which. Each probe is bounded by its argument, so a
 * test that fails still ends.
 *
 *   mem MIB            malloc and touch MIB MiB, 4 MiB at a time:
 *                      "mem: MIB MiB ok" or "mem: failed after N MiB: E"
 *   fork N             N children that wait: "fork: N ok" or
 *                      "fork: K started, then errno=E (TEXT)"
 *   threads N          as fork, with threads
 *   spin MS [ign]      MS ms of CPU time (0: forever): "spin: done";
 *                      ign: SIGXCPU ignored
 *   sleep MS [ign]     "pid=P ready", then MS ms asleep: "sleep: done";
 *                      ign: SIGTERM ignored
 *   write PATH N [ign] N bytes into PATH: "write: N bytes ok" or
 *                      "write: errno=E (TEXT) after K bytes"; ign: SIGXFSZ
 *                      ignored
 *   nofile N           opens /dev/null N times: "nofile: N ok" or
 *                      "nofile: K opened, then errno=E (TEXT)"
 *   rlimits            "core=S:H nofile=S:H fsize=S:H cpu=S:H as=S:H
 *                      nproc=S:H", "inf" for RLIM_INFINITY
 *
 * Exit 0 when it got everything, 3 when the kernel stopped it short.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_KIDS 1024

static int mem(long mib)
{
	long got = 0;

	while (got < mib) {
		char *p = malloc(4 << 20);

		if (!p) {
			printf("mem: failed after %ld MiB: %s\n", got,
			       strerror(errno));
			return 3;
		}
		memset(p, 0x5a, 4 << 20);
		got += 4;
	}
	printf("mem: %ld MiB ok\n", mib);
	return 0;
}

static int gate[2];

static void *waiter(void *arg)
{
	char c;

	(void)arg;
	while (read(gate[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

static int forks(long n, int threads)
{
	static pthread_t tids[MAX_KIDS];
	static pid_t kids[MAX_KIDS];
	const char *what = threads ? "threads" : "fork";
	long i, started = 0;
	int err = 0;

	if (n > MAX_KIDS || pipe(gate) < 0)
		return 2;
	for (i = 0; i < n; i++) {
		if (threads) {
			err = pthread_create(&tids[i], NULL, waiter, NULL);
			if (err)
				break;
		} else {
			pid_t pid = fork();

			if (pid < 0) {
				err = errno;
				break;
			}
			if (pid == 0) {
				close(gate[1]);
				waiter(NULL);
				_exit(0);
			}
			kids[i] = pid;
		}
		started++;
	}
	close(gate[1]); /* every waiter sees EOF and ends */
	for (i = 0; i < started; i++) {
		if (threads)
			pthread_join(tids[i], NULL);
		else
			waitpid(kids[i], NULL, 0);
	}
	if (!err) {
		printf("%s: %ld ok\n", what, n);
		return 0;
	}
	printf("%s: %ld started, then errno=%d (%s)\n", what, started, err,
	       strerror(err));
	return 3;
}

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int spin(long ms)
{
	volatile unsigned long x = 0;

	while (ms == 0 || cpu_ms() < (double)ms)
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
	printf("spin: done\n");
	return 0;
}

static int nap(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	printf("pid=%d ready\n", (int)getpid());
	fflush(stdout);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
	printf("sleep: done\n");
	return 0;
}

static int write_file(const char *path, long n)
{
	static char buf[64 << 10];
	long done = 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0) {
		printf("write: open: %s\n", strerror(errno));
		return 2;
	}
	memset(buf, 'x', sizeof(buf));
	while (done < n) {
		size_t want = (size_t)(n - done) < sizeof(buf)
				  ? (size_t)(n - done)
				  : sizeof(buf);
		ssize_t w = write(fd, buf, want);

		if (w < 0) {
			printf("write: errno=%d (%s) after %ld bytes\n", errno,
			       strerror(errno), done);
			close(fd);
			return 3;
		}
		done += w;
	}
	close(fd);
	printf("write: %ld bytes ok\n", n);
	return 0;
}

static int nofile(long n)
{
	long i;

	for (i = 0; i < n; i++)
		if (open("/dev/null", O_RDONLY) < 0) {
			int e = errno;

			printf("nofile: %ld opened, then errno=%d (%s)\n", i, e,
			       strerror(e));
			return 3;
		}
	printf("nofile: %ld ok\n", n);
	return 0;
}

static void show(const char *name, int res)
{
	struct rlimit r;

	getrlimit(res, &r);
	printf("%s=", name);
	if (r.rlim_cur == RLIM_INFINITY)
		printf("inf:");
	else
		printf("%llu:", (unsigned long long)r.rlim_cur);
	if (r.rlim_max == RLIM_INFINITY)
		printf("inf");
	else
		printf("%llu", (unsigned long long)r.rlim_max);
}

static int rlimits(void)
{
	show("core", RLIMIT_CORE);
	show(" nofile", RLIMIT_NOFILE);
	show(" fsize", RLIMIT_FSIZE);
	show(" cpu", RLIMIT_CPU);
	show(" as", RLIMIT_AS);
	show(" nproc", RLIMIT_NPROC);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	long n = argc > 2 ? atol(argv[2]) : 0;
	int ign = argc > 3 && strcmp(argv[argc - 1], "ign") == 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(what, "mem") == 0)
		return mem(n);
	if (strcmp(what, "fork") == 0)
		return forks(n, 0);
	if (strcmp(what, "threads") == 0)
		return forks(n, 1);
	if (strcmp(what, "spin") == 0) {
		if (argc > 3 && strcmp(argv[3], "ign") == 0)
			signal(SIGXCPU, SIG_IGN);
		return spin(n);
	}
	if (strcmp(what, "sleep") == 0) {
		if (argc > 3 && strcmp(argv[3], "ign") == 0)
			signal(SIGTERM, SIG_IGN);
		return nap(n);
	}
	if (strcmp(what, "write") == 0 && argc > 3) {
		if (ign)
			signal(SIGXFSZ, SIG_IGN);
		return write_file(argv[2], atol(argv[3]));
	}
	if (strcmp(what, "nofile") == 0)
		return nofile(n);
	if (strcmp(what, "rlimits") == 0)
		return rlimits();
	fprintf(stderr, "hog: unknown probe %s\n", what);
	return 2;
}
