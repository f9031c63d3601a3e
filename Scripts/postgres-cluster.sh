#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: in a temporary folder, listening only on a Unix
# socket there, trusting local connections, stopped and removed by `stop`.
#
#   Scripts/postgres-cluster.sh start          prints the folder, then the connection string
#   Scripts/postgres-cluster.sh restart DIR    restarts the server (the tests' restart check)
#   Scripts/postgres-cluster.sh stop DIR       stops it and removes DIR
#
# Needs PostgreSQL's server binaries (PGBIN, or the newest /usr/lib/postgresql/*/bin). initdb
# refuses to run as root; run as root, the cluster belongs to the `postgres` user.
set -euo pipefail
if [ -z "${PGBIN:-}" ]; then
    PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
fi
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/pg_ctl" ]; then
    echo "postgres-cluster: no PostgreSQL server binaries (set PGBIN)" >&2
    exit 1
fi
as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
# The server outlives this script, and keeps every descriptor it inherits. A test that restarts
# it while another test waits for a child's pipe to reach its end would hang: the server would
# hold that pipe's write end open. So the server gets only stdin, stdout and stderr (and not
# fd 255, which bash reads this script from). Linux only (/proc); elsewhere nothing is closed.
close_inherited_descriptors() {
    local path fd
    [ -d "/proc/$BASHPID/fd" ] || return 0
    for path in "/proc/$BASHPID/fd/"*; do
        fd=${path##*/}
        if [ "$fd" -gt 2 ] && [ "$fd" != 255 ]; then eval "exec $fd>&-" 2> /dev/null || true; fi
    done
}
close_inherited_descriptors
case "${1:-}" in
start)
    # Short: a Unix socket's path must stay under about 100 bytes.
    dir=$(mktemp -d /tmp/rcpg.XXXXXX)
    chmod 755 "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
    as_owner "$PGBIN/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 --locale=C.UTF-8 \
        > "$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$PGBIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
        -o "-k $dir -c listen_addresses='' -c fsync=off -c max_connections=200" start > /dev/null \
        || { cat "$dir/server.log" >&2; exit 1; }
    echo "$dir"
    echo "host=$dir user=postgres dbname=postgres"
    ;;
restart)
    as_owner "$PGBIN/pg_ctl" -D "$2/data" -l "$2/server.log" -w -m fast restart > /dev/null
    ;;
stop)
    if ! as_owner "$PGBIN/pg_ctl" -D "$2/data" -w -m fast stop > /dev/null; then
        echo "postgres-cluster: pg_ctl stop failed; removing $2 anyway" >&2
    fi
    rm -rf "$2"
    ;;
*)
    echo "usage: $0 start | restart DIR | stop DIR" >&2
    exit 2
    ;;
esac
