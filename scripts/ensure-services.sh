#!/usr/bin/env bash
# Makes sure PostgreSQL and NATS (with JetStream) answer on this machine, for the local run and CI
# (with NATS_PROGRAM_ONLY set, only that nats-server is installed: `npm start` runs its own).
# Starts them when they are installed but stopped; installs them from Debian's packages when
# missing and running as root; otherwise says exactly what to install.
set -euo pipefail

PG_HOST=${PG_HOST:-127.0.0.1}
PG_PORT=${PG_PORT:-5432}
NATS_HOST=${NATS_HOST:-127.0.0.1}
NATS_PORT=${NATS_PORT:-4222}

port_open() { timeout 2 bash -c "echo > /dev/tcp/$1/$2" 2>/dev/null; }
is_root() { [ "$(id -u)" = 0 ]; }
wait_port() {
  for _ in $(seq 1 30); do port_open "$1" "$2" && return 0; sleep 1; done
  echo "$3 did not start answering on $1:$2" >&2
  return 1
}
apt_install() {
  if ! is_root; then
    echo "$1 is not installed. Install it with: sudo apt-get install -y $2" >&2
    exit 1
  fi
  echo "Installing $2 from Debian's packages..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
}

if ! port_open "$PG_HOST" "$PG_PORT"; then
  fresh_install=0
  if ! command -v pg_ctlcluster >/dev/null; then
    apt_install PostgreSQL postgresql
    fresh_install=1
  fi
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  if [ "$fresh_install" = 1 ]; then
    # A fresh install asks for a password over TCP; the local run connects as postgres without one.
    sed -i '1i host all postgres 127.0.0.1/32 trust' "/etc/postgresql/$version/main/pg_hba.conf"
    echo "Allowed passwordless local TCP connections for the postgres user (development machine)."
  fi
  echo "Starting PostgreSQL $version..."
  if is_root; then
    pg_ctlcluster --skip-systemctl-redirect "$version" main start
  else
    echo "PostgreSQL is stopped. Start it with: sudo pg_ctlcluster $version main start" >&2
    exit 1
  fi
  wait_port "$PG_HOST" "$PG_PORT" PostgreSQL
fi

if [ -n "${NATS_PROGRAM_ONLY:-}" ]; then
  # `npm start` runs a NATS server of the system's own (scripts/local-nats.cjs): install it only.
  if ! command -v nats-server >/dev/null && [ ! -x /usr/sbin/nats-server ]; then
    apt_install "NATS server" nats-server
  fi
elif ! port_open "$NATS_HOST" "$NATS_PORT"; then
  if ! command -v nats-server >/dev/null && [ ! -x /usr/sbin/nats-server ]; then
    apt_install "NATS server" nats-server
  fi
  bin=$(command -v nats-server || echo /usr/sbin/nats-server)
  if is_root; then
    mkdir -p /var/lib/nats-server
    echo "Starting NATS with JetStream..."
    start-stop-daemon --start --oknodo --background --exec "$bin" -- \
      -a "$NATS_HOST" -p "$NATS_PORT" -js -sd /var/lib/nats-server -l /var/log/nats-server.log
  else
    dir="${XDG_DATA_HOME:-$HOME/.local/share}/classroom-monitor/nats"
    mkdir -p "$dir"
    echo "Starting NATS with JetStream (data in $dir)..."
    nohup "$bin" -a "$NATS_HOST" -p "$NATS_PORT" -js -sd "$dir" -l "$dir/nats.log" >/dev/null 2>&1 &
  fi
  wait_port "$NATS_HOST" "$NATS_PORT" NATS
fi
