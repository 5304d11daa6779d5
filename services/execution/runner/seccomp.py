# The last link of a pack runner's sandbox chain (src/worker/runners/runner-sandbox.ts): installs
# a seccomp filter, then execs the runner. Pack code is JavaScript without native addons, so it
# cannot make these system calls itself; the filter is for code that escapes the JavaScript
# engine. It refuses what an unprivileged process could still use to widen its reach or attack
# the kernel: new namespaces (a user namespace would give it capabilities there), mounts, ptrace
# and other processes' memory, BPF, perf events, userfaultfd, io_uring, keyrings and kernel
# modules. Everything else is allowed.
#
# Python runners (runner.py) get more: Python has no permission model, so the filter also
# refuses execve, fork and every clone that is not a thread, and the runner is run inside this
# interpreter after the filter is installed, rather than exec'd.
#
# Standard library only (ctypes): a python3 is all it needs. Usage: seccomp.py <program> <args...>,
# or seccomp.py --python-runner <runner source> <runner arguments...>
import ctypes
import os
import struct
import sys

ERRNO = 0x00050000
ALLOW = 0x7FFF0000
KILL_PROCESS = 0x80000000
EPERM = 1
ENOSYS = 38

LD_W_ABS = 0x20
JEQ = 0x15
JGE = 0x35
JSET = 0x45
RET = 0x06

# CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME
NAMESPACE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x00000080

# name: (x86_64, aarch64)
REFUSED = {
    "unshare": (272, 97),
    "setns": (308, 268),
    "mount": (165, 40),
    "umount2": (166, 39),
    "pivot_root": (155, 41),
    "chroot": (161, 51),
    "open_tree": (428, 428),
    "move_mount": (429, 429),
    "fsopen": (430, 430),
    "fsconfig": (431, 431),
    "fsmount": (432, 432),
    "fspick": (433, 433),
    "mount_setattr": (442, 442),
    "ptrace": (101, 117),
    "process_vm_readv": (310, 270),
    "process_vm_writev": (311, 271),
    "kcmp": (312, 272),
    "bpf": (321, 280),
    "perf_event_open": (298, 241),
    "userfaultfd": (323, 282),
    "keyctl": (250, 219),
    "add_key": (248, 217),
    "request_key": (249, 218),
    "init_module": (175, 105),
    "finit_module": (313, 273),
    "delete_module": (176, 106),
    "kexec_load": (246, 104),
    "kexec_file_load": (320, 294),
    "name_to_handle_at": (303, 264),
    "open_by_handle_at": (304, 265),
    "acct": (163, 89),
    "swapon": (167, 224),
    "swapoff": (168, 225),
    "reboot": (169, 142),
}
# Answered "not implemented", so that libuv and glibc fall back to what they did before them:
# io_uring to its thread pool, clone3 (whose flags a filter cannot read) to clone.
UNIMPLEMENTED = {
    "io_uring_setup": (425, 425),
    "io_uring_enter": (426, 426),
    "io_uring_register": (427, 427),
    "clone3": (435, 435),
}
# Refused to Python runners only: no other program, no other process (aarch64 has no fork or vfork).
SPAWN = {
    "execve": (59, 221),
    "execveat": (322, 281),
    "fork": (57, None),
    "vfork": (58, None),
}
CLONE = (56, 220)
CLONE_THREAD = 0x00010000
ARCHES = {"x86_64": (0, 0xC000003E), "aarch64": (1, 0xC00000B7)}


def instruction(code, jt, jf, k):
    return struct.pack("HBBI", code, jt, jf, k)


def program(machine, no_spawn=False):
    column, audit_arch = ARCHES[machine]
    out = [
        instruction(LD_W_ABS, 0, 0, 4),  # seccomp_data.arch
        instruction(JEQ, 1, 0, audit_arch),
        instruction(RET, 0, 0, KILL_PROCESS),
        instruction(LD_W_ABS, 0, 0, 0),  # seccomp_data.nr
    ]
    if machine == "x86_64":
        # The x32 ABI: the same calls under other numbers.
        out += [instruction(JGE, 0, 1, 0x40000000), instruction(RET, 0, 0, ERRNO | ENOSYS)]
    refused = dict(REFUSED, **SPAWN) if no_spawn else REFUSED
    for numbers, answer in [(refused, ERRNO | EPERM), (UNIMPLEMENTED, ERRNO | ENOSYS)]:
        for pair in numbers.values():
            if pair[column] is not None:
                out += [instruction(JEQ, 0, 1, pair[column]), instruction(RET, 0, 0, answer)]
    # clone: threads are fine, new namespaces are not (flags are its first argument, low word);
    # for Python runners nothing but threads.
    threads_only = [instruction(JSET, 1, 0, CLONE_THREAD), instruction(RET, 0, 0, ERRNO | EPERM)] if no_spawn else []
    out += [
        instruction(JEQ, 0, 3 + len(threads_only), CLONE[column]),
        instruction(LD_W_ABS, 0, 0, 16),  # seccomp_data.args[0], low 32 bits
        instruction(JSET, 0, 1, NAMESPACE_FLAGS),
        instruction(RET, 0, 0, ERRNO | EPERM),
        *threads_only,
        instruction(RET, 0, 0, ALLOW),
    ]
    return b"".join(out)


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]


def install(machine, no_spawn=False):
    code = program(machine, no_spawn)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
    if libc.prctl(38, 1, None, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
        raise OSError(ctypes.get_errno(), "PR_SET_NO_NEW_PRIVS")
    fprog = SockFprog(len(code) // 8, code)
    if libc.prctl(22, 2, ctypes.addressof(fprog), 0, 0) != 0:  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
        raise OSError(ctypes.get_errno(), "PR_SET_SECCOMP")


def main():
    machine = os.uname().machine
    if machine not in ARCHES:
        sys.stderr.write("seccomp: no system call table for %s\n" % machine)
        sys.exit(97)
    if sys.argv[1] == "--python-runner":
        install(machine, no_spawn=True)
        source = sys.argv[2]
        sys.argv = ["-c"] + sys.argv[3:]
        exec(compile(source, "<svc-python-runner>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
        return
    install(machine)
    # Python sets LC_CTYPE for itself in a C locale (PEP 538); the runner gets the environment it was given.
    environment = {name: value for name, value in os.environ.items() if name != "LC_CTYPE"}
    os.execve(sys.argv[1], sys.argv[1:], environment)


main()
