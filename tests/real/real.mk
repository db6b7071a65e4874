# The real-program suite (tests/real/run.sh, needs root): bash, python3,
# pip, git, curl, gcc, clang, make, node and npm under the runtime
# presets, as root and as uid 65534. It uses the net suite's probes and
# laboratory (tests/net/netlab.sh): `tests` builds them (tests/net/net.mk).
CHECKS += tests/real/run.sh
