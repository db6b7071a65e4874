// SPDX-License-Identifier: MIT
/*
 * Argument names and widths for the syscalls policies filter on (x86_64).
 *
 * Why widths matter: seccomp hands the filter all 64 bits of every argument
 * register, but for an argument the kernel declares as int it only ever uses
 * the low 32 bits. Compared on 64 bits, a rule `family != 40` lets
 * 40 + 2^32 through, and the kernel then sees 40 (AF_VSOCK). So an argument
 * is compared at the width the kernel reads it: 32 when the kernel prototype
 * says int, unsigned int, u32, umode_t, pid_t, uid_t, gid_t, key_t,
 * key_serial_t, qid_t, clockid_t or an enum; 64 when it says long,
 * unsigned long, size_t, loff_t, off_t, u64 or a pointer.
 *
 * Every row was written from the kernel's own SYSCALL_DEFINEn prototype (the
 * x86_64 one where an architecture has its own, e.g. mmap in
 * arch/x86/kernel/sys_x86_64.c), with the kernel's argument names. Rows are
 * keyed by the name libseccomp uses on x86_64 (umount2 is the kernel's
 * sys_umount). The table must stay sorted by syscall name: lookups bsearch.
 */
#include <stdlib.h>
#include <string.h>

#include "tables.h"

/* W32: the kernel reads the low 32 bits; W64: it reads all 64. */
/* clang-format off */
#define W32(n) { n, 32 }
#define W64(n) { n, 64 }
/* clang-format on */

