/* SPDX-License-Identifier: MIT */
/*
 * mkpolbin: crafts .polbin files for the leak suite, independently of polc,
 * so the stub can be tested on artifacts polc would never write.
 *
 *   mkpolbin build OUT [--name N | --no-meta] [--sc-default ACT]
 *                      [--sc NR=ACT]... [--env pass:NAME | set:NAME=VALUE |
 *                       secret:NAME=SRC:DEST]... [--raw TYPE:FLAGS:HEX]...
 *       ACT is allow, kill, log, trap or errno:N. With any --sc or
 *       --sc-default, a SECCOMP section is written: arch check (kill),
 *       x32 check (kill), then one comparison per --sc.
 *   mkpolbin add IN OUT TYPE FLAGS [HEX]   IN plus one more section
 *   mkpolbin flip IN OUT OFFSET            xor one byte (OFFSET < 0: from end)
 *   mkpolbin seccomp-of IN OUT             the SECCOMP payload, raw
 *   mkpolbin mutate IN OUT SEED N          N random bytes changed after the
 *                                          header, then the digest redone:
 *                                          hostile input that passes the
 *                                          container's checksum
 */
#include "polbin.h"
#include "polbin_write.h"
#include "sections.h"
#include "sha256.h"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RULES 64

static void fail(const char *msg, const char *arg)
{
	fprintf(stderr, "mkpolbin: %s%s%s\n", msg, arg ? ": " : "",
		arg ? arg : "");
	exit(2);
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = malloc(POLBIN_MAX_SIZE + 1);

	if (!f || !buf)
		fail("cannot read", path);
	*len = fread(buf, 1, POLBIN_MAX_SIZE + 1, f);
	fclose(f);
	return buf;
}

static void spit(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0)
		fail("cannot write", path);
}

static uint32_t action(const char *s)
{
	if (strcmp(s, "allow") == 0)
		return SECCOMP_RET_ALLOW;
	if (strcmp(s, "kill") == 0)
		return SECCOMP_RET_KILL_PROCESS;
	if (strcmp(s, "log") == 0)
		return SECCOMP_RET_LOG;
	if (strcmp(s, "trap") == 0)
		return SECCOMP_RET_TRAP;
	if (strncmp(s, "errno:", 6) == 0)
		return SECCOMP_RET_ERRNO | (atoi(s + 6) & SECCOMP_RET_DATA);
	fail("unknown action", s);
	return 0;
}

static void put_insn(uint8_t *p, uint16_t code, uint8_t jt, uint8_t jf,
		     uint32_t k)
{
	p[0] = (uint8_t)code;
	p[1] = (uint8_t)(code >> 8);
	p[2] = jt;
	p[3] = jf;
	p[4] = (uint8_t)k;
	p[5] = (uint8_t)(k >> 8);
	p[6] = (uint8_t)(k >> 16);
	p[7] = (uint8_t)(k >> 24);
}

static size_t gen_filter(uint8_t *out, uint32_t def, int n, const uint32_t *nr,
			 const uint32_t *act)
{
	size_t i = 0;
	int r;

	put_insn(out + 8 * i++, BPF_LD | BPF_W | BPF_ABS, 0, 0,
		 offsetof(struct seccomp_data, arch));
	put_insn(out + 8 * i++, BPF_JMP | BPF_JEQ | BPF_K, 1, 0,
		 AUDIT_ARCH_X86_64);
	put_insn(out + 8 * i++, BPF_RET | BPF_K, 0, 0,
		 SECCOMP_RET_KILL_PROCESS);
	put_insn(out + 8 * i++, BPF_LD | BPF_W | BPF_ABS, 0, 0,
		 offsetof(struct seccomp_data, nr));
	put_insn(out + 8 * i++, BPF_JMP | BPF_JGE | BPF_K, 0, 1, 0x40000000);
	put_insn(out + 8 * i++, BPF_RET | BPF_K, 0, 0,
		 SECCOMP_RET_KILL_PROCESS);
	for (r = 0; r < n; r++) {
		put_insn(out + 8 * i++, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, nr[r]);
		put_insn(out + 8 * i++, BPF_RET | BPF_K, 0, 0, act[r]);
	}
	put_insn(out + 8 * i++, BPF_RET | BPF_K, 0, 0, def);
	return 8 * i;
}

