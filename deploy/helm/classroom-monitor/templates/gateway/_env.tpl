{{/* Environment of the gateway container beyond what every process reads. */}}
{{- define "gateway.env" -}}
{{- $g := .Values.gateway -}}
HOST: "0.0.0.0"
PORT: {{ $g.containerPort | int64 | quote }}
METRICS_HOST: "0.0.0.0"
METRICS_PORT: {{ $g.metricsPort | int64 | quote }}
READINESS_TIMEOUT_MS: {{ $g.readinessTimeoutMs | int64 | quote }}
{{- if lt (int $g.terminationGracePeriodSeconds) (add $g.shutdownDelaySeconds 10 | int) }}
{{- fail (printf "gateway.terminationGracePeriodSeconds (%v) must exceed gateway.shutdownDelaySeconds (%v) by 10 s or more: the requests in flight need time to finish after the delay, before SIGKILL" $g.terminationGracePeriodSeconds $g.shutdownDelaySeconds) }}
{{- end }}
SHUTDOWN_DELAY_MS: {{ mul $g.shutdownDelaySeconds 1000 | int64 | quote }}
SESSION_MAX_AGE_HOURS: {{ $g.session.maxAgeHours | quote }}
SESSION_ABSOLUTE_HOURS: {{ $g.session.absoluteHours | quote }}
TRUST_PROXY: {{ $g.trustProxy | default (ternary "1" "false" $g.ingress.enabled) | quote }}
PUBLIC_ORIGIN: {{ include "gateway.publicOrigin" . | required "gateway.publicOrigin or gateway.ingress.host is required: the gateway refuses to start in production without PUBLIC_ORIGIN" | quote }}
{{ include "cm.env.objectStore" . }}
LOGIN_MAX_FAILURES: {{ $g.login.maxFailures | int64 | quote }}
LOGIN_MAX_FAILURES_PER_IP: {{ $g.login.maxFailuresPerIp | int64 | quote }}
LOGIN_MAX_CONCURRENT_PER_IP: {{ $g.login.maxConcurrentPerIp | int64 | quote }}
LOGIN_THROTTLE_WINDOW_SECONDS: {{ $g.login.throttleWindowSeconds | int64 | quote }}
LOGIN_MAX_DELAY_SECONDS: {{ $g.login.maxDelaySeconds | int64 | quote }}
LOGIN_DEVICE_COOKIE_DAYS: {{ $g.login.deviceCookieDays | int64 | quote }}
REQUIRE_ADMIN_TOTP: {{ $g.login.requireAdminTotp | toString | quote }}
UPLOAD_MAX_CONCURRENT: {{ $g.uploads.maxConcurrent | int64 | quote }}
UPLOAD_MAX_CONCURRENT_PER_USER: {{ $g.uploads.maxConcurrentPerUser | int64 | quote }}
UPLOAD_IDLE_TIMEOUT_MS: {{ $g.uploads.idleTimeoutMs | int64 | quote }}
EVENTS_KEEPALIVE_MS: {{ $g.events.keepAliveMs | int64 | quote }}
EVENTS_MAX_STREAMS_PER_SESSION: {{ $g.events.maxStreamsPerSession | int64 | quote }}
EVENTS_MAX_STREAMS: {{ $g.events.maxStreams | int64 | quote }}
AUDIT_RETENTION_DAYS: {{ $g.audit.retentionDays | int64 | quote }}
{{- end -}}

{{/*
PUBLIC_ORIGIN: the value, or the host the app is served at (the Ingress host, also when another
proxy serves it); empty without either. Never the request's Host header: that is DNS rebinding.
*/}}
{{- define "gateway.publicOrigin" -}}
{{- $g := .Values.gateway -}}
{{- if $g.publicOrigin -}}
{{- $g.publicOrigin -}}
{{- else if $g.ingress.host -}}
{{- printf "%s://%s" (ternary "https" "http" $g.ingress.tls.enabled) $g.ingress.host -}}
{{- end -}}
{{- end -}}

{{- define "gateway.secretEnv" -}}
{{- $session := .Values.gateway.session -}}
{{ include "cm.env.databaseUrl" (dict "root" .) }}
- name: SESSION_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ $session.existingSecret | default (include "gateway.sessionSecretName" .) }}
      key: {{ ternary $session.existingSecretKey "session-secret" (ne $session.existingSecret "") }}
{{- end -}}

{{- define "gateway.sessionSecretName" -}}
{{- printf "%s-session" (include "cm.fullname" .) -}}
{{- end -}}
