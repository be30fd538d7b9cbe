# Shared by image-build/build, run and test: where things live, and small helpers.
# shellcheck shell=bash

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The image's architecture: this machine's (amd64: Debian 12, booted as QEMU's q35 PC, the
# board qemu-x86_64) or arm64 (`--arch arm64` on build, run and test: Debian 13, whose glibc
# the arm64 Swift standard library needs, booted as QEMU's virt machine, the board qemu-arm64).
# `--arch` as the first option of the command sourcing this (build, package) picks it, as
# rig.py reads it for test and run; REFLEX_ARCH otherwise (exported: what a command starts
# builds the same one).
if [ "${1:-}" = --arch ]; then export REFLEX_ARCH=${2:?--arch needs amd64 or arm64}; shift 2; fi
ARCH=${REFLEX_ARCH:-amd64}
case $ARCH in
  amd64) BOARD=${BOARD:-qemu-x86_64}; DEBIAN_SUITE=bookworm ;;
  arm64) BOARD=${BOARD:-qemu-arm64}; DEBIAN_SUITE=trixie ;;
  *) printf 'image-build: error: no image for %s (amd64 or arm64)\n' "$ARCH" >&2; exit 2 ;;
esac
# Downloads and builds are cached outside the repository, so a clone stays clean and a
# rebuild with nothing changed takes seconds.
CACHE=${REFLEX_IMAGE_CACHE:-/var/cache/reflex-image}
OUT=$CACHE/out/$BOARD
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

# The C libraries' -dev packages Reflex builds against (Package.swift's system libraries and
# the C++ vision target): setup-host installs them, cross-toolchain extracts their arm64 builds.
LIBRARY_DEV_PACKAGES=(
  libdrm-dev libinput-dev libudev-dev libv4l-dev
  libcairo2-dev libfreetype-dev libexif-dev libjpeg-dev libturbojpeg0-dev libtiff-dev
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libasound2-dev libqrencode-dev libsystemd-dev
  libopencv-dnn-dev libopencv-video-dev libopencv-objdetect-dev libopencv-imgproc-dev
)

# (The time of day on each line: a fresh build's log then shows where its minutes went.)
say() { printf 'image-build: %(%H:%M:%S)T %s\n' -1 "$*" >&2; }
die() { printf 'image-build: error: %s\n' "$*" >&2; exit 1; }

# RAUC's `compatible` of a board: a bundle installs only on a camera whose system.conf names
# the same (image-build/bundle writes it into the bundle's manifest).
update_compatible() { echo "reflex-$1"; }

