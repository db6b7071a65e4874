/* SPDX-License-Identifier: MIT */
/*
 * viewprobe: one operation for the view's leak tests (issue 11). Each
 * prints "OP: ok" or "OP: errno=N (TEXT)" and exits 0, so the suite
 * compares the kernel's answer. It changes only what the suite made:
 * chown gives a file its own owner back, setxattr sets a user.* name.
 *
 *   chmod PATH | chown PATH | utime PATH | setxattr PATH
 *                            a metadata change (chmod to the same mode,
 *                            chown to the same owner, times to now,
 *                            user.polc=x)
 *   memfd-exec SELF FLAGS HOW  a memfd with FLAGS (plain, seal), SELF's
 *                            bytes copied in, then executed by HOW
 *                            (execveat: AT_EMPTY_PATH; proc:
 *                            /proc/self/fd/N); the copy says "ran"
 *   unix-serve PATH MS       listen on the pathname socket PATH, print
 *                            "ready", accept until MS ms have passed
 *   unix-connect PATH        connect to it
 *   ls DIR                   the names in DIR, sorted, space-separated
 *   ids                      "uid=U gid=G groups=N"
 *   say TEXT                 print TEXT
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U
#endif

extern char **environ;

static int report(const char *op, int r)
{
	if (r < 0)
		printf("%s: errno=%d (%s)\n", op, errno, strerror(errno));
	else
		printf("%s: ok\n", op);
	return 0;
}

static int meta(const char *op, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return report(op, -1);
	if (!strcmp(op, "chmod"))
		return report(op, chmod(path, st.st_mode & 07777));
	if (!strcmp(op, "chown"))
		return report(op, chown(path, st.st_uid, st.st_gid));
	if (!strcmp(op, "utime"))
		return report(op, utimensat(AT_FDCWD, path, NULL, 0));
	return report(op, setxattr(path, "user.polc", "x", 1, 0));
}

static int memfd_exec(const char *self, const char *flags, const char *how)
{
	unsigned f = MFD_CLOEXEC;
	char buf[65536], proc[64];
	char *args[] = {"viewprobe", "say", "ran", NULL};
	ssize_t n;
	int in, fd;

	if (!strcmp(flags, "seal"))
		f |= MFD_NOEXEC_SEAL;
	fd = (int)syscall(SYS_memfd_create, "viewprobe", f);
	if (fd < 0)
		return report("memfd_create", -1);
	in = open(self, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return report("open self", -1);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, (size_t)n) != n)
			return report("write memfd", -1);
	close(in);
	fflush(stdout);
	if (!strcmp(how, "execveat")) {
		syscall(SYS_execveat, fd, "", args, environ, AT_EMPTY_PATH);
		return report("execveat", -1);
	}
	/* Without O_CLOEXEC on the name: the fd must survive to be exec'd. */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	fcntl(fd, F_SETFD, 0);
	execve(proc, args, environ);
	return report("execve /proc/self/fd", -1);
}

static socklen_t unix_addr(const char *path, struct sockaddr_un *a)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	snprintf(a->sun_path, sizeof(a->sun_path), "%s", path);
	return (socklen_t)sizeof(*a);
}

static int unix_serve(const char *path, long ms)
{
	struct sockaddr_un a;
	struct timespec start, now;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	alarm((unsigned)(ms / 1000 + 2));
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, unix_addr(path, &a)) ||
	    listen(fd, 16) < 0)
		return report("unix-serve", -1), 1;
	printf("ready\n");
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct pollfd p = {fd, POLLIN, 0};
		long left;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = ms - ((now.tv_sec - start.tv_sec) * 1000 +
			     (now.tv_nsec - start.tv_nsec) / 1000000);
		if (left <= 0)
			break;
		if (poll(&p, 1, (int)left) > 0) {
			int c = accept(fd, NULL, NULL);

			if (c >= 0 && write(c, "hello\n", 6) == 6)
				close(c);
		}
	}
	unlink(path);
	return 0;
}

static int unix_connect(const char *path)
{
	struct sockaddr_un a;
	char got[8] = "";
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || connect(fd, (struct sockaddr *)&a, unix_addr(path, &a)))
		return report("unix-connect", -1);
	if (read(fd, got, sizeof(got) - 1) < 0)
		return report("unix-connect: read", -1);
	printf("unix-connect: ok %s", got);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ls(const char *dir)
{
	char *names[512];
	size_t n = 0, i;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return report("ls", -1);
	while ((e = readdir(d)) && n < 512)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, n, sizeof(*names), cmp);
	printf("ls:");
	for (i = 0; i < n; i++)
		printf(" %s", names[i]);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	const char *op = argc > 1 ? argv[1] : "";
	const char *a = argc > 2 ? argv[2] : "";
	const char *b = argc > 3 ? argv[3] : "";
	const char *c = argc > 4 ? argv[4] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(op, "chmod") || !strcmp(op, "chown") ||
	    !strcmp(op, "utime") || !strcmp(op, "setxattr"))
		return meta(op, a);
	if (!strcmp(op, "memfd-exec"))
		return memfd_exec(a, b, c);
	if (!strcmp(op, "unix-serve"))
		return unix_serve(a, atol(b));
	if (!strcmp(op, "unix-connect"))
		return unix_connect(a);
	if (!strcmp(op, "ls"))
		return ls(a);
	if (!strcmp(op, "ids"))
		return printf("ids: uid=%u gid=%u groups=%d\n",
			      (unsigned)getuid(), (unsigned)getgid(),
			      getgroups(0, NULL)) < 0;
	if (!strcmp(op, "say"))
		return printf("%s\n", a) < 0;
	fprintf(stderr, "viewprobe: unknown operation %s\n", op);
	return 2;
}
