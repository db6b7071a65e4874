/* SPDX-License-Identifier: MIT */
#include "diag.h"
#include "polbin.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SRC_MAX (1u << 20)

void diag_init(struct diag *d)
{
	memset(d, 0, sizeof(*d));
	d->max_errors = DIAG_MAX_ERRORS;
}

void diag_fini(struct diag *d)
{
	struct src_file *f, *next;
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->v[i].msg);
	free(d->v);
	for (f = d->files; f; f = next) {
		next = f->next;
		free(f->path);
		free(f->text);
		free(f);
	}
	memset(d, 0, sizeof(*d));
}

const struct src_file *diag_add_source(struct diag *d, const char *path,
				       const char *text, size_t len)
{
	struct src_file *f = calloc(1, sizeof(*f));

	if (!f || !(f->path = strdup(path)) || !(f->text = malloc(len + 1))) {
		if (f)
			free(f->path);
		free(f);
		d->oom = 1;
		d->errors++;
		return NULL;
	}
	memcpy(f->text, text, len);
	f->text[len] = '\0';
	f->len = len;
	f->seq = d->nfiles++;
	f->next = d->files;
	d->files = f;
	return f;
}

const struct src_file *diag_load_file(struct diag *d, const char *path,
				      struct loc from)
{
	const struct src_file *f = NULL;
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	int fd;

	/* O_NONBLOCK: a FIFO is refused below instead of hanging polc. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		diag_error(d, from, "cannot open %s: %s", path,
			   strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		diag_error(d, from, "%s: not a regular file", path);
		goto out;
	}
	if (st.st_size > (off_t)SRC_MAX) {
		diag_error(d, from, "%s: larger than %u bytes", path, SRC_MAX);
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		diag_error(d, from, "%s: out of memory", path);
		goto out;
	}
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			diag_error(d, from, "%s: read failed: %s", path,
				   r < 0 ? strerror(errno) : "short read");
			goto out;
		}
		got += (size_t)r;
	}
	if (memchr(buf, '\0', got)) {
		const char *nul = memchr(buf, '\0', got), *p;
		struct loc at = {NULL, 1, 1};

		/* Kept as a source, so the error can point at the byte. */
		at.file = diag_add_source(d, path, buf, got);
		for (p = buf; p < nul; p++) {
			at.col++;
			if (*p == '\n') {
				at.line++;
				at.col = 1;
			}
		}
		diag_error(d, at.file ? at : from, "NUL byte in a policy file");
		goto out;
	}
	f = diag_add_source(d, path, buf, got);
out:
	free(buf);
	close(fd);
	return f;
}

void diag_report(struct diag *d, enum diag_level level, struct loc loc,
		 const char *fmt, ...)
{
	struct diag_entry *e;
	va_list ap;
	char *msg;
	int n;

	if (level == DIAG_ERROR)
		d->errors++;
	else if (level == DIAG_WARNING)
		d->warnings++;
	if (level != DIAG_NOTE)
		d->dropping = level == DIAG_ERROR && d->max_errors > 0 &&
			      d->errors > d->max_errors;
	if (d->dropping) {
		if (level == DIAG_ERROR)
			d->dropped++;
		return;
	}
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 16;
		struct diag_entry *v = realloc(d->v, cap * sizeof(*v));

		if (!v) {
			d->oom = 1;
			return;
		}
		d->v = v;
		d->cap = cap;
	}
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0) {
		d->oom = 1;
		return;
	}
	e = &d->v[d->n++];
	e->level = level;
	e->loc = loc;
	e->msg = msg;
}

/* Text from the policy reaches a terminal: C0 and C1 controls, DEL and
 * bytes that are not UTF-8 print as '?', a byte each; tabs stay. */
static void put_clean(FILE *out, const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned char c = (unsigned char)s[i], seq[5] = {0};
		size_t len;

		memcpy(seq, s + i, n - i < 4 ? n - i : 4);
		len = polbin_utf8_len(seq);
		if (len > 1 ||
		    (len == 1 && (c == '\t' || (c >= 0x20 && c != 0x7f)))) {
			fwrite(s + i, 1, len, out);
			i += len;
			continue;
		}
		fputc('?', out);
		i++;
	}
}

