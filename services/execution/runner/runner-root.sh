# The filesystem a pack runner sees (src/worker/runners/runner-sandbox.ts). It runs as root of
# the runner's fresh mount namespace (`unshare --mount`, propagation private, so nothing here is
# seen outside), builds a root of its own on a small tmpfs, makes it the root, and execs the rest
# of the chain:
#
#   /usr, and /bin /lib /lib64 /sbin as the host has them   read-only: node and its libraries
#   the folder of node, when it lives outside /usr          read-only
#   /tmp                                                    an empty private tmpfs
#   <pack dir>, at the same path                            read-only: the only pack files
#   /proc                                                   the runner's own PID namespace, where the host lets it be mounted
#
# Nothing else of the host is there: no /run or /var/run (so no Unix socket of the host's, such
# as Postgres's), no /dev, no /etc, no home folder, no SVC_DATA_DIR beyond the pack itself. The
# first four come from an fstab the worker writes once (`root-fstab.ts`), so that one `mount`
# makes them: every command here costs each runner start an exec.
#
# Arguments: <fstab> <mount point> <pack dir> -- <command...>
set -eu
fstab=$1 root=$2 pack=$3
shift 4

mount -a -T "$fstab"
mount --bind -o ro,nosuid,nodev,X-mount.mkdir "$pack" "$root$pack"
cd "$root"
mkdir .old proc
# A proc of the runner's own PID namespace. Containers that mask parts of the host's /proc
# refuse a fresh one; the host's is then lent for the switch only (umount reads mountinfo) and
# taken away again, so that the runner never sees the host's processes.
if mount -t proc -o nosuid,nodev,noexec proc proc 2>/dev/null; then
  own_proc=yes
else
  own_proc=no
  mount --rbind /proc proc
fi
pivot_root . .old
umount -l /.old
if [ "$own_proc" = no ]; then umount -l /proc; fi
mount -o remount,bind,ro /
cd "$pack"
# The shell's own variables are not the runner's environment.
unset PWD OLDPWD
exec "$@"
