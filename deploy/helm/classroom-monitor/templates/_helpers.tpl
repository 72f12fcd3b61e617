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

{{/*
A component's namespace: the release's, but for the monitor when `monitor.namespace` names
another (whose Pod Security level admits NET_RAW, so that the release's can stay `restricted`).
*/}}
{{- define "cm.namespace" -}}
{{- if eq .component "monitor" -}}
{{- .root.Values.monitor.namespace | default .root.Release.Namespace -}}
{{- else -}}
{{- .root.Release.Namespace -}}
{{- end -}}
{{- end -}}

{{/* The Secret with the monitor's NATS password when it runs in a namespace of its own. */}}
{{- define "cm.monitorNatsAuthSecretName" -}}
{{- printf "%s-nats-auth" (include "cm.componentName" (dict "root" . "component" "monitor")) -}}
{{- end -}}

{{- define "cm.metadata" -}}
name: {{ include "cm.componentName" . }}
namespace: {{ include "cm.namespace" . }}
labels:
  {{- include "cm.labels" . | nindent 2 }}
{{- end -}}

{{/* The component's image; pinned by digest when the component's `image.digest` is set. */}}
{{- define "cm.image" -}}
{{- $image := .root.Values.image -}}
{{- with (index .root.Values .component).image.digest -}}
{{- printf "%s/%s@%s" $image.repository $.component . -}}
{{- else -}}
{{- printf "%s/%s:%s" $image.repository .component ($image.tag | default .root.Chart.AppVersion) -}}
{{- end -}}
{{- end -}}

{{/*
MAX_UPLOAD_BYTES of libs/contracts (the spec's 50485760 bytes; deploy/test checks they agree), the
largest photo, diagram or inventory import the gateway accepts.
*/}}
{{- define "cm.gateway.maxUploadBytes" -}}50485760{{- end -}}

{{/*
The request body an ingress must let through: the largest upload and its multipart envelope (the
gateway allows 64 KiB for it), in whole MiB as nginx counts `m`.
*/}}
{{- define "cm.gateway.proxyBodySize" -}}
{{- $bytes := add (include "cm.gateway.maxUploadBytes" .) 65536 -}}
{{- printf "%dm" (div (add $bytes 1048575) 1048576) -}}
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
{{- /* The migration Job migrates before the pods roll; they only wait for their schema. */}}
DATABASE_MIGRATIONS: {{ ternary "wait" "run" .root.Values.migrations.enabled | quote }}
DATABASE_MIGRATIONS_WAIT_MS: {{ .root.Values.migrations.waitMs | int64 | quote }}
{{- end -}}

{{/* Environment of the processes that create JetStream streams and KV buckets (ConfigMap data). */}}
{{- define "cm.env.jetstream" -}}
NATS_STREAM_REPLICAS: {{ .root.Values.nats.streamReplicas | int64 | quote }}
{{- end -}}

{{/*
Where the object store is, as media and the gateway reach it (ConfigMap data); the store's public
address only when given: without it, browsers upload through the gateway's /store.
*/}}
{{- define "cm.env.objectStore" -}}
{{- $s3 := .Values.s3 -}}
S3_ENDPOINT: {{ $s3.endpoint | quote }}
{{- with $s3.publicEndpoint }}
S3_PUBLIC_ENDPOINT: {{ . | quote }}
{{- end }}
{{- with $s3.bucket }}
S3_BUCKET: {{ . | quote }}
{{- end }}
S3_FORCE_PATH_STYLE: {{ $s3.forcePathStyle | quote }}
S3_REGION: {{ $s3.region | quote }}
{{- end -}}

{{/* Probe port of a NATS microservice (ConfigMap data). */}}
{{- define "cm.env.probePort" -}}
HTTP_HOST: "0.0.0.0"
HTTP_PORT: {{ (index .root.Values .component).containerPort | int64 | quote }}
{{- end -}}

{{/*
The component's NATS login (env entries), never from a ConfigMap: its user and password from the
chart's Secret or an existing one, the token from an existing Secret, or its creds file (mounted).
*/}}
{{- define "cm.env.natsAuth" -}}
{{- $auth := .root.Values.nats.auth -}}
{{- $mode := include "cm.natsMode" .root -}}
{{- if eq $mode "user" -}}
- name: NATS_USER
  value: {{ printf "%s-%s" .root.Values.cmNamespace .component | quote }}
