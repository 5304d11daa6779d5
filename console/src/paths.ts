/**
 * The console's pages by their first path segment: the app routes under them, and the build
 * lists them in `dist/pages.json`, for which the gateway answers `index.html` (a reload, a link
 * to a deep page). Any other path keeps the gateway's JSON 404.
 */
export const CONSOLE_PATHS = {
  home: '/',
  signIn: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  commands: '/commands',
  tasks: '/tasks',
  packs: '/packs',
  apiKeys: '/api-keys',
  dashboards: '/dashboards',
  shared: '/shared',
  operators: '/operators',
  account: '/account',
  billing: '/billing',
  storage: '/storage',
  usage: '/usage',
  webhooks: '/webhooks',
  packSecrets: '/secrets',
  sshTargets: '/ssh-targets',
} as const;
