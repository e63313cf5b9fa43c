#!/usr/bin/env bash
# Startup of the redlock command: wall time of `--version` and of one `acquire` against 5 local nodes, and the peak
# RSS of that acquire; median, min and max of RUNS runs each (default 20), after one unmeasured warm-up run.
#
#   redlock-bench/startup.sh [--runs N] -- COMMAND...      e.g.  -- redlock-cli/target/redlock-0.1.0-SNAPSHOT/bin/redlock
#                                                          or    -- java -jar /path/to/redlock.jar
#
# The nodes are started with the command's own `redlock servers` and stopped by its pid when the script ends.
# Peak RSS comes from GNU time (/usr/bin/time -f %M); without it the RSS row is left out.
set -euo pipefail

runs=20
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "usage: $0 [--runs N] -- COMMAND..." >&2; exit 64 ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: $0 [--runs N] -- COMMAND..." >&2; exit 64; }
[ "$runs" -ge 1 ] && [ "$runs" -le 200 ] || { echo "startup: --runs must be 1..200" >&2; exit 64; }
cmd=("$@")

work=$(mktemp -d)
servers_pid=""
cleanup() {
  if [ -n "$servers_pid" ] && kill -0 "$servers_pid" 2>/dev/null; then
    kill -TERM "$servers_pid"
    for _ in $(seq 1 100); do kill -0 "$servers_pid" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -rf "$work"
}
trap cleanup EXIT

"${cmd[@]}" servers --count 5 > "$work/servers.out" 2> "$work/servers.err" &
servers_pid=$!
for _ in $(seq 1 600); do
  grep -q '^export REDLOCK_NODES=' "$work/servers.out" 2>/dev/null && break
  kill -0 "$servers_pid" 2>/dev/null || { cat "$work/servers.err" >&2; exit 69; }
  sleep 0.1
done
nodes=$(sed -n 's/^export REDLOCK_NODES=//p' "$work/servers.out")
[ -n "$nodes" ] || { echo "startup: the nodes did not start in 60 s" >&2; exit 69; }
export REDLOCK_NODES="$nodes"

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# stats FILE: "median min max" of the numbers in FILE, one a line
stats() {
  sort -n "$1" | awk '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%g %g %g\n", m, v[1], v[NR] }'
}

# measure NAME ARGS...: RUNS timed runs of the command with ARGS ({i} is replaced by the run's number)
measure() {
  local name="$1"; shift
  : > "$work/$name.ms"; : > "$work/$name.kb"
  local i
  for i in $(seq 0 "$runs"); do
    local args=("${@//\{i\}/$i}")
    local start end
    start=$(now_ms)
    if [ -x /usr/bin/time ]; then
      /usr/bin/time -f '%M' -o "$work/rss" "${cmd[@]}" "${args[@]}" > /dev/null 2> "$work/err" \
        || { cat "$work/err" >&2; exit 70; }
    else
      "${cmd[@]}" "${args[@]}" > /dev/null 2> "$work/err" || { cat "$work/err" >&2; exit 70; }
    fi
    end=$(now_ms)
    [ "$i" = 0 ] && continue   # warm-up: page cache, not counted
    echo $(( end - start )) >> "$work/$name.ms"
    [ -f "$work/rss" ] && tail -n 1 "$work/rss" >> "$work/$name.kb"
  done
  read -r med min max < <(stats "$work/$name.ms")
  printf '%-22s wall ms   median %6s   min %6s   max %6s   (%d runs)\n' "$name" "$med" "$min" "$max" "$runs"
  if [ -s "$work/$name.kb" ]; then
    read -r med min max < <(stats "$work/$name.kb")
    awk -v n="$name" -v a="$med" -v b="$min" -v c="$max" \
      'BEGIN { printf "%-22s RSS MB    median %6.1f   min %6.1f   max %6.1f\n", n, a / 1024, b / 1024, c / 1024 }'
  fi
}

echo "startup of: ${cmd[*]}"
echo "java: $(java -version 2>&1 | head -n 1); cores: $(nproc); $(date -u '+%Y-%m-%d %H:%M UTC');$(uptime | sed 's/.*,  *load/ load/')"
measure "redlock --version" --version
# a per-node timeout above the default 50 ms: on a loaded machine a reply can take longer, and a failed acquire would
# end the measurement (a reply in time is what is measured either way)
measure "redlock acquire" acquire "startup-$$-{i}" --ttl 10s --node-timeout 500ms
