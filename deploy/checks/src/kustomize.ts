import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, relative } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { filesUnder, readYaml, readYamlDocuments, ROOT } from './repo.js';

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

/**
 * `kubectl kustomize` of a folder (relative to the repository, or absolute). kubectl is required:
 * CI installs one that renders `components` (`deploy/checks/install-kubectl.sh`, run by
 * `.ci/run`), and a machine without it fails here, saying how to get it, rather than skipping.
 */
export function renderDir(dir: string): any[] {
  const result = spawnSync('kubectl', ['kustomize', dir], { cwd: ROOT, encoding: 'utf8' });
  if (result.error) throw new Error(`kubectl is needed to render ${dir} (${result.error.message}): run deploy/checks/install-kubectl.sh, as .ci/run does`);
  if (result.status !== 0) throw new Error(`kubectl kustomize ${dir} failed (a kubectl whose kustomize reads components: deploy/checks/install-kubectl.sh):\n${result.stderr}`);
  return parseAllDocuments(result.stdout).map((d) => d.toJS()).filter(Boolean);
}

/**
 * An overlay as it is applied, with `components` of k8s/components added as an operator adds
 * them to its kustomization: what they bring gets the overlay's namespace and image too.
 */
export function renderOverlay(overlay: string, components: string[] = []): any[] {
  if (components.length === 0) return renderDir(`${K8S}/overlays/${overlay}`);
  const { namespace, images } = readYaml(`${K8S}/overlays/${overlay}/kustomization.yaml`);
  const dir = mkdtempSync(join(tmpdir(), 'svc-k8s-overlay-'));
  try {
    const wrapper = {
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      namespace,
      images,
      resources: [relative(dir, join(ROOT, K8S, 'overlays', overlay))],
      components: components.map((component) => relative(dir, join(ROOT, K8S, 'components', component))),
    };
    writeFileSync(join(dir, 'kustomization.yaml'), stringify(wrapper));
    return renderDir(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
