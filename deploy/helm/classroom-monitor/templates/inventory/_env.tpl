{{/* Environment of the inventory container beyond what every process reads. */}}
{{- define "inventory.secretEnv" -}}
{{ include "cm.env.databaseUrl" (dict "root" .) }}
{{- end -}}
