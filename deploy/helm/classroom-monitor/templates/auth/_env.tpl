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
{{- $oidc := .Values.auth.oidc }}
{{- if and $oidc.issuerUrl (or $oidc.clientSecret $oidc.existingSecret) }}
- name: OIDC_CLIENT_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ $oidc.existingSecret | default (include "cm.credentialsSecretName" .) }}
      key: {{ ternary $oidc.clientSecretKey "oidc-client-secret" (ne $oidc.existingSecret "") }}
{{- end }}
{{- end -}}

{{/* Single sign-on (OpenID Connect), set only when auth.oidc.issuerUrl names the identity provider. */}}
{{- define "auth.oidcEnv" -}}
{{- $o := .Values.auth.oidc -}}
{{- if $o.issuerUrl -}}
{{- if not $o.clientId }}{{ fail "auth.oidc.clientId is required with auth.oidc.issuerUrl" }}{{ end -}}
OIDC_ISSUER_URL: {{ $o.issuerUrl | quote }}
OIDC_CLIENT_ID: {{ $o.clientId | quote }}
{{- with $o.displayName }}
OIDC_DISPLAY_NAME: {{ . | quote }}
{{- end }}
{{- with $o.adminGroups }}
OIDC_ADMIN_GROUPS: {{ join "," . | quote }}
{{- end }}
OIDC_USERNAME_CLAIM: {{ $o.usernameClaim | quote }}
OIDC_GROUPS_CLAIM: {{ $o.groupsClaim | quote }}
OIDC_SCOPES: {{ $o.scopes | quote }}
OIDC_TIMEOUT_MS: {{ $o.timeoutMs | int64 | quote }}
{{- end -}}
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
