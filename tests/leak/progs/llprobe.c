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
 *   say TEXT                  print TEXT
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
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

/* Listens on a TCP port or an abstract name; accepts until ms passed. */
static int serve(int tcp_port, const char *name, long ms)
{
	struct timespec start, now;
	struct sockaddr_in in;
	struct sockaddr_un un;
	int one = 1, fd;

	alarm((unsigned)(ms / 1000 + 2)); /* a hard stop, whatever happens */
	fd =
	    socket(tcp_port ? AF_INET : AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && tcp_port) {
		in = loopback(name);
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, (struct sockaddr *)&in, sizeof(in)) < 0)
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

			if (c >= 0)
				close(c);
		}
	}
	close(fd);
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

int main(int argc, char **argv)
{
	const char *op = argc > 1 ? argv[1] : "";
	const char *a = argc > 2 ? argv[2] : "";
	const char *b = argc > 3 ? argv[3] : "";

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
	if (!strcmp(op, "say"))
		return printf("%s\n", a) < 0;
	fprintf(stderr, "llprobe: unknown operation %s\n", op);
	return 2;
}
