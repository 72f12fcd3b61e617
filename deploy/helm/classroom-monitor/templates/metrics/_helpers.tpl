{{/* Metadata of a Prometheus Operator object: the component's, plus the labels its Prometheus
selects on. Context: root, component, labels. */}}
{{- define "cm.metrics.metadata" -}}
name: {{ include "cm.componentName" . }}
namespace: {{ .root.Release.Namespace }}
labels:
  {{- include "cm.labels" . | nindent 2 }}
  {{- with .labels }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- end -}}

{{/* PromQL matchers of one component's scrape targets: its namespace and job (the ServiceMonitor
sets the job to the component's resource name). Context: root, component. */}}
{{- define "cm.metrics.selector" -}}
namespace="{{ include "cm.namespace" . }}",job="{{ include "cm.componentName" . }}"
{{- end -}}

{{/* An alert's labels: its severity, then the operator's `alertLabels`. Context: severity, extra. */}}
{{- define "cm.metrics.alertLabels" -}}
severity: {{ .severity }}
{{- with .extra }}
{{ toYaml . }}
{{- end }}
{{- end -}}
