#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Where polexec's bytes go (issue 15): the stub built as `make` builds it,
# but unstripped and one object per source, linked with a map. Prints the
# stripped size, each object's share (the stub's files and the musl members
# the link pulled in, from the map; .bss is left out, it takes no file
# space) and the largest symbols (nm --size-sort). Target: at most 163,840
# bytes stripped, static, with every layer.
#
# Usage: B=build POLEXEC_SRCS="..." POLEXEC_CFLAGS="..." polexec_size.sh
# (make bench-size passes them). Output in $B/bench/size/.
set -eu

B=${B:-build}
OUT=$B/bench/size
MUSLCC=${MUSLCC:-musl-gcc}
rm -rf "$OUT"
mkdir -p "$OUT/obj"
# The static build's flags, without -s: symbols stay for nm.
CFLAGS=$(printf '%s\n' "$POLEXEC_CFLAGS" | sed 's/ -s / /')
objs=
for src in $POLEXEC_SRCS; do
	o=$OUT/obj/$(printf '%s' "$src" | tr / _ | sed 's/\.c$/.o/')
	eval "$MUSLCC $CFLAGS -c $src -o $o"
	objs="$objs $o"
done
eval "$MUSLCC $CFLAGS $objs -o $OUT/polexec -Wl,-Map=$OUT/polexec.map"
strip -o "$OUT/polexec.stripped" "$OUT/polexec"

echo "polexec: $(stat -c %s "$OUT/polexec.stripped") bytes stripped"
size "$OUT/polexec" | tail -n 1 |
	awk '{ printf "text %s, data %s, bss %s (bss takes no file space)\n",
	    $1, $2, $3 }'
echo
echo "bytes per object (file sections of the map, largest first; all of"
echo "them in $OUT/objects.txt):"
python3 - "$OUT/polexec.map" >"$OUT/objects.txt" <<'PY'
import collections, re, sys

text = open(sys.argv[1]).read().split("Linker script and memory map")[1]
per = collections.Counter()
out = None
lines = text.splitlines()
for i, line in enumerate(lines):
    m = re.match(r"^(\.[\w.]+)", line)
    if m:
        out = m.group(1)
    m = re.match(r"^ (\.\S+|COMMON)(\s+0x\w+\s+0x(\w+)\s+(\S+))?\s*$", line)
    if not m or out in (None, ".bss", ".tbss") or out.startswith(".debug"):
        continue
    if out == ".comment":
        continue
    if m.group(2):
        size, path = int(m.group(3), 16), m.group(4)
    else:  # a long name: the address, size and file on the next line
        m2 = re.match(r"^\s+0x\w+\s+0x(\w+)\s+(\S+)", lines[i + 1])
        if not m2:
            continue
        size, path = int(m2.group(1), 16), m2.group(2)
    lib = re.search(r"libc\.a\((.*)\)", path)
    per["musl " + lib.group(1) if lib else path.split("/")[-1]] += size
print("%7d  all" % sum(per.values()))
for name, size in per.most_common():
    print("%7d  %s" % (size, name))
PY
awk '$1 >= 512' "$OUT/objects.txt"
echo
echo "largest symbols:"
nm --size-sort -S -t d "$OUT/polexec" | awk '$3 !~ /[bB]/' | tail -n 30 |
	sort -k2 -rn | awk '{ printf "%7d  %s %s\n", $2, $3, $4 }' |
	tee "$OUT/symbols.txt"
