{{/* Environment of the gateway container beyond what every process reads. */}}
{{- define "gateway.env" -}}
HOST: "0.0.0.0"
PORT: {{ .Values.gateway.containerPort | int64 | quote }}
READINESS_TIMEOUT_MS: {{ .Values.gateway.readinessTimeoutMs | int64 | quote }}
{{- end -}}