static const struct syscall_args table[] = {
    {"accept", 3, {W32("fd"), W64("upeer_sockaddr"), W64("upeer_addrlen")}},
    {"accept4",
     4,
     {W32("fd"), W64("upeer_sockaddr"), W64("upeer_addrlen"), W32("flags")}},
    {"acct", 1, {W64("name")}},
    {"add_key",
     5,
     {W64("_type"), W64("_description"), W64("_payload"), W64("plen"),
      W32("ringid")}},
    {"adjtimex", 1, {W64("txc_p")}},
    {"arch_prctl", 2, {W32("option"), W64("arg2")}},
    {"bind", 3, {W32("fd"), W64("umyaddr"), W32("addrlen")}},
    {"bpf", 3, {W32("cmd"), W64("uattr"), W32("size")}},
    {"capset", 2, {W64("header"), W64("data")}},
    {"chmod", 2, {W64("filename"), W32("mode")}},
    {"chown", 3, {W64("filename"), W32("user"), W32("group")}},
    {"chroot", 1, {W64("filename")}},
    {"clock_settime", 2, {W32("which_clock"), W64("tp")}},
    /*
     * x86_64 has no CONFIG_CLONE_BACKWARDS*, so flags come first and tls
     * last. The prototype says unsigned long, but kernel/fork.c keeps
     * only lower_32_bits(clone_flags): the kernel reads 32 bits, so we
     * compare 32, or a rule on the flags could be dodged in the upper half.
     */
    {"clone",
     5,
     {W32("clone_flags"), W64("newsp"), W64("parent_tidptr"),
      W64("child_tidptr"), W64("tls")}},
    {"clone3", 2, {W64("uargs"), W64("size")}},
    {"close", 1, {W32("fd")}},
    {"close_range", 3, {W32("fd"), W32("max_fd"), W32("flags")}},
    {"connect", 3, {W32("fd"), W64("uservaddr"), W32("addrlen")}},
    {"creat", 2, {W64("pathname"), W32("mode")}},
    {"delete_module", 2, {W64("name_user"), W32("flags")}},
    {"dup", 1, {W32("fildes")}},
    {"dup2", 2, {W32("oldfd"), W32("newfd")}},
    {"dup3", 3, {W32("oldfd"), W32("newfd"), W32("flags")}},
    {"epoll_create1", 1, {W32("flags")}},
    {"eventfd2", 2, {W32("count"), W32("flags")}},
    {"execve", 3, {W64("filename"), W64("argv"), W64("envp")}},
    {"execveat",
     5,
     {W32("fd"), W64("filename"), W64("argv"), W64("envp"), W32("flags")}},
    {"faccessat", 3, {W32("dfd"), W64("filename"), W32("mode")}},
    {"faccessat2", 4, {W32("dfd"), W64("filename"), W32("mode"), W32("flags")}},
    {"fallocate", 4, {W32("fd"), W32("mode"), W64("offset"), W64("len")}},
    {"fchdir", 1, {W32("fd")}},
    {"fchmod", 2, {W32("fd"), W32("mode")}},
    {"fchmodat", 3, {W32("dfd"), W64("filename"), W32("mode")}},
    {"fchmodat2", 4, {W32("dfd"), W64("filename"), W32("mode"), W32("flags")}},
    {"fchown", 3, {W32("fd"), W32("user"), W32("group")}},
    {"fchownat",
     5,
     {W32("dfd"), W64("filename"), W32("user"), W32("group"), W32("flag")}},
    {"fcntl", 3, {W32("fd"), W32("cmd"), W64("arg")}},
    {"finit_module", 3, {W32("fd"), W64("uargs"), W32("flags")}},
    {"flock", 2, {W32("fd"), W32("cmd")}},
    {"fsconfig",
     5,
     {W32("fd"), W32("cmd"), W64("_key"), W64("_value"), W32("aux")}},
    {"fsmount", 3, {W32("fs_fd"), W32("flags"), W32("attr_flags")}},
    {"fsopen", 2, {W64("_fs_name"), W32("flags")}},
    {"fspick", 3, {W32("dfd"), W64("path"), W32("flags")}},
    {"fsync", 1, {W32("fd")}},
    {"ftruncate", 2, {W32("fd"), W64("length")}},
    {"futex",
     6,
     {W64("uaddr"), W32("op"), W32("val"), W64("utime"), W64("uaddr2"),
      W32("val3")}},
    {"getpeername", 3, {W32("fd"), W64("usockaddr"), W64("usockaddr_len")}},
    {"getrandom", 3, {W64("ubuf"), W64("len"), W32("flags")}},
    {"getsockname", 3, {W32("fd"), W64("usockaddr"), W64("usockaddr_len")}},
    {"getsockopt",
     5,
     {W32("fd"), W32("level"), W32("optname"), W64("optval"), W64("optlen")}},
    {"init_module", 3, {W64("umod"), W64("len"), W64("uargs")}},
    {"inotify_init1", 1, {W32("flags")}},
    {"io_uring_enter",
     6,
     {W32("fd"), W32("to_submit"), W32("min_complete"), W32("flags"),
      W64("argp"), W64("argsz")}},
    {"io_uring_register",
     4,
     {W32("fd"), W32("opcode"), W64("arg"), W32("nr_args")}},
    {"io_uring_setup", 2, {W32("entries"), W64("params")}},
    {"ioctl", 3, {W32("fd"), W32("cmd"), W64("arg")}},
    {"ioperm", 3, {W64("from"), W64("num"), W32("turn_on")}},
    {"iopl", 1, {W32("level")}},
    {"ioprio_set", 3, {W32("which"), W32("who"), W32("ioprio")}},
    {"kexec_file_load",
     5,
     {W32("kernel_fd"), W32("initrd_fd"), W64("cmdline_len"),
      W64("cmdline_ptr"), W64("flags")}},
    {"kexec_load",
     4,
     {W64("entry"), W64("nr_segments"), W64("segments"), W64("flags")}},
    {"keyctl",
     5,
     {W32("option"), W64("arg2"), W64("arg3"), W64("arg4"), W64("arg5")}},
    {"kill", 2, {W32("pid"), W32("sig")}},
    {"landlock_add_rule",
     4,
     {W32("ruleset_fd"), W32("rule_type"), W64("rule_attr"), W32("flags")}},
    {"landlock_create_ruleset", 3, {W64("attr"), W64("size"), W32("flags")}},
    {"landlock_restrict_self", 2, {W32("ruleset_fd"), W32("flags")}},
    {"lchown", 3, {W64("filename"), W32("user"), W32("group")}},
    {"link", 2, {W64("oldname"), W64("newname")}},
    {"linkat",
     5,
     {W32("olddfd"), W64("oldname"), W32("newdfd"), W64("newname"),
      W32("flags")}},
    {"listen", 2, {W32("fd"), W32("backlog")}},
    {"lseek", 3, {W32("fd"), W64("offset"), W32("whence")}},
    {"madvise", 3, {W64("start"), W64("len_in"), W32("behavior")}},
    {"membarrier", 3, {W32("cmd"), W32("flags"), W32("cpu_id")}},
    {"memfd_create", 2, {W64("uname"), W32("flags")}},
    {"memfd_secret", 1, {W32("flags")}},
    {"mkdir", 2, {W64("pathname"), W32("mode")}},
    {"mkdirat", 3, {W32("dfd"), W64("pathname"), W32("mode")}},
    {"mknod", 3, {W64("filename"), W32("mode"), W32("dev")}},
    {"mknodat", 4, {W32("dfd"), W64("filename"), W32("mode"), W32("dev")}},
    {"mlock", 2, {W64("start"), W64("len")}},
    {"mlockall", 1, {W32("flags")}},
    /*
     * The x86_64 mmap takes every argument as unsigned long, fd included
     * (arch/x86/kernel/sys_x86_64.c); ksys_mmap_pgoff() later narrows fd
     * to the unsigned int fget() takes.
     */
    {"mmap",
     6,
     {W64("addr"), W64("len"), W64("prot"), W64("flags"), W32("fd"),
      W64("off")}}, /* fd: fget() takes an unsigned int */
    {"modify_ldt", 3, {W32("func"), W64("ptr"), W64("bytecount")}},
    {"mount",
     5,
     {W64("dev_name"), W64("dir_name"), W64("type"), W64("flags"),
      W64("data")}},
    {"mount_setattr",
     5,
     {W32("dfd"), W64("path"), W32("flags"), W64("uattr"), W64("usize")}},
    {"move_mount",
     5,
     {W32("from_dfd"), W64("from_pathname"), W32("to_dfd"), W64("to_pathname"),
      W32("flags")}},
    {"mprotect", 3, {W64("start"), W64("len"), W64("prot")}},
    {"mremap",
     5,
     {W64("addr"), W64("old_len"), W64("new_len"), W64("flags"),
      W64("new_addr")}},
    {"msgget", 2, {W32("key"), W32("msgflg")}},
    {"munmap", 2, {W64("addr"), W64("len")}},
    {"name_to_handle_at",
     5,
     {W32("dfd"), W64("name"), W64("handle"), W64("mnt_id"), W32("flag")}},
    {"open", 3, {W64("filename"), W32("flags"), W32("mode")}},
    {"open_by_handle_at", 3, {W32("mountdirfd"), W64("handle"), W32("flags")}},
    {"open_tree", 3, {W32("dfd"), W64("filename"), W32("flags")}},
    {"openat", 4, {W32("dfd"), W64("filename"), W32("flags"), W32("mode")}},
    {"openat2", 4, {W32("dfd"), W64("filename"), W64("how"), W64("usize")}},
    {"perf_event_open",
     5,
     {W64("attr_uptr"), W32("pid"), W32("cpu"), W32("group_fd"), W64("flags")}},
    {"personality", 1, {W32("personality")}},
    {"pidfd_getfd", 3, {W32("pidfd"), W32("fd"), W32("flags")}},
    {"pidfd_open", 2, {W32("pid"), W32("flags")}},
    {"pidfd_send_signal",
     4,
     {W32("pidfd"), W32("sig"), W64("info"), W32("flags")}},
    {"pipe2", 2, {W64("fildes"), W32("flags")}},
    {"pivot_root", 2, {W64("new_root"), W64("put_old")}},
    {"pkey_alloc", 2, {W64("flags"), W64("init_val")}},
    {"pkey_mprotect", 4, {W64("start"), W64("len"), W64("prot"), W32("pkey")}},
    {"prctl",
     5,
     {W32("option"), W64("arg2"), W64("arg3"), W64("arg4"), W64("arg5")}},
    {"pread64", 4, {W32("fd"), W64("buf"), W64("count"), W64("pos")}},
    {"prlimit64",
     4,
     {W32("pid"), W32("resource"), W64("new_rlim"), W64("old_rlim")}},
    {"process_madvise",
     5,
     {W32("pidfd"), W64("vec"), W64("vlen"), W32("behavior"), W32("flags")}},
    {"process_vm_readv",
     6,
     {W32("pid"), W64("lvec"), W64("liovcnt"), W64("rvec"), W64("riovcnt"),
      W64("flags")}},
    {"process_vm_writev",
     6,
     {W32("pid"), W64("lvec"), W64("liovcnt"), W64("rvec"), W64("riovcnt"),
      W64("flags")}},
    /*
     * request and pid really are long in kernel/ptrace.c; pid is narrowed
     * to pid_t only when the tracee is looked up.
     */
    {"ptrace", 4, {W64("request"), W32("pid"), W64("addr"), W64("data")}},
    {"pwrite64", 4, {W32("fd"), W64("buf"), W64("count"), W64("pos")}},
    {"quotactl", 4, {W32("cmd"), W64("special"), W32("id"), W64("addr")}},
    {"read", 3, {W32("fd"), W64("buf"), W64("count")}},
    /* readv and writev take fd as unsigned long, unlike read. */
    {"readv", 3, {W32("fd"), W64("vec"), W64("vlen")}},
    {"reboot", 4, {W32("magic1"), W32("magic2"), W32("cmd"), W64("arg")}},
    {"recvfrom",
     6,
     {W32("fd"), W64("ubuf"), W64("size"), W32("flags"), W64("addr"),
      W64("addr_len")}},
    {"recvmmsg",
     5,
     {W32("fd"), W64("mmsg"), W32("vlen"), W32("flags"), W64("timeout")}},
    {"recvmsg", 3, {W32("fd"), W64("msg"), W32("flags")}},
    {"rename", 2, {W64("oldname"), W64("newname")}},
    {"renameat",
     4,
     {W32("olddfd"), W64("oldname"), W32("newdfd"), W64("newname")}},
    {"renameat2",
     5,
     {W32("olddfd"), W64("oldname"), W32("newdfd"), W64("newname"),
      W32("flags")}},
    {"request_key",
     4,
     {W64("_type"), W64("_description"), W64("_callout_info"),
      W32("destringid")}},
    {"rmdir", 1, {W64("pathname")}},
    {"sched_setaffinity", 3, {W32("pid"), W32("len"), W64("user_mask_ptr")}},
    {"sched_setattr", 3, {W32("pid"), W64("uattr"), W32("flags")}},
    {"sched_setscheduler", 3, {W32("pid"), W32("policy"), W64("param")}},
    {"seccomp", 3, {W32("op"), W32("flags"), W64("uargs")}},
    {"semget", 3, {W32("key"), W32("nsems"), W32("semflg")}},
    {"sendmmsg", 4, {W32("fd"), W64("mmsg"), W32("vlen"), W32("flags")}},
    {"sendmsg", 3, {W32("fd"), W64("msg"), W32("flags")}},
    {"sendto",
     6,
     {W32("fd"), W64("buff"), W64("len"), W32("flags"), W64("addr"),
      W32("addr_len")}},
    {"setdomainname", 2, {W64("name"), W32("len")}},
    {"setfsgid", 1, {W32("gid")}},
    {"setfsuid", 1, {W32("uid")}},
    {"setgid", 1, {W32("gid")}},
    {"setgroups", 2, {W32("gidsetsize"), W64("grouplist")}},
    {"sethostname", 2, {W64("name"), W32("len")}},
    {"setns", 2, {W32("fd"), W32("flags")}},
    {"setpriority", 3, {W32("which"), W32("who"), W32("niceval")}},
    {"setregid", 2, {W32("rgid"), W32("egid")}},
    {"setresgid", 3, {W32("rgid"), W32("egid"), W32("sgid")}},
    {"setresuid", 3, {W32("ruid"), W32("euid"), W32("suid")}},
    {"setreuid", 2, {W32("ruid"), W32("euid")}},
    {"setrlimit", 2, {W32("resource"), W64("rlim")}},
    {"setsockopt",
     5,
     {W32("fd"), W32("level"), W32("optname"), W64("optval"), W32("optlen")}},
    {"settimeofday", 2, {W64("tv"), W64("tz")}},
    {"setuid", 1, {W32("uid")}},
    {"shmget", 3, {W32("key"), W64("size"), W32("shmflg")}},
    {"shutdown", 2, {W32("fd"), W32("how")}},
    {"signalfd4",
     4,
     {W32("ufd"), W64("user_mask"), W64("sizemask"), W32("flags")}},
    {"socket", 3, {W32("family"), W32("type"), W32("protocol")}},
    {"socketpair",
     4,
     {W32("family"), W32("type"), W32("protocol"), W64("usockvec")}},
    {"splice",
     6,
     {W32("fd_in"), W64("off_in"), W32("fd_out"), W64("off_out"), W64("len"),
      W32("flags")}},
    {"swapon", 2, {W64("specialfile"), W32("swap_flags")}},
    {"symlink", 2, {W64("oldname"), W64("newname")}},
    {"symlinkat", 3, {W64("oldname"), W32("newdfd"), W64("newname")}},
    {"syslog", 3, {W32("type"), W64("buf"), W32("len")}},
    {"tee", 4, {W32("fdin"), W32("fdout"), W64("len"), W32("flags")}},
    {"tgkill", 3, {W32("tgid"), W32("pid"), W32("sig")}},
    {"timerfd_create", 2, {W32("clockid"), W32("flags")}},
    {"tkill", 2, {W32("pid"), W32("sig")}},
    /* SYSCALL_DEFINE2(truncate, const char __user *, path, long, length) */
    {"truncate", 2, {W64("path"), W64("length")}},
    {"umask", 1, {W32("mask")}},
    {"umount2", 2, {W64("name"), W32("flags")}},
    {"unlink", 1, {W64("pathname")}},
    {"unlinkat", 3, {W32("dfd"), W64("pathname"), W32("flag")}},
    {"unshare", 1, {W64("unshare_flags")}},
    {"userfaultfd", 1, {W32("flags")}},
    {"vmsplice", 4, {W32("fd"), W64("uiov"), W64("nr_segs"), W32("flags")}},
    {"write", 3, {W32("fd"), W64("buf"), W64("count")}},
    {"writev", 3, {W32("fd"), W64("vec"), W64("vlen")}},
};

