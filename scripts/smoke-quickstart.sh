#!/usr/bin/env bash
# Runs the README's quick start (`npm run demo`) on the embedded default in a throwaway data folder and
# checks that it serves: readiness, the start message, the sign-in page, the demo data, and a token made
# with the CLI next to the running server.
set -euo pipefail
cd "$(dirname "$0")/.."
data=$(mktemp -d)
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
log="$data/runway.log"
setsid env -u DATABASE_URL RUNWAY_DATA_DIR="$data" PORT="$port" RUNWAY_EXTERNAL_URL="http://127.0.0.1:$port" \
  INITIAL_ROOT_PASSWORD=smoke-test-password npm run demo >"$log" 2>&1 &
pid=$!
# setsid gave npm and the server their own process group: stop all of it.
cleanup() { kill -- -"$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$data"; }
trap cleanup EXIT
for _ in $(seq 1 180); do
  curl -fsS "http://127.0.0.1:$port/-/readiness" >/dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "smoke: runway exited"; exit 1; }
  sleep 1
done
curl -fsS "http://127.0.0.1:$port/-/readiness" | grep -q '"status":"ok"'
grep -q "Sign in at http://127.0.0.1:$port/sign-in" "$log" || { cat "$log"; echo "smoke: no sign-in line"; exit 1; }
# The README promises the demo users and the pages to open first in the start message.
for line in "Demo users, all with the password runway-demo-password:" "http://127.0.0.1:$port/admin/runners" \
  "http://127.0.0.1:$port/-/user_settings/personal_access_tokens"; do
  grep -qF "$line" "$log" || { cat "$log"; echo "smoke: start message lacks: $line"; exit 1; }
done
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/sign-in")
[ "$code" = 200 ] || { echo "smoke: /sign-in answered $code"; exit 1; }
# The demo is in place: its public project with its imported history, visible without signing in.
projects=$(curl -fsS "http://127.0.0.1:$port/api/v4/projects?search=website")
echo "$projects" | grep -q '"path_with_namespace":"acme/web/website"' || { echo "smoke: demo project missing: $projects"; exit 1; }
commits=$(curl -fsS "http://127.0.0.1:$port/api/v4/projects/acme%2Fweb%2Fwebsite/repository/commits?per_page=5")
echo "$commits" | grep -q '"short_id"' || { echo "smoke: demo history missing: $commits"; exit 1; }
# The README's next step, next to the running server: a token from the CLI, used over HTTP.
token=$(env -u DATABASE_URL RUNWAY_DATA_DIR="$data" npx runway create-token --username root --scopes api 2>>"$log")
curl -fsS -H "PRIVATE-TOKEN: $token" "http://127.0.0.1:$port/api/v4/user" | grep -q '"username":"root"' \
  || { cat "$log"; echo "smoke: the CLI's token does not authenticate"; exit 1; }
# A quiet terminal: readable text, no line per request; those are JSON lines in the data folder's log/requests.log.
grep -q '"msg":"request"' "$log" && { cat "$log"; echo "smoke: request lines in the terminal"; exit 1; }
grep -qF "Requests are logged to $data/log/requests.log" "$log" || { cat "$log"; echo "smoke: start message lacks the request log"; exit 1; }
grep -q '"msg":"request".*"path":"/api/v4/user".*"status":200' "$data/log/requests.log" \
  || { cat "$data/log/requests.log"; echo "smoke: the request log file lacks GET /api/v4/user"; exit 1; }
[ "$(stat -c %a "$data/log/requests.log")" = 600 ] || { echo "smoke: the request log file is not 0600"; exit 1; }
echo "smoke: quick start serves on the embedded database with the demo (port $port)"
