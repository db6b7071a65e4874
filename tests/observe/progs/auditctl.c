/* SPDX-License-Identifier: MIT */
/*
 * auditctl get | on | off: reads or sets the kernel's audit `enabled`
 * (AUDIT_GET, AUDIT_SET), for tests/observe as root only: the Landlock
 * test turns audit on around one run and back to what it was. Prints the
 * state ("enabled=N") after the change.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int request(int fd, int type, const void *data, size_t len)
{
	struct {
		struct nlmsghdr h;
		struct audit_status s;
	} req;
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};

	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = (unsigned)NLMSG_LENGTH(len);
	req.h.nlmsg_type = (unsigned short)type;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.h.nlmsg_seq = 1;
	memcpy(&req.s, data, len);
	return (int)sendto(fd, &req, req.h.nlmsg_len, 0, (struct sockaddr *)&sa,
			   sizeof(sa));
}

int main(int argc, char **argv)
{
	struct audit_status s;
	char buf[4096];
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT), i;

	if (fd < 0 || argc != 2) {
		perror("auditctl");
		return 2;
	}
	memset(&s, 0, sizeof(s));
	if (strcmp(argv[1], "get")) {
		s.mask = AUDIT_STATUS_ENABLED;
		s.enabled = !strcmp(argv[1], "on");
		if (request(fd, AUDIT_SET, &s, sizeof(s)) < 0) {
			perror("auditctl: AUDIT_SET");
			return 2;
		}
		recv(fd, buf, sizeof(buf), 0); /* the ack */
	}
	if (request(fd, AUDIT_GET, &s, 0) < 0) {
		perror("auditctl: AUDIT_GET");
		return 2;
	}
	for (i = 0; i < 4; i++) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h = (struct nlmsghdr *)buf;

		if (n <= 0)
			break;
		if (h->nlmsg_type == AUDIT_GET) {
			memcpy(&s, NLMSG_DATA(h), sizeof(s));
			printf("enabled=%u\n", s.enabled);
			return 0;
		}
	}
	fprintf(stderr, "auditctl: no status\n");
	return 2;
}
