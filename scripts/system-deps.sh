#!/usr/bin/env bash
# What the tests need from the system, installed and started if missing (idempotent):
# Debian's Chromium and its headless shell (the browser tests run in the shell), a PostgreSQL
# server for the database tests, nginx for the deployment test (tests/deploy: it runs its own
# nginx with deploy/nginx.conf), bubblewrap, which contains `linebyline check` (the tests also
# run it without, on purpose), and tmux, the real terminal a terminal learner's test types into
# (tests/browser/test_terminal_learner.py).
# Needs root (as on the development machines and CI); prints what it does.
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromium-headless-shell >/dev/null 2>&1 || need+=(chromium-headless-shell)
command -v pg_ctlcluster >/dev/null 2>&1 || need+=(postgresql)
command -v npm >/dev/null 2>&1 || need+=(npm)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || need+=(nginx)
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
command -v tmux >/dev/null 2>&1 || need+=(tmux)
# A Python that `nobody` may run, for the tests that run the CLI as another user (tests/other_user.py):
# the venv's own may sit where only root can read (a pyenv under /root).
[ -x /usr/bin/python3 ] || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  echo "Installing ${need[*]} with apt-get…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" fonts-dejavu-core >/dev/null
  # The package may start its default site on port 80: the test starts its own nginx instead.
  if [[ " ${need[*]} " == *" nginx "* ]]; then
    invoke-rc.d nginx stop >/dev/null 2>&1 || true
  fi
fi

# Start the PostgreSQL cluster and make a role the tests can create databases with.
cluster=$(pg_lsclusters --no-header | awk 'NR==1 {print $1" "$2}')
if [ -z "$cluster" ]; then
  version=$(ls /usr/lib/postgresql | sort -n | tail -1)
  pg_createcluster "$version" main >/dev/null
  cluster="$version main"
fi
pg_ctlcluster $cluster start 2>/dev/null || true
for _ in $(seq 30); do
  pg_isready -q -h 127.0.0.1 && break
  sleep 0.5
done
su postgres -c "psql -q -tAc \"SELECT 1 FROM pg_roles WHERE rolname='linebyline'\"" | grep -q 1 ||
  su postgres -c "psql -q -c \"CREATE ROLE linebyline LOGIN PASSWORD 'linebyline' CREATEDB\""
su postgres -c "psql -q -tAc \"SELECT 1 FROM pg_database WHERE datname='linebyline'\"" | grep -q 1 ||
  su postgres -c "createdb -O linebyline linebyline"
echo "Chromium: $(chromium --version 2>/dev/null | head -1); PostgreSQL: ready on 127.0.0.1:5432;" \
  "$( (/usr/sbin/nginx -v || nginx -v) 2>&1 | head -1); $(bwrap --version)"
