import { dirname, join, normalize } from 'node:path';
import { filesUnder, readYaml, readYamlDocuments } from './repo.js';

export const K8S = 'k8s';

export interface Kustomization {
  /** Repository path of the kustomization.yaml. */
  file: string;
  dir: string;
  kind: 'Kustomization' | 'Component';
  /** Local paths it names (resources, components, patch files), resolved from its folder. */
  references: string[];
  raw: any;
}

export interface Manifest {
  file: string;
  doc: any;
  /** A whole object (a kustomization's resource) or a partial one that patches a resource. */
  role: 'resource' | 'patch';
}

/** Every `kustomization.yaml` under k8s/, with the local paths it references. */
export function kustomizations(): Kustomization[] {
  return filesUnder(K8S)
    .filter((file) => file.endsWith('/kustomization.yaml'))
    .map((file) => {
      const raw = readYaml(file);
      const dir = dirname(file);
      const named: string[] = [
        ...(raw.resources ?? []),
        ...(raw.components ?? []),
        ...(raw.patchesStrategicMerge ?? []),
        ...(raw.patches ?? []).map((p: { path?: string }) => p.path).filter(Boolean),
      ];
      return { file, dir, kind: raw.kind, references: named.filter((p) => !/^[a-z]+:\/\//.test(p)).map((p) => normalize(join(dir, p))), raw };
    });
}

/** Every Kubernetes object in a YAML file under k8s/ that is not a kustomization. */
export function manifests(): Manifest[] {
  const patches = new Set(
    kustomizations().flatMap((k) => [...(k.raw.patchesStrategicMerge ?? []), ...(k.raw.patches ?? []).map((p: { path?: string }) => p.path).filter(Boolean)].map((p) => normalize(join(k.dir, p)))),
  );
  return filesUnder(K8S)
    .filter((file) => file.endsWith('.yaml') && !file.endsWith('/kustomization.yaml'))
    .flatMap((file) => readYamlDocuments(file).map((doc) => ({ file, doc, role: patches.has(file) ? ('patch' as const) : ('resource' as const) })));
}

/** The first container of a Deployment or StatefulSet. */
export function containerOf(doc: any): any {
  return doc.spec.template.spec.containers[0];
}
