/* SPDX-License-Identifier: MIT */
/*
 * Paths read from the box, for the record (docs/OBSERVE.md). A path
 * argument is read from the calling thread's memory (process_vm_readv),
 * made absolute against its cwd or dirfd (/proc/TID/cwd, /proc/TID/fd/N)
 * and normalized by its text, after which the notification must still be
 * valid (the thread is still the one waiting). What is read is what the
 * call named at that moment: another thread may change the memory after
 * the read, and a path can be stale or a symlink by the time the kernel
 * resolves it. So these are attempts, never outcomes, and nothing here
 * decides anything: the answer to the call is the decision program's.
 *
 * Learn mode has no Landlock (it cannot allow and record), so each call a
 * Landlock rule would judge is notified, and obs_learn_fs() compares the
 * rights the call needs with the rights the policy's rules grant on the
 * path and its folders, as Landlock does, on the bound rule paths; the
 * differences are recorded for `polc suggest`. That comparison works on
 * text: symlinks and bind mounts are not followed (docs/OBSERVE.md).
 */
#include "observe.h"
#include "lib/kernel.h"
#include "sha256.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* A NUL-terminated string at addr in the thread's memory, page by page. */
static int read_str(pid_t pid, uint64_t addr, char *buf, size_t len)
{
	size_t got = 0;

	while (got + 1 < len) {
		size_t chunk = 4096 - (size_t)((addr + got) & 4095);
		struct iovec l, r;
		long n;

		if (chunk > len - 1 - got)
			chunk = len - 1 - got;
		l.iov_base = buf + got;
		l.iov_len = chunk;
		r.iov_base = (void *)(uintptr_t)(addr + got);
		r.iov_len = chunk;
		n = obs_sys(__NR_process_vm_readv, pid, (long)&l, 1, (long)&r,
			    1, 0);
		if (n <= 0)
			return -1;
		if (memchr(buf + got, 0, (size_t)n))
			return 0;
		got += (size_t)n;
	}
	return -1;
}

/* readlink of /proc/TID/WHAT into buf (NUL-terminated). */
static int proc_link(pid_t pid, const char *what, char *buf, size_t len)
{
	char link[64];
	long n;

	snprintf(link, sizeof(link), "/proc/%d/%s", (int)pid, what);
	n = obs_sys(__NR_readlinkat, AT_FDCWD, (long)link, (long)buf,
		    (long)len - 1, 0, 0);
	if (n <= 0 || buf[0] != '/')
		return -1;
	buf[n] = '\0';
	return 0;
}

/* Removes ".", "..", doubled and trailing slashes, by the text alone. */
static void normalize(char *p)
{
	char *w = p, *r = p;

	while (*r) {
		char *end;
		size_t n;

		while (*r == '/')
			r++;
		end = strchr(r, '/');
		n = end ? (size_t)(end - r) : strlen(r);
		if (n == 0)
			break;
		if (n == 2 && r[0] == '.' && r[1] == '.') {
			while (w > p && *--w != '/')
				;
		} else if (!(n == 1 && r[0] == '.')) {
			*w++ = '/';
			memmove(w, r, n);
			w += n;
		}
		r += n;
	}
	if (w == p)
		*w++ = '/';
	*w = '\0';
}

int obs_path(const struct seccomp_notif *n, int arg, int dirfd_arg, int fd_arg,
	     char *out, size_t len)
{
	char raw[4096], base[4096], what[32];
	int dirfd;

	if (fd_arg >= 0) {
		snprintf(what, sizeof(what), "fd/%d",
			 (int)(uint32_t)n->data.args[fd_arg]);
		if (proc_link((pid_t)n->pid, what, out, len))
			return -1;
		return supervise_valid(n->id) ? 0 : -1;
	}
	if (read_str((pid_t)n->pid, n->data.args[arg], raw, sizeof(raw)))
		return -1;
	if (raw[0] == '/') {
		snprintf(out, len, "%s", raw);
	} else {
		dirfd = dirfd_arg >= 0 ? (int)(uint32_t)n->data.args[dirfd_arg]
				       : AT_FDCWD;
		if (dirfd == AT_FDCWD)
			snprintf(what, sizeof(what), "cwd");
		else
			snprintf(what, sizeof(what), "fd/%d", dirfd);
		if (proc_link((pid_t)n->pid, what, base, sizeof(base)))
			return -1;
		snprintf(out, len, "%s/%s", base, raw);
	}
	normalize(out);
	return supervise_valid(n->id) ? 0 : -1;
}

/* Is `path` `dir` or inside it (by components)? */
static int under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return 1;
	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

