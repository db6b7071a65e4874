/* SPDX-License-Identifier: MIT */
/*
 * Secrets: `secret NAME from file PATH [to DEST]` hands the content of PATH
 * to the box as the file DEST, never as a variable, an argument or a log
 * line. Only NAME appears in messages and in the run record; PATH never
 * does (it is bound from the caller's variables and may itself say more
 * than the caller wants a record to keep).
 *
 * In the parent, before the clone (secrets_prepare):
 *   - PATH and DEST are bound (${VAR}); DEST must be absolute, in normal
 *     form, inside a folder other than /;
 *   - PATH is opened O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK and
 *     must be a regular file of at most POLEXEC_MAX_SECRET bytes (all of
 *     them together at most POLEXEC_MAX_SECRETS);
 *   - the mount point is chosen: DEST's folder when it exists on the
 *     host (a real folder: no symlink on the way), else /run when that
 *     folder lies under /run (the default /run/secrets/NAME on a host
 *     without /run/secrets), else a refusal: polexec never hides a folder
 *     the policy did not name, and never writes to the host.
 *
 * In the child, in its own mount namespace (boxns.c), after its cgroups
 * and before anything else (secrets_child):
 *   - a tmpfs (mode 0700, owned by the box's uid, nosuid, nodev, noexec,
 *     size-limited to the secrets it holds) on each mount point;
 *   - the missing folders of each DEST inside it, mode 0700;
 *   - DEST itself, mode 0400, owned by the box's uid, filled by the kernel
 *     from the open source file (sendfile): the content never passes
 *     through polexec's memory, so there is no buffer to wipe;
 *   - then each tmpfs is made read-only.
 * The host sees nothing of it: the mounts are private to the box's mount
 * namespace, and what the tmpfs covers is hidden in the box only.
 */
#include "secrets.h"
#include "box/boxns.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

struct secret_file {
	const char *name; /* the variable's name: the only thing we print */
	char *dest;	  /* absolute path in the box */
	char *dir;	  /* dest's folder */
	int fd;		  /* the source, open since secrets_prepare */
	uint64_t size;
	uint32_t mount; /* index in S.mounts of the tmpfs that holds it */
};

struct secret_mount {
	char *path;
	char opts[160];
	uint64_t bytes;
	uint32_t inodes;
	int covered; /* inside another planned mount: not mounted itself */
};

static struct {
	uint32_t nfiles, nmounts;
	struct secret_file files[POLEXEC_MAX_ENV];
	struct secret_mount mounts[POLEXEC_MAX_ENV];
} S;

/* A DEST the box can have: absolute, normal form, folder other than /. */
static void check_dest(const char *name, const char *d)
{
	const char *c = d;
	size_t n = strlen(d);

	if (d[0] != '/' || n >= PATH_MAX - 1)
		die("env: secret %s: its place in the box must be an absolute "
		    "path shorter than %d bytes",
		    name, PATH_MAX - 1);
	for (c = d; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			die("env: secret %s: its place in the box holds a "
			    "control character",
			    name);
	for (c = d; *c;) {
		const char *end = strchr(c + 1, '/');
		size_t len = end ? (size_t)(end - c - 1) : strlen(c + 1);

		if (len == 0 || (len == 1 && c[1] == '.') ||
		    (len == 2 && c[1] == '.' && c[2] == '.'))
			die("env: secret %s: its place in the box is not in "
			    "normal form (empty, '.' or '..' component)",
			    name);
		c = end ? end : c + 1 + len;
	}
	if (strrchr(d, '/') == d)
		die("env: secret %s: its place in the box needs a folder "
		    "other than /",
		    name);
}

/* "/a/b/c" -> "/a/b", in a fresh string. */
static char *dirname_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return xstrndup(path, (size_t)(slash - path));
}

/*
 * The deepest folder of `dir` that exists on the host, walking down from /
 * without following symlinks. A component that exists but is not a folder
 * is a refusal: mounting over or through a symlink would put the tmpfs
 * where the policy did not say.
 */
static char *deepest_existing(const char *name, const char *dir)
{
	char buf[PATH_MAX];
	size_t n = strlen(dir), i, have = 1;
	struct stat st;

	memcpy(buf, dir, n + 1);
	for (i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (lstat(buf, &st) < 0) {
			if (errno == ENOENT)
				break;
			die_with_error("env: secret %s: lstat %s", name, buf);
		}
		if (!S_ISDIR(st.st_mode))
			die("env: secret %s: %s is not a folder (a symlink or "
			    "a file); refusing to mount over or through it",
			    name, buf);
		have = i;
		buf[i] = dir[i];
	}
	return xstrndup(dir, have);
}

static int inside(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 && (path[n] == '/' || !path[n]);
}

