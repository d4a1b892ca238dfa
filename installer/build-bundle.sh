#!/usr/bin/env bash
# Builds installer/bundle/folio-<version>[-airgapped].tar.gz: everything install.sh --bundle needs
# on a host without npm registry access (sources, production node_modules, the Node binary).
#
#   installer/build-bundle.sh              (or: make bundle)
#   AIRGAPPED=1 installer/build-bundle.sh  (or: make bundle AIRGAPPED=1)
#
# Needs the npm registry (or a warm npm cache) on the build host, which must match the target:
# Debian 12, the same CPU architecture. The Node binary in use (command -v node) is shipped.
set -euo pipefail
umask 022

cd "$(dirname "$0")/.."
readonly REPO=$PWD
readonly OUT=$REPO/installer/bundle # git-ignored; the bundle never enters git
AIRGAPPED=${AIRGAPPED:-0}
[[ $AIRGAPPED == 0 || $AIRGAPPED == 1 ]] || { echo "AIRGAPPED must be 0 or 1" >&2; exit 1; }

log() { printf 'build-bundle: %s\n' "$*"; }

started=$SECONDS
node_bin=$(command -v node)
version=$(node -p 'require("./package.json").version')
name=folio-$version
((AIRGAPPED == 0)) || name+=-airgapped

mkdir -p "$OUT"
work=$(mktemp -d "$OUT/.build.XXXXXX")
trap 'rm -rf "$work"' EXIT
stage=$work/$name

log "sources -> $stage"
installer/install.sh --copy-sources "$REPO" "$stage"

# The operator console's static files, built fresh with the checkout's dev dependencies (vite).
if [[ -f console/web/vite.config.ts ]]; then
  log "vite build of the operator console -> console/web/dist"
  npx --no-install vite build --config console/web/vite.config.ts --outDir "$stage/console/web/dist" --emptyOutDir
fi

log "npm ci --omit=dev"
npm_config_prefer_offline=true installer/install.sh --npm-install "$stage"

# onnxruntime-node ships CPU binaries for every platform; keep this one's (about 245 MB less).
platform=$(node -p 'process.platform') arch=$(node -p 'process.arch')
for dir in "$stage"/node_modules/onnxruntime-node/bin/napi-v*/*/*; do
  [[ -d $dir ]] || continue
  [[ $dir == */$platform/$arch ]] || rm -rf "$dir"
done
rmdir "$stage"/node_modules/onnxruntime-node/bin/napi-v*/* 2>/dev/null || true
compgen -G "$stage/node_modules/onnxruntime-node/bin/napi-v*/$platform/$arch" >/dev/null ||
  { echo "build-bundle: no onnxruntime-node binary for $platform/$arch" >&2; exit 1; }

log "node $(node -v) from $node_bin -> bin/node"
mkdir -p "$stage/bin"
cp "$node_bin" "$stage/bin/node" # cp follows a symlinked node to the binary
chmod 755 "$stage/bin/node"

# Settings install.sh writes as active lines into a new /etc/folio/folio.env.
if ((AIRGAPPED)); then
  cat >"$stage/installer/bundle.env" <<'EOF'
# Air-gapped bundle: no licence checks and no usage reports, so the appliance makes no outbound
# connection. (No runtime package needs a telemetry switch: onnxruntime-node has no telemetry on
# Linux, and the storage SDKs only connect to the stores a job names.)
FOLIO_LICENSE_MODE=air_gapped
FOLIO_METERING_MODE=offline
EOF
fi

# shellcheck disable=SC1091
os=$(. /etc/os-release && echo "$PRETTY_NAME")
commit=$(git -C "$REPO" rev-parse HEAD 2>/dev/null || echo unknown)
git -C "$REPO" diff --quiet HEAD 2>/dev/null || commit+=-dirty
cat >"$stage/BUILD_INFO" <<EOF
bundle=$name
version=$version
airgapped=$AIRGAPPED
git_commit=$commit
built_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)
built_on=$os $(uname -m)
glibc=$(ldd --version | head -n1 | awk '{print $NF}')
node=$(node -v)
npm=$(npm -v)
EOF

log "packing $name.tar.gz"
tar -C "$work" --owner=0 --group=0 --numeric-owner --sort=name -czf "$work/$name.tar.gz" "$name"
mv -f "$work/$name.tar.gz" "$OUT/$name.tar.gz"
(cd "$OUT" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")

size=$(du -h "$OUT/$name.tar.gz" | cut -f1)
log "wrote $OUT/$name.tar.gz ($size, unpacked $(du -sh "$stage" | cut -f1), $((SECONDS - started)) s)"
log "install: tar -xzf $name.tar.gz $name/installer/install.sh && sudo $name/installer/install.sh --bundle $name.tar.gz"
