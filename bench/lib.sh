# Helpers shared by the bench scripts (sourced, not run).

# hf_median JSON NAME: the median, in seconds, of command NAME in a
# hyperfine --export-json file.
hf_median() {
	jq -r --arg n "$2" '.results[] | select(.command == $n) | .median' "$1"
}

# peak_kib CMD...: the peak resident set of CMD and its children, in KiB.
peak_kib() {
	/usr/bin/time -v "$@" 2>&1 >/dev/null |
		sed -n 's/.*Maximum resident set size (kbytes): //p'
}
