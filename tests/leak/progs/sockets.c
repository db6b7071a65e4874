/* SPDX-License-Identifier: MIT */
/*
 * sockets unix|packet|inet|packet-hi: one socket() call, printed as
 * "socket(FAMILY): ok" or "socket(FAMILY): errno=N (TEXT)". No packet is
 * sent or received: the packet socket has protocol 0, which receives
 * nothing, and it is closed at once.
 *
 * packet-hi passes AF_PACKET with garbage in the upper 32 bits of the
 * register. The kernel reads `int family`, so it still makes an AF_PACKET
 * socket; a filter that compared all 64 bits would let it through.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *fam = argc > 1 ? argv[1] : "";
	long domain, type = SOCK_DGRAM | SOCK_CLOEXEC, r;

	if (strcmp(fam, "unix") == 0)
		domain = AF_UNIX;
	else if (strcmp(fam, "inet") == 0)
		domain = AF_INET;
	else if (strcmp(fam, "packet") == 0)
		domain = AF_PACKET;
	else if (strcmp(fam, "packet-hi") == 0)
		domain = (long)AF_PACKET | (1L << 32);
	else {
		fprintf(stderr, "sockets: unknown family %s\n", fam);
		return 2;
	}
	r = syscall(SYS_socket, domain, type, 0L);
	if (r < 0) {
		printf("socket(%s): errno=%d (%s)\n", fam, errno,
		       strerror(errno));
		return 0;
	}
	close((int)r);
	printf("socket(%s): ok\n", fam);
	return 0;
}