void obs_shown(const char *abs, char *out, size_t len)
{
	uint8_t d[SHA256_LEN];
	char hex[2 * SHA256_LEN + 1];
	size_t n;

	if (obs.workspace && under(abs, obs.workspace)) {
		n = strlen(obs.workspace);
		n = n == 1 ? 0 : n;
		snprintf(out, len, ".%s", abs[n] ? abs + n : "");
		return;
	}
	sha256(abs, strlen(abs), d);
	sha256_hex(d, hex);
	snprintf(out, len, "sha256:%s", hex);
}

/* --- learn mode: what the fs rules would deny ---------------------------- */

#define R(x)	    (1ull << (x))
#define EXECUTE	    R(0)
#define WRITE_FILE  R(1)
#define READ_FILE   R(2)
#define READ_DIR    R(3)
#define REMOVE_DIR  R(4)
#define REMOVE_FILE R(5)
#define MAKE_CHAR   R(6)
#define MAKE_DIR    R(7)
#define MAKE_REG    R(8)
#define MAKE_SOCK   R(9)
#define MAKE_FIFO   R(10)
#define MAKE_BLOCK  R(11)
#define MAKE_SYM    R(12)
#define REFER	    R(13)
#define TRUNCATE    R(14)

/* The rights the policy's rules grant on path: those of every rule on it
 * or on a folder above it, as Landlock adds them up. */
static uint64_t granted(const char *path)
{
	const struct ll_spec *l = &obs.p->ll;
	uint64_t g = 0;
	uint32_t i;

	for (i = 0; i < l->nfs; i++)
		if (l->fs[i].bound && under(path, l->fs[i].bound))
			g |= l->fs[i].installed ? l->fs[i].installed
						: l->fs[i].access;
	return g;
}

/* Records what path lacks of `need` among the rights the policy handles. */
static void judge(const char *path, uint64_t need)
{
	uint64_t missing = need & obs.p->ll.handled_fs & ~granted(path);

	if (missing)
		obs_fs(path, missing, 1, "learn");
}

static void parent_of(const char *path, char *out, size_t len)
{
	char *slash;

	snprintf(out, len, "%s", path);
	slash = strrchr(out, '/');
	if (slash == out)
		out[1] = '\0';
	else if (slash)
		*slash = '\0';
}

/* Does path exist, and is it a folder, in the box's view? */
static int kind_of(pid_t pid, const char *path, int *is_dir)
{
	char p[4200];
	struct stat st;

	snprintf(p, sizeof(p), "/proc/%d/root%s", (int)pid, path);
	if (obs_sys(__NR_newfstatat, AT_FDCWD, (long)p, (long)&st, 0, 0, 0))
		return 0;
	*is_dir = S_ISDIR(st.st_mode);
	return 1;
}

/* An open's rights: the access mode, O_TRUNC, O_CREAT of a new file. A
 * path that does not exist needs nothing but its folder's make_reg. */
static void judge_open(pid_t pid, const char *path, uint64_t flags)
{
	char dir[4096];
	int is_dir = 0, exists = kind_of(pid, path, &is_dir);
	uint64_t need = 0;

	if (flags & O_PATH || (!exists && !(flags & O_CREAT)))
		return;
	if ((flags & O_ACCMODE) != O_WRONLY)
		need |= is_dir ? READ_DIR : READ_FILE;
	if ((flags & O_ACCMODE) != O_RDONLY)
		need |= WRITE_FILE;
	if (flags & O_TRUNC)
		need |= TRUNCATE;
	judge(path, need);
	if (!exists && flags & O_CREAT) {
		parent_of(path, dir, sizeof(dir));
		judge(dir, MAKE_REG);
	}
}

/* A call that makes or removes path: the right on its folder. */
static void judge_parent(const char *path, uint64_t need)
{
	char dir[4096];

	parent_of(path, dir, sizeof(dir));
	judge(dir, need);
}

static uint64_t make_right(uint64_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFCHR:
		return MAKE_CHAR;
	case S_IFBLK:
		return MAKE_BLOCK;
	case S_IFIFO:
		return MAKE_FIFO;
	case S_IFSOCK:
		return MAKE_SOCK;
	default:
		return MAKE_REG;
	}
}

/*
 * The calls Landlock judges by path: where their path is (and the dirfd
 * before it, or -1), and what they need. A table so that the stub stays
 * small; the rights follow the kernel's Landlock documentation.
 */
enum need {
	N_OPEN,
	N_CREAT,
	N_OPENAT2,
	N_EXEC,
	N_TRUNC,
	N_UNLINK,
	N_RMDIR,
	N_MKDIR,
	N_MKNOD,
	N_SYMLINK,
	N_LINK,
	N_RENAME
};

