#!/usr/bin/env bash
# Runs dpkg against a throw-away Debian root, so maintainer scripts (adduser, dpkg-statoverride,
# deb-systemd-helper) run for real without touching this machine:
#   WORK/root/usr  overlay: this machine's /usr below, package files written to WORK/usr-upper
#   WORK/root/etc  a copy of this machine's /etc (users and groups are created there)
#   WORK/root/var  an empty dpkg database
# dpkg itself runs chrooted into WORK/root, so user and group names (statoverride) resolve there; .deb
# arguments are copied into WORK/root/tmp first. No systemd runs there, so the maintainer scripts take
# their "not booted with systemd" paths (enable, but no start/stop).
# usage: dpkg-root.sh WORK DPKG_ARGS...       (needs root: mount namespace, overlayfs, chroot)
#        dpkg-root.sh WORK --run COMMAND...    runs a command in that root instead, e.g. a documented one
set -euo pipefail
work="$(readlink -f "$1")"
shift
root="$work/root"

if [ ! -d "$root" ]; then
    mkdir -p "$root"/{usr,etc,tmp,dev,proc,run} "$root"/var/lib/dpkg/{info,updates,triggers} "$root/var/log" \
        "$work/usr-upper" "$work/usr-work"
    for d in bin sbin lib lib64; do
        ln -s "usr/$d" "$root/$d"
    done
    cp -a /etc/. "$root/etc/"
    touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
    chmod 1777 "$root/tmp"
fi

program=(dpkg --force-depends --force-confold)
run=false
if [ "${1:-}" = --run ]; then
    shift
    program=()
    run=true
fi

args=()
for arg in "$@"; do
    if ! $run && [ -f "$arg" ]; then
        cp "$arg" "$root/tmp/"
        arg="/tmp/$(basename "$arg")"
    fi
    args+=("$arg")
done

# shellcheck disable=SC2016 # expanded by the inner bash
exec unshare --mount --propagation private -- bash -c '
    set -euo pipefail
    work="$1"; root="$2"; shift 2
    mount -t overlay overlay -o "lowerdir=/usr,upperdir=$work/usr-upper,workdir=$work/usr-work" "$root/usr"
    mount --bind /dev "$root/dev"
    mount -t proc proc "$root/proc"
    exec chroot "$root" "$@"
' dpkg-root "$work" "$root" "${program[@]}" "${args[@]}"
