{{/* Environment of the media container beyond what every process reads. */}}
{{- define "media.env" -}}
{{- $s3 := .Values.s3 -}}
{{ include "cm.env.objectStore" . }}
S3_REQUEST_TIMEOUT_MS: {{ $s3.requestTimeoutMs | int64 | quote }}
S3_CORS_ORIGINS: {{ $s3.corsOrigins | quote }}
MEDIA_UPLOAD_RETENTION_MS: {{ .Values.media.uploadRetentionMs | int64 | quote }}
MEDIA_CLEANUP_INTERVAL_MS: {{ .Values.media.cleanupIntervalMs | int64 | quote }}
{{- end -}}

{{- define "media.secretEnv" -}}
{{ include "cm.env.databaseUrl" (dict "root" .) }}
{{ include "cm.env.objectStoreKeys" . }}
{{- end -}}

{{/* The store's keys: media signs with them, the gateway checks forwarded uploads' signatures. */}}
{{- define "cm.env.objectStoreKeys" -}}
{{- $s3 := .Values.s3 -}}
{{- $name := $s3.existingSecret | default (include "cm.credentialsSecretName" .) -}}
- name: S3_ACCESS_KEY_ID
  valueFrom:
    secretKeyRef:
      name: {{ $name }}
      key: {{ ternary $s3.accessKeyIdKey "s3-access-key-id" (ne $s3.existingSecret "") }}
- name: S3_SECRET_ACCESS_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $name }}
      key: {{ ternary $s3.secretAccessKeyKey "s3-secret-access-key" (ne $s3.existingSecret "") }}
{{- end -}}