static size_t unhex(const char *hex, uint8_t *out, size_t max)
{
	size_t n = 0;
	unsigned int b;

	while (hex[0] && hex[1] && n < max && sscanf(hex, "%2x", &b) == 1) {
		out[n++] = (uint8_t)b;
		hex += 2;
	}
	return n;
}

static size_t env_entry(uint8_t *p, uint8_t kind, const char *name, size_t nl,
			const char *val, size_t vl, const char *dest, size_t dl)
{
	p[0] = kind;
	p[1] = 0;
	p[2] = (uint8_t)nl;
	p[3] = (uint8_t)(nl >> 8);
	p[4] = (uint8_t)vl;
	p[5] = (uint8_t)(vl >> 8);
	p[6] = (uint8_t)dl;
	p[7] = (uint8_t)(dl >> 8);
	memcpy(p + 8, name, nl);
	memcpy(p + 8 + nl, val, vl);
	memcpy(p + 8 + nl + vl, dest, dl);
	return 8 + nl + vl + dl;
}

static size_t add_env(uint8_t *p, const char *spec)
{
	const char *eq, *colon;

	if (strncmp(spec, "pass:", 5) == 0)
		return env_entry(p, POLBIN_ENV_PASS, spec + 5, strlen(spec + 5),
				 "", 0, "", 0);
	if (strncmp(spec, "set:", 4) == 0 && (eq = strchr(spec, '=')))
		return env_entry(p, POLBIN_ENV_SET, spec + 4,
				 (size_t)(eq - spec - 4), eq + 1,
				 strlen(eq + 1), "", 0);
	if (strncmp(spec, "secret:", 7) == 0 && (eq = strchr(spec, '=')) &&
	    (colon = strchr(eq, ':')))
		return env_entry(p, POLBIN_ENV_SECRET, spec + 7,
				 (size_t)(eq - spec - 7), eq + 1,
				 (size_t)(colon - eq - 1), colon + 1,
				 strlen(colon + 1));
	fail("bad --env", spec);
	return 0;
}

static void add_raw(struct polbin_writer *w, const char *spec)
{
	static uint8_t data[65536];
	unsigned int type, flags;
	const char *hex = strchr(spec, ':');

	if (sscanf(spec, "%u:%u", &type, &flags) != 2 || !hex)
		fail("bad --raw", spec);
	hex = strchr(hex + 1, ':');
	if (polbin_writer_add(w, type, flags, data,
			      hex ? unhex(hex + 1, data, sizeof(data)) : 0))
		fail("add", spec);
}

static void finish(struct polbin_writer *w, const char *out)
{
	uint8_t *buf;
	size_t len;

	if (polbin_writer_finish(w, &buf, &len))
		fail("finish", out);
	spit(out, buf, len);
}

static int cmd_build(int argc, char **argv)
{
	static uint8_t env[65536], meta[1024], filter[8 * 200];
	struct polbin_writer *w = polbin_writer_create(AUDIT_ARCH_X86_64);
	uint32_t nr[MAX_RULES], act[MAX_RULES], def = SECCOMP_RET_ALLOW;
	size_t envlen = 4, metalen = 0;
	int i, nrules = 0, seccomp = 0, nenv = 0, has_env = 0, has_meta = 1;
	const char *name = "crafted";

	for (i = 3; i < argc; i++) {
		if (strcmp(argv[i], "--name") == 0 && i + 1 < argc) {
			name = argv[++i];
		} else if (strcmp(argv[i], "--no-meta") == 0) {
			has_meta = 0;
		} else if (strcmp(argv[i], "--sc-default") == 0 &&
			   i + 1 < argc) {
			def = action(argv[++i]);
			seccomp = 1;
		} else if (strcmp(argv[i], "--sc") == 0 && i + 1 < argc &&
			   nrules < MAX_RULES) {
			char *eq = strchr(argv[++i], '=');

			if (!eq)
				fail("bad --sc", argv[i]);
			nr[nrules] = (uint32_t)atoi(argv[i]);
			act[nrules++] = action(eq + 1);
			seccomp = 1;
		} else if (strcmp(argv[i], "--env") == 0 && i + 1 < argc) {
			envlen += add_env(env + envlen, argv[++i]);
			nenv++;
			has_env = 1;
		} else if (strcmp(argv[i], "--raw") == 0 && i + 1 < argc) {
			add_raw(w, argv[++i]);
		} else {
			fail("bad argument", argv[i]);
		}
	}
	meta[0] = POLBIN_META_NAME;
	meta[1] = 0;
	meta[2] = (uint8_t)strlen(name);
	meta[3] = 0;
	memcpy(meta + 4, name, strlen(name));
	metalen = 4 + strlen(name);
	if (has_meta && polbin_writer_add(w, POLBIN_SEC_META, 0, meta, metalen))
		fail("add meta", NULL);
	if (seccomp &&
	    polbin_writer_add(w, POLBIN_SEC_SECCOMP, POLBIN_F_CRITICAL, filter,
			      gen_filter(filter, def, nrules, nr, act)))
		fail("add seccomp", NULL);
	env[0] = (uint8_t)nenv;
	if (has_env && polbin_writer_add(w, POLBIN_SEC_ENV, POLBIN_F_CRITICAL,
					 env, envlen))
		fail("add env", NULL);
	finish(w, argv[2]);
	return 0;
}

