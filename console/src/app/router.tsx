import { createBrowserRouter } from 'react-router';
import { CONSOLE_PATHS as P } from '../paths.js';
import { UPGRADED_PATH } from '../billing/processor.js';
import { Account } from '../pages/account.js';
import { AuditLog } from '../pages/audit-log.js';
import { Billing } from '../pages/billing.js';
import { BillingUpgraded } from '../pages/billing-upgraded.js';
import { ApiKeys } from '../pages/api-keys.js';
import { Command } from '../pages/command.js';
import { Commands } from '../pages/commands.js';
import { Dashboard } from '../pages/dashboard.js';
import { Dashboards } from '../pages/dashboards.js';
import { ForgotPassword } from '../pages/forgot-password.js';
import { Home } from '../pages/home.js';
import { Metrics } from '../pages/metrics.js';
import { NotFound } from '../pages/not-found.js';
import { Operators } from '../pages/operators.js';
import { PackSecrets } from '../pages/pack-secrets.js';
import { Packs } from '../pages/packs.js';
import { Register } from '../pages/register.js';
import { ResetPassword } from '../pages/reset-password.js';
import { SharedDashboard } from '../pages/shared-dashboard.js';
import { SignIn } from '../pages/sign-in.js';
import { SshTargets } from '../pages/ssh-targets.js';
import { Storage } from '../pages/storage.js';
import { Usage } from '../pages/usage.js';
import { UserDetail } from '../pages/user-detail.js';
import { Task } from '../pages/task.js';
import { Tasks } from '../pages/tasks.js';
import { WebhookPage } from '../pages/webhook.js';
import { Webhooks } from '../pages/webhooks.js';
import { RequireSession } from './require-session.js';
import { Shell } from './shell.js';

/** Every page of the console; their first path segments are `CONSOLE_PATHS`, which the gateway answers with `index.html`. */
export const router = createBrowserRouter([
  {
    element: <Shell />,
    children: [
      { path: P.signIn, element: <SignIn /> },
      { path: P.register, element: <Register /> },
      { path: P.forgotPassword, element: <ForgotPassword /> },
      { path: P.resetPassword, element: <ResetPassword /> },
      { path: `${P.shared}/:token`, element: <SharedDashboard /> },
      {
        element: <RequireSession />,
        children: [
          { path: P.home, element: <Home /> },
          { path: P.commands, element: <Commands /> },
          { path: `${P.commands}/:namespace/:name`, element: <Command /> },
          { path: P.tasks, element: <Tasks /> },
          { path: `${P.tasks}/:taskId`, element: <Task /> },
          { path: P.packs, element: <Packs /> },
          { path: P.packSecrets, element: <PackSecrets /> },
          { path: P.sshTargets, element: <SshTargets /> },
          { path: P.apiKeys, element: <ApiKeys /> },
          { path: P.account, element: <Account /> },
          { path: P.billing, element: <Billing /> },
          { path: UPGRADED_PATH, element: <BillingUpgraded /> },
          { path: P.storage, element: <Storage /> },
          { path: P.usage, element: <Usage /> },
          { path: P.webhooks, element: <Webhooks /> },
          { path: `${P.webhooks}/:id`, element: <WebhookPage /> },
          { path: P.operators, element: <Operators /> },
          { path: `${P.operators}/audit-log`, element: <AuditLog /> },
          { path: `${P.operators}/metrics`, element: <Metrics /> },
          { path: `${P.operators}/users/:id`, element: <UserDetail /> },
          { path: P.dashboards, element: <Dashboards /> },
          { path: `${P.dashboards}/:slug`, element: <Dashboard /> },
        ],
      },
      { path: '*', element: <NotFound /> },
    ],
  },
]);