/* The mount point that will hold `dir`: its own folder, or /run. */
static uint32_t plan_mount(const char *name, const char *dir)
{
	char *at = deepest_existing(name, dir);
	uint32_t i;

	if (strcmp(at, dir) != 0) {
		if (strcmp(at, "/run") != 0 || !inside(dir, "/run"))
			die("env: secret %s: the folder %s does not exist on "
			    "this host, and polexec would have to hide %s in "
			    "the box to make it; create the folder, or put the "
			    "secret under /run or an existing folder",
			    name, dir, at);
	}
	for (i = 0; i < S.nmounts; i++)
		if (strcmp(S.mounts[i].path, at) == 0) {
			free(at);
			return i;
		}
	S.mounts[S.nmounts].path = at;
	return S.nmounts++;
}

const char *secrets_folder_why(const char *dest, char *buf, size_t len)
{
	char dir[PATH_MAX], at[PATH_MAX];
	const char *slash = strrchr(dest, '/');
	size_t n = slash ? (size_t)(slash - dest) : 0, i, have = 1;
	struct stat st;

	if (!slash || n >= sizeof(dir))
		return NULL;
	memcpy(dir, dest, n);
	dir[n] = '\0';
	memcpy(at, dir, n + 1);
	/* as deepest_existing() walks it, without dying */
	for (i = 1; i <= n; i++) {
		if (at[i] != '/' && at[i] != '\0')
			continue;
		at[i] = '\0';
		if (lstat(at, &st) < 0)
			break;
		if (!S_ISDIR(st.st_mode)) {
			snprintf(buf, len,
				 "%s is not a folder (a symlink or a file); "
				 "polexec refuses to mount over or through it",
				 at);
			return buf;
		}
		have = i;
		at[i] = dir[i];
	}
	at[have] = '\0';
	if (strcmp(at, dir) != 0 &&
	    (strcmp(at, "/run") != 0 || !inside(dir, "/run"))) {
		snprintf(
		    buf, len,
		    "the folder %s does not exist on this host, and "
		    "polexec would have to hide %s in the box to make it; "
		    "create the folder, or put the secret under /run or an "
		    "existing folder",
		    dir, at);
		return buf;
	}
	return NULL;
}

/* Opens and checks a secret's source; the content is not read here. */
static void open_source(struct secret_file *f, const char *src)
{
	struct stat st;

	f->fd = open(src,
		     O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (f->fd < 0) {
		if (errno == ELOOP)
			die("env: secret %s: its source file is a symlink; "
			    "polexec opens secrets without following "
			    "symlinks",
			    f->name);
		die_with_error("env: secret %s: cannot open its source file",
			       f->name);
	}
	if (fstat(f->fd, &st) < 0)
		die_with_error("env: secret %s: fstat of its source file",
			       f->name);
	if (!S_ISREG(st.st_mode))
		die("env: secret %s: its source is not a regular file",
		    f->name);
	if ((uint64_t)st.st_size > POLEXEC_MAX_SECRET)
		die("env: secret %s: its source file holds %lld bytes, the "
		    "limit is %d",
		    f->name, (long long)st.st_size, POLEXEC_MAX_SECRET);
	f->size = (uint64_t)st.st_size;
}

void secrets_prepare(const struct policy *p, const struct vars *vars)
{
	uint64_t total = 0;
	uint32_t i, j;

	for (i = 0; i < p->nenv; i++) {
		const struct env_entry *e = &p->env[i];
		struct secret_file *f = &S.files[S.nfiles];
		char *src;

		if (e->kind != ENV_SECRET)
			continue;
		f->name = e->name;
		src = vars_bind(vars, "", e->value, "", e->name);
		f->dest = vars_bind(vars, "", e->dest, "", e->name);
		check_dest(f->name, f->dest);
		for (j = 0; j < S.nfiles; j++)
			if (strcmp(S.files[j].dest, f->dest) == 0 ||
			    inside(f->dest, S.files[j].dest) ||
			    inside(S.files[j].dest, f->dest))
				die("env: secrets %s and %s: one's place in "
				    "the box is the other's or inside it",
				    S.files[j].name, f->name);
		open_source(f, src);
		free(src);
		total += f->size;
		if (total > POLEXEC_MAX_SECRETS)
			die("env: the secrets hold more than %d bytes together",
			    POLEXEC_MAX_SECRETS);
		f->dir = dirname_of(f->dest);
		f->mount = plan_mount(f->name, f->dir);
		S.nfiles++;
	}
	if (!S.nfiles)
		return;
	/*
	 * A mount point inside another one (paths are unique) is only a
	 * folder of the outermost tmpfs that holds it.
	 */
	for (i = 0; i < S.nmounts; i++)
		for (j = 0; j < S.nmounts; j++)
			if (i != j &&
			    inside(S.mounts[j].path, S.mounts[i].path))
				S.mounts[j].covered = 1;
	for (i = 0; i < S.nfiles; i++) {
		struct secret_file *f = &S.files[i];

		for (j = 0; j < S.nmounts && S.mounts[f->mount].covered; j++)
			if (!S.mounts[j].covered &&
			    inside(S.mounts[f->mount].path, S.mounts[j].path))
				f->mount = j;
		S.mounts[f->mount].bytes += (f->size + 4095) / 4096 * 4096;
		S.mounts[f->mount].inodes += 1 + (uint32_t)strlen(f->dest);
	}
	for (i = 0; i < S.nmounts; i++) {
		struct secret_mount *m = &S.mounts[i];
		int n;

		if (m->covered)
			continue;
		/* One page to spare; inodes: at most one per path byte. */
		n = snprintf(m->opts, sizeof(m->opts),
			     "mode=0700,size=%llu,nr_inodes=%u,uid=%u,gid=%u",
			     (unsigned long long)(m->bytes + 4096),
			     m->inodes + 8, boxns_uid(), boxns_gid());
		if (n < 0 || (size_t)n >= sizeof(m->opts))
			die("env: tmpfs options too long");
	}
	boxns_want(BOXNS_MOUNT);
	if (boxns_wanted(BOXNS_USER) && !boxns_userns_available())
		die("env: secret %s: the box needs a mount namespace of its "
		    "own, and no user namespace for it can be made here: %s",
		    S.files[0].name, boxns_userns_why());
}

/* The folders of f->dir below its tmpfs, mode 0700. No allocation. */
static void make_dirs(const struct secret_file *f)
{
	char buf[PATH_MAX];
	size_t start = strlen(S.mounts[f->mount].path), n = strlen(f->dir), i;

	memcpy(buf, f->dir, n + 1);
	for (i = start + 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0700) < 0 && errno != EEXIST)
			die_with_error("child: secret %s: mkdir %s", f->name,
				       buf);
		buf[i] = f->dir[i];
	}
}

