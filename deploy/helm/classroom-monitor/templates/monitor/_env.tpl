{{/* Environment of the monitor container beyond what every process reads. */}}
{{- define "monitor.env" -}}
{{- $m := .Values.monitor -}}
MONITOR_INTERVAL_MS: {{ $m.intervalMs | int64 | quote }}
MONITOR_PING_TIMEOUT_MS: {{ $m.ping.timeoutMs | int64 | quote }}
MONITOR_PING_RETRIES: {{ $m.ping.retries | int64 | quote }}
MONITOR_PACKET_GAP_MS: {{ $m.ping.packetGapMs | quote }}
MONITOR_MAX_OUTSTANDING: {{ $m.ping.maxOutstanding | int64 | quote }}
{{- with $m.ping.sessionId }}
MONITOR_SESSION_ID: {{ . | int64 | quote }}
{{- end }}
MONITOR_ALLOWED_NETWORKS: {{ $m.allowedNetworks | quote }}
MONITOR_MEMBER_TTL_MS: {{ $m.memberTtlMs | int64 | quote }}
MONITOR_CHECK_WAIT_MS: {{ $m.checkWaitMs | int64 | quote }}
MONITOR_SWEEP_TIMEOUT_MS: {{ $m.sweepTimeoutMs | int64 | quote }}
MONITOR_TARGETS_RESYNC_MS: {{ $m.targetsResyncMs | int64 | quote }}
MONITOR_PROBE_CONCURRENCY: {{ $m.probes.concurrency | int64 | quote }}
MONITOR_PROBE_TIMEOUT_MS: {{ $m.probes.timeoutMs | int64 | quote }}
MONITOR_PROBE_TARGETS_RESYNC_MS: {{ $m.probes.targetsResyncMs | int64 | quote }}
{{- /*
Node gives V8 an old generation of at least 256 MB in a container of up to 1 GiB, more than such a
limit holds beside the rest of the process: bounded at half the limit, the heap is collected before
the kernel kills the pod (docs/operations.md, Sizing).
*/}}
NODE_OPTIONS: {{ printf "--max-old-space-size=%d" (include "monitor.heapMiB" . | int64) | quote }}
{{- end -}}