static void quote_line(FILE *out, const struct loc *l)
{
	const char *t = l->file->text, *end = t + l->file->len, *p = t, *eol;
	int line = 1, i;

	while (line < l->line && p < end) {
		if (*p++ == '\n')
			line++;
	}
	if (line != l->line)
		return;
	eol = memchr(p, '\n', (size_t)(end - p));
	if (!eol)
		eol = end;
	fputs("    ", out);
	put_clean(out, p, (size_t)(eol - p));
	fputs("\n    ", out);
	/* Tabs are kept so the caret lines up under the same column. */
	for (i = 1; i < l->col && p + i - 1 < eol; i++)
		fputc(p[i - 1] == '\t' ? '\t' : ' ', out);
	fputs("^\n", out);
}

/* The length of the group at v[i]: the entry and the notes after it. */
static size_t group_len(const struct diag *d, size_t i)
{
	size_t n = 1;

	while (i + n < d->n && d->v[i + n].level == DIAG_NOTE)
		n++;
	return n;
}

static int same_entry(const struct diag_entry *a, const struct diag_entry *b)
{
	if (a->level != b->level || a->loc.line != b->loc.line ||
	    a->loc.col != b->loc.col || !a->loc.file != !b->loc.file)
		return 0;
	if (a->loc.file && strcmp(a->loc.file->path, b->loc.file->path))
		return 0;
	return !strcmp(a->msg, b->msg);
}

/* Was the group of n entries at v[i] printed before, at some v[j]? */
static int printed_before(const struct diag *d, size_t i, size_t n)
{
	size_t j, k, m;

	for (j = 0; j < i; j += m) {
		m = group_len(d, j);
		if (m != n)
			continue;
		for (k = 0; k < n && same_entry(&d->v[j + k], &d->v[i + k]);
		     k++)
			;
		if (k == n)
			return 1;
	}
	return 0;
}

static void print_all(const struct diag *d, FILE *out)
{
	static const char *const names[] = {"error", "warning", "note", "note"};
	size_t i, n, k;

	for (i = 0; i < d->n; i += n) {
		n = group_len(d, i);
		if (printed_before(d, i, n))
			continue;
		for (k = i; k < i + n; k++) {
			const struct diag_entry *e = &d->v[k];

			if (e->loc.file && e->loc.line > 0) {
				put_clean(out, e->loc.file->path,
					  strlen(e->loc.file->path));
				fprintf(out, ":%d:%d: ", e->loc.line,
					e->loc.col);
			} else if (e->loc.file) {
				put_clean(out, e->loc.file->path,
					  strlen(e->loc.file->path));
				fputs(": ", out);
			} else {
				fputs("polc: ", out);
			}
			fprintf(out, "%s: ", names[e->level]);
			put_clean(out, e->msg, strlen(e->msg));
			fputc('\n', out);
			if (e->loc.file && e->loc.line > 0)
				quote_line(out, &e->loc);
		}
	}
	if (d->dropped)
		fprintf(out,
			"polc: %d more errors not shown (--max-errors N shows "
			"more, 0 all)\n",
			d->dropped);
	if (d->oom)
		fputs("polc: error: out of memory while reporting\n", out);
}

/* Composed in memory and written once: stderr is unbuffered. */
void diag_print(const struct diag *d, FILE *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m) {
		print_all(d, out);
		return;
	}
	print_all(d, m);
	if (fclose(m) == 0)
		fwrite(buf, 1, len, out);
	else
		print_all(d, out);
	free(buf);
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[64];

	if (la >= 63 || lb >= 63)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t prev = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cur = row[j];
			size_t sub = prev + (a[i - 1] != b[j - 1]);
			size_t del = row[j] + 1, ins = row[j - 1] + 1;

			row[j] = sub < del ? (sub < ins ? sub : ins)
					   : (del < ins ? del : ins);
			prev = cur;
		}
	}
	return row[lb];
}

const char *diag_closest(const char *word, const char *const *candidates,
			 size_t n)
{
	size_t best = (size_t)-1, i, limit;
	const char *pick = NULL;

	/* One edit for words of up to three letters, else two, or a third
	 * of a long word. */
	limit = strlen(word) <= 3 ? 1 : strlen(word) / 3;
	if (strlen(word) > 3 && limit < 2)
		limit = 2;
	for (i = 0; i < n; i++) {
		size_t dist;

		if (!candidates[i])
			continue;
		dist = edit_distance(word, candidates[i]);
		if (dist <= limit && dist < best) {
			best = dist;
			pick = candidates[i];
		}
	}
	return pick;
}
