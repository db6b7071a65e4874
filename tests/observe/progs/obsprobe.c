/* SPDX-License-Identifier: MIT */
/*
 * obsprobe WHAT [ARGS]: the calls tests/observe makes inside a box, each
 * printing what the kernel answered ("NAME: ok" or "NAME: errno=N"):
 *
 *   socket6             socket(AF_INET6, SOCK_DGRAM, 0), three times
 *   packet              socket(AF_PACKET, SOCK_RAW, 0)
 *   ptrace              ptrace(PTRACE_TRACEME): a kill rule ends it here
 *   getppid N           N raw getppid calls; "getppid: N calls, N failed
 *                       errno=E"
 *   listener            seccomp(SET_MODE_FILTER, NEW_LISTENER) of its own
 *   mkdir-later DIR PIDFILE OUT
 *                       forks a grandchild that leaves the box's process
 *                       group, writes its pid to PIDFILE (then PIDFILE.done)
 *                       and calls mkdir(DIR); its answer goes to OUT
 *                       ("mkdir: errno=N" or "mkdir: ok"); the box's own
 *                       process then sleeps until it is killed
 *   mkdir DIR           mkdir(DIR)
 *   destructive WS OUT  in WS: creat a; open a O_TRUNC; open a O_RDONLY;
 *                       ftruncate; truncate a; rename a b; mkdir d;
 *                       unlinkat(d, AT_REMOVEDIR); unlink b; then open OUT
 *                       (outside WS) with O_TRUNC
 *   read FILE           open(FILE, O_RDONLY)
 *   time getppid|getpid N
 *                       N raw calls timed (bench/observe.sh only: no
 *                       test decides on time); "time: N calls, X ns per
 *                       call, F failed"
 *
 * Canaries are paths the test made; nothing here touches a system file.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int said(const char *what, long r)
{
	if (r < 0)
		printf("%s: errno=%d\n", what, errno);
	else
		printf("%s: ok\n", what);
	return 0;
}

static int check(const char *what, long r)
{
	if (r < 0) {
		printf("%s: errno=%d\n", what, errno);
		exit(1);
	}
	return (int)r;
}

static int destructive(const char *ws, const char *out)
{
	char a[4096], b[4096], d[4096];
	int fd, dir;

	snprintf(a, sizeof(a), "%s/a", ws);
	snprintf(b, sizeof(b), "%s/b", ws);
	snprintf(d, sizeof(d), "%s/d", ws);
	fd = check("creat", creat(a, 0644));
	check("write", write(fd, "data", 4));
	close(fd);
	close(check("open-trunc", open(a, O_WRONLY | O_TRUNC)));
	fd = check("open-rdonly", open(a, O_RDONLY));
	close(fd);
	fd = check("open-rdwr", open(a, O_RDWR));
	check("ftruncate", ftruncate(fd, 1));
	close(fd);
	check("truncate", truncate(a, 0));
	check("rename", rename(a, b));
	check("mkdir", mkdir(d, 0755));
	dir = check("open-ws", open(ws, O_RDONLY | O_DIRECTORY));
	check("unlinkat-dir", unlinkat(dir, "d", AT_REMOVEDIR));
	close(dir);
	check("unlink", unlink(b));
	close(check("open-out", open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644)));
	printf("destructive: ok\n");
	return 0;
}

static int listener(void)
{
	struct sock_filter f[] = {BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
	struct sock_fprog p = {1, f};

	return said("listener", syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
					SECCOMP_FILTER_FLAG_NEW_LISTENER, &p));
}

static int mkdir_later(const char *dir, const char *pidfile, const char *out)
{
	pid_t pid = fork();

	if (pid < 0)
		return check("fork", -1);
	if (pid == 0) {
		char done[4096];
		FILE *f;
		long r;

		setsid();
		f = fopen(pidfile, "w");
		if (!f)
			_exit(1);
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
		snprintf(done, sizeof(done), "%s.done", pidfile);
		close(open(done, O_WRONLY | O_CREAT, 0644));
		r = syscall(SYS_mkdir, dir, 0755);
		f = fopen(out, "w");
		if (!f)
			_exit(1);
		fprintf(f, r < 0 ? "mkdir: errno=%d\n" : "mkdir: ok\n", errno);
		fclose(f);
		_exit(0);
	}
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	int i;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (!strcmp(what, "socket6")) {
		for (i = 0; i < 3; i++)
			said("socket6", socket(AF_INET6, SOCK_DGRAM, 0));
		return 0;
	}
	if (!strcmp(what, "packet"))
		return said("packet", socket(AF_PACKET, SOCK_RAW, 0));
	if (!strcmp(what, "ptrace"))
		return said("ptrace", ptrace(PTRACE_TRACEME, 0, 0, 0));
	if (!strcmp(what, "getppid") && argc > 2) {
		long n = atol(argv[2]), bad = 0, e = 0;

		for (i = 0; i < n; i++)
			if (syscall(SYS_getppid) < 0)
				bad++, e = errno;
		printf("getppid: %ld calls, %ld failed errno=%ld\n", n, bad, e);
		return 0;
	}
	if (!strcmp(what, "time") && argc > 3) {
		long nr = strcmp(argv[2], "getpid") ? SYS_getppid : SYS_getpid;
		long n = atol(argv[3]), bad = 0;
		struct timespec a, b;

		clock_gettime(CLOCK_MONOTONIC, &a);
		for (i = 0; i < n; i++)
			bad += syscall(nr) < 0;
		clock_gettime(CLOCK_MONOTONIC, &b);
		printf("time: %ld calls, %.1f ns per call, %ld failed\n", n,
		       ((double)(b.tv_sec - a.tv_sec) * 1e9 +
			(double)(b.tv_nsec - a.tv_nsec)) /
			   (double)(n ? n : 1),
		       bad);
		return 0;
	}
	if (!strcmp(what, "listener"))
		return listener();
	if (!strcmp(what, "mkdir-later") && argc > 4)
		return mkdir_later(argv[2], argv[3], argv[4]);
	if (!strcmp(what, "mkdir") && argc > 2)
		return said("mkdir", mkdir(argv[2], 0755));
	if (!strcmp(what, "destructive") && argc > 3)
		return destructive(argv[2], argv[3]);
	if (!strcmp(what, "read") && argc > 2)
		return said("read", open(argv[2], O_RDONLY));
	fprintf(stderr, "obsprobe: unknown %s\n", what);
	return 2;
}
