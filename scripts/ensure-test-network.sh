#!/usr/bin/env bash
# The router of the tests' device lab: a network namespace joined to this one by one veth pair,
# made once, with a route for 198.18.0.0/15 through it. Each test's lab then hangs its own
# namespace off this router, so a test adds and removes links only inside namespaces: a browser
# on this machine sees an interface appear or an address change and drops every request it has
# under way (net::ERR_NETWORK_CHANGED), so tests beside it would fail.
# Idempotent and safe to run from several tests at once; CI runs it before any test starts.
set -euo pipefail

ROUTER=cm-lab
exec 9>/tmp/cm-test-network.lock
flock -w 30 9

if ip -n "$ROUTER" link show uplink >/dev/null 2>&1 && ip link show cmlab0 2>/dev/null | grep -q 'state UP'; then
  exit 0
fi

ip netns del "$ROUTER" 2>/dev/null || true
ip link del cmlab0 2>/dev/null || true
ip netns add "$ROUTER"
ip link add cmlab0 type veth peer name uplink netns "$ROUTER"
# A link-local IPv6 address would arrive a second or two later, one more change a browser sees.
sysctl -qw net.ipv6.conf.cmlab0.disable_ipv6=1
ip addr add 198.18.0.1/24 dev cmlab0
ip link set cmlab0 up
ip -n "$ROUTER" addr add 198.18.0.2/24 dev uplink
ip -n "$ROUTER" link set uplink up
ip -n "$ROUTER" link set lo up
ip netns exec "$ROUTER" sysctl -qw net.ipv4.ip_forward=1
ip route replace 198.18.0.0/15 via 198.18.0.2 dev cmlab0