- name: NATS_PASSWORD
  valueFrom:
    secretKeyRef:
      {{- /* A pod reads Secrets of its own namespace only: the monitor's elsewhere has its own copy. */}}
      {{- $own := ternary (include "cm.monitorNatsAuthSecretName" .root) (include "cm.natsAuthSecretName" .root) (ne (include "cm.namespace" .) .root.Release.Namespace) }}
      name: {{ $auth.existingSecret | default $own }}
      key: {{ printf "%s-password" .component }}
{{- else if eq $mode "token" -}}
- name: NATS_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ $auth.token.existingSecret | required "nats.auth.token.existingSecret is required when nats.auth.mode is token" }}
      key: {{ $auth.token.key }}
{{- else if eq $mode "creds" -}}
{{- $_ := required "nats.auth.creds.existingSecret is required when nats.auth.mode is creds" $auth.creds.existingSecret -}}
- name: NATS_CREDS_FILE
  value: {{ printf "%s/nats.creds" (include "cm.natsCredsDir" .) | quote }}
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
# A pod that calls the Kubernetes API mounts its token itself (auth, see its Role).
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
{{- if gt (int $c.autoscaling.minReplicas) (int $c.autoscaling.maxReplicas) }}
{{- fail (printf "%s.autoscaling.minReplicas (%v) is more than %s.autoscaling.maxReplicas (%v)" .component $c.autoscaling.minReplicas .component $c.autoscaling.maxReplicas) }}
{{- end }}
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
env entries, YAML), scaled (true when an autoscaler owns the replica count), automountToken (true
when the component calls the Kubernetes API), checksums (name: rendered object, for objects besides
the common ones whose change must roll the pods).
*/}}
{{- define "cm.deployment" -}}
{{- $c := index .root.Values .component -}}
{{- include "cm.checkResources" . -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  {{- include "cm.metadata" . | nindent 2 }}
spec:
  {{- if not .scaled }}
  replicas: {{ $c.replicaCount }}
  {{- end }}
  revisionHistoryLimit: 5
  strategy:
    type: {{ $c.strategy.type }}
    {{- if eq $c.strategy.type "RollingUpdate" }}
    rollingUpdate:
      {{- toYaml $c.strategy.rollingUpdate | nindent 6 }}
    {{- end }}
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
        {{- range $name, $object := .checksums }}
        checksum/{{ $name }}: {{ $object | sha256sum }}
        {{- end }}
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
      automountServiceAccountToken: {{ .automountToken | default false }}
      enableServiceLinks: false
      terminationGracePeriodSeconds: {{ $c.terminationGracePeriodSeconds }}
      {{- with $c.priorityClassName }}
      priorityClassName: {{ . }}
      {{- end }}
      {{- with .root.Values.imagePullSecrets }}
      imagePullSecrets:
        {{- range . }}
        - name: {{ . }}
        {{- end }}
      {{- end }}
      securityContext:
        {{- .podSecurityContext | nindent 8 }}
      {{- with $c.initContainers }}
      initContainers:
        {{- range . }}
        {{- /* The component's own security context and resources unless given: the Pod Security level and quotas count init containers too. */}}
        {{- $defaults := dict "securityContext" ($.containerSecurityContext | fromYaml) "resources" $c.resources }}
        - {{- merge (deepCopy .) $defaults | toYaml | nindent 10 }}
        {{- end }}
      {{- end }}
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
            {{- with $c.extraEnvFrom }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
          {{- $env := list (include "cm.env.secrets" .) (include "cm.env.caBundle" .) }}
          {{- with $c.extraEnv }}{{ $env = append $env (toYaml .) }}{{ end }}
          {{- with trim (join "\n" (compact $env)) }}
          env:
            {{- . | nindent 12 }}
          {{- end }}
          # Liveness asks only whether the process serves; readiness also checks what it needs to
          # serve (its PostgreSQL pool, its NATS connection, not stopping), so such an outage takes
          # pods out of rotation without restarting them. Dependencies that only inform (the object
          # store, other services) do not count: one of them being away must not empty the Service.
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
            {{- with include "cm.volumeMounts" . }}
            {{- . | trim | nindent 12 }}
            {{- end }}
            {{- with $c.extraVolumeMounts }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
      volumes:
        # The root filesystem is read-only; /tmp is the only writable place.
        - name: tmp
          emptyDir:
            sizeLimit: 64Mi
        {{- with include "cm.volumes" . }}
        {{- . | trim | nindent 8 }}
        {{- end }}
        {{- with $c.extraVolumes }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- with $c.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $c.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with include "cm.scheduling" . }}
      {{- . | trim | nindent 6 }}
      {{- end }}
{{- end -}}

{{/* The JetStream stream of status events and inventory's durable consumer of it
(libs/contracts streams.status, durableConsumers.inventoryStatus). Context: .Values. */}}
{{- define "cm.statusStream" -}}
{{- printf "%s_STATUS" .cmNamespace -}}
{{- end -}}

{{- define "cm.statusConsumer" -}}
inventory-status
{{- end -}}

{{/*
Where the replicas go: the component's `affinity` and `topologySpreadConstraints` when given, else
a preference for a node of their own and for an even spread over zones. Preferences only, so a
one-node or one-zone cluster still schedules every replica.
*/}}
{{- define "cm.scheduling" -}}
{{- $c := index .root.Values .component -}}
{{- if $c.affinity }}
affinity:
  {{- toYaml $c.affinity | nindent 2 }}
{{- else if $c.spread.acrossNodes }}
affinity:
  podAntiAffinity:
    preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 100
        podAffinityTerm:
          topologyKey: kubernetes.io/hostname
          labelSelector:
            matchLabels:
              {{- include "cm.selectorLabels" . | nindent 14 }}
{{- end }}
{{- if $c.topologySpreadConstraints }}
topologySpreadConstraints:
  {{- toYaml $c.topologySpreadConstraints | nindent 2 }}
{{- else if $c.spread.acrossZones }}
topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: ScheduleAnyway
    labelSelector:
      matchLabels:
        {{- include "cm.selectorLabels" . | nindent 8 }}
    # Only the pods of one revision count, so a rolling update does not skew the new ones.
    matchLabelKeys:
      - pod-template-hash
{{- end }}
{{- end -}}

{{/*
The chart's own env entries of the component (its NATS login and `.env`). With secretsAsFiles each
one from a Secret becomes `<NAME>_FILE`, naming the file cm.volumes mounts: the value stays out of
the process environment, which crash reports and child processes see.
*/}}
{{- define "cm.env.secrets" -}}
{{- $text := trim (join "\n" (compact (list (include "cm.env.natsAuth" .) (.env | default "")))) -}}
{{- if and $text .root.Values.secretsAsFiles -}}
{{- $entries := list -}}
{{- range fromYamlArray $text -}}
{{- if and .valueFrom .valueFrom.secretKeyRef -}}
{{- $entries = append $entries (dict "name" (printf "%s_FILE" .name) "value" (printf "%s/%s" (include "cm.secretsDir" $) .name)) -}}
{{- else -}}
{{- $entries = append $entries . -}}
{{- end -}}
{{- end -}}
{{- toYaml $entries -}}
{{- else -}}
{{- $text -}}
{{- end -}}
{{- end -}}

{{/* With secretsAsFiles: the Secret keys the chart's env entries name, as one volume's sources. */}}
{{- define "cm.secretSources" -}}
{{- $text := trim (join "\n" (compact (list (include "cm.env.natsAuth" .) (.env | default "")))) -}}
{{- if and $text .root.Values.secretsAsFiles -}}
{{- range $entry := fromYamlArray $text -}}
{{- with ($entry.valueFrom | default dict).secretKeyRef }}
- secret:
    name: {{ .name }}
    items:
      - key: {{ .key }}
        path: {{ $entry.name }}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Where the CA bundle, a NATS creds file and secrets as files are mounted (read-only). */}}
{{- define "cm.secretsDir" -}}/etc/classroom-monitor/secrets{{- end -}}
{{- define "cm.caBundleDir" -}}/etc/classroom-monitor/ca{{- end -}}
{{- define "cm.natsCredsDir" -}}/etc/classroom-monitor/nats{{- end -}}

{{/* NODE_EXTRA_CA_CERTS: Node trusts the bundle besides its own CAs, for every TLS connection. */}}
{{- define "cm.env.caBundle" -}}
{{- $ca := .root.Values.caBundle -}}
{{- if and $ca.configMap $ca.secret -}}
{{- fail "caBundle.configMap and caBundle.secret are both set: name the bundle's ConfigMap or its Secret" -}}
{{- end -}}
{{- if or $ca.configMap $ca.secret -}}
- name: NODE_EXTRA_CA_CERTS
  value: {{ printf "%s/ca.crt" (include "cm.caBundleDir" .) | quote }}
{{- end -}}
{{- end -}}

{{/* The CA bundle's volume (a YAML list entry, or nothing): `.root` is the chart's context. */}}
{{- define "cm.volume.caBundle" -}}
{{- $ca := .root.Values.caBundle -}}
{{- if $ca.configMap }}
- name: ca-bundle
  configMap:
    name: {{ $ca.configMap }}
    items:
      - key: {{ $ca.key }}
        path: ca.crt
{{- else if $ca.secret }}
- name: ca-bundle
  secret:
    secretName: {{ $ca.secret }}
    items:
      - key: {{ $ca.key }}
        path: ca.crt
{{- end }}
{{- end -}}

{{/* The pod's volumes for the CA bundle and the NATS creds file (YAML list entries, maybe none). */}}
{{- define "cm.volumes" -}}
{{- include "cm.volume.caBundle" . }}
{{- with include "cm.secretSources" . }}
- name: secrets
  projected:
    defaultMode: 0440
    sources:
      {{- . | trim | nindent 6 }}
{{- end }}
{{- if eq (include "cm.natsMode" .root) "creds" }}
# Only this component's file: a pod cannot log in as another service.
- name: nats-creds
  secret:
    secretName: {{ .root.Values.nats.auth.creds.existingSecret }}
    defaultMode: 0440
    items:
      - key: {{ printf "%s.creds" .component }}
        path: nats.creds
{{- end }}
{{- end -}}

{{- define "cm.volumeMounts" -}}
{{- $ca := .root.Values.caBundle -}}
{{- if or $ca.configMap $ca.secret }}
- name: ca-bundle
  mountPath: {{ include "cm.caBundleDir" . }}
  readOnly: true
{{- end }}
{{- if include "cm.secretSources" . }}
- name: secrets
  mountPath: {{ include "cm.secretsDir" . }}
  readOnly: true
{{- end }}
{{- if eq (include "cm.natsMode" .root) "creds" }}
- name: nats-creds
  mountPath: {{ include "cm.natsCredsDir" . }}
  readOnly: true
{{- end }}
{{- end -}}

{{/*
Fails when a request exceeds its limit: Kubernetes would refuse the pods only at rollout, with a
message about the ReplicaSet rather than the value.
*/}}
{{- define "cm.checkResources" -}}
{{- $c := index .root.Values .component -}}
{{- range $resource := list "cpu" "memory" -}}
{{- $request := index $c.resources.requests $resource -}}
{{- $limit := index $c.resources.limits $resource -}}
{{- if gt (include "cm.quantity" $request | float64) (include "cm.quantity" $limit | float64) -}}
{{- fail (printf "%s.resources.requests.%s (%v) is more than %s.resources.limits.%s (%v)" $.component $resource $request $.component $resource $limit) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* A Kubernetes quantity (500m, 1.5, 256Mi, 1G, ...) as a plain number, to compare two of them. */}}
{{- define "cm.quantity" -}}
{{- if or (kindIs "float64" .) (kindIs "int64" .) (kindIs "int" .) -}}
{{- float64 . -}}
{{- else -}}
{{- $text := toString . -}}
{{- $number := regexFind "^[0-9]*\\.?[0-9]+" $text -}}
{{- $suffix := trimPrefix $number $text -}}
{{- $factors := dict "" 1.0 "m" 0.001 "k" 1e3 "M" 1e6 "G" 1e9 "T" 1e12 "P" 1e15 "E" 1e18 "Ki" 1024.0 "Mi" 1048576.0 "Gi" 1073741824.0 "Ti" 1099511627776.0 "Pi" 1125899906842624.0 "Ei" 1152921504606846976.0 -}}
{{- if or (not $number) (not (hasKey $factors $suffix)) -}}
{{- fail (printf "%q is not a Kubernetes quantity such as 500m, 1.5 or 256Mi" $text) -}}
{{- end -}}
{{- mulf (float64 $number) (index $factors $suffix) -}}
{{- end -}}
{{- end -}}

{{/* How the services log in to NATS: none, user, token or creds. */}}
{{- define "cm.natsMode" -}}
{{- ternary .Values.nats.auth.mode "none" .Values.nats.auth.enabled -}}
{{- end -}}

{{/*
A secret the chart generates: the one kept in the cluster's Secret `.secret` under `.key`, else a
new random one, the same wherever one rendering asks for it (the Secret, and the checksum that
rolls the pods reading it). Without cluster access (helm template, Argo CD, a client dry run)
nothing can be read back, and a new value at each rendering would break what uses it: refused,
naming `.values` to set instead, unless allowGeneratedSecretsWithoutCluster says otherwise. The
release namespace is looked up to tell: it exists whenever the chart talks to the cluster.
Context: root, secret, key, length, values, breaks (what a new value each time would do).
*/}}
{{- define "cm.generatedSecret" -}}
{{- $memo := get .root "cmGeneratedSecrets" | default dict -}}
{{- $_ := set .root "cmGeneratedSecrets" $memo -}}
{{- $id := printf "%s/%s" .secret .key -}}
{{- if not (hasKey $memo $id) -}}
{{- $kept := dig "data" .key "" (lookup "v1" "Secret" .root.Release.Namespace .secret | default dict) | b64dec -}}
{{- if not (or $kept (lookup "v1" "Namespace" "" .root.Release.Namespace) .root.Values.allowGeneratedSecretsWithoutCluster) -}}
{{- fail (printf "set %s: rendered without access to the cluster (helm template, Argo CD, a client dry run), the chart cannot keep the %s it would generate, and a new one at each rendering %s. Or set allowGeneratedSecretsWithoutCluster=true for a render that is not deployed, or a first install into a namespace helm creates" .values .what .breaks) -}}
{{- end -}}
{{- $_ := set $memo $id ($kept | default (randAlphaNum .length)) -}}
{{- end -}}
{{- index $memo $id -}}
{{- end -}}
