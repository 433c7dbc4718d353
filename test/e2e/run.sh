#!/usr/bin/env bash
# The packaged extension in a real VS Code (code-server 4.100.3 = VS Code 1.100.3), driven by Debian's
# Chromium through playwright-core (a dev dependency). Offline: npm registry and Debian apt only.
# Adapted from ../shared/tools/vscode-e2e/run.sh.
#
#   npm run test:e2e        (screenshots in test-results/e2e)
#
# Installs are cached under $E2E_ROOT (delete $E2E_ROOT/cs/.ready-* to force a reinstall).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
ROOT="${E2E_ROOT:-$HOME/.cache/vscode-e2e}" # cacheable install location
CS_VERSION="${CS_VERSION:-4.100.3}"       # 4.96.x-4.100.x run on Node 20
PORT="${PORT:-8780}"
SHOTS="${SHOTS:-$REPO/test-results/e2e}"
RUN="$(mktemp -d)"                        # fresh VS Code profile + workspace for every run

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}'; }
timed() { local label="$1" T; shift; T=$(now); "$@"; echo "TIMING   $label: $(since "$T")s"; }
T_ALL=$(now)

# node-gyp must use the locally installed Node headers; without a nodedir it downloads them from nodejs.org.
NODE_PREFIX="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
[ -f "$NODE_PREFIX/include/node/node_api.h" ] || { echo "Node headers missing in $NODE_PREFIX/include/node" >&2; exit 1; }
export npm_config_nodedir="$NODE_PREFIX" npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

# ---- 0. Debian packages (once per machine/image) -------------------------------------------------------
need=()
command -v chromium >/dev/null || need+=(chromium)
command -v rg       >/dev/null || need+=(ripgrep)
command -v make >/dev/null && command -v g++ >/dev/null || need+=(build-essential)
command -v python3  >/dev/null || need+=(python3)
command -v curl     >/dev/null || need+=(curl)
if [ ${#need[@]} -gt 0 ]; then
  T=$(now)
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}"
  echo "TIMING apt-get install ${need[*]}: $(since "$T")s"
fi

# ---- 1. code-server, without its postinstall (which downloads from GitHub) ------------------------------
CS="$ROOT/cs/node_modules/code-server"
if [ ! -f "$ROOT/cs/.ready-$CS_VERSION" ]; then
  T=$(now)
  rm -rf "$ROOT/cs"; mkdir -p "$ROOT/cs"; cd "$ROOT/cs"
  echo '{"private":true}' > package.json
  timed "npm install code-server" npm install --ignore-scripts --no-audit --no-fund "code-server@$CS_VERSION"
  # argon2 is loaded at startup; skip node-pre-gyp's GitHub download, compile it (~5 s)
  timed "build argon2" env npm_config_build_from_source=true npm rebuild argon2
  cd "$CS/lib/vscode"
  timed "npm install lib/vscode" npm install --omit=dev --ignore-scripts --no-audit --no-fund  # @parcel/watcher comes prebuilt
  mkdir -p node_modules/@vscode/ripgrep/bin
  cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg      # instead of @vscode/ripgrep's GitHub download
  # Native modules, compiled with npm's bundled node-gyp (node-pty's own postinstall runs `npx node-gyp`, avoid):
  #   node-pty = terminals/tasks, @vscode/spdlog = server log files (slowest), native-watchdog = ext-host watchdog.
  #   None of them is needed to start the server or run an extension; kerberos/deviceid/windows-* are not needed.
  NODE_GYP="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")/node_modules/node-gyp/bin/node-gyp.js"
  for m in node-pty native-watchdog @vscode/spdlog; do
    timed "build $m" sh -c 'cd "node_modules/$1" && node "$2" rebuild -j max >"$3" 2>&1 || { cat "$3"; exit 1; }' \
      _ "$m" "$NODE_GYP" "$ROOT/cs/gyp-${m##*/}.log"
  done
  # what code-server's postinstall.sh would have done:
  ln -sfn node_modules node_modules.asar
  ln -sfn code-linux.sh bin/remote-cli/code-server
  ln -sfn browser-linux.sh bin/helpers/browser.sh
  cd extensions
  timed "npm install lib/vscode/extensions" npm install --omit=dev --no-audit --no-fund  # typescript for built-in TS/JS features
  touch "$ROOT/cs/.ready-$CS_VERSION"
  echo "TIMING install code-server: $(since "$T")s"
