{{/* Environment of the auth container beyond what every process reads. */}}
{{- define "auth.secretEnv" -}}
{{ include "cm.env.databaseUrl" (dict "root" .) }}
{{- $admin := .Values.auth.admin }}
{{- if or $admin.existingSecret $admin.password }}
- name: ADMIN_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $admin.existingSecret | default (include "cm.credentialsSecretName" .) }}
      key: {{ ternary $admin.existingSecretKey "admin-password" (ne $admin.existingSecret "") }}
{{- end }}
{{- end -}}
