{{/* The services that own a PostgreSQL schema, migrated by the Job in this order. */}}
{{- define "migrations.components" -}}
gateway auth inventory media
{{- end -}}

{{/*
The Secret that gives the Job DATABASE_URL when the URL is inline: a hook of its own, created just
before the Job, since on a first install the chart's credentials Secret does not exist yet while
pre-install hooks run. With postgresql.existingSecret the Job reads that one.
*/}}
{{- define "migrations.secretName" -}}
{{- printf "%s-migrations" (include "cm.fullname" .) -}}
{{- end -}}

{{/* One service's migrations as a container of the Job. Context: root, component. */}}
{{- define "migrations.container" -}}
{{- $v := .root.Values -}}
{{- $pg := $v.postgresql -}}
- name: {{ .component }}
  image: {{ include "cm.image" . }}
  imagePullPolicy: {{ $v.image.pullPolicy }}
  command: ["node", "dist/main.js", "migrate"]
  env:
    - name: CM_NAMESPACE
      value: {{ $v.cmNamespace | quote }}
    - name: LOG_LEVEL
      value: {{ $v.logLevel | quote }}
    - name: DATABASE_MIGRATE_TIMEOUT_MS
      value: {{ mul $v.migrations.timeoutSeconds 1000 | int64 | quote }}
    - name: DATABASE_URL
      valueFrom:
        secretKeyRef:
          name: {{ $pg.existingSecret | default (include "migrations.secretName" .root) }}
          key: {{ ternary $pg.existingSecretKey "database-url" (ne $pg.existingSecret "") }}
    {{- /* A PostgreSQL with a campus CA's certificate needs the bundle here too. */}}
    {{- with include "cm.env.caBundle" . }}
    {{- . | nindent 4 }}
    {{- end }}
  resources:
    {{- toYaml $v.migrations.resources | nindent 4 }}
  securityContext:
    {{- include "cm.containerSecurityContext.restricted" .root | nindent 4 }}
  volumeMounts:
    - name: tmp
      mountPath: /tmp
    {{- if or $v.caBundle.configMap $v.caBundle.secret }}
    - name: ca-bundle
      mountPath: {{ include "cm.caBundleDir" . }}
      readOnly: true
    {{- end }}
{{- end -}}
