#!/bin/sh
# The ASan/UBSan gate of `make check`: every saved input (seeds, the bad
# policies, past crashes) once through both fuzz harnesses. No exploration.
exec make -s fuzz-replay
