/* SPDX-License-Identifier: MIT */
/*
 * llprobe: one filesystem, network or signal operation, for the Landlock
 * leak tests. Each prints "OP: ok" or "OP: errno=N (TEXT)" and exits 0, so
 * the suite compares the kernel's answer, not an exit status. Nothing is
 * written to a file the suite did not create: open-wronly opens without
 * O_TRUNC and writes nothing.
 *
 *   read PATH                 read it whole ("read: N bytes")
 *   create PATH               O_CREAT|O_EXCL, write "x"
 *   open-wronly PATH          O_WRONLY, no O_TRUNC, close, nothing written
 *   open-trunc PATH           O_WRONLY|O_TRUNC
 *   truncate PATH             truncate(PATH, 0)
 *   exec PATH                 execv(PATH, "say exec: ok")
 *   link OLD NEW | rename OLD NEW | symlink TARGET NEW
 *   connect PORT | bind PORT  TCP on 127.0.0.1
 *   kill PID                  kill(PID, SIGCONT): harmless if it lands
 *   kill-child                fork a child, SIGKILL it (inside the box)
 *   abstract-connect NAME     connect to the abstract unix socket NAME
 *   abstract-self NAME        listen on NAME, connect to it (inside the box)
 *   serve-tcp PORT MS         listen on 127.0.0.1:PORT, print "ready",
 *                             accept until MS ms have passed, exit 0
 *   serve-abstract NAME MS    the same on the abstract socket NAME
 *   serve-unix PATH MS        the same on the pathname socket PATH, each
 *                             connection told "hello"
 *   unix-connect PATH         connect to it ("unix-connect: ok hello")
 *   say TEXT                  print TEXT
 *
 * For the view's tests (issue 11):
 *
 *   chmod PATH | chown PATH | utime PATH | setxattr PATH
 *                             a metadata change that changes nothing:
 *                             the same mode, the same owner, times to
 *                             now, user.polc=x (on the suite's files)
 *   memfd-exec SELF FLAGS HOW a memfd with FLAGS (plain, seal), SELF's
 *                             bytes copied in, then executed by HOW
 *                             (execveat: AT_EMPTY_PATH; proc:
 *                             /proc/self/fd/N); the copy says "ran"
 *   ls DIR                    the names in DIR, sorted, space-separated
 *   ids                       "ids: uid=U gid=G groups=N"
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int report(const char *op, int r)
{
	if (r < 0)
		printf("%s: errno=%d (%s)\n", op, errno, strerror(errno));
	else
		printf("%s: ok\n", op);
	return 0;
}

static int read_all(const char *path)
{
	char buf[4096];
	ssize_t n, total = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return report("read", -1);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	if (n < 0)
		return report("read", -1);
	close(fd);
	printf("read: %zd bytes\n", total);
	return 0;
}

static int open_close(const char *op, const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC, 0644);

	if (fd >= 0 && (flags & O_CREAT) && write(fd, "x", 1) != 1)
		fd = -1;
	if (fd >= 0)
		close(fd);
	return report(op, fd);
}

static struct sockaddr_in loopback(const char *port)
{
	struct sockaddr_in a;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)atoi(port));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

static socklen_t abstract(const char *name, struct sockaddr_un *a)
{
	size_t n = strlen(name);

	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	if (n > sizeof(a->sun_path) - 1)
		n = sizeof(a->sun_path) - 1;
	memcpy(a->sun_path + 1, name, n); /* sun_path[0] == 0: abstract */
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

static int tcp(const char *op, const char *port)
{
	struct sockaddr_in a = loopback(port);
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int r;

	if (fd < 0)
		return report(op, -1);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (!strcmp(op, "connect"))
		r = connect(fd, (struct sockaddr *)&a, sizeof(a));
	else
		r = bind(fd, (struct sockaddr *)&a, sizeof(a));
	report(op, r);
	close(fd);
	return 0;
}

static int unix_connect(const char *op, const char *name)
{
	struct sockaddr_un a;
	socklen_t len = abstract(name, &a);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return report(op, -1);
	report(op, connect(fd, (struct sockaddr *)&a, len));
	close(fd);
	return 0;
}

static socklen_t pathname(const char *path, struct sockaddr_un *a)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	snprintf(a->sun_path, sizeof(a->sun_path), "%s", path);
	return (socklen_t)sizeof(*a);
}

/*
 * Listens on a TCP port (kind 1), an abstract name (0) or a pathname
 * socket (2, removed afterwards); accepts until ms passed.
 */
