/* SPDX-License-Identifier: MIT */
/*
 * The soak suite's tool (tests/soak/run.sh), one mode per word:
 *
 *   probe MARK FORBIDDEN [GO]   in the box: what narrowed it, from
 *       /proc/self/status (Seccomp, NoNewPrivs, CapEff, CapPrm, CapBnd),
 *       its fds (/proc/self/fd) and what opening FORBIDDEN (outside the
 *       policy's grants) gives; one line into MARK, written to MARK.tmp and
 *       renamed, so MARK is whole or absent. With GO, then waits (at most
 *       20 s) until GO exists, so the suite can look at polexec meanwhile.
 *   delays SEED N MAX           N delays in microseconds, uniform in
 *       [0, MAX], from splitmix64 seeded with SEED: the same on every
 *       machine.
 *   killafter US -- CMD...      runs CMD, SIGKILLs it US microseconds
 *       after the fork, then, as a child subreaper, waits (at most 10 s)
 *       for every process CMD left, which the kernel hands to us: those
 *       still alive then are named on stdout and killed, exit 3.
 *   startup MARK -- CMD...      runs CMD and prints the microseconds until
 *       MARK exists (polled every 100 us, at most 10 s), then waits for it;
 *       exits with its status.
 *   snapshot CGNAME DIR...      what a box could leave behind, one sorted
 *       line each: processes (but this one and its parent), the namespaces
 *       any of them holds (/proc/P/ns and namespace fds), mounts, cgroups
 *       named polexec-* below a cgroup named CGNAME in any hierarchy, and
 *       the entries of each DIR.
 *
 * Loops are bounded; nothing here waits without a limit.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000 + (uint64_t)t.tv_nsec / 1000;
}

static void nap_us(uint64_t us)
{
	struct timespec t = {(time_t)(us / 1000000),
			     (long)(us % 1000000) * 1000};

	while (nanosleep(&t, &t) < 0 && errno == EINTR)
		;
}

/* The value after "Key:\t" in /proc/self/status, or "?". */
static void status_field(const char *status, const char *key, char *out,
			 size_t len)
{
	char want[64];
	const char *p;
	size_t n;

	snprintf(want, sizeof(want), "\n%s:\t", key);
	p = strstr(status, want);
	if (!p) {
		snprintf(out, len, "?");
		return;
	}
	p += strlen(want);
	n = strcspn(p, "\n");
	snprintf(out, len, "%.*s", (int)n, p);
}

static int probe(const char *mark, const char *forbidden, const char *go)
{
	char status[8192] = "\n", line[1024], tmp[4096], v[5][64];
	static const char *const keys[] = {"Seccomp", "NoNewPrivs", "CapEff",
					   "CapPrm", "CapBnd"};
	char fds[256] = "";
	struct dirent *e;
	ssize_t n, got = 1;
	DIR *d;
	int fd, i;

	fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		while ((n = read(fd, status + got,
				 sizeof(status) - 1 - (size_t)got)) > 0)
			got += n;
		close(fd);
	}
	status[got] = '\0';
	for (i = 0; i < 5; i++)
		status_field(status, keys[i], v[i], sizeof(v[i]));
	/* the fds as the command sees them, this listing's own excepted */
	d = opendir("/proc/self/fd");
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || atoi(e->d_name) == dirfd(d))
			continue;
		if (strlen(fds) + strlen(e->d_name) + 2 < sizeof(fds))
			snprintf(fds + strlen(fds), sizeof(fds) - strlen(fds),
				 "%s%s", fds[0] ? "," : "", e->d_name);
	}
	if (d)
		closedir(d);
	fd = open(forbidden, O_RDONLY | O_CLOEXEC);
	snprintf(line, sizeof(line),
		 "seccomp=%s nnp=%s capeff=%s capprm=%s capbnd=%s fds=%s "
		 "forbidden=%s\n",
		 v[0], v[1], v[2], v[3], v[4], fds,
		 fd >= 0 ? "opened" : strerrorname_np(errno));
	snprintf(tmp, sizeof(tmp), "%s.tmp", mark);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, line, strlen(line)) != (ssize_t)strlen(line) ||
	    close(fd) < 0 || rename(tmp, mark) < 0) {
		perror("soaktool probe: write the mark");
		return 1;
	}
	for (i = 0; go && i < 20000 && access(go, F_OK) < 0; i++)
		nap_us(1000);
	return 0;
}

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int delays(uint64_t seed, unsigned long n, uint64_t max)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		printf("%llu\n",
		       (unsigned long long)(splitmix64(&seed) % (max + 1)));
	return 0;
}

