#!/usr/bin/env bash
# Installs Folio on a Debian 12 host as systemd services. Run with --help for the options.
set -euo pipefail
umask 022

readonly APT_PACKAGES=(redis-server poppler-utils pandoc zip libreoffice-writer-nogui libreoffice-impress-nogui osra openbabel curl)
readonly MIN_NODE=20.19.0
readonly HEALTH_TIMEOUT_S=120
readonly WORKER_ROLES=(inference document)
# What a source checkout contributes to the installed tree (build-bundle.sh uses the same list
# through --copy-sources). Unit tests (*.test.ts) and training data stay behind.
readonly APP_PATHS=(appliance worker page core license console models package.json package-lock.json tsconfig.json README.md
  installer/install.sh installer/folio.env.in)

usage() {
  cat <<'EOF'
Usage: install.sh (--bundle FILE | --source DIR) [options]
       install.sh --uninstall [--root DIR]

Installs Folio on a Debian 12 host: the Debian packages it needs (apt), the application in
/opt/folio, its configuration /etc/folio/folio.env, a "folio" system user owning /var/lib/folio,
and the systemd units folio.service (the appliance, which supervises its own workers and private
Redis) and folio-worker@.service (workers on scale-out hosts). Then it enables and starts
folio.service and waits (up to 120 s) until http://localhost:$PORT/health reports ok.
Running it again changes nothing unless the application changed; folio.env is never overwritten.

Application source (one of):
  --bundle FILE     a bundle built by `make bundle` (folio-<version>[-airgapped].tar.gz): the
                    sources, node_modules and the Node binary. No npm registry access at all.
  --source DIR      a source checkout; runs `npm ci --omit=dev` (needs the npm registry, and
                    for better-sqlite3 either its prebuilt binary from GitHub or a compiler:
                    build-essential python3) and uses the node on PATH (>= 20.19).

Options:
  --no-start        enable the units but start nothing (and skip the health check)
  --workers ROLES   scale-out worker host: enable folio-worker@ROLE for each comma-separated role
                    (inference, document) instead of folio.service. Set REDIS_URL (and a shared
                    FOLIO_STORAGE_URI) in folio.env first; without REDIS_URL nothing is started.
  --uninstall       disable and remove the units and /opt/folio; keeps /etc/folio,
                    /var/lib/folio and the folio user
  --root DIR        install under DIR instead of / (DIR/opt/folio, DIR/etc/folio, DIR/var/lib/folio,
                    DIR/etc/systemd/system); the units name the DIR paths. No user is created,
                    nothing is chowned, and the units are neither enabled nor started (systemd does
                    not read DIR; stubbed, the systemctl calls are printed). Debian packages are
                    still installed on this host unless stubbed.
  --skip-npm        with --source: link DIR/node_modules instead of running npm ci (tests, dev)
  -h, --help        this text

Debian packages: redis-server poppler-utils pandoc zip libreoffice-writer-nogui
libreoffice-impress-nogui osra openbabel curl, installed with apt-get when missing. An offline (air-gapped)
host must get them from its own Debian mirror or local apt repository configured in
/etc/apt/sources.list(.d); the installer never fetches anything else from the network with
--bundle. Packages already installed are not touched, and apt is not called at all then.

Environment:
  FOLIO_INSTALL_SYSTEMCTL=echo
                    test mode for machines without systemd or root: every command that changes
                    the host (apt-get, useradd, chown, systemctl) is printed as "[stub] ..." instead
                    of run, and the Debian 12, root and systemd checks only warn. Files are still
                    written. Not covered then: package installation, the folio user and file
                    ownership, unit validation and enablement by systemd, the service start under
                    User=folio and the /health wait, and `systemctl` stop/disable on --uninstall.
EOF
}

log() { printf 'folio-install: %s\n' "$*"; }
warn() { printf 'folio-install: warning: %s\n' "$*" >&2; }
die() {
  printf 'folio-install: error: %s\n' "$*" >&2
  exit 1
}