fi

# ---- 2. package the extension (vsce runs the production build), install it into a fresh profile -----
T=$(now)
cd "$REPO"
npx vsce package --no-dependencies -o "$RUN/ext.vsix" >/dev/null
mkdir -p "$RUN/ud/User" "$RUN/exts" "$RUN/ws"
# VS Code for the Web saves an edit after a second by default (files.autoSave afterDelay); the desktop, which
# the steps imitate (an edit stays unsaved until Ctrl+S, File: Revert File takes it back), does not.
cat > "$RUN/ud/User/settings.json" <<'JSON'
{
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "update.mode": "none",
  "security.workspace.trust.enabled": false,
  "terminal.integrated.gpuAcceleration": "off",
  "git.enabled": false,
  "files.autoSave": "off"
}
JSON
# the workspace: the examples plus the e2e's own files (a hostile name, a Helm chart, tolerationSeconds)
cp -r "$REPO/examples/." "$RUN/ws/"
cp -r "$HERE/workspace/." "$RUN/ws/"
# a key for the walkthrough by its id (the palette cannot pass a command its argument)
cat > "$RUN/ud/User/keybindings.json" <<'JSON'
[{ "key": "ctrl+alt+shift+w", "command": "workbench.action.openWalkthrough", "args": "kube-failure-sim.kube-failure-sim#gettingStarted" }]
JSON
# keep code-server / VS Code / Chromium from writing into $HOME (~/.config, ~/.local/share, ~/.cache)
export XDG_CONFIG_HOME="$RUN/xdg/config" XDG_DATA_HOME="$RUN/xdg/data" XDG_CACHE_HOME="$RUN/xdg/cache"
CSARGS=(--config "$RUN/config.yaml" --user-data-dir "$RUN/ud" --extensions-dir "$RUN/exts")
node "$CS/out/node/entry.js" "${CSARGS[@]}" --install-extension "$RUN/ext.vsix"
echo "TIMING package+install extension: $(since "$T")s"

# ---- 3. start code-server on 127.0.0.1 in its own process group ----------------------------------------
T=$(now)
setsid node "$CS/out/node/entry.js" "${CSARGS[@]}" --auth none --bind-addr "127.0.0.1:$PORT" \
  --disable-telemetry --disable-update-check --disable-workspace-trust "$RUN/ws" \
  >"$RUN/server.log" 2>&1 </dev/null &
SERVER_PID=$!
rc=1
# on exit: kill the whole process group (server, extension host, file watcher, pty host); keep $RUN only on failure
trap 'kill -- -"$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; [ "$rc" = 0 ] && [ -z "${KEEP_RUN:-}" ] && rm -rf "$RUN"; true' EXIT
until curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz"; do
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$RUN/server.log"; echo "code-server exited" >&2; exit 1; }
  [ "$(since "$T" | cut -d. -f1)" -lt 60 ] || { echo "code-server not healthy after 60 s" >&2; exit 1; }
  sleep 0.1
done
echo "TIMING server start: $(since "$T")s"

# ---- 4. E2E -------------------------------------------------------------------------------------------
T=$(now)
rc=0
echo "VS Code logs: $RUN/ud/logs"
CS_URL="http://127.0.0.1:$PORT/" SHOTS="$SHOTS" WS="$RUN/ws" LOGS="$RUN/ud/logs" node "$HERE/extension.e2e.js" || rc=$?
echo "TIMING e2e: $(since "$T")s"
echo "TIMING total: $(since "$T_ALL")s"
[ "$rc" = 0 ] || echo "FAILED: server log $RUN/server.log, VS Code logs $RUN/ud/logs, screenshots $SHOTS" >&2
exit $rc