static int serve(int tcp_port, const char *name, long ms)
{
	struct timespec start, now;
	struct sockaddr_in in;
	struct sockaddr_un un;
	int one = 1, fd;

	alarm((unsigned)(ms / 1000 + 2)); /* a hard stop, whatever happens */
	fd = socket(tcp_port == 1 ? AF_INET : AF_UNIX,
		    SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && tcp_port == 1) {
		in = loopback(name);
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, (struct sockaddr *)&in, sizeof(in)) < 0)
			fd = -1;
	} else if (fd >= 0 && tcp_port == 2) {
		if (bind(fd, (struct sockaddr *)&un, pathname(name, &un)) < 0)
			fd = -1;
	} else if (fd >= 0 &&
		   bind(fd, (struct sockaddr *)&un, abstract(name, &un)) < 0) {
		fd = -1;
	}
	if (fd < 0 || listen(fd, 16) < 0) {
		report("serve", -1);
		return 1;
	}
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

			if (c >= 0 && (tcp_port != 2 || write(c, "hello\n", 6)))
				close(c);
		}
	}
	close(fd);
	if (tcp_port == 2)
		unlink(name);
	return 0;
}

static int kill_child(void)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return report("kill-child", -1);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	report("kill-child", kill(pid, SIGKILL));
	waitpid(pid, &status, 0);
	return 0;
}

static int abstract_self(const char *name)
{
	struct sockaddr_un a;
	socklen_t len = abstract(name, &a);
	int l = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (l < 0 || bind(l, (struct sockaddr *)&a, len) < 0 ||
	    listen(l, 1) < 0)
		return report("abstract-self: listen", -1);
	unix_connect("abstract-self", name);
	close(l);
	return 0;
}

#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U
#endif

static int path_connect(const char *path)
{
	struct sockaddr_un a;
	char got[8] = "";
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || connect(fd, (struct sockaddr *)&a, pathname(path, &a)))
		return report("unix-connect", -1);
	if (read(fd, got, sizeof(got) - 1) < 0)
		return report("unix-connect: read", -1);
	printf("unix-connect: ok %s", got);
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

extern char **environ;

static int memfd_exec(const char *self, const char *flags, const char *how)
{
	unsigned f = MFD_CLOEXEC;
	char buf[65536], proc[64];
	char *args[] = {"llprobe", "say", "ran", NULL};
	ssize_t n;
	int in, fd;

	if (!strcmp(flags, "seal"))
		f |= MFD_NOEXEC_SEAL;
	fd = (int)syscall(SYS_memfd_create, "llprobe", f);
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
	if (!strcmp(op, "read"))
		return read_all(a);
	if (!strcmp(op, "create"))
		return open_close(op, a, O_WRONLY | O_CREAT | O_EXCL);
	if (!strcmp(op, "open-wronly"))
		return open_close(op, a, O_WRONLY);
	if (!strcmp(op, "open-trunc"))
		return open_close(op, a, O_WRONLY | O_TRUNC);
	if (!strcmp(op, "truncate"))
		return report(op, truncate(a, 0));
	if (!strcmp(op, "exec")) {
		execl(a, a, "say", "exec: ok", (char *)NULL);
		return report(op, -1);
	}
	if (!strcmp(op, "link"))
		return report(op, link(a, b));
	if (!strcmp(op, "rename"))
		return report(op, rename(a, b));
	if (!strcmp(op, "symlink"))
		return report(op, symlink(a, b));
	if (!strcmp(op, "connect") || !strcmp(op, "bind"))
		return tcp(op, a);
	if (!strcmp(op, "kill"))
		return report(op, kill((pid_t)atoi(a), SIGCONT));
	if (!strcmp(op, "kill-child"))
		return kill_child();
	if (!strcmp(op, "abstract-connect"))
		return unix_connect(op, a);
	if (!strcmp(op, "abstract-self"))
		return abstract_self(a);
	if (!strcmp(op, "serve-tcp"))
		return serve(1, a, atol(b));
	if (!strcmp(op, "serve-abstract"))
		return serve(0, a, atol(b));
	if (!strcmp(op, "serve-unix"))
		return serve(2, a, atol(b));
	if (!strcmp(op, "unix-connect"))
		return path_connect(a);
	if (!strcmp(op, "chmod") || !strcmp(op, "chown") ||
	    !strcmp(op, "utime") || !strcmp(op, "setxattr"))
		return meta(op, a);
	if (!strcmp(op, "memfd-exec"))
		return memfd_exec(a, b, c);
	if (!strcmp(op, "ls"))
		return ls(a);
	if (!strcmp(op, "ids"))
		return printf("ids: uid=%u gid=%u groups=%d\n",
			      (unsigned)getuid(), (unsigned)getgid(),
			      getgroups(0, NULL)) < 0;
	if (!strcmp(op, "say"))
		return printf("%s\n", a) < 0;
	fprintf(stderr, "llprobe: unknown operation %s\n", op);
	return 2;
}