# Runs a command that changes the host, or prints it under FOLIO_INSTALL_SYSTEMCTL=echo.
host() {
  if ((STUB)); then
    printf 'folio-install: [stub]'
    printf ' %q' "$@"
    printf '\n'
  else
    "$@"
  fi
}

version_ge() { # version_ge A B: A >= B (dotted numbers)
  [[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" == "$2" ]]
}

# NUL-separated list of the files a source checkout contributes, relative to DIR, sorted.
source_files() {
  local dir=$1 path
  for path in "${APP_PATHS[@]}"; do
    [[ -e "$dir/$path" ]] || die "$dir is not a Folio checkout: $path is missing"
  done
  (cd "$dir" && find "${APP_PATHS[@]}" \( -name node_modules -o -name __pycache__ -o -path models/training/data \
    -o -path models/training/out \) -prune -o -type f ! -name '*.test.ts' -print0) | LC_ALL=C sort -z
}

copy_sources() { # copy_sources SRC DEST
  mkdir -p "$2"
  source_files "$1" | tar -C "$1" --null -T - -cf - | tar -C "$2" --no-same-owner -xf -
}

# Dependencies whose install scripts run: npm 11 skips any not allowed (better-sqlite3 then has no
# native binding); the others only check or fetch optional pieces.
readonly NPM_ALLOW_SCRIPTS=better-sqlite3,esbuild,msgpackr-extract,sharp,onnxruntime-node
readonly NATIVE_MODULES=(better-sqlite3 sharp onnxruntime-node)

# npm ci --omit=dev in DIR (needs the npm registry, or its cache).
npm_install_prod() {
  local dir=$1
  local args=(--omit=dev --no-audit --no-fund --loglevel=warn)
  export ONNXRUNTIME_NODE_INSTALL=skip npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
  # npm 11 takes the allowed list only from package.json or a project .npmrc (older npm ignores it).
  printf 'allow-scripts=%s\n' "$NPM_ALLOW_SCRIPTS" >>"$dir/.npmrc"
  if (cd "$dir" && npm ci "${args[@]}"); then
    rm -f "$dir/.npmrc"
    return
  fi
  # npm 11 refuses a lock that lacks other platforms' optional packages (npm/cli#4828). npm install
  # fills those in; the tree it installs must still match the lock version for version.
  warn "npm ci failed; retrying with npm install on the same lock, then checking the versions against it"
  cp "$dir/package-lock.json" "$dir/.package-lock.committed.json"
  (cd "$dir" && npm install --no-save "${args[@]}")
  # shellcheck disable=SC2016 # JavaScript, not shell
  (cd "$dir" && node -e '
    const orig = require("./.package-lock.committed.json").packages;
    const got = require("./node_modules/.package-lock.json").packages;
    const bad = [];
    for (const [k, v] of Object.entries(got)) {
      if (k in orig ? orig[k].version !== v.version : !v.optional) bad.push(`${k}@${v.version} (lock: ${orig[k]?.version ?? "absent"})`);
    }
    for (const [k, v] of Object.entries(orig)) if (k && !v.dev && !v.optional && !v.devOptional && !(k in got)) bad.push(`${k} missing`);
    if (bad.length) { console.error("installed tree differs from package-lock.json:\n  " + bad.join("\n  ")); process.exit(1); }
  ') || die "npm install did not reproduce package-lock.json; regenerate the lock (npm install) and retry"
  mv -f "$dir/.package-lock.committed.json" "$dir/package-lock.json"
  rm -f "$dir/.npmrc"
}

# The native modules load with NODE: catches a missing build or an ABI mismatch before switching over.
check_native_modules() { # check_native_modules NODE DIR
  (cd "$2" && "$1" -e 'for (const m of process.argv.slice(1)) require(m)' "${NATIVE_MODULES[@]}") ||
    die "native modules of $2 do not load with $1 (${NATIVE_MODULES[*]})"
}

# ---- arguments ------------------------------------------------------------------------------

BUNDLE='' SOURCE='' ROOT='' NO_START=0 SKIP_NPM=0 UNINSTALL=0 WORKERS=()
while (($#)); do
  case $1 in
    --bundle) BUNDLE=${2:?--bundle needs a FILE}; shift 2 ;;
    --source) SOURCE=${2:?--source needs a DIR}; shift 2 ;;
    --root) ROOT=${2:?--root needs a DIR}; shift 2 ;;
    --workers) IFS=, read -r -a WORKERS <<<"${2:?--workers needs ROLES}"; shift 2 ;;
    --no-start) NO_START=1; shift ;;
    --skip-npm) SKIP_NPM=1; shift ;;
    --uninstall) UNINSTALL=1; shift ;;
    --copy-sources) # internal, for build-bundle.sh: copy_sources SRC DEST
      copy_sources "${2:?}" "${3:?}"
      exit 0 ;;
    --npm-install) # internal, for build-bundle.sh: npm ci --omit=dev in DIR, then load the native modules
      npm_install_prod "${2:?}"
      check_native_modules node "$2"
      exit 0 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done