/* The kernel copies the source into DEST; read/write is the fallback. */
static void copy_secret(const struct secret_file *f, int out)
{
	uint64_t done = 0;
	char buf[4096];
	off_t off = 0;

	while (done < f->size) {
		ssize_t n = sendfile(out, f->fd, &off, f->size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EINVAL || errno == ENOSYS))
			break;
		if (n < 0)
			die_with_error("child: secret %s: copy", f->name);
		if (n == 0)
			die("child: secret %s: its source file shrank while "
			    "being read",
			    f->name);
		done += (uint64_t)n;
	}
	while (done < f->size) {
		ssize_t n = pread(f->fd, buf, sizeof(buf), (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("child: secret %s: its source file could not be "
			    "read to the end",
			    f->name);
		if (write(out, buf, (size_t)n) != n)
			die_with_error("child: secret %s: write", f->name);
		done += (uint64_t)n;
	}
	explicit_bzero(buf, sizeof(buf));
	if (pread(f->fd, buf, 1, (off_t)f->size) != 0) {
		explicit_bzero(buf, 1);
		die("child: secret %s: its source file grew while being read",
		    f->name);
	}
}

/*
 * After it: each secret is a read-only file of the box's uid, mode 0400,
 * in a read-only tmpfs of mode 0700 private to the box's mount namespace.
 */
void secrets_child(void)
{
	uint32_t i;

	for (i = 0; i < S.nmounts; i++)
		if (!S.mounts[i].covered &&
		    mount("tmpfs", S.mounts[i].path, "tmpfs",
			  MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  S.mounts[i].opts) < 0)
			die_with_error("child: mount tmpfs on %s",
				       S.mounts[i].path);
	for (i = 0; i < S.nfiles; i++) {
		const struct secret_file *f = &S.files[i];
		int out;

		make_dirs(f);
		out = open(f->dest,
			   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			   0400);
		if (out < 0)
			die_with_error("child: secret %s: create %s", f->name,
				       f->dest);
		/* Root making it for a box of another uid (user.c). */
		if (fchown(out, boxns_uid(), boxns_gid()) < 0)
			die_with_error("child: secret %s: chown", f->name);
		copy_secret(f, out);
		if (close(out) < 0)
			die_with_error("child: secret %s: close", f->name);
	}
	for (i = 0; i < S.nmounts; i++)
		if (!S.mounts[i].covered &&
		    mount(NULL, S.mounts[i].path, NULL,
			  MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID |
			      MS_NODEV | MS_NOEXEC,
			  NULL) < 0)
			die_with_error("child: remount %s read-only",
				       S.mounts[i].path);
}

const char *secrets_mount_point(uint32_t i)
{
	for (; i < S.nmounts; i++)
		if (!S.mounts[i].covered)
			return S.mounts[i].path;
	return NULL;
}

void secrets_child_allow(const struct ll_run *ll)
{
	uint32_t i;

	for (i = 0; i < S.nfiles; i++)
		landlock_allow_read(ll, S.files[i].dest);
}

/* `"secrets":["NAME",...],` or nothing; names are identifiers. */
void secrets_record(struct text *t)
{
	uint32_t i;

	if (!S.nfiles)
		return;
	text_add(t, "\"secrets\":[");
	for (i = 0; i < S.nfiles; i++)
		text_add(t, "%s\"%s\"", i ? "," : "", S.files[i].name);
	text_add(t, "],\n");
}
