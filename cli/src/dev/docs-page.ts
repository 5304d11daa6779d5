import type { PackManifest } from '@svc/pack-sdk';

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * `GET /docs` of `svc pack dev`: each command with its description, input schema and examples,
 * and a form that runs it against the dev server. Self-contained (no CDN).
 */
export function docsPage(manifest: PackManifest): string {
  const { namespace, name, version, description } = manifest.pack;
  const sections = manifest.commands
    .map((command) => {
      const example = command.examples[0]?.input ?? {};
      const path = `/api/v1/commands/${encodeURIComponent(namespace)}/${encodeURIComponent(command.name)}`;
      return `<section>
  <h2>${escape(command.name)} <small>${escape(command.queue)} · ${command.timeout} s</small></h2>
  <p>${escape(command.description || '(no description)')}</p>
  <details><summary>Input schema</summary><pre>${escape(JSON.stringify(command.input_schema, null, 2))}</pre></details>
  <form data-path="${escape(path)}">
    <textarea rows="4">${escape(JSON.stringify(example, null, 2))}</textarea>
    <button>POST ${escape(path)}</button>
    <pre class="out"></pre>
  </form>
</section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>@${escape(namespace)}/${escape(name)} ${escape(version)} — svc pack dev</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem}textarea{width:100%;font:13px monospace}pre{background:#f4f4f4;padding:.5rem;overflow:auto}small{color:#666;font-weight:normal}</style>
</head><body>
<h1>@${escape(namespace)}/${escape(name)} <small>${escape(version)}</small></h1>
<p>${escape(description)}</p>
${sections}
<script>
for (const form of document.querySelectorAll('form')) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const out = form.querySelector('.out');
    out.textContent = '…';
    const res = await fetch(form.dataset.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: form.querySelector('textarea').value });
    out.textContent = res.status + '\\n' + JSON.stringify(await res.json(), null, 2);
  });
}
</script>
</body></html>
`;
}
