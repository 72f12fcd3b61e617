{{/* Environment of the inventory container beyond what every process reads. */}}
{{- define "inventory.env" -}}
{{- $i := .Values.inventory -}}
INVENTORY_STATUS_ACK_WAIT_MS: {{ $i.statusEvents.ackWaitMs | int64 | quote }}
INVENTORY_STATUS_MAX_DELIVER: {{ $i.statusEvents.maxDeliver | int64 | quote }}
INVENTORY_OUTBOX_INTERVAL_MS: {{ $i.outboxIntervalMs | int64 | quote }}
INVENTORY_HISTORY_RETENTION_HOURS: {{ $i.history.retentionHours | int64 | quote }}
INVENTORY_STATUS_HOURS_RETENTION_DAYS: {{ $i.history.hoursRetentionDays | int64 | quote }}
INVENTORY_HISTORY_PRUNE_INTERVAL_MS: {{ $i.history.pruneIntervalMs | int64 | quote }}
INVENTORY_MAX_ADDRESSES_PER_RANGE: {{ $i.addresses.maxPerRange | int64 | quote }}
INVENTORY_MAX_MONITORED_ADDRESSES: {{ $i.addresses.maxMonitored | int64 | quote }}
MONITOR_ALLOWED_NETWORKS: {{ .Values.monitor.allowedNetworks | quote }}
{{- end -}}

{{- define "inventory.secretEnv" -}}
{{ include "cm.env.databaseUrl" (dict "root" .) }}
{{- end -}}
