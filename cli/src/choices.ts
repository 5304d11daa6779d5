/**
 * The values the CLI's enumerated options accept. They live apart from the code that acts on them
 * so that the command tree, built by every invocation (`svc --version` included), loads none of it.
 */

export const PACK_TEMPLATES = ['basic', 'advanced', 'full'] as const;
export type PackTemplate = (typeof PACK_TEMPLATES)[number];

export const DASHBOARD_TEMPLATES = ['basic', 'tailwind', 'full'] as const;
export type DashboardTemplate = (typeof DASHBOARD_TEMPLATES)[number];

export const PROJECT_TEMPLATES = ['default', 'scheduled', 'mcp'] as const;
export type ProjectTemplate = (typeof PROJECT_TEMPLATES)[number];

/** The Python version `svc pack new --python` takes when given without one. */
export const DEFAULT_PYTHON = '3.11';

export const BUILD_FORMATS = ['wheel', 'tar.gz', 'both'] as const;
export type BuildFormat = (typeof BUILD_FORMATS)[number];

export const DASHBOARD_VISIBILITIES = ['public', 'unlisted', 'organization', 'private'] as const;
export type DashboardVisibility = (typeof DASHBOARD_VISIBILITIES)[number];

export const SHARE_EXPIRIES = ['1d', '7d', '30d', 'never'] as const;
export type ShareExpiry = (typeof SHARE_EXPIRIES)[number];