case ${FOLIO_INSTALL_SYSTEMCTL:-} in
  '') STUB=0 ;;
  echo) STUB=1 ;;
  *) die "FOLIO_INSTALL_SYSTEMCTL must be unset or 'echo'" ;;
esac

if [[ -n $ROOT ]]; then
  mkdir -p "$ROOT"
  ROOT=$(cd "$ROOT" && pwd -P)
  [[ $ROOT != / ]] || ROOT=''
fi
PREFIX=$ROOT
[[ $PREFIX != *[[:space:]]* ]] || die "--root must not contain white space (systemd unit paths)"
readonly APP_DIR=$PREFIX/opt/folio
readonly ETC_DIR=$PREFIX/etc/folio
readonly ENV_FILE=$ETC_DIR/folio.env
readonly DATA_DIR=$PREFIX/var/lib/folio
readonly UNIT_DIR=$PREFIX/etc/systemd/system
# systemd manages the units only when they are where it reads them.
SYSTEMD=1
[[ -z $ROOT ]] || SYSTEMD=0

if ((!UNINSTALL)); then
  [[ -n $BUNDLE || -n $SOURCE ]] || { usage >&2; die "give --bundle FILE or --source DIR"; }
  [[ -z $BUNDLE || -z $SOURCE ]] || die "give only one of --bundle and --source"
  ((!SKIP_NPM)) || [[ -n $SOURCE ]] || die "--skip-npm goes with --source"
  if [[ -n $BUNDLE ]]; then
    [[ -f $BUNDLE ]] || die "no such bundle: $BUNDLE"
    BUNDLE=$(cd "$(dirname "$BUNDLE")" && pwd -P)/$(basename "$BUNDLE")
  else
    [[ -d $SOURCE ]] || die "no such directory: $SOURCE"
    SOURCE=$(cd "$SOURCE" && pwd -P)
  fi
  for role in "${WORKERS[@]}"; do
    [[ " ${WORKER_ROLES[*]} " == *" $role "* ]] || die "unknown worker role '$role' (${WORKER_ROLES[*]})"
  done
fi

# ---- prerequisites --------------------------------------------------------------------------

# Fatal on a real install, a warning in stub mode.
require() { # require CONDITION-MESSAGE (returns after warning in stub mode)
  if ((STUB)); then warn "$1 (ignored: FOLIO_INSTALL_SYSTEMCTL=echo)"; else die "$1"; fi
}

