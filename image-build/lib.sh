# Shared by image-build/build, run and test: where things live, and small helpers.
# shellcheck shell=bash

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BOARD=${BOARD:-qemu-x86_64}
# Downloads and builds are cached outside the repository, so a clone stays clean and a
# rebuild with nothing changed takes seconds.
CACHE=${REFLEX_IMAGE_CACHE:-/var/cache/reflex-image}
OUT=$CACHE/out/$BOARD
DEBIAN_SUITE=bookworm
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

say() { printf 'image-build: %s\n' "$*" >&2; }
die() { printf 'image-build: error: %s\n' "$*" >&2; exit 1; }

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

# Removes a half-built root filesystem. A killed build can leave /proc, /sys, /dev or the
# package cache bind-mounted inside it: unmount those first, and never cross into another
# file system, so the host's /dev can never be what gets deleted.
remove_partial() {
  local partial=$1 mountpoint
  [ -e "$partial" ] || return 0
  findmnt -R -n -l -o TARGET --target "$partial" 2>/dev/null | grep "^$partial/" | sort -r \
    | while read -r mountpoint; do umount -l "$mountpoint" || true; done
  rm -rf --one-file-system "$partial"
}

# A failing command names itself, instead of a bare non-zero exit.
trap 'code=$?; echo "image-build: error: \"${BASH_COMMAND}\" failed ($code) at ${BASH_SOURCE[0]}:${LINENO}" >&2' ERR