#undef W32
#undef W64

/*
 * Names people know from the man pages where the kernel spells them
 * differently; they resolve to the kernel's argument.
 */
static const struct {
	const char *syscall;
	const char *alias;
	unsigned char index;
} aliases[] = {
    {"clone", "flags", 0},	 /* clone(2) */
    {"mmap", "offset", 5},	 /* mmap(2) */
    {"setns", "nstype", 1},	 /* setns(2), and older kernels */
    {"socket", "domain", 0},	 /* socket(2) */
    {"socketpair", "domain", 0}, /* socketpair(2) */
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static int cmp_syscall(const void *key, const void *elem)
{
	const struct syscall_args *e = elem;

	return strcmp(key, e->syscall);
}

const struct syscall_args *syscall_args_find(const char *syscall)
{
	if (!syscall)
		return NULL;
	return bsearch(syscall, table, ARRAY_LEN(table), sizeof(table[0]),
		       cmp_syscall);
}

/* "arg0".."arg5" to 0..5, anything else to -1. */
static int generic_index(const char *name)
{
	if (strncmp(name, "arg", 3) != 0)
		return -1;
	if (name[3] < '0' || name[3] >= '0' + SYSCALL_ARGS_MAX ||
	    name[4] != '\0')
		return -1;
	return name[3] - '0';
}

int syscall_args_index(const char *syscall, const char *name, unsigned *width)
{
	const struct syscall_args *sa;
	int idx;
	size_t i;

	if (!syscall || !name)
		return -1;
	sa = syscall_args_find(syscall);
	if (!sa) {
		/* Nothing known: positional names only, and every bit. */
		idx = generic_index(name);
		if (idx >= 0 && width)
			*width = 64;
		return idx;
	}
	/*
	 * The kernel's names come first: prctl and keyctl call their second
	 * argument "arg2", and that is what a policy author means by it.
	 */
	idx = -1;
	for (i = 0; i < sa->nargs && idx < 0; i++) {
		if (strcmp(sa->args[i].name, name) == 0)
			idx = (int)i;
	}
	for (i = 0; i < ARRAY_LEN(aliases) && idx < 0; i++) {
		if (strcmp(aliases[i].syscall, syscall) == 0 &&
		    strcmp(aliases[i].alias, name) == 0)
			idx = aliases[i].index;
	}
	if (idx < 0)
		idx = generic_index(name);
	/*
	 * A register the syscall does not take holds whatever the caller left
	 * there; a rule on it would test garbage, so it is not an argument.
	 */
	if (idx < 0 || idx >= sa->nargs)
		return -1;
	if (width)
		*width = sa->args[idx].width;
	return idx;
}

const char *syscall_args_name(const char *syscall, unsigned i)
{
	static const char *const generic[SYSCALL_ARGS_MAX] = {
	    "arg0", "arg1", "arg2", "arg3", "arg4", "arg5",
	};
	const struct syscall_args *sa = syscall_args_find(syscall);
	size_t k;

	if (!sa)
		return i < SYSCALL_ARGS_MAX ? generic[i] : NULL;
	if (i < sa->nargs)
		return sa->args[i].name;
	i -= sa->nargs;
	for (k = 0; k < ARRAY_LEN(aliases); k++) {
		if (strcmp(aliases[k].syscall, syscall) != 0)
			continue;
		if (i == 0)
			return aliases[k].alias;
		i--;
	}
	return NULL;
}

unsigned syscall_args_count(void)
{
	return ARRAY_LEN(table);
}

const struct syscall_args *syscall_args_at(unsigned i)
{
	return i < ARRAY_LEN(table) ? &table[i] : NULL;
}