check_prerequisites() {
  local id='' version_id=''
  if [[ -r /etc/os-release ]]; then
    # shellcheck disable=SC1091
    id=$(. /etc/os-release && echo "${ID:-}") version_id=$(. /etc/os-release && echo "${VERSION_ID:-}")
  fi
  if ((!UNINSTALL)) && [[ $id != debian || $version_id != 12 ]]; then
    require "this installer supports Debian 12 only (found ${id:-unknown} ${version_id:-})"
  fi
  [[ $(id -u) == 0 ]] || require "run as root (sudo)"
  if ((SYSTEMD)) && [[ ! -d /run/systemd/system ]]; then
    require "systemd is not running on this host"
  fi
  if [[ -n $SOURCE ]]; then
    command -v node >/dev/null || die "node >= $MIN_NODE is needed on PATH with --source (or use --bundle)"
    local v
    v=$(node -p process.versions.node)
    version_ge "$v" "$MIN_NODE" || die "node $v on PATH is older than $MIN_NODE"
    ((SKIP_NPM)) || command -v npm >/dev/null || die "npm is needed with --source"
  fi
  # --bundle: the bundle's own bin/node is checked once extracted (install_app).
}

# ---- Debian packages ------------------------------------------------------------------------

install_packages() {
  local missing=() pkg
  for pkg in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || missing+=("$pkg")
  done
  if ((${#missing[@]} == 0)); then
    log "Debian packages present: ${APT_PACKAGES[*]}"
    return
  fi
  log "installing Debian packages: ${missing[*]}"
  host apt-get update -qq
  host env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# ---- user -----------------------------------------------------------------------------------

create_user() {
  if [[ -n $ROOT ]]; then
    log "--root: not creating the folio user"
  elif getent passwd folio >/dev/null; then
    log "user folio exists"
  else
    host useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home --shell /usr/sbin/nologin \
      --comment 'Folio document appliance' folio
  fi
}

# chown only on a real host install (no user exists under --root).
own() { # own OWNER PATH...
  [[ -z $ROOT ]] || return 0
  host chown "$@"
}

# ---- application ----------------------------------------------------------------------------

APP_CHANGED=0
STAGE=''
cleanup() { [[ -z $STAGE ]] || rm -rf "$STAGE"; }
trap cleanup EXIT

# Identifies what would be installed: same id, nothing to do.
release_id() {
  if [[ -n $BUNDLE ]]; then
    printf 'bundle %s\n' "$(sha256sum <"$BUNDLE" | cut -d' ' -f1)"
  else
    local files
    files=$(source_files "$SOURCE" | (cd "$SOURCE" && xargs -0 sha256sum) | sha256sum | cut -d' ' -f1)
    printf 'source %s lock %s node %s skip-npm %s\n' "$files" \
      "$(sha256sum <"$SOURCE/package-lock.json" | cut -d' ' -f1)" "$(command -v node)" "$SKIP_NPM"
  fi
}

install_app() {
  local release app
  release=$(release_id)
  if [[ -f $APP_DIR/.folio-release && "$(<"$APP_DIR/.folio-release")" == "$release" ]]; then
    log "application in $APP_DIR is up to date"
    return
  fi
  mkdir -p "$(dirname "$APP_DIR")"
  STAGE=$(mktemp -d "$(dirname "$APP_DIR")/.folio-stage.XXXXXX")
  app=$STAGE/folio
  mkdir "$app"
  if [[ -n $BUNDLE ]]; then
    log "unpacking $BUNDLE"
    tar -C "$app" --strip-components=1 --no-same-owner -xzf "$BUNDLE"
    [[ -x $app/bin/node && -d $app/node_modules && -f $app/appliance/main.ts ]] || die "$BUNDLE is not a Folio bundle"
  else
    log "copying sources from $SOURCE"
    copy_sources "$SOURCE" "$app"
    if [[ -f $app/console/web/vite.config.ts && ! -f $app/console/web/dist/index.html ]]; then
      warn "the operator console is not built in $SOURCE (npx vite build --config console/web/vite.config.ts); /console/ will say so"
    fi
    mkdir -p "$app/bin"
    ln -s "$(command -v node)" "$app/bin/node"
    if ((SKIP_NPM)); then
      [[ -d $SOURCE/node_modules ]] || die "--skip-npm: $SOURCE/node_modules is missing"
      ln -s "$SOURCE/node_modules" "$app/node_modules"
    else
      log "npm ci --omit=dev in $app"
      npm_install_prod "$app"
    fi
  fi
  local v
  v=$("$app/bin/node" -p process.versions.node) || die "$app/bin/node does not run on this host"
  version_ge "$v" "$MIN_NODE" || die "node $v of the application is older than $MIN_NODE"
  check_native_modules "$app/bin/node" "$app"
  printf '%s\n' "$release" >"$app/.folio-release"
  if [[ -d $APP_DIR ]]; then
    mv "$APP_DIR" "$STAGE/previous"
  fi
  mv "$app" "$APP_DIR"
  rm -rf "$STAGE"
  STAGE=''
  APP_CHANGED=1
  log "installed $(app_version) in $APP_DIR (node $v)"
}

app_version() {
  "$APP_DIR/bin/node" -p 'require(process.argv[1]).version' "$APP_DIR/package.json" 2>/dev/null || echo unknown
}

# ---- configuration and data -----------------------------------------------------------------

# Last active value of KEY in the env file, or nothing.
env_value() {
  [[ -f $ENV_FILE ]] || return 0
  sed -n "s/^[[:space:]]*$1=//p" "$ENV_FILE" | tail -n1 | tr -d "\"'"
}

write_env_file() {
  local defaults=$APP_DIR/installer/bundle.env
  mkdir -p "$ETC_DIR"
  if [[ -e $ENV_FILE ]]; then
    log "kept $ENV_FILE (never overwritten)"
    if [[ -f $defaults ]]; then
      local key value
      while IFS='=' read -r key value; do
        [[ -n $key && $key != \#* ]] || continue
        [[ "$(env_value "$key")" == "$value" ]] || warn "this bundle sets $key=$value; $ENV_FILE does not (edit it if it should)"
      done <"$defaults"
    fi
    return
  fi
  local template content tmp
  template=$(<"$APP_DIR/installer/folio.env.in")
  content=${template//@DATA_DIR@/$DATA_DIR}
  content=${content//@APP_DIR@/$APP_DIR}
  tmp=$(mktemp "$ETC_DIR/.folio.env.XXXXXX")
  printf '%s\n' "$content" >"$tmp"
  if [[ -f $defaults ]]; then
    { printf '\n# ---- Set by the bundle (%s) ----\n' "$(sed -n 's/^bundle=//p' "$APP_DIR/BUILD_INFO" 2>/dev/null)"
      grep -v '^[[:space:]]*$' "$defaults"; } >>"$tmp"
  fi
  chmod 640 "$tmp"
  own root:folio "$tmp"
  mv "$tmp" "$ENV_FILE"
  log "wrote $ENV_FILE"
}

make_data_dir() {
  if [[ ! -d $DATA_DIR ]]; then
    mkdir -p "$DATA_DIR"
    chmod 750 "$DATA_DIR"
    own folio:folio "$DATA_DIR"
    log "created $DATA_DIR"
  fi
}

# ---- systemd units --------------------------------------------------------------------------

UNITS_CHANGED=0

write_unit() { # write_unit NAME CONTENT: replaces the file only when its content differs
  local file=$UNIT_DIR/$1 tmp
  mkdir -p "$UNIT_DIR"
  if [[ -f $file && "$(<"$file")" == "$2" ]]; then
    return
  fi
  tmp=$(mktemp "$UNIT_DIR/.$1.XXXXXX")
  printf '%s\n' "$2" >"$tmp"
  chmod 644 "$tmp"
  mv "$tmp" "$file"
  UNITS_CHANGED=1
  log "wrote $file"
}

write_units() {
  local build_id common
  build_id="folio-$(app_version)"
  [[ ! -f $APP_DIR/installer/bundle.env ]] || build_id+=-airgapped
  # Shared by both units. The environment file wins over Environment= lines.
  common="User=folio
Group=folio
WorkingDirectory=$APP_DIR
Environment=NODE_ENV=production
Environment=FOLIO_BUILD_ID=$build_id
# glibc malloc arenas (core/runtime.ts RUNTIME_ENV): keeps a long document's worker from growing.
Environment=MALLOC_ARENA_MAX=2
EnvironmentFile=$ENV_FILE
Restart=on-failure
RestartSec=2
# Exit 2 is a configuration error: restarting cannot fix it.
RestartPreventExitStatus=2
# How systemctl stop works (test/reliability/stop-signals.test.ts replays it): KillMode=mixed sends
# SIGTERM to the main process only; the appliance stops taking work, its workers finish their
# tasks within FOLIO_DRAIN_SECONDS (default 20), then it stops its private redis-server and exits 0
# within FOLIO_DRAIN_SECONDS + 4 s, killing any child still running at that point itself. Only
# after TimeoutStopSec does systemd SIGKILL what is left in the control group: keep it above
# FOLIO_DRAIN_SECONDS + 10 when raising the drain limit.
KillMode=mixed
TimeoutStopSec=90
LimitNOFILE=65536
NoNewPrivileges=true
PrivateTmp=true
ProtectSystem=full"

  write_unit folio.service "# Written by folio installer/install.sh; local changes belong in a drop-in
# (systemctl edit folio).
[Unit]
Description=Folio document appliance (HTTP API, orchestrator, supervised workers and Redis)
Documentation=file://$APP_DIR/README.md
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
ExecStart=$APP_DIR/bin/node --import tsx --import ./core/no-source-maps.ts appliance/main.ts
$common

[Install]
WantedBy=multi-user.target"

  write_unit folio-worker@.service "# Written by folio installer/install.sh; local changes belong in a drop-in.
# One worker process of role %i (inference or document) on a scale-out host, against the shared
# Redis of REDIS_URL in $ENV_FILE. The appliance host then sets FOLIO_SPAWN_WORKERS=false.
[Unit]
Description=Folio %i worker
Documentation=file://$APP_DIR/README.md
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
ExecStart=$APP_DIR/bin/node --import tsx --import ./core/no-source-maps.ts worker/main.ts %i
Environment=FOLIO_WORKER_ID=%H-%i
$common

[Install]
WantedBy=multi-user.target"
}

# ---- systemctl ------------------------------------------------------------------------------

start_services() {
  if ((!SYSTEMD && !STUB)); then
    log "--root: units written to $UNIT_DIR, not enabled (systemd does not read $PREFIX)"
    return
  fi
  host systemctl daemon-reload
  local now=(--now) units=()
  ((!NO_START)) || now=()
  if ((${#WORKERS[@]})); then
    local role
    for role in "${WORKERS[@]}"; do units+=("folio-worker@$role.service"); done
    if [[ -z "$(env_value REDIS_URL)" ]]; then
      warn "REDIS_URL is not set in $ENV_FILE: workers enabled but not started"
      now=()
    fi
  else
    units=(folio.service)
  fi
  # A running service picks up a new application or new units; a stopped one stays stopped here.
  if ((APP_CHANGED || UNITS_CHANGED)); then
    host systemctl try-restart folio.service 'folio-worker@*.service'
  fi
  host systemctl enable "${now[@]}" "${units[@]}"
}

wait_healthy() {
  local port body deadline=$((SECONDS + HEALTH_TIMEOUT_S))
  port=$(env_value PORT)
  port=${port:-8080}
  log "waiting for http://localhost:$port/health (up to ${HEALTH_TIMEOUT_S} s)"
  while ((SECONDS < deadline)); do
    if body=$(curl -fsS --max-time 5 "http://localhost:$port/health" 2>/dev/null) && [[ $body == *'"status":"ok"'* ]]; then
      log "healthy: $body"
      return
    fi
    sleep 2
  done
  body=$(curl -sS --max-time 5 "http://localhost:$port/health" 2>&1 || true)
  die "folio is not healthy after ${HEALTH_TIMEOUT_S} s (last answer: ${body:-none}); see journalctl -u folio"
}

next_steps() {
  local port
  port=$(env_value PORT)
  port=${port:-8080}
  if ((${#WORKERS[@]})); then
    cat <<EOF

Folio workers installed (${WORKERS[*]}).
  1. In $ENV_FILE set REDIS_URL (the appliance's shared Redis) and FOLIO_STORAGE_URI
     (a store every host reaches), as on the appliance host.
  2. systemctl enable --now$(printf ' folio-worker@%s' "${WORKERS[@]}")
  3. On the appliance host: FOLIO_SPAWN_WORKERS=false and FOLIO_GPU_WORKERS_EXPECTED /
     FOLIO_DOCUMENT_WORKERS_EXPECTED counting every host's workers; its /health shows them alive.
  Logs: journalctl -u 'folio-worker@*' -f
EOF
    return
  fi
  cat <<EOF

Folio $(app_version) is installed.
  API:            http://localhost:$port   (curl -s localhost:$port/health; curl -s localhost:$port/pco/v1/status)
  Configuration:  $ENV_FILE   then: systemctl restart folio
  Data:           $DATA_DIR   (SQLite ledger, private Redis, local result store)
  Logs:           journalctl -u folio -f
  Console:        cd $APP_DIR && bin/node --import tsx console/folio.ts status
  Scale-out:      install.sh --workers inference,document on other hosts (see --help)
  Uninstall:      $APP_DIR/installer/install.sh --uninstall${ROOT:+ --root $ROOT}   (keeps $ETC_DIR and $DATA_DIR)
Debian's own redis-server.service (127.0.0.1:6379) is not used by Folio unless REDIS_URL names it;
disable it with "systemctl disable --now redis-server" if nothing else needs it.
EOF
}

# ---- uninstall ------------------------------------------------------------------------------

uninstall() {
  if ((SYSTEMD || STUB)); then
    local link instances=()
    for link in "$UNIT_DIR"/*.wants/folio-worker@*.service; do
      [[ -e $link || -L $link ]] || continue
      instances+=("$(basename "$link")")
    done
    if [[ -f $UNIT_DIR/folio.service ]]; then
      host systemctl disable --now folio.service
    fi
    if [[ -f $UNIT_DIR/folio-worker@.service ]]; then
      host systemctl stop 'folio-worker@*.service'
      if ((${#instances[@]})); then
        mapfile -t instances < <(printf '%s\n' "${instances[@]}" | sort -u)
        host systemctl disable "${instances[@]}"
      fi
    fi
  fi
  rm -f "$UNIT_DIR/folio.service" "$UNIT_DIR/folio-worker@.service"
  if ((SYSTEMD || STUB)); then
    host systemctl daemon-reload
  fi
  log "removed the units from $UNIT_DIR"
  if [[ -f $APP_DIR/.folio-release ]]; then
    rm -rf "$APP_DIR"
    log "removed $APP_DIR"
  elif [[ -e $APP_DIR ]]; then
    warn "left $APP_DIR in place: it has no .folio-release marker"
  fi
  log "kept $ETC_DIR, $DATA_DIR and the folio user (remove them by hand to erase everything)"
}

# ---- main -----------------------------------------------------------------------------------

check_prerequisites
if ((UNINSTALL)); then
  uninstall
  exit 0
fi
install_packages
create_user
install_app
write_env_file
make_data_dir
write_units
start_services
if ((!NO_START && !STUB && SYSTEMD)) && ((${#WORKERS[@]} == 0)); then
  wait_healthy
elif ((${#WORKERS[@]} == 0)); then
  log "not started: skipping the /health check"
fi
next_steps
