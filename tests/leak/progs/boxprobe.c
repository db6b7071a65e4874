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
 *   parent-mem     as read, on /proc/PPID/mem, one page at the start of
 *                  the parent's first mapping (from its maps when
 *                  readable, else an address where a static binary loads)
 *   cat PATH       PATH's content, as is, or "cat: errno=N (TEXT)"
 *   stat PATH      "type=file|dir|other mode=0NNN uid=U size=N"
 *   ls DIR         the names in DIR, sorted, one line, or "ls: errno=N"
 *   cmdline        our /proc/self/cmdline, NULs shown as spaces
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

static int cat(const char *path)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		printf("cat: errno=%d (%s)\n", errno, strerror(errno));
		return 0;
	}
	fflush(stdout);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (write(STDOUT_FILENO, buf, (size_t)n) != n)
			return 2;
	close(fd);
	return n < 0 ? 2 : 0;
}

static int probe_stat(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0) {
		printf("stat: errno=%d (%s)\n", errno, strerror(errno));
		return 0;
	}
	printf("type=%s mode=0%o uid=%u size=%lld\n",
	       S_ISREG(st.st_mode)   ? "file"
	       : S_ISDIR(st.st_mode) ? "dir"
				     : "other",
	       (unsigned)(st.st_mode & 07777), (unsigned)st.st_uid,
	       (long long)st.st_size);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list(const char *path)
{
	static char *names[1024];
	struct dirent *d;
	size_t n = 0, i;
	DIR *dir = opendir(path);

	if (!dir) {
		printf("ls: errno=%d (%s)\n", errno, strerror(errno));
		return 0;
	}
	while ((d = readdir(dir)) && n < 1024)
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
			names[n++] = strdup(d->d_name);
	closedir(dir);
	qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++)
		printf("%s%s", i ? " " : "", names[i]);
	printf("\n");
	return 0;
}

static int cmdline(void)
{
	char buf[8192];
	ssize_t n, i;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || (n = read(fd, buf, sizeof(buf) - 1)) < 0)
		return 2;
	for (i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
	printf("%s\n", buf);
	close(fd);
	return 0;
}

/* Opens /proc/PPID/mem and reads one page of the parent's first mapping. */
static int parent_mem(void)
{
	char path[64], line[256], page[4096];
	unsigned long addr = 0x400000;
	FILE *maps;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)getppid());
	maps = fopen(path, "re");
	if (maps) {
		if (fgets(line, sizeof(line), maps))
			addr = strtoul(line, NULL, 16);
		fclose(maps);
	}
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)getppid());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("read: errno=%d (%s)\n", errno, strerror(errno));
		return 0;
	}
	n = pread(fd, page, sizeof(page), (off_t)addr);
	if (n < 0)
		printf("read: errno=%d (%s)\n", errno, strerror(errno));
	else
		printf("read: %zd bytes\n", n);
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
	} else if (strcmp(what, "parent-mem") == 0) {
		return parent_mem();
	} else if (strcmp(what, "cat") == 0) {
		return cat(arg);
	} else if (strcmp(what, "stat") == 0) {
		return probe_stat(arg);
	} else if (strcmp(what, "ls") == 0) {
		return list(arg);
	} else if (strcmp(what, "cmdline") == 0) {
		return cmdline();
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
