#!/usr/bin/env bash
# Build the Retrace sandbox image from Debian packages alone: no container registry needed.
# debootstrap makes a root filesystem, `docker import` turns it into an image.
# Usage: sandbox/build-offline.sh [image:tag]   (default: $RETRACE_SANDBOX_IMAGE or retrace-sandbox:1)
set -euo pipefail

image="${1:-${RETRACE_SANDBOX_IMAGE:-retrace-sandbox:1}}"
here="$(cd "$(dirname "$0")" && pwd)"
suite="${RETRACE_DEBIAN_SUITE:-bookworm}"
mirror="${RETRACE_DEBIAN_MIRROR:-http://deb.debian.org/debian}"

if [ "$(id -u)" != 0 ]; then
  echo "build-offline.sh needs root (debootstrap and chroot). Run it with sudo, or build sandbox/Dockerfile where a registry is reachable." >&2
  exit 2
fi
command -v debootstrap >/dev/null || { echo "debootstrap is missing: apt-get install -y debootstrap" >&2; exit 2; }

packages="$(grep -v '^\s*#' "$here/packages.txt" | grep -v '^\s*$' | paste -sd, -)"
root="$(mktemp -d /tmp/retrace-rootfs.XXXXXX)"
cleanup() { rm -rf --one-file-system "$root"; }
trap cleanup EXIT

echo "retrace: debootstrap $suite into $root" >&2
log="$(mktemp /tmp/retrace-debootstrap.XXXXXX.log)"
if ! debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$log" 2>&1; then
  tail -40 "$log" >&2; exit 1
fi
# Install the packages with apt inside the new root: it orders dependencies better than debootstrap --include.
cp /etc/resolv.conf "$root/etc/resolv.conf"
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d" && chmod +x "$root/usr/sbin/policy-rc.d"
mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2>/dev/null || true; cleanup' EXIT
echo "retrace: apt-get install $(echo "$packages" | tr , ' ')" >&2
if ! chroot "$root" /bin/sh -c "export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq --no-install-recommends $(echo "$packages" | tr , ' ')" >"$log" 2>&1; then
  tail -40 "$log" >&2; exit 1
fi
umount "$root/proc"
rm -f "$log" "$root/usr/sbin/policy-rc.d" "$root/etc/resolv.conf"
chroot "$root" apt-get clean

# The same user, workspace and trimming as sandbox/Dockerfile.
chroot "$root" /bin/sh -c 'groupadd -g 10001 sandbox && useradd -u 10001 -g 10001 -M -d /workspace -s /bin/sh sandbox && mkdir -p /workspace && chown 10001:10001 /workspace'
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* "$root"/usr/share/man/*

tar -C "$root" -c . | docker import \
  --change 'USER 10001:10001' \
  --change 'WORKDIR /workspace' \
  --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin HOME=/tmp LANG=C.UTF-8' \
  --change 'LABEL dev.retrace.sandbox=1' \
  --change "LABEL dev.retrace.recipe=${RETRACE_RECIPE:-unknown}" \
  --change 'CMD ["/bin/sh"]' \
  - "$image" >/dev/null
echo "retrace: built $image" >&2
