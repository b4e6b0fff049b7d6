#!/usr/bin/env bash
# Requests per second of the release HummingbirdFlagsExample, measured with wrk on this machine:
# a route that reads two targeted flags for a random user per request, and a route that reads none.
# Prints wrk's summary and the CPU time wrk itself used. Run from the repository's root:
#   bash Integration/Examples/HummingbirdFlags/load/measure.sh [DURATION_SECONDS] [CONNECTIONS]
set -euo pipefail
duration=${1:-10}
connections=${2:-32}
here=Integration/Examples/HummingbirdFlags/load
command -v wrk >/dev/null || { echo "needs wrk (apt-get install wrk)"; exit 1; }

RC_DEVELOPMENT=1 swift build -c release --product HummingbirdFlagsExample --scratch-path .build-server >/dev/null
binary=$(RC_DEVELOPMENT=1 swift build -c release --scratch-path .build-server --show-bin-path)/HummingbirdFlagsExample

work=$(mktemp -d)
cleanup() {
  [ -n "${server_pid:-}" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  [ -n "${config_pid:-}" ] && kill "$config_pid" 2>/dev/null && wait "$config_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The configuration server: the targeting payload from a plain static file server on a free port.
cp "$here/flags.json" "$work/flags.json"
config_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
python3 -m http.server "$config_port" --bind 127.0.0.1 --directory "$work" >/dev/null 2>&1 &
config_pid=$!
for _ in $(seq 50); do python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$config_port/flags.json')" 2>/dev/null && break; sleep 0.1; done

LOG_LEVEL=warning "$binary" "http://127.0.0.1:$config_port/flags.json" --port 0 >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do grep -q "^Listening on " "$work/server.log" && break; sleep 0.1; done
base=$(sed -n 's/^Listening on //p' "$work/server.log" | head -1)
[ -n "$base" ] || { cat "$work/server.log"; exit 1; }
echo "server: $base (pid $server_pid), $(nproc) cores, wrk -t1 -c$connections -d${duration}s"
curl -s -H "X-User-ID: user-42" -H "X-Country: DE" "$base/flags"; echo

run() {  # run NAME PATH [wrk arguments…]: wrk's summary, then its own CPU seconds
  local name=$1 path=$2; shift 2
  wrk -t1 -c5 -d2s "$@" "$base$path" >/dev/null  # warm-up
  local start end
  start=$(awk '{print $14+$15}' /proc/$server_pid/stat)
  /usr/bin/time -f "wrk cpu: %U s user + %S s sys over %e s" wrk -t1 -c"$connections" -d"${duration}s" --latency "$@" "$base$path" 2>&1 |
    grep -E "Requests/sec|Latency|50%|99%|requests in|wrk cpu|Socket errors|Non-2xx"
  end=$(awk '{print $14+$15}' /proc/$server_pid/stat)
  awk -v t="$(getconf CLK_TCK)" -v a="$start" -v b="$end" 'BEGIN { printf "server cpu: %.1f s\n", (b - a) / t }'
  echo "  ^ $name"
}
run "GET /flags (two targeted flags per request, a random user each)" /flags -s "$here/random-users.lua"
run "GET /ping (no flag read; same middleware and headers)" /ping -s "$here/random-users.lua"
