import type { DashboardTemplate } from '../choices.js';
import { packageJsonText } from '../scaffold.js';
import { DASHBOARD_SDK_VERSION } from './manifest.js';

/**
 * The files of `svc dashboard new` for each template. A dashboard is an ES module exporting
 * `mount(element, context)` and `unmount(element)`; `context` (SDK ${DASHBOARD_SDK_VERSION}) is
 * `{sdkVersion, dashboard: {name, namespace, version}, api: {baseUrl, request(path, init), run(command, input)}}`.
 */

export interface DashboardTemplateInput {
  name: string;
  namespace: string;
  author: string | undefined;
}

const BASIC_MAIN = `// The host calls mount(element, context) to show the dashboard and unmount(element) to hide it.
const mounted = new WeakMap();

export function mount(element, context) {
  const root = document.createElement('section');
  root.innerHTML = \`
    <h1>\${context.dashboard.name}</h1>
    <p>Version \${context.dashboard.version}, on \${context.api.baseUrl}</p>
    <button type="button">Which packs are installed?</button>
    <pre></pre>\`;
  const output = root.querySelector('pre');
  root.querySelector('button').addEventListener('click', async () => {
    const reply = await context.api.request('/api/v1/packs');
    output.textContent = JSON.stringify(reply.data?.packs ?? reply, null, 2);
  });
  element.append(root);
  mounted.set(element, root);
}

export function unmount(element) {
  mounted.get(element)?.remove();
  mounted.delete(element);
}
`;

const TAILWIND_MAIN = `// Tailwind's output for the classes used under src/ (built by the project's tailwindcss).
import css from 'svc:tailwind.css';

const mounted = new WeakMap();

export function mount(element, context) {
  const style = document.createElement('style');
  style.textContent = css;
  const root = document.createElement('section');
  root.className = 'mx-auto max-w-xl p-6 font-sans';
  root.innerHTML = \`
    <h1 class="text-2xl font-bold text-slate-800">\${context.dashboard.name}</h1>
    <p class="mt-1 text-sm text-slate-500">Version \${context.dashboard.version}</p>\`;
  element.append(style, root);
  mounted.set(element, [style, root]);
}

export function unmount(element) {
  for (const node of mounted.get(element) ?? []) node.remove();
  mounted.delete(element);
}
`;

const FULL_MAIN = `import css from './styles.css';
import { renderRunner } from './runner.js';

const mounted = new WeakMap();

export function mount(element, context) {
  const style = document.createElement('style');
  style.textContent = css;
  const root = document.createElement('main');
  root.className = 'dash';
  root.innerHTML = \`<header><h1>\${context.dashboard.name}</h1><span>v\${context.dashboard.version}</span></header>\`;
  root.append(renderRunner(context));
  element.append(style, root);
  mounted.set(element, [style, root]);
}

export function unmount(element) {
  for (const node of mounted.get(element) ?? []) node.remove();
  mounted.delete(element);
}
`;

const FULL_RUNNER = `/** A form that runs a command of an installed pack through the host's API client. */
export function renderRunner(context) {
  const form = document.createElement('form');
  form.innerHTML = \`
    <label>Command <input name="command" placeholder="namespace.name" required></label>
    <label>Input (JSON) <textarea name="input" rows="4">{}</textarea></label>
    <button>Run</button>
    <pre class="result"></pre>\`;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const result = form.querySelector('.result');
    try {
      result.textContent = JSON.stringify(await context.api.run(String(data.get('command')), JSON.parse(String(data.get('input')))), null, 2);
    } catch (error) {
      result.textContent = String(error.message ?? error);
    }
  });
  return form;
}
`;

const FULL_STYLES = `.dash { font: 15px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 0 auto; padding: 1rem; }
.dash header { display: flex; align-items: baseline; gap: .5rem; }
.dash label { display: block; margin: .5rem 0; }
.dash input, .dash textarea { width: 100%; font: 13px monospace; }
.dash pre { background: #f4f4f4; padding: .5rem; overflow: auto; }
`;

function manifest(input: DashboardTemplateInput, description: string, extra: Record<string, unknown> = {}): string {
  const value = {
    name: input.name,
    namespace: input.namespace,
    version: '0.1.0',
    description,
    category: 'productivity',
    visibility: 'private',
    min_sdk_version: DASHBOARD_SDK_VERSION,
    pack_dependencies: [],
    ...extra,
  };
  return `${JSON.stringify(value, null, 2)}\n`;
}

function packageJson(input: DashboardTemplateInput, devDependencies?: Record<string, string>): string {
  return packageJsonText({
    name: `${input.namespace}-${input.name}`,
    author: input.author,
    scripts: { dev: 'svc dashboard dev', build: 'svc dashboard build', validate: 'svc dashboard validate' },
    devDependencies,
  });
}

function readme(input: DashboardTemplateInput, extra = ''): string {
  return `# ${input.name}

${input.author ? `By ${input.author}.\n\n` : ''}A dashboard for the svc platform: \`src/main.*\` exports \`mount(element, context)\` and \`unmount(element)\`.
${extra}
\`\`\`sh
svc dashboard dev        # http://localhost:3000, rebuilt on change, API calls go to the platform
svc dashboard build      # dist/main.js: one self-contained ES module
svc dashboard validate   # the checks the platform's client runs before upload
svc dashboard publish
\`\`\`
`;
}

/** Every file of a new dashboard made from `template`, by path. */
export function dashboardTemplateFiles(template: DashboardTemplate, input: DashboardTemplateInput): Record<string, string> {
  const common = { '.gitignore': 'dist/\n.svc/\nnode_modules/\n' };
  if (template === 'basic') {
    return { ...common, 'dashboard.json': manifest(input, 'A first dashboard'), 'package.json': packageJson(input), 'src/main.js': BASIC_MAIN, 'README.md': readme(input) };
  }
  if (template === 'tailwind') {
    return {
      ...common,
      'dashboard.json': manifest(input, 'A dashboard styled with Tailwind CSS'),
      'package.json': packageJson(input, { tailwindcss: '^3.4.0' }),
      'tailwind.config.js': "/** @type {import('tailwindcss').Config} */\nexport default { content: ['./src/**/*.{js,ts,jsx,tsx}'], theme: { extend: {} }, plugins: [] };\n",
      'src/styles.css': '@tailwind base;\n@tailwind components;\n@tailwind utilities;\n',
      'src/main.js': TAILWIND_MAIN,
      'README.md': readme(input, '\nRun `npm install` first: the build runs this project\'s own `tailwindcss` and inlines its output.\n'),
    };
  }
  return {
    ...common,
    'dashboard.json': manifest(input, 'Runs the commands of installed packs', { category: 'business' }),
    'package.json': packageJson(input),
    'src/main.js': FULL_MAIN,
    'src/runner.js': FULL_RUNNER,
    'src/styles.css': FULL_STYLES,
    'README.md': readme(input, '\n`pack_dependencies` in dashboard.json lists the packs it calls, as `{scope, name, version}` with a range such as `>=1.0.0`.\n'),
  };
}
