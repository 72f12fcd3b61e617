{{/*
Shared pieces. Most helpers take a context dict: (dict "root" $ "component" "auth").
*/}}

{{- define "cm.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "cm.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Name of a component's resources: <fullname>-<component>, within the 63 characters of a label. */}}
{{- define "cm.componentName" -}}
{{- printf "%s-%s" (include "cm.fullname" .root | trunc 52 | trimSuffix "-") .component -}}
{{- end -}}

{{- define "cm.selectorLabels" -}}
app.kubernetes.io/name: {{ include "cm.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "cm.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
{{ include "cm.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/part-of: classroom-monitor
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
{{- end -}}

{{- define "cm.metadata" -}}
name: {{ include "cm.componentName" . }}
namespace: {{ .root.Release.Namespace }}
labels:
  {{- include "cm.labels" . | nindent 2 }}
{{- end -}}

{{- define "cm.image" -}}
{{- printf "%s/%s:%s" .root.Values.image.repository .component (.root.Values.image.tag | default .root.Chart.AppVersion) -}}
{{- end -}}

{{/* The Secret the chart creates for credentials given inline in the values. */}}
{{- define "cm.credentialsSecretName" -}}
{{- printf "%s-credentials" (include "cm.fullname" .) -}}
{{- end -}}

{{/* SHUTDOWN_TIMEOUT_MS: 5 s inside the grace period, so a stopping pod finishes before SIGKILL. */}}
{{- define "cm.shutdownTimeoutMs" -}}
{{- mul (sub .terminationGracePeriodSeconds 5) 1000 -}}
{{- end -}}

{{/* Environment every process reads (ConfigMap data). */}}
{{- define "cm.env.core" -}}
{{- $v := .root.Values -}}
CM_NAMESPACE: {{ $v.cmNamespace | quote }}
LOG_LEVEL: {{ $v.logLevel | quote }}
NATS_URL: {{ $v.nats.url | quote }}
NATS_REQUEST_TIMEOUT_MS: {{ $v.nats.requestTimeoutMs | int64 | quote }}
SHUTDOWN_TIMEOUT_MS: {{ include "cm.shutdownTimeoutMs" (index $v .component) | int64 | quote }}
OTEL_TRACES_SAMPLER_ARG: {{ $v.telemetry.samplerRatio | quote }}
{{- with $v.telemetry.otlpEndpoint }}
OTEL_EXPORTER_OTLP_ENDPOINT: {{ . | quote }}
{{- end }}
{{- end -}}

{{/* Environment of the processes that own a PostgreSQL schema (ConfigMap data). */}}
{{- define "cm.env.database" -}}
DATABASE_POOL_MAX: {{ (index .root.Values .component).databasePoolMax | int64 | quote }}
DATABASE_STATEMENT_TIMEOUT_MS: {{ .root.Values.postgresql.statementTimeoutMs | int64 | quote }}
{{- end -}}

{{/* Probe port of a NATS microservice (ConfigMap data). */}}
{{- define "cm.env.probePort" -}}
HTTP_HOST: "0.0.0.0"
HTTP_PORT: {{ (index .root.Values .component).containerPort | int64 | quote }}
{{- end -}}

{{/* The component's NATS user, its password from the chart's Secret or an existing one (env entries). */}}
{{- define "cm.env.natsAuth" -}}
{{- $auth := .root.Values.nats.auth -}}
{{- if $auth.enabled -}}
- name: NATS_USER
  value: {{ printf "%s-%s" .root.Values.cmNamespace .component | quote }}
- name: NATS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $auth.existingSecret | default (include "cm.natsAuthSecretName" .root) }}
      key: {{ printf "%s-password" .component }}
{{- end -}}
{{- end -}}

{{- define "cm.natsAuthSecretName" -}}
{{- printf "%s-nats-auth" (include "cm.fullname" .) -}}
{{- end -}}

{{/* DATABASE_URL from the chart's Secret or an existing one (container env entry). */}}
{{- define "cm.env.databaseUrl" -}}
{{- $pg := .root.Values.postgresql -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ $pg.existingSecret | default (include "cm.credentialsSecretName" .root) }}
      key: {{ ternary $pg.existingSecretKey "database-url" (ne $pg.existingSecret "") }}
{{- end -}}

{{/* The component's ConfigMap; `data` is the YAML of its environment. */}}
{{- define "cm.configMap" -}}
apiVersion: v1
kind: ConfigMap
metadata:
  {{- include "cm.metadata" . | nindent 2 }}
data:
  {{- .data | nindent 2 }}
{{- end -}}

{{- define "cm.serviceAccount" -}}
apiVersion: v1
kind: ServiceAccount
metadata:
  {{- include "cm.metadata" . | nindent 2 }}
# No component calls the Kubernetes API.
automountServiceAccountToken: false
{{- end -}}

{{- define "cm.service" -}}
{{- $c := index .root.Values .component -}}
apiVersion: v1
kind: Service
metadata:
  {{- include "cm.metadata" . | nindent 2 }}
spec:
  type: {{ .type | default "ClusterIP" }}
  selector:
    {{- include "cm.selectorLabels" . | nindent 4 }}
  ports:
    - name: http
      port: {{ .port | default $c.containerPort }}
      targetPort: http
      protocol: TCP
{{- end -}}

{{- define "cm.podDisruptionBudget" -}}
{{- $c := index .root.Values .component -}}
{{- if $c.podDisruptionBudget.enabled }}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  {{- include "cm.metadata" . | nindent 2 }}
spec:
  maxUnavailable: {{ $c.podDisruptionBudget.maxUnavailable }}
  selector:
    matchLabels:
      {{- include "cm.selectorLabels" . | nindent 6 }}
{{- end }}
{{- end -}}

{{/* Ingress to the component's HTTP port from `.from` (NetworkPolicyPeers; empty: from anywhere,
nil: from nowhere). */}}
{{- define "cm.networkPolicy" -}}
{{- $c := index .root.Values .component -}}
{{- if .root.Values.networkPolicy.enabled }}
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  {{- include "cm.metadata" . | nindent 2 }}
spec:
  podSelector:
    matchLabels:
      {{- include "cm.selectorLabels" . | nindent 6 }}
  policyTypes:
    - Ingress
  {{- if or .from .fromAnywhere .metricsFrom }}
  ingress:
    {{- if or .from .fromAnywhere }}
    - ports:
        - port: http
          protocol: TCP
      {{- with .from }}
      from:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    {{- end }}
    {{- with .metricsFrom }}
    # The metrics port apart from the public one: only from the scrapers named.
    - ports:
        - port: metrics
          protocol: TCP
      from:
        {{- toYaml . | nindent 8 }}
    {{- end }}
  {{- else }}
  ingress: []
  {{- end }}
{{- end }}
{{- end -}}

{{- define "cm.horizontalPodAutoscaler" -}}
{{- $c := index .root.Values .component -}}
{{- if $c.autoscaling.enabled }}
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  {{- include "cm.metadata" . | nindent 2 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ include "cm.componentName" . }}
  minReplicas: {{ $c.autoscaling.minReplicas }}
  maxReplicas: {{ $c.autoscaling.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ $c.autoscaling.targetCPUUtilizationPercentage }}
{{- end }}
{{- end -}}

{{/* Restricted Pod Security profile: what every component but the monitor runs with. */}}
{{- define "cm.podSecurityContext.restricted" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
fsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "cm.containerSecurityContext.restricted" -}}
runAsNonRoot: true
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop:
    - ALL
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/*
The component's Deployment. Context: root, component, probePath (liveness; readiness is the
sibling `readyz`), podSecurityContext and containerSecurityContext (YAML), env (extra container
env entries, YAML), scaled (true when an autoscaler owns the replica count).
*/}}
{{- define "cm.deployment" -}}
{{- $c := index .root.Values .component -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  {{- include "cm.metadata" . | nindent 2 }}
spec:
  {{- if not .scaled }}
  replicas: {{ $c.replicaCount }}
  {{- end }}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      {{- include "cm.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "cm.labels" . | nindent 8 }}
      annotations:
        # Roll the pods when their configuration or the chart's credentials change.
        checksum/config: {{ include (print .root.Template.BasePath "/" .component "/configmap.yaml") .root | sha256sum }}
        checksum/credentials: {{ include (print .root.Template.BasePath "/credentials-secret.yaml") .root | sha256sum }}
        checksum/nats-auth: {{ include (print .root.Template.BasePath "/nats-auth-secret.yaml") .root | sha256sum }}
        {{- with $c.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
        {{- with $c.metricsPort }}
        prometheus.io/scrape: "true"
        prometheus.io/port: {{ . | quote }}
        prometheus.io/path: /metrics
        {{- end }}
    spec:
      serviceAccountName: {{ include "cm.componentName" . }}
      automountServiceAccountToken: false
      enableServiceLinks: false
      terminationGracePeriodSeconds: {{ $c.terminationGracePeriodSeconds }}
      {{- with .root.Values.imagePullSecrets }}
      imagePullSecrets:
        {{- range . }}
        - name: {{ . }}
        {{- end }}
      {{- end }}
      securityContext:
        {{- .podSecurityContext | nindent 8 }}
      containers:
        - name: {{ .component }}
          image: {{ include "cm.image" . }}
          imagePullPolicy: {{ .root.Values.image.pullPolicy }}
          ports:
            - name: http
              containerPort: {{ $c.containerPort }}
              protocol: TCP
            {{- with $c.metricsPort }}
            - name: metrics
              containerPort: {{ . }}
              protocol: TCP
            {{- end }}
          envFrom:
            - configMapRef:
                name: {{ include "cm.componentName" . }}
          {{- with trim (printf "%s\n%s" (include "cm.env.natsAuth" .) (.env | default "")) }}
          env:
            {{- . | nindent 12 }}
          {{- end }}
          # Liveness asks only whether the process serves; readiness also checks its dependencies,
          # so a PostgreSQL or NATS outage takes pods out of rotation without restarting them.
          startupProbe:
            httpGet:
              path: {{ .probePath }}
              port: http
            periodSeconds: 2
            failureThreshold: 60
          livenessProbe:
            httpGet:
              path: {{ .probePath }}
              port: http
            periodSeconds: 10
            timeoutSeconds: 3
            failureThreshold: 3
          readinessProbe:
            httpGet:
              path: {{ .probePath | replace "healthz" "readyz" }}
              port: http
            periodSeconds: 5
            timeoutSeconds: 3
            failureThreshold: 2
          resources:
            {{- toYaml $c.resources | nindent 12 }}
          securityContext:
            {{- .containerSecurityContext | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        # The root filesystem is read-only; /tmp is the only writable place.
        - name: tmp
          emptyDir:
            sizeLimit: 64Mi
      {{- with $c.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $c.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $c.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
{{- end -}}