static pid_t spawn(char **argv)
{
	pid_t pid = fork();

	if (pid == 0) {
		execv(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	if (pid < 0)
		perror("soaktool: fork");
	return pid;
}

static void comm_of(pid_t pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, buf, len - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* From /proc/PID/stat: the parent's pid and the state letter; -1 when
 * the process is gone. */
static int stat_of(pid_t pid, int *ppid, char *state)
{
	char path[64], buf[512];
	const char *p = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		p = strrchr(buf, ')');
	fclose(f);
	if (!p || sscanf(p + 2, "%c %d", state, ppid) != 2)
		return -1;
	return 0;
}

/* Our children now, polexec's orphans included: " PID(COMM)" each into
 * out; with kill_them, each is sent SIGKILL. */
static int list_children(char *out, size_t len, int kill_them)
{
	char buf[512];
	struct dirent *e;
	int found = 0;
	DIR *d = opendir("/proc");

	out[0] = '\0';
	while (d && (e = readdir(d))) {
		pid_t pid = (pid_t)atoi(e->d_name);
		int ppid = 0;
		char state;

		if (pid <= 0 || stat_of(pid, &ppid, &state) < 0 ||
		    ppid != getpid())
			continue;
		comm_of(pid, buf, sizeof(buf));
		found++;
		if (kill_them)
			kill(pid, SIGKILL);
		if (strlen(out) + strlen(buf) + 32 < len)
			snprintf(out + strlen(out), len - strlen(out),
				 " %d(%s)", (int)pid, buf);
	}
	if (d)
		closedir(d);
	return found;
}

static int killafter(uint64_t us, char **argv)
{
	uint64_t start, end;
	int status, left;
	char names[2048];
	pid_t pid;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
		perror("soaktool: PR_SET_CHILD_SUBREAPER");
		return 2;
	}
	start = now_us();
	pid = spawn(argv);
	if (pid < 0)
		return 2;
	end = start + us;
	if (now_us() < end)
		nap_us(end - now_us());
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	printf("killafter %llu: %s %d\n", (unsigned long long)us,
	       WIFSIGNALED(status) ? "signal" : "exit",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	/* what polexec left: ours now; each should end by itself */
	end = now_us() + 10000000;
	for (;;) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (!list_children(names, sizeof(names), 0) || now_us() > end)
			break;
		nap_us(1000);
	}
	left = list_children(names, sizeof(names), 1);
	if (!left)
		return 0;
	printf("left alive 10 s after polexec was killed:%s\n", names);
	return 3;
}

static int startup(const char *mark, char **argv)
{
	uint64_t start = now_us(), end = start + 10000000;
	int status;
	pid_t pid = spawn(argv);

	if (pid < 0)
		return 2;
	while (access(mark, F_OK) < 0 && now_us() < end)
		nap_us(100);
	printf("%llu\n", (unsigned long long)(now_us() - start));
	fflush(stdout);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* --- snapshot --------------------------------------------------------- */

static void ns_links(const char *dir)
{
	char path[512], target[256];
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d))) {
		ssize_t n;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		/* "net:[4026531840]", "user:[...]": a namespace */
		if (target[0] != '/' && strstr(target, ":[") &&
		    strncmp(target, "pipe:", 5) &&
		    strncmp(target, "socket:", 7) &&
		    strncmp(target, "anon_inode:", 11))
			printf("ns %s\n", target);
	}
	if (d)
		closedir(d);
}

static void processes(void)
{
	char path[64], comm[256];
	struct dirent *e;
	DIR *d = opendir("/proc");
	pid_t self = getpid(), parent = getppid();

	while (d && (e = readdir(d))) {
		pid_t pid = (pid_t)atoi(e->d_name);
		char state = '?';
		int ppid;

		if (pid <= 0 || pid == self || pid == parent ||
		    stat_of(pid, &ppid, &state) < 0)
			continue;
		comm_of(pid, comm, sizeof(comm));
		printf("proc %d %s %c\n", (int)pid, comm, state);
		snprintf(path, sizeof(path), "/proc/%d/ns", (int)pid);
		ns_links(path);
		snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
		ns_links(path);
	}
	if (d)
		closedir(d);
}

static void mounts(void)
{
	char line[4096];
	FILE *f = fopen("/proc/self/mountinfo", "re");

	while (f && fgets(line, sizeof(line), f)) {
		char at[2048], type[256], src[1024];
		const char *sep = strstr(line, " - ");

		if (sep && sscanf(line, "%*s %*s %*s %*s %2047s", at) == 1 &&
		    sscanf(sep, " - %255s %1023s", type, src) == 2)
			printf("mount %s %s %s\n", at, type, src);
	}
	if (f)
		fclose(f);
}

/* polexec-* folders below any folder named cgname, depth-bounded. */
static void cgroups(const char *dir, const char *cgname, int below, int depth)
{
	char path[4096];
	struct dirent *e;
	DIR *d;

	if (depth > 8 || !(d = opendir(dir)))
		return;
	while ((e = readdir(d))) {
		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (below && !strncmp(e->d_name, "polexec-", 8))
			printf("cgroup %s\n", path);
		cgroups(path, cgname, below || !strcmp(e->d_name, cgname),
			depth + 1);
	}
	closedir(d);
}

static void entries(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d) {
		printf("entry %s: %s\n", dir, strerror(errno));
		return;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			printf("entry %s/%s\n", dir, e->d_name);
	closedir(d);
}

static int snapshot(const char *cgname, char **dirs)
{
	processes();
	mounts();
	cgroups("/sys/fs/cgroup", cgname, 0, 0);
	for (; *dirs; dirs++)
		entries(*dirs);
	return fflush(stdout) == 0 ? 0 : 1;
}

static int usage(void)
{
	fprintf(stderr, "usage: soaktool probe MARK FORBIDDEN [GO] | delays "
			"SEED N MAX | killafter US -- CMD... | startup MARK "
			"-- CMD... | snapshot CGNAME DIR...\n");
	return 2;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 4 && !strcmp(argv[1], "probe"))
		return probe(argv[2], argv[3], argc > 4 ? argv[4] : NULL);
	if (argc == 5 && !strcmp(argv[1], "delays"))
		return delays(strtoull(argv[2], NULL, 0),
			      strtoul(argv[3], NULL, 0),
			      strtoull(argv[4], NULL, 0));
	if (argc >= 5 && !strcmp(argv[1], "killafter") &&
	    !strcmp(argv[3], "--"))
		return killafter(strtoull(argv[2], NULL, 0), argv + 4);
	if (argc >= 5 && !strcmp(argv[1], "startup") && !strcmp(argv[3], "--"))
		return startup(argv[2], argv + 4);
	if (argc >= 3 && !strcmp(argv[1], "snapshot"))
		return snapshot(argv[2], argv + 3);
	return usage();
}
