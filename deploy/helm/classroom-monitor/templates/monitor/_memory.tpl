{{/*
The memory one monitor replica needs, in MiB, for the addresses inventory lets the campus have
(inventory.addresses.maxMonitored): every replica keeps the whole address list, and when the others
are gone one replica sweeps every address. files/monitor-memory.json holds the figures, measured in
docs/benchmarks.md (services/monitor/test/memory.int-spec.ts holds a replica to them), with V8's
heap bounded at half the limit (monitor.heapMiB).
*/}}
{{- define "monitor.requiredMemoryMiB" -}}
{{- $sizing := .Files.Get "files/monitor-memory.json" | fromJson -}}
{{- $perAddressMiB := divf (float64 $sizing.perAddressKiB) 1024.0 -}}
{{- addf (float64 $sizing.baseMiB) (mulf (float64 .Values.inventory.addresses.maxMonitored) $perAddressMiB) | ceil | int64 -}}
{{- end -}}

{{/* Refuses a memory limit below what a replica needs: its pods would be killed in turn, for ever. */}}
{{- define "monitor.checkMemory" -}}
{{- $m := .Values.monitor -}}
{{- $required := include "monitor.requiredMemoryMiB" . | int64 -}}
{{- $limit := $m.resources.limits.memory -}}
{{- if lt (include "cm.quantity" $limit | float64) (mulf (float64 $required) 1048576.0) -}}
{{- fail (printf "monitor.resources.limits.memory (%v) is less than the %dMi a monitor replica needs for inventory.addresses.maxMonitored (%v addresses): every replica keeps the whole list, and one sweeps all of it when the others are gone, so each would be killed for want of memory in turn. Set the limit to %dMi or more, or lower maxMonitored (docs/operations.md, Sizing)." $limit $required ($.Values.inventory.addresses.maxMonitored | int64) $required) -}}
{{- end -}}
{{- end -}}

{{/* V8's old generation, in MiB: half the memory limit, the rest being code, buffers and the young generation. */}}
{{- define "monitor.heapMiB" -}}
{{- divf (include "cm.quantity" .Values.monitor.resources.limits.memory | float64) 2097152.0 | floor | int64 -}}
{{- end -}}
