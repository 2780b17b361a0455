#!/usr/bin/env bash
# install-packages.sh TAG PKG...: installs the Debian packages not yet installed (when root; else
# says which are missing). Shared by setup.sh and fuzz.sh; quiet when nothing is missing.
set -euo pipefail
tag=$1
shift
missing=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ]; then
  echo "$tag: installing ${missing[*]}" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
else
  echo "$tag: missing packages ${missing[*]} (run as root, or install them)" >&2
fi
