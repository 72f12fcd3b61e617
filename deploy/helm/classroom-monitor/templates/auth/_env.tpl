{{/* Environment of the auth container beyond what every process reads. */}}
{{- define "auth.secretEnv" -}}
{{ include "cm.env.databaseUrl" (dict "root" .) }}
{{- $admin := .Values.auth.admin }}
{{- if or $admin.existingSecret $admin.password }}
- name: ADMIN_PASSWORD
  valueFrom:
    secretKeyRef:
      {{- include "auth.adminPasswordRef" . | nindent 6 }}
{{- end }}
{{- $totp := .Values.auth.totp }}
{{- if or $totp.secretKey $totp.existingSecret }}
- name: AUTH_TOTP_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $totp.existingSecret | default (include "cm.credentialsSecretName" .) }}
      key: {{ ternary $totp.secretKeyKey "totp-key" (ne $totp.existingSecret "") }}
{{- end }}
{{- end -}}

{{/* The Secret and key of the password auth.admin gives (inline or as an existing Secret). */}}
{{- define "auth.adminPasswordRef" -}}
{{- $admin := .Values.auth.admin -}}
name: {{ $admin.existingSecret | default (include "cm.credentialsSecretName" .) }}
key: {{ ternary $admin.existingSecretKey "admin-password" (ne $admin.existingSecret "") }}
{{- end -}}

{{/* No password given: auth generates one into this Secret, which it creates itself (not Helm). */}}
{{- define "auth.generatesPassword" -}}
{{- if not (or .Values.auth.admin.password .Values.auth.admin.existingSecret) }}true{{ end -}}
{{- end -}}

{{- define "auth.firstAdminSecretName" -}}
{{- printf "%s-first-admin" (include "cm.fullname" .) -}}
{{- end -}}
