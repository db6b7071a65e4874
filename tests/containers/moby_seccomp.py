#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Docker's default seccomp profile (moby/profiles seccomp/default.json)
# turned into the runtime spec's linux.seccomp as moby's daemon turns it
# (profiles/seccomp/seccomp_linux.go, setupSeccomp), for one container:
#
#   - architectures: the archMap entry of the native arch and its
#     subArchitectures;
#   - each syscalls entry kept or dropped: includes.arches must hold the
#     arch (Go's names: amd64, x32, x86), excludes.arches must not;
#     includes.caps all in the container's capabilities, excludes.caps
#     none of them; includes.minKernel at most the running kernel;
#   - kept entries copied: names, action, errnoRet, args.
#
# Usage: moby_seccomp.py PROFILE CAP,CAP,... [EXTRA] > seccomp.json
# (CAP_ names; an empty list is no capability). EXTRA: a JSON list of
# syscalls entries appended after the converted ones (a Localhost
# profile made from the default, as a user writes one). Written for the
# container matrix (tests/containers/run.sh); it reads nothing but its
# arguments.
import json
import os
import sys

NATIVE = {"x86_64": ("SCMP_ARCH_X86_64", "amd64"),
          "aarch64": ("SCMP_ARCH_AARCH64", "arm64")}


def kernel_at_least(want):
    have = os.uname().release.split("-")[0].split(".")
    want = want.split(".")
    h = [int(x) for x in have[:2]]
    w = [int(x) for x in want[:2]]
    return h >= w


def main():
    profile = json.load(open(sys.argv[1]))
    caps = set(c for c in sys.argv[2].split(",") if c)
    scmp_arch, go_arch = NATIVE[os.uname().machine]
    out = {"defaultAction": profile["defaultAction"],
           "architectures": [], "syscalls": []}
    if "defaultErrnoRet" in profile:
        out["defaultErrnoRet"] = profile["defaultErrnoRet"]
    for a in profile.get("archMap") or []:
        if a["architecture"] == scmp_arch:
            out["architectures"] = [a["architecture"]] + \
                (a.get("subArchitectures") or [])
    for call in profile["syscalls"]:
        inc = call.get("includes") or {}
        exc = call.get("excludes") or {}
        if inc.get("arches") and go_arch not in inc["arches"]:
            continue
        if exc.get("arches") and go_arch in exc["arches"]:
            continue
        if inc.get("caps") and not all(c in caps for c in inc["caps"]):
            continue
        if exc.get("caps") and any(c in caps for c in exc["caps"]):
            continue
        if inc.get("minKernel") and not kernel_at_least(inc["minKernel"]):
            continue
        names = call.get("names") or [call["name"]]
        rule = {"names": names, "action": call["action"], "args": []}
        if call.get("errnoRet") is not None:
            rule["errnoRet"] = call["errnoRet"]
        for arg in call.get("args") or []:
            rule["args"].append({"index": arg["index"],
                                 "value": arg["value"],
                                 "valueTwo": arg.get("valueTwo", 0),
                                 "op": arg["op"]})
        out["syscalls"].append(rule)
    if len(sys.argv) > 3:
        out["syscalls"] += json.load(open(sys.argv[3]))
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


main()