static void load(const char *path, struct polbin *pb, uint8_t **buf)
{
	uint32_t known[256];
	char err[256];
	size_t len;
	int i;

	for (i = 0; i < 255; i++)
		known[i] = (uint32_t)i + 1;
	known[255] = 0;
	*buf = slurp(path, &len);
	if (polbin_parse(*buf, len, known, pb, err, sizeof(err)))
		fail(err, path);
}

static int cmd_add(int argc, char **argv)
{
	static uint8_t data[65536];
	struct polbin pb;
	struct polbin_writer *w;
	uint8_t *buf;
	uint32_t i;

	if (argc < 6)
		fail("usage: add IN OUT TYPE FLAGS [HEX]", NULL);
	load(argv[2], &pb, &buf);
	w = polbin_writer_create(pb.arch);
	for (i = 0; i < pb.nsections; i++)
		if (polbin_writer_add(w, pb.sections[i].type,
				      pb.sections[i].flags, pb.sections[i].data,
				      pb.sections[i].len))
			fail("add", NULL);
	if (polbin_writer_add(
		w, (uint32_t)atoi(argv[4]), (uint32_t)atoi(argv[5]), data,
		argc > 6 ? unhex(argv[6], data, sizeof(data)) : 0))
		fail("add", NULL);
	finish(w, argv[3]);
	return 0;
}

static int cmd_flip(int argc, char **argv)
{
	uint8_t *buf;
	size_t len;
	long off;

	if (argc < 5)
		fail("usage: flip IN OUT OFFSET", NULL);
	buf = slurp(argv[2], &len);
	off = atol(argv[4]);
	if (off < 0)
		off += (long)len;
	if (off < 0 || (size_t)off >= len)
		fail("offset out of range", argv[4]);
	buf[off] ^= 0x01;
	spit(argv[3], buf, len);
	return 0;
}

static int cmd_seccomp_of(int argc, char **argv)
{
	const struct polbin_section *s;
	struct polbin pb;
	uint8_t *buf;

	if (argc < 4)
		fail("usage: seccomp-of IN OUT", NULL);
	load(argv[2], &pb, &buf);
	s = polbin_find(&pb, POLBIN_SEC_SECCOMP);
	if (!s)
		fail("no seccomp section", argv[2]);
	spit(argv[3], s->data, s->len);
	return 0;
}

static int cmd_mutate(int argc, char **argv)
{
	unsigned long seed;
	uint8_t *buf;
	size_t len;
	int i, n;

	if (argc < 6)
		fail("usage: mutate IN OUT SEED N", NULL);
	buf = slurp(argv[2], &len);
	seed = strtoul(argv[4], NULL, 10);
	n = atoi(argv[5]);
	if (len <= POLBIN_HEADER_SIZE)
		fail("too short", argv[2]);
	srandom((unsigned int)seed);
	for (i = 0; i < n; i++) {
		size_t off = POLBIN_HEADER_SIZE +
			     (size_t)random() % (len - POLBIN_HEADER_SIZE);

		buf[off] = (uint8_t)random();
	}
	sha256(buf + POLBIN_HEADER_SIZE, len - POLBIN_HEADER_SIZE, buf + 32);
	spit(argv[3], buf, len);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "build") == 0)
		return cmd_build(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "add") == 0)
		return cmd_add(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "flip") == 0)
		return cmd_flip(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "seccomp-of") == 0)
		return cmd_seccomp_of(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "mutate") == 0)
		return cmd_mutate(argc, argv);
	fail("usage: mkpolbin build|add|flip|seccomp-of|mutate ...", NULL);
	return 2;
}