static const struct {
	char name[10];
	int8_t path, dir, need;
} fs_calls[] = {
    {"open", 0, -1, N_OPEN},	   {"openat", 1, 0, N_OPEN},
    {"creat", 0, -1, N_CREAT},	   {"openat2", 1, 0, N_OPENAT2},
    {"execve", 0, -1, N_EXEC},	   {"execveat", 1, 0, N_EXEC},
    {"truncate", 0, -1, N_TRUNC},  {"unlink", 0, -1, N_UNLINK},
    {"unlinkat", 1, 0, N_UNLINK},  {"rmdir", 0, -1, N_RMDIR},
    {"mkdir", 0, -1, N_MKDIR},	   {"mkdirat", 1, 0, N_MKDIR},
    {"mknod", 0, -1, N_MKNOD},	   {"mknodat", 1, 0, N_MKNOD},
    {"symlink", 1, -1, N_SYMLINK}, {"symlinkat", 2, 1, N_SYMLINK},
    {"link", 0, -1, N_LINK},	   {"linkat", 1, 0, N_LINK},
    {"rename", 0, -1, N_RENAME},   {"renameat", 1, 0, N_RENAME},
    {"renameat2", 1, 0, N_RENAME},
};

/* link and rename: the source's folder loses, the target's gains. */
static void judge_move(const struct seccomp_notif *n, int src, int dir, int ren,
		       const char *p1)
{
	char p2[4096], d1[4096], d2[4096];
	int is_dir = 0;

	if (obs_path(n, src + (dir < 0 ? 1 : 2), dir < 0 ? -1 : dir + 2, -1, p2,
		     sizeof(p2)))
		return;
	kind_of((pid_t)n->pid, p1, &is_dir);
	parent_of(p1, d1, sizeof(d1));
	parent_of(p2, d2, sizeof(d2));
	if (ren)
		judge(d1, is_dir ? REMOVE_DIR : REMOVE_FILE);
	judge(d2, is_dir ? MAKE_DIR : MAKE_REG);
	if (strcmp(d1, d2)) {
		judge(d1, REFER);
		judge(d2, REFER);
	}
}

void obs_learn_fs(const struct seccomp_notif *n)
{
	const struct obs_call *c;
	const __u64 *a = n->data.args;
	uint64_t flags = 0;
	char p1[4096];
	size_t i;
	int k, is_dir;

	if (n->data.arch != POLEXEC_AUDIT_ARCH || n->data.nr < 0 ||
	    n->data.nr >= OBS_MAX_NR || !(c = obs.o->call[n->data.nr]) ||
	    !obs.p->ll.present)
		return;
	for (i = 0; i < sizeof(fs_calls) / sizeof(fs_calls[0]); i++)
		if (!strcmp(fs_calls[i].name, c->name))
			break;
	if (i == sizeof(fs_calls) / sizeof(fs_calls[0]) ||
	    obs_path(n, fs_calls[i].path, fs_calls[i].dir, -1, p1, sizeof(p1)))
		return;
	k = fs_calls[i].path;
	/* Nothing to grant on what is not there: the call fails with
	 * ENOENT under Landlock too (a PATH search's execve, a probe). */
	if (fs_calls[i].need >= N_EXEC && fs_calls[i].need <= N_RMDIR &&
	    !kind_of((pid_t)n->pid, p1, &is_dir))
		return;
	switch (fs_calls[i].need) {
	case N_OPEN:
		judge_open((pid_t)n->pid, p1, a[k + 1]);
		break;
	case N_CREAT:
		judge_open((pid_t)n->pid, p1, O_CREAT | O_WRONLY | O_TRUNC);
		break;
	case N_OPENAT2: {
		struct iovec l = {&flags, 8}, r = {(void *)(uintptr_t)a[2], 8};

		if (obs_sys(__NR_process_vm_readv, n->pid, (long)&l, 1,
			    (long)&r, 1, 0) == 8)
			judge_open((pid_t)n->pid, p1, flags);
		break;
	}
	case N_EXEC:
		judge(p1, EXECUTE);
		break;
	case N_TRUNC:
		judge(p1, TRUNCATE);
		break;
	case N_UNLINK:
		judge_parent(p1, k && a[2] & AT_REMOVEDIR ? REMOVE_DIR
							  : REMOVE_FILE);
		break;
	case N_RMDIR:
		judge_parent(p1, REMOVE_DIR);
		break;
	case N_MKDIR:
		judge_parent(p1, MAKE_DIR);
		break;
	case N_MKNOD:
		judge_parent(p1, make_right(a[k + 1]));
		break;
	case N_SYMLINK:
		judge_parent(p1, MAKE_SYM);
		break;
	default:
		judge_move(n, k, fs_calls[i].dir, fs_calls[i].need == N_RENAME,
			   p1);
	}
}
