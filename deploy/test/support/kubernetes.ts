import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import { PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Pod } from 'kubernetes-models/v1/Pod';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { componentOf, type Manifest } from './helm';

type Validatable = { validate(): void };
const models: Record<string, new (data: never) => Validatable> = {
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1/Job': Job,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'rbac.authorization.k8s.io/v1/Role': Role,
  'rbac.authorization.k8s.io/v1/RoleBinding': RoleBinding,
  'v1/ConfigMap': ConfigMap,
  'v1/Pod': Pod,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
  'monitoring.coreos.com/v1/PrometheusRule': PrometheusRule,
};

/** Problems of one manifest against the Kubernetes (or KEDA, Prometheus Operator) schema of its kind; [] when valid. */
export function schemaProblems(manifest: Manifest): string[] {
  const Model = models[`${manifest.apiVersion}/${manifest.kind}`];
  if (!Model) return [`no schema known for ${manifest.apiVersion} ${manifest.kind}`];
  try {
    new Model(manifest as never).validate();
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}

export interface Probe {
  httpGet?: { path?: string; port?: string | number };
}
export interface Container {
  name: string;
  image?: string;
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
  securityContext?: {
    runAsNonRoot?: boolean;
    runAsUser?: number;
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    privileged?: boolean;
    capabilities?: { add?: string[]; drop?: string[] };
    seccompProfile?: { type: string };
  };
}
export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  hostNetwork?: boolean;
  hostPID?: boolean;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: { type: string } };
  volumes?: ({ name: string; emptyDir?: object } & Record<string, unknown>)[];
  priorityClassName?: string;
  terminationGracePeriodSeconds?: number;
  affinity?: Record<string, unknown>;
  topologySpreadConstraints?: Record<string, unknown>[];
}
export interface DeploymentManifest extends Manifest {
  spec: {
    replicas?: number;
    strategy?: Record<string, unknown>;
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
  };
}

export const ofKind = <T extends Manifest = Manifest>(manifests: Manifest[], kind: string) =>
  manifests.filter((m) => m.kind === kind) as T[];

export const deployments = (manifests: Manifest[]) => ofKind<DeploymentManifest>(manifests, 'Deployment');

export const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

/** The pod and its (first) container of one component's Deployment. */
export function podOf(manifests: Manifest[], component: string): { pod: PodSpec; container: Container } {
  const pod = deployments(manifests).find((d) => componentOf(d) === component)!.spec.template.spec;
  return { pod, container: pod.containers[0] };
}

/** A container's env entries by name: the value, or where it comes from. */
export const envOf = (container: Container) =>
  Object.fromEntries((container.env ?? []).map((e) => [e.name, e.value ?? e.valueFrom]));

/** The container security context of the restricted Pod Security profile, as the chart renders it. */
export const restrictedContainerSecurityContext = {
  runAsNonRoot: true,
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  capabilities: { drop: ['ALL'] },
  seccompProfile: { type: 'RuntimeDefault' },
};
