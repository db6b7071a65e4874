/* SPDX-License-Identifier: MIT */
/*
 * What the decoder and the layers share about a policy: the names of
 * Landlock's rights and of the limits, by bit, and the form of a rule path.
 */
#include "policy.h"
#include "util.h"

#include <string.h>

const char *const ll_fs_names[17] = {
    "execute",	   "write_file",   "read_file", "read_dir", "remove_dir",
    "remove_file", "make_char",	   "make_dir",	"make_reg", "make_sock",
    "make_fifo",   "make_block",   "make_sym",	"refer",    "truncate",
    "ioctl_dev",   "connect_unix",
};
const char *const ll_net_names[2] = {"bind_tcp", "connect_tcp"};
const char *const ll_scope_names[2] = {"abstract_unix_socket", "signal"};
const char *const lim_name[POLBIN_LIM_COUNT] = {
    "memory", "pids", "nofile", "cpu", "wall", "fsize", "core", "grace",
};

/*
 * A rule path as polc writes it: "/", "~" or "${NAME}", then "/NAME"
 * components, none empty, "." or "..", no control character. The prover's
 * path model and the paths polexec opens are these strings.
 */
int ll_path_ok(const char *s)
{
	const char *end;

	if (*s == '~') {
		s++;
	} else if (s[0] == '$' && s[1] == '{') {
		end = strchr(s, '}');
		if (!end || !valid_identifier(s + 2, (size_t)(end - s - 2)))
			return 0;
		s = end + 1;
	} else if (s[0] == '/' && !s[1]) {
		return 1;
	} else if (*s != '/') {
		return 0;
	}
	while (*s) {
		size_t n;

		if (*s++ != '/')
			return 0;
		n = strcspn(s, "/");
		if (!n || (n == 1 && s[0] == '.') ||
		    (n == 2 && s[0] == '.' && s[1] == '.'))
			return 0;
		for (; n; n--, s++)
			if ((unsigned char)*s < 0x20 || *s == 0x7f)
				return 0;
	}
	return 1;
}
