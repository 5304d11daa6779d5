import { describe, expect, it } from 'vitest';
import { dashboardAppHtml, dashboardScript } from './dashboard-app-page.js';

describe("a command's dashboard page (MCP Apps)", () => {
  it('carries the dashboard inline, whatever text its module holds, and the App library with it', async () => {
    const script = await dashboardScript('export function mount(el) { el.innerHTML = "</script><script>alert(1)</script><!--"; }\nexport function unmount() {}\n');
    const html = await dashboardAppHtml({ name: 'board </title><b>', namespace: 'acme', version: '1.0.0', pack: 'tools', script });
    // Asserted as booleans: the page is half a megabyte, too long to print on a failure.
    expect(html.match(/<\/script>/gi)?.length).toBe(1);
    expect(html.includes('<!--')).toBe(false);
    expect(html.includes('<title>board &#60;/title&#62;&#60;b&#62;</title>')).toBe(true);
    expect(/var SvcDashboard\s*=/.test(html)).toBe(true);
    expect(/var McpApps\s*=/.test(html)).toBe(true);
  });

  it('refuses a module that is not JavaScript', async () => {
    await expect(dashboardScript('export function mount( {')).rejects.toThrow();
  });
});
