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
{{- $a := $i.alerts }}
ALERTS_WEBHOOK_ALLOWED_HOSTS: {{ $a.webhookAllowedHosts | quote }}
ALERTS_ALLOWED_TARGETS: {{ $a.allowedTargets | quote }}
{{- with include "gateway.publicOrigin" . }}
ALERTS_APP_URL: {{ . | quote }}
{{- end }}
ALERTS_SEND_TIMEOUT_MS: {{ $a.sendTimeoutMs | int64 | quote }}
ALERTS_RELAY_INTERVAL_MS: {{ $a.relayIntervalMs | int64 | quote }}
ALERTS_RETRY_BASE_MS: {{ $a.retryBaseMs | int64 | quote }}
ALERTS_RETRY_MAX_MS: {{ $a.retryMaxMs | int64 | quote }}
ALERTS_MAX_ATTEMPTS: {{ $a.maxAttempts | int64 | quote }}
ALERT_AFTER_FAILED_CHECKS: {{ $a.afterFailedChecks | int64 | quote }}
ALERT_GROUP_WINDOW_MS: {{ $a.groupWindowMs | int64 | quote }}
ALERT_FLAP_THRESHOLD: {{ $a.flapThreshold | int64 | quote }}
{{- with $i.reports }}
INVENTORY_REPORT_CHUNK_BYTES: {{ .chunkBytes | int64 | quote }}
INVENTORY_REPORT_IDLE_MS: {{ .idleMs | int64 | quote }}
INVENTORY_REPORT_STREAMS_MAX: {{ .streamsMax | int64 | quote }}
{{- end }}
{{- with $i.schedules }}
SCHEDULE_FEED_INTERVAL_MS: {{ .feedIntervalMs | int64 | quote }}
SCHEDULE_FETCH_TIMEOUT_MS: {{ .fetchTimeoutMs | int64 | quote }}
SCHEDULE_FEED_MAX_BACKOFF_MS: {{ .feedMaxBackoffMs | int64 | quote }}
SCHEDULE_POLL_TICK_MS: {{ .pollTickMs | int64 | quote }}
SCHEDULE_TIME_ZONE: {{ .timeZone | quote }}
READINESS_LEAD_MINUTES: {{ .readinessLeadMinutes | int64 | quote }}
READINESS_TICK_MS: {{ .readinessTickMs | int64 | quote }}
{{- end }}
{{- with $a.smtp }}
{{- if .host }}
{{- if not .from }}{{ fail "inventory.alerts.smtp.from is required with inventory.alerts.smtp.host" }}{{ end }}
SMTP_HOST: {{ .host | quote }}
SMTP_PORT: {{ .port | int64 | quote }}
SMTP_SECURE: {{ .secure | quote }}
SMTP_FROM: {{ .from | quote }}
{{- with .user }}
SMTP_USER: {{ . | quote }}
{{- end }}
{{- end }}
{{- end }}
{{- end -}}

{{- define "inventory.secretEnv" -}}
{{- $a := .Values.inventory.alerts -}}
{{- $name := $a.existingSecret | default (include "cm.credentialsSecretName" .) -}}
{{ include "cm.env.databaseUrl" (dict "root" .) }}
{{- if or $a.secretKey $a.existingSecret }}
- name: ALERTS_SECRET_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $name }}
      key: {{ ternary $a.secretKeyKey "alerts-secret-key" (ne $a.existingSecret "") }}
{{- end }}
{{- if and $a.smtp.host $a.smtp.user }}
{{- if not (or $a.smtp.password $a.existingSecret) }}{{ fail "inventory.alerts.smtp.password (or inventory.alerts.existingSecret) is required with inventory.alerts.smtp.user" }}{{ end }}
- name: SMTP_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $name }}
      key: {{ ternary $a.smtpPasswordKey "smtp-password" (ne $a.existingSecret "") }}
{{- end }}
{{- end -}}
