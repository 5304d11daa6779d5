import manifest from '../package.json' with { type: 'json' };

/** The client's own version, from its package.json (bundled in at build time). */
export const CLI_VERSION: string = manifest.version;
