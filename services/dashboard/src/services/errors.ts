import { DASHBOARD_BUNDLE_FIELD } from '@svc/contracts';
import { ConflictError, NotFoundError, PayloadTooLargeError, PermissionError, ValidationError } from '@svc/core';

/** 404 for a dashboard that does not exist and for one the caller may not see alike (Part 2 rule 3). */
export const dashboardNotFound = (details: Record<string, unknown>) => new NotFoundError('Dashboard not found', details);

export const notOwner = (action: string, details: Record<string, unknown>) =>
  new PermissionError(`Only members of the tenant that owns the dashboard may ${action}`, { reason: 'not_dashboard_owner', ...details });

/** 400 for a bundle that is not a gzip-compressed tar archive of regular files inside its folder. */
export const invalidTarball = (message: string, details: Record<string, unknown> = {}) =>
  new ValidationError(`Invalid tarball: ${message}`, { field: DASHBOARD_BUNDLE_FIELD, reason: 'invalid_tarball', ...details });

export const bundleTooLarge = (message: string, details: Record<string, unknown>) =>
  new PayloadTooLargeError(message, { field: DASHBOARD_BUNDLE_FIELD, ...details });

export const entryPointMissing = () =>
  new ValidationError('Entry point not found: the bundle has no main.js at its root', { field: DASHBOARD_BUNDLE_FIELD, reason: 'entry_point_not_found', entry_point: 'main.js' });

export const versionNotGreater = (version: string, latest: string) =>
  new ConflictError(`Version ${version} is not greater than ${latest}, the highest uploaded; upload a higher version`, { field: 'version', reason: 'version_not_greater', version, latest });
