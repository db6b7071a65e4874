/* SPDX-License-Identifier: MIT */
/*
 * The second half of `polc doctor`: what a box gets here, tried, not read.
 * A feature the kernel has can still be refused to the box (a container's
 * seccomp profile without pivot_root, masked /proc paths, a missing
 * capability), so polc does not guess: it builds a small policy of its own
 * (the view under `fs best_effort`, `net none`, a memory and a pids cap),
 * and asks the polexec beside it (else the first on PATH) what that
 * artifact gets here: `polexec --doctor`, which takes each step in a
 * throwaway child (stub/box/trial.c) and makes and removes the box's
 * cgroups, as a run does. Its lines are polc doctor's, so the two never
 * disagree, and neither with the run (tests/containers checks all three).
 *
 * Everything is in a temporary folder of polc's own, removed at the end.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The box polc doctor asks about: each layer whose rung depends on the
 * host. */
static const char probe_policy[] =
    "# polc doctor's probe (compiler/cli/doctor_box.c)\n"
    "policy \"doctor\" {\n"
    "  fs best_effort {\n"
    "    rx /usr\n"
    "    tmpfs /tmp\n"
    "    dev\n"
    "    proc\n"
    "  }\n"
    "  net none\n"
    "  limits { memory 64MiB; pids 64 }\n"
    "}\n";

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return -1;
	if (fputs(text, f) < 0) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

/* polexec --doctor ARTIFACT, its output copied to out with an indent;
 * its exit status, or -1. */
static int run_doctor(FILE *out, const char *polexec, const char *artifact)
{
	int p[2], status;
	char line[2048];
	pid_t pid;
	FILE *in;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	fflush(out);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		if (dup2(p[1], STDOUT_FILENO) < 0 ||
		    dup2(p[1], STDERR_FILENO) < 0)
			_exit(127);
		execl(polexec, polexec, "--doctor", artifact, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	in = fdopen(p[0], "r");
	while (in && fgets(line, sizeof(line), in)) {
		/* its head names our temporary file: not worth a line */
		if (!strncmp(line, "what ", 5))
			continue;
		fprintf(out, "%s%s", line[0] == ' ' ? "" : "  ", line);
	}
	if (in)
		fclose(in);
	else
		close(p[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int doctor_box(FILE *out, const char *polexec)
{
	const char *tmp = getenv("TMPDIR");
	char dir[PATH_MAX], src[PATH_MAX + 16], bin[PATH_MAX + 16];
	static const char *const tmps[] = {NULL, "/tmp", "/dev/shm",
					   "/var/tmp"};
	const char *tried = "/tmp";
	struct build_opts o;
	int rc, e = 0;
	size_t i;

	fprintf(out,
		"what a box gets here (fs best_effort, net none, memory and "
		"pids caps), each step tried by %s --doctor\n",
		polexec ? polexec : "polexec");
	if (!polexec) {
		fprintf(out, "  %-16s %-8s %s\n", "box", "MISSING",
			"polexec is neither beside polc nor on PATH: the "
			"box's steps were not tried");
		return 1;
	}
	/* TMPDIR, else the first of these that takes a folder (a
	 * container's root may be read-only) */
	for (i = 0; i < sizeof(tmps) / sizeof(tmps[0]); i++) {
		const char *t = i ? tmps[i] : tmp;

		if (!t || t[0] != '/')
			continue;
		if (snprintf(dir, sizeof(dir), "%s/polc-doctor.XXXXXX", t) <
			(int)sizeof(dir) &&
		    mkdtemp(dir))
			break;
		e = errno;
		tried = t;
	}
	if (i == sizeof(tmps) / sizeof(tmps[0])) {
		fprintf(out, "  %-16s %-8s %s/polc-doctor.XXXXXX: %s\n", "box",
			"MISSING", tried, strerror(e));
		return 1;
	}
	snprintf(src, sizeof(src), "%s/doctor.pol", dir);
	snprintf(bin, sizeof(bin), "%s/doctor.polbin", dir);
	memset(&o, 0, sizeof(o));
	o.input = src;
	o.output = bin;
	o.max_errors = -1;
	if (write_file(src, probe_policy) < 0) {
		fprintf(out, "  %-16s %-8s %s: %s\n", "box", "MISSING", src,
			strerror(errno));
		rc = -1;
	} else if (build_policy(&o) != 0) {
		fprintf(out, "  %-16s %-8s %s\n", "box", "MISSING",
			"polc could not build its probe policy");
		rc = -1;
	} else {
		rc = run_doctor(out, polexec, bin);
		if (rc < 0 || rc > 1)
			fprintf(out, "  %-16s %-8s %s --doctor: exit %d\n",
				"box", "MISSING", polexec, rc);
	}
	unlink(bin);
	unlink(src);
	rmdir(dir);
	return rc == 0 ? 0 : 1;
}
