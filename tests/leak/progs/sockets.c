/* SPDX-License-Identifier: MIT */
/*
 * sockets KIND: one socket() call, printed as "socket(KIND): ok" or
 * "socket(KIND): errno=N (TEXT)". No packet is sent or received: packet
 * and raw sockets are closed at once (a packet socket of protocol 0
 * receives nothing).
 *
 *   unix, inet, packet   that family, SOCK_DGRAM | SOCK_CLOEXEC
 *   packet-hi            AF_PACKET with garbage in the upper 32 bits of
 *                        the register. The kernel reads `int family`, so it
 *                        still makes an AF_PACKET socket; a filter that
 *                        compared all 64 bits would let it through.
 *   packet-raw           AF_PACKET, SOCK_RAW, 0
 *   raw4                 AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP
 *   raw6                 AF_INET6, SOCK_RAW | SOCK_NONBLOCK, IPPROTO_ICMPV6
 *   stream               AF_INET, SOCK_STREAM, 0
 *   netlink-route        AF_NETLINK, SOCK_RAW, NETLINK_ROUTE
 *   netlink-nf           AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER
 *
 * sockets io_uring: io_uring_setup(1, params), printed as
 * "io_uring_setup: ok" or "io_uring_setup: errno=N (TEXT)".
 */
#include <errno.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

struct kind {
	const char *name;
	long domain, type, protocol;
};

static const struct kind kinds[] = {
    {"unix", AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0},
    {"inet", AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0},
    {"packet", AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC, 0},
    {"packet-hi", (long)AF_PACKET | (1L << 32), SOCK_DGRAM | SOCK_CLOEXEC, 0},
    {"packet-raw", AF_PACKET, SOCK_RAW, 0},
    {"raw4", AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP},
    {"raw6", AF_INET6, SOCK_RAW | SOCK_NONBLOCK, IPPROTO_ICMPV6},
    {"stream", AF_INET, SOCK_STREAM, 0},
    {"netlink-route", AF_NETLINK, SOCK_RAW, NETLINK_ROUTE},
    {"netlink-nf", AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER},
};

static int io_uring(void)
{
	unsigned char params[120]; /* struct io_uring_params */
	long r;

	memset(params, 0, sizeof(params));
	r = syscall(SYS_io_uring_setup, 1L, params);
	if (r < 0) {
		printf("io_uring_setup: errno=%d (%s)\n", errno,
		       strerror(errno));
		return 0;
	}
	close((int)r);
	printf("io_uring_setup: ok\n");
	return 0;
}

int main(int argc, char **argv)
{
	const char *fam = argc > 1 ? argv[1] : "";
	const struct kind *k = NULL;
	long r;

	if (strcmp(fam, "io_uring") == 0)
		return io_uring();
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(fam, kinds[i].name) == 0)
			k = &kinds[i];
	if (!k) {
		fprintf(stderr, "sockets: unknown kind %s\n", fam);
		return 2;
	}
	r = syscall(SYS_socket, k->domain, k->type, k->protocol);
	if (r < 0) {
		printf("socket(%s): errno=%d (%s)\n", fam, errno,
		       strerror(errno));
		return 0;
	}
	close((int)r);
	printf("socket(%s): ok\n", fam);
	return 0;
}