# Installs host packages that are missing (apt-get update at most once per run).
need_host_packages() {
  local missing=() package
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  ((${#missing[@]})) || return 0
  [ "$(id -u)" -eq 0 ] || die "missing host packages (need root to install): ${missing[*]}"
  say "installing host packages: ${missing[*]}"
  if [ -z "${REFLEX_APT_UPDATED:-}" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    export REFLEX_APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Lets this x86_64 machine run arm64 programs (an arm64 root's chroot: dpkg, depmod, ldd):
# qemu-user-static's interpreter registered with the kernel's binfmt_misc, opened once (F),
# so it works inside any chroot. Nothing to do where it is registered already.
arm64_programs_run_here() {
  local entry=/usr/lib/binfmt.d/qemu-aarch64.conf
  need_host_packages qemu-user-static
  [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] && return 0
  [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc \
    || die "cannot mount binfmt_misc: arm64 programs cannot run here"
  [ -f "$entry" ] || die "qemu-user-static has no $entry"
  cat "$entry" >/proc/sys/fs/binfmt_misc/register || die "cannot register qemu-aarch64 with binfmt_misc"
}

# Runs a command in a root filesystem with /proc and /dev mounted, and each `--bind FOLDER
# PLACE` (PLACE inside the root), in a mount namespace of its own: gone when it ends, whatever
# happens; no other process sees them, and a folder removed meanwhile cannot reach through
# them into what was bound.
#   in_root ROOT [--bind FOLDER PLACE]... [--] COMMAND...
in_root() {
  local root=$1 binds=()
  shift
  [ -n "$root" ] && [ -d "$root/proc" ] || die "no root filesystem at '$root'"
  while [ "${1:-}" = --bind ]; do binds+=("$2" "$3"); shift 3; done
  [ "${1:-}" != -- ] || shift
  unshare --mount --propagation private /bin/bash -euc '
    root=$1 count=$2; shift 2
    for ((; count > 0; count--)); do mkdir -p "$root/$2"; mount --bind "$1" "$root/$2"; shift 2; done
    mount -t proc proc "$root/proc"
    mount --bind /dev "$root/dev"
    exec chroot "$root" "$@"' in-root "$root" $((${#binds[@]} / 2)) "${binds[@]}" "$@"
}

# A short hash of files, folders and strings: a stage is rebuilt only when its inputs change.
# Contents and names relative to each folder count, not where the clone is.
inputs_hash() {
  { for item in "$@"; do
      if [ -d "$item" ]; then
        (cd "$item" && find . -type f -print0 | sort -z | xargs -0 -r sha256sum)
      elif [ -f "$item" ]; then
        sha256sum <"$item"
      else
        echo "$item"
      fi
    done; } | sha256sum | cut -c1-16
}

# The revisions Package.swift's dependencies have where git fetches them now (their tags and
# branches, hashed): a build cached with them in its key is made again when one moves. Fails
# where one cannot be listed (no network, no mirror): then nothing is taken from the cache.
dependency_revisions() {
  local url listing=
  for url in $(grep -oE '\.package\(url: "[^"]+"' "$REPO/Package.swift" | cut -d'"' -f2); do
    listing+=$(git ls-remote --tags --heads "$url" 2>/dev/null) || return 1
  done
  printf '%s' "$listing" | sha256sum | cut -c1-16
}

# A release build of reflex is kept under $CACHE/built/KEY, the key being everything the
# binary is made of: its sources and Package.swift, its dependencies' revisions, the compiler,
# the C libraries it builds against and the build's flags. A clone of another commit with the
# same sources (a change to tests, scenarios or docs) takes the binary made before instead of
# spending a release build's minutes on the same bytes.
#   release_build_key ARCH COMPILER LIBRARIES HOW...   prints the key; nothing if there is none
# (HOW: the build's flags, or the script holding its command, as inputs_hash takes them.)
release_build_key() {
  local arch=$1 compiler=$2 libraries=$3 dependencies
  shift 3
  dependencies=$(dependency_revisions) || return 0
  inputs_hash "$REPO/Sources" "$REPO/Package.swift" "arch $arch" "compiler $compiler" \
    "libraries $libraries" "dependencies $dependencies" "$@"
}
#   built_before KEY NAME        prints the kept file's path; fails if there is none
built_before() {
  [ -n "$1" ] && [ -x "$CACHE/built/$1/$2" ] && echo "$CACHE/built/$1/$2"
}
#   keep_built KEY NAME FILE     keeps a copy (the newest eight keys are kept)
keep_built() {
  local folder=$CACHE/built/$1
  [ -n "$1" ] || return 0
  mkdir -p "$folder"
  # (Copied under another name and renamed: a build killed mid-copy leaves no half binary.)
  cp "$3" "$folder/.$2.partial" && mv "$folder/.$2.partial" "$folder/$2"
  touch "$folder"
  ls -1dt "$CACHE/built"/*/ | tail -n +9 | xargs -r rm -rf
}

# Removes a half-built root filesystem. A killed build can leave /proc, /sys, /dev or the
# package cache bind-mounted inside it: unmount those first, and never cross into another
# file system, so the host's /dev can never be what gets deleted.
remove_partial() {
  local partial=$1 mountpoint
  [ -e "$partial" ] || return 0
  findmnt -R -n -l -o TARGET --target "$partial" 2>/dev/null | { grep "^$partial/" || true; } | sort -r \
    | while read -r mountpoint; do umount -l "$mountpoint" || true; done
  rm -rf --one-file-system "$partial"
}

# A failing command names itself, instead of a bare non-zero exit.
trap 'code=$?; echo "image-build: error: \"${BASH_COMMAND}\" failed ($code) at ${BASH_SOURCE[0]}:${LINENO}" >&2' ERR
