#!/bin/sh
# A throwaway Debian system to install packages into: in a mount namespace of its own (root), an overlay
# of this machine's / whose changes go to a tmpfs, so dpkg and apt work on a copy and the machine is never
# touched; the namespace and its changes vanish with the last process in it. Every node is removed from the
# copy (a machine without Node), and DEBS, read-only, is at /mnt/debs. Prints "ready PID" and runs a
# process chrooted there until killed: `nsenter -t PID -m -r -w -- COMMAND` runs a command in the copy.
# Usage: overlay-root.sh TOP DEBS   (TOP an empty folder: the namespace mounts the copy at TOP/root)
set -eu
exec unshare --mount --propagation private -- sh -eu -c '
top=$1 debs=$2
mount -t tmpfs -o size=2g,mode=0755 none "$top"
mkdir "$top/upper" "$top/work" "$top/root"
mount -t overlay overlay -o "lowerdir=/,upperdir=$top/upper,workdir=$top/work" "$top/root"
for dir in /dev /proc; do mount --rbind "$dir" "$top/root$dir"; done
mkdir -p "$top/root/mnt/debs"
mount --bind -o ro "$debs" "$top/root/mnt/debs"
for file in /usr/local/bin/node /usr/bin/node /usr/local/sbin/node /usr/sbin/node; do rm -f "$top/root$file"; done
# A home for the user without root that runs the commands.
mkdir -p "$top/root/home/user"
chown 65534:65534 "$top/root/home/user"
echo "ready $$"
exec chroot "$top/root" sleep infinity
' overlay-root "$@"
