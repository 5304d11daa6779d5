/**
 * The JSON schemas of the Kubernetes API (kubernetes-models, Kubernetes 1.27) and of the custom
 * resources the components use (cert-manager, KEDA, the Prometheus operator), as their npm
 * packages carry them: objects are validated offline, with no cluster.
 */
const PACKAGES = ['kubernetes-models', '@kubernetes-models/cert-manager', '@kubernetes-models/keda', '@kubernetes-models/prometheus-operator'];

interface Model {
  validate(): void;
}
type ModelClass = new (data: unknown) => Model;

const found = new Map<string, Promise<ModelClass | undefined>>();

async function load(apiVersion: string, kind: string): Promise<ModelClass | undefined> {
  // The core group is `v1`; the others `<group>/<version>`, a folder each in the packages.
  for (const pkg of PACKAGES) {
    const module = await import(`${pkg}/${apiVersion}/${kind}`).catch(() => undefined);
    const model = module?.[kind] as ModelClass | undefined;
    if (model) return model;
  }
  return undefined;
}

/** The model of `apiVersion`/`kind`, or undefined when no package has its schema. */
export function modelOf(apiVersion: string, kind: string): Promise<ModelClass | undefined> {
  const key = `${apiVersion}/${kind}`;
  let model = found.get(key);
  if (!model) found.set(key, (model = load(apiVersion, kind)));
  return model;
}

/** What the schema finds wrong with `object` ('' when nothing), or undefined when no schema is packaged. */
export async function schemaErrors(object: { apiVersion: string; kind: string }): Promise<string | undefined> {
  const Model = await modelOf(object.apiVersion, object.kind);
  if (!Model) return undefined;
  try {
    new Model(object).validate();
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}
