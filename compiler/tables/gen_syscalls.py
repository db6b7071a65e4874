#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate compiler/tables/syscalls_gen.c from a Linux source tree.

    compiler/tables/gen_syscalls.py KERNEL_TREE > compiler/tables/syscalls_gen.c
    make syscall-table KERNEL=/path/to/linux        (the same, via make)

The kernel's own tables are the source, nothing else:

  x86_64   arch/x86/entry/syscalls/syscall_64.tbl, ABIs "common" and "64"
           (the "x32" rows are the x32 ABI's, numbered with bit 30 set on
           the same entry point: they are not x86_64 syscalls)
  aarch64  scripts/syscall.tbl (the generic table arm64 uses since 6.11),
           ABIs "common" and "64" plus the ones arm64 opts into in
           arch/arm64/kernel/Makefile.syscalls (syscall_abis_64 += ...)

Every other table of the tree (i386, x32, arm, mips, powerpc, s390, ...,
every ABI of scripts/syscall.tbl, and arm's private __ARM_NR_* calls in
its uapi unistd.h) only contributes names: the names
that are syscalls somewhere but not on x86_64, with where, so that an
importer can tell "chown32: i386's" from a typo.

A row is "NR ABI NAME [ENTRY [COMPAT]]". A row without an entry point is
a number the kernel reserves for a name it does not implement (uselib,
create_module, ...): it is kept, since the name is the kernel's and a
policy may name it, and marked as such. The kernel version comes from the
tree's Makefile. The output is sorted by number per arch, with an index by
name for binary search, and is stable: the same tree gives the same bytes.
"""

import os
import re
import sys


def die(msg):
    sys.stderr.write("gen_syscalls: %s\n" % msg)
    sys.exit(2)


def read(tree, rel):
    path = os.path.join(tree, rel)
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        die("%s: %s" % (path, e.strerror))


def kernel_version(tree):
    mk = read(tree, "Makefile")
    parts = []
    for key in ("VERSION", "PATCHLEVEL", "SUBLEVEL"):
        m = re.search(r"^%s\s*=\s*(\d+)\s*$" % key, mk, re.M)
        if not m:
            die("Makefile: no %s" % key)
        parts.append(m.group(1))
    return ".".join(parts)


def rows(text, where):
    """(lineno, nr, abi, name, has_entry) for each row of a .tbl file."""
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        f = line.split()
        if len(f) < 3 or not f[0].isdigit():
            die("%s:%d: not a table row: %r" % (where, lineno, line))
        name = f[2]
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name) or len(name) > 39:
            die("%s:%d: unexpected name %r" % (where, lineno, name))
        yield lineno, int(f[0]), f[1], name, len(f) >= 4


def parse_tbl(text, abis, where):
    """{nr: (name, has_entry)} for the rows whose ABI is in abis."""
    by_nr = {}
    names = {}
    for lineno, nr, abi, name, entry in rows(text, where):
        if abi not in abis:
            continue
        if nr in by_nr:
            die("%s:%d: number %d twice" % (where, lineno, nr))
        if name in names:
            die("%s:%d: name %s twice" % (where, lineno, name))
        by_nr[nr] = (name, entry)
        names[name] = nr
    if not by_nr:
        die("%s: no rows for ABIs %s" % (where, sorted(abis)))
    return by_nr


# Tables that only contribute names elsewhere: (file, label, ABI filter);
# a label None takes the row's ABI as the label (scripts/syscall.tbl).
OTHER_TABLES = [
    ("arch/x86/entry/syscalls/syscall_32.tbl", "i386", None),
    ("arch/x86/entry/syscalls/syscall_64.tbl", "x32", {"x32"}),
    ("arch/alpha/kernel/syscalls/syscall.tbl", "alpha", None),
    ("arch/arm/tools/syscall.tbl", "arm", None),
    ("arch/m68k/kernel/syscalls/syscall.tbl", "m68k", None),
    ("arch/microblaze/kernel/syscalls/syscall.tbl", "microblaze", None),
    ("arch/mips/kernel/syscalls/syscall_n32.tbl", "mips", None),
    ("arch/mips/kernel/syscalls/syscall_n64.tbl", "mips", None),
    ("arch/mips/kernel/syscalls/syscall_o32.tbl", "mips", None),
    ("arch/parisc/kernel/syscalls/syscall.tbl", "parisc", None),
    ("arch/powerpc/kernel/syscalls/syscall.tbl", "powerpc", None),
    ("arch/s390/kernel/syscalls/syscall.tbl", "s390", None),
    ("arch/sh/kernel/syscalls/syscall.tbl", "sh", None),
    ("arch/sparc/kernel/syscalls/syscall.tbl", "sparc", None),
    ("arch/xtensa/kernel/syscalls/syscall.tbl", "xtensa", None),
    ("scripts/syscall.tbl", None, None),
]
GENERIC_ABI_LABELS = {"arc", "csky", "nios2", "or1k", "riscv"}
# arm's private syscalls are no table's rows: __ARM_NR_* in this header.
ARM_PRIVATE = "arch/arm/include/uapi/asm/unistd.h"


def other_names(tree, x86_names):
    """{name: sorted labels} for names some other table has."""
    where = {}
    for rel, label, abis in OTHER_TABLES:
        for _, _, abi, name, _ in rows(read(tree, rel), rel):
            if (abis is not None and abi not in abis) or name in x86_names:
                continue
            tag = label
            if tag is None:
                tag = abi if abi in GENERIC_ABI_LABELS else "generic"
            where.setdefault(name, set()).add(tag)
    for m in re.finditer(r"^#define\s+__ARM_NR_([a-z_][a-z0-9_]*)\s+\(__ARM_NR_BASE",
                         read(tree, ARM_PRIVATE), re.M):
        if m.group(1) not in x86_names:
            where.setdefault(m.group(1), set()).add("arm")
    return {n: sorted(t) for n, t in where.items()}


def arm64_abis(tree):
    mk = read(tree, "arch/arm64/kernel/Makefile.syscalls")
    abis = {"common", "64"}
    for m in re.finditer(r"^syscall_abis_64\s*\+?=\s*(.*)$", mk, re.M):
        abis.update(m.group(1).split())
    return abis


def emit(out, version, arches, others):
    w = out.write
    w("// SPDX-License-Identifier: MIT\n")
    w("/*\n")
    w(" * GENERATED by compiler/tables/gen_syscalls.py from the syscall "
      "tables of\n")
    w(" * Linux %s; do not edit. docs/SECCOMP.md says how to regenerate.\n"
      % version)
    w(" */\n")
    w('#include "tables_int.h"\n\n')
    w("/* clang-format off */\n")
    for ident, src, rows in arches:
        nrs = sorted(rows)
        w("\n/* %s: %s, %d numbers, 0..%d */\n"
          % (ident, src, len(nrs), nrs[-1]))
        w("static const struct syscall_entry %s_by_nr[] = {\n" % ident)
        for nr in nrs:
            name, entry = rows[nr]
            w('\t{"%s", %d, %d},\n' % (name, nr, 1 if entry else 0))
        w("};\n")
        order = sorted(range(len(nrs)), key=lambda i: rows[nrs[i]][0])
        w("static const unsigned short %s_by_name[] = {\n" % ident)
        for k in range(0, len(order), 12):
            w("\t" + ", ".join(str(i) for i in order[k:k + 12]) + ",\n")
        w("};\n")
    w("\nconst struct syscall_table syscall_tables[SYSCALL_ARCH_COUNT] = {\n")
    for ident, src, rows in arches:
        w("    [SYSCALL_ARCH_%s] = {\"%s\", \"%s\", %s_by_nr, %s_by_name,\n"
          % (ident.upper(), ident, src, ident, ident))
        w("\t\t\t\t sizeof(%s_by_nr) / sizeof(%s_by_nr[0])},\n"
          % (ident, ident))
    w("};\n\n")
    w("/* Names that are syscalls on other arches only, and where. */\n")
    w("const struct syscall_elsewhere syscall_elsewhere_names[] = {\n")
    for name in sorted(others):
        w('\t{"%s", "%s"},\n' % (name, " ".join(others[name])))
    w("};\n")
    w("const unsigned syscall_elsewhere_count =\n")
    w("    sizeof(syscall_elsewhere_names) / "
      "sizeof(syscall_elsewhere_names[0]);\n")
    w("/* clang-format on */\n\n")
    w('const char syscall_tables_kernel[] = "%s";\n' % version)


def main():
    if len(sys.argv) != 2:
        die("usage: gen_syscalls.py KERNEL_TREE > syscalls_gen.c")
    tree = sys.argv[1]
    x86 = "arch/x86/entry/syscalls/syscall_64.tbl"
    gen = "scripts/syscall.tbl"
    arches = [
        ("x86_64", x86, parse_tbl(read(tree, x86), {"common", "64"}, x86)),
        ("aarch64", gen, parse_tbl(read(tree, gen), arm64_abis(tree), gen)),
    ]
    x86_names = {name for name, _ in arches[0][2].values()}
    emit(sys.stdout, kernel_version(tree), arches,
         other_names(tree, x86_names))


if __name__ == "__main__":
    main()
