import { z } from 'zod';
import {
  AccessCode,
  AccessCodeDeactivated,
  AccessCodesMinted,
  AccessCodeValid,
  AccountMode,
  AccountOrganizations,
  ApiKey,
  ApiKeyRevoked,
  Authorization,
  ChangePasswordBody,
  ChangePasswordLoginBody,
  CookieRefreshed,
  CreateAccessCodesBody,
  CreateApiKeyBody,
  CurrentUser,
  DeveloperModeBody,
  DeveloperModeTurnedOn,
  Invite,
  InviteBody,
  InviteSent,
  LoginBody,
  Member,
  NamespaceCheck,
  NewApiKey,
  OAuthError,
  Organization,
  OrganizationBody,
  OrganizationCreated,
  OrganizationDetail,
  OrganizationFound,
  PasswordResetBody,
  PasswordResetConfirmBody,
  RefreshBody,
  RegisterBody,
  SetPlatformRoleBody,
  SignedIn,
  Tokens,
  UpdateMeBody,
  User,
  ValidateAccessCodeBody,
} from '@svc/contracts';
import {
  componentSchemas,
  dataResponse,
  errorResponse,
  fromZod,
  jsonBody,
  jsonResponse,
  pathParameter,
  ref,
  string,
  uuid,
  type OpenApiFragment,
} from '@svc/openapi';
import { oauthPaths, oauthTags } from './oauth-openapi.js';

const slugErrors = '`SLUG_INVALID`, `SLUG_RESERVED` or `SLUG_TAKEN` (the slug rules: 2-39 of `[a-z0-9-]`, no leading or trailing hyphen, not reserved), or `VALIDATION_FAILED`.';
const refreshCookie = { 'Set-Cookie': { description: '`svc_refresh`: the refresh token (HttpOnly, `Path=/api/v1/auth`, `SameSite=Strict`, `Secure`).', schema: string() } };
const clearedCookie = { 'Set-Cookie': { description: 'Clears the `svc_refresh` cookie.', schema: string() } };
const message = (description: string) => dataResponse(description, ref('Message'));
/** The gateway lets API keys reach key management only for it to refuse them (403). */
const accessTokenOnly = [{ bearerAuth: [] }];
const adminOnly = errorResponse('`PERMISSION_DENIED`: the caller\'s platform role is not admin or owner (`details.reason: platform_admin_required`).');

const codeId = pathParameter('code_id', uuid, 'The access code\'s id.');
const keyId = pathParameter('key_id', string(), 'The API key\'s id.');
const orgId = pathParameter('org_id', string(), 'The organization\'s id (its tenant id).');

/** Accounts, sessions, organizations, API keys and access codes. */
export const identityOpenApi: OpenApiFragment = {
  service: 'identity',
  tags: [
    { name: 'Auth', description: 'Registration, sign-in, tokens and passwords.' },
    { name: 'Account', description: 'The caller\'s account: profile, developer mode, API keys.' },
    { name: 'Organizations', description: 'Organizations, their members and invites.' },
    { name: 'Access codes', description: 'Invitation codes that registration requires.' },
    ...oauthTags,
  ],
  schemas: componentSchemas(User, CurrentUser, Tokens, SignedIn, AccessCode, Organization, OrganizationDetail, Member, Invite, NewApiKey, ApiKey, AccountMode, NamespaceCheck, OAuthError, Authorization),
  paths: {
    ...oauthPaths,
    '/api/v1/auth/register': {
      post: {
        operationId: 'register',
        summary: 'Create an account with an access code',
        tags: ['Auth'],
        requestBody: jsonBody(fromZod(RegisterBody)),
        responses: {
          201: dataResponse('The new account, signed in.', SignedIn, refreshCookie),
          400: errorResponse(`A malformed field, \`ACCESS_CODE_INVALID\`, or ${slugErrors}`),
          409: errorResponse('`EMAIL_TAKEN`: an account with this e-mail exists.'),
        },
      },
    },
    '/api/v1/auth/login': {
      post: {
        operationId: 'login',
        summary: 'Sign in with e-mail and password',
        tags: ['Auth'],
        requestBody: jsonBody(fromZod(LoginBody)),
        responses: {
          200: dataResponse('Signed in.', SignedIn, refreshCookie),
          400: errorResponse('`VALIDATION_FAILED`: a malformed field.'),
          401: errorResponse('`AUTHENTICATION_FAILED`: invalid e-mail or password (the same answer for both).'),
        },
      },
    },
    '/api/v1/auth/refresh': {
      post: {
        operationId: 'refreshTokens',
        summary: 'Exchange a refresh token for new tokens',
        tags: ['Auth'],
        requestBody: jsonBody(fromZod(RefreshBody)),
        responses: {
          200: dataResponse('New tokens; the refresh token presented is used up.', Tokens),
          400: errorResponse('`VALIDATION_FAILED`: no refresh token.'),
          401: errorResponse('`AUTHENTICATION_FAILED`: unknown, expired, revoked or reused refresh token (a reuse revokes the whole session).'),
        },
      },
    },
    '/api/v1/auth/refresh-cookie': {
      post: {
        operationId: 'refreshTokensWithCookie',
        summary: 'Exchange the svc_refresh cookie for a new access token',
        description: 'For the browser front end on the API\'s own origin: a browser request another origin\'s page made (`Sec-Fetch-Site` other than `same-origin`, or an `Origin` naming another host) is refused, even from the same site (the dashboard origin). Clients that are not browsers send neither header and use `POST /api/v1/auth/refresh` anyway.',
        tags: ['Auth'],
        parameters: [{ name: 'svc_refresh', in: 'cookie', required: true, description: 'The refresh token set by login, register or a previous refresh.', schema: string() }],
        responses: {
          200: dataResponse('A new access token; the cookie is rotated.', CookieRefreshed, refreshCookie),
          401: errorResponse('`AUTHENTICATION_FAILED`: no cookie, or an unknown, expired, revoked or reused refresh token.'),
          403: errorResponse('`PERMISSION_DENIED` (`details.reason: cross_origin`): a page of another origin sent the request; the cookie is left as it was.'),
        },
      },
    },
    '/api/v1/auth/logout': {
      post: {
        operationId: 'logout',
        summary: 'Revoke the caller\'s session',
        tags: ['Auth'],
        responses: { 200: { ...message('Signed out: the session\'s access and refresh tokens stop working.'), headers: clearedCookie } },
      },
    },
    '/api/v1/auth/change-password': {
      post: {
        operationId: 'changePassword',
        summary: 'Change the caller\'s password',
        tags: ['Auth'],
        requestBody: jsonBody(fromZod(ChangePasswordBody)),
        responses: {
          200: { ...message('Changed; every session of the user is revoked.'), headers: clearedCookie },
          400: errorResponse('`VALIDATION_FAILED`: the new password is not 8-72 bytes.'),
          401: errorResponse('`AUTHENTICATION_FAILED`: no valid token, or the current password is wrong.'),
        },
      },
    },
    '/api/v1/auth/change-password/login': {
      post: {
        operationId: 'changePasswordWithLogin',
        summary: 'Change a password from the sign-in screen',
        tags: ['Auth'],
        requestBody: jsonBody(fromZod(ChangePasswordLoginBody)),
        responses: {
          200: message('Changed; every session of the user is revoked.'),
          400: errorResponse('`VALIDATION_FAILED`: a malformed field.'),
          401: errorResponse('`AUTHENTICATION_FAILED`: invalid e-mail or current password.'),
        },
      },
    },
    '/api/v1/auth/password-reset': {
      post: {
        operationId: 'requestPasswordReset',
        summary: 'Send a link to choose a new password',
        description:
          'For somebody who forgot their password. When an account uses the address, it is sent a link to `<SVC_PUBLIC_URL>/reset-password?token=…`, which works once and expires (an hour by default). The answer is the same, and comes as soon, whether an account uses the address or not. Five requests an hour per address, besides the limit per client.',
        tags: ['Auth'],
        requestBody: jsonBody(fromZod(PasswordResetBody)),
        responses: {
          202: message('Taken: a link is on its way if an account uses the address.'),
          400: errorResponse('`VALIDATION_FAILED`: not an e-mail address.'),
          429: errorResponse('`RATE_LIMITED`: too many requests for this address, or from this client; `Retry-After` says when to try again.'),
        },
      },
    },
    '/api/v1/auth/password-reset/confirm': {
      post: {
        operationId: 'confirmPasswordReset',
        summary: 'Choose a new password with a reset link\'s token',
        description: 'Sets the password (the registration rules: 8-72 bytes). The link, and every other reset link of the user, is spent; every session and OAuth authorization of the user ends, and the user is told by e-mail.',
        tags: ['Auth'],
        requestBody: jsonBody(fromZod(PasswordResetConfirmBody)),
        responses: {
          200: message('Changed; every session of the user is revoked.'),
          400: errorResponse('`RESET_TOKEN_INVALID` (`details.reason`: `unknown`, `used` or `expired`): ask for a new link; or `VALIDATION_FAILED`: the password is not 8-72 bytes.'),
        },
      },
    },
    '/api/v1/auth/me': {
      get: {
        operationId: 'getCurrentUser',
        summary: 'The signed-in user',
        tags: ['Account'],
        responses: { 200: dataResponse('The caller.', CurrentUser) },
      },
    },
    '/api/v1/users/me': {
      patch: {
        operationId: 'updateCurrentUser',
        summary: 'Change the caller\'s name',
        tags: ['Account'],
        requestBody: jsonBody(fromZod(UpdateMeBody)),
        responses: { 200: dataResponse('The updated user.', User), 400: errorResponse('`VALIDATION_FAILED`: `name` is not 1-100 characters.') },
      },
    },
    '/api/v1/users/{user_id}/role': {
      put: {
        operationId: 'setPlatformRole',
        summary: 'Appoint a platform admin, or make one a member again (platform owner)',
        description:
          'The platform role opens the admin areas (`admin` or `owner`); it is not a role in any tenant. Only the owner, the operator account bootstrapped from `SVC_ADMIN_EMAIL`, changes it, to `admin` or `member`; the owner\'s own role is the bootstrap\'s. The user\'s next request carries the new role.',
        tags: ['Account'],
        parameters: [pathParameter('user_id', uuid, 'The user\'s id.')],
        requestBody: jsonBody(fromZod(SetPlatformRoleBody)),
        responses: {
          200: dataResponse('The user with the role now held.', User),
          400: errorResponse('`VALIDATION_FAILED`: a malformed id, or a role other than `admin` or `member`.'),
          403: errorResponse('`PERMISSION_DENIED`: the caller is not the platform owner (`details.reason: platform_owner_required`).'),
          404: errorResponse('`NOT_FOUND`: no such user.'),
          409: errorResponse('`CONFLICT`: the user is the owner, whose role the bootstrap sets.'),
        },
      },
    },
    '/api/v1/access-codes': {
      post: {
        operationId: 'createAccessCodes',
        summary: 'Mint access codes (admin)',
        tags: ['Access codes'],
        requestBody: jsonBody(fromZod(CreateAccessCodesBody)),
        responses: {
          201: dataResponse('The codes minted.', AccessCodesMinted),
          400: errorResponse('`VALIDATION_FAILED`: a malformed field.'),
          403: adminOnly,
        },
      },
      get: {
        operationId: 'listAccessCodes',
        summary: 'Every access code (admin)',
        tags: ['Access codes'],
        responses: { 200: dataResponse('Every code, newest first.', z.array(AccessCode)), 403: adminOnly },
      },
    },
    '/api/v1/access-codes/{code_id}': {
      delete: {
        operationId: 'deactivateAccessCode',
        summary: 'Deactivate an access code (admin)',
        tags: ['Access codes'],
        parameters: [codeId],
        responses: {
          200: dataResponse('Deactivated.', AccessCodeDeactivated),
          400: errorResponse('`VALIDATION_FAILED`: the id is not a uuid.'),
          403: adminOnly,
          404: errorResponse('`NOT_FOUND`: no such code.'),
        },
      },
    },
    '/api/v1/access-codes/validate': {
      post: {
        operationId: 'validateAccessCode',
        summary: 'Check an access code before registering',
        tags: ['Access codes'],
        requestBody: jsonBody(fromZod(ValidateAccessCodeBody)),
        responses: {
          200: dataResponse('The code can be used.', AccessCodeValid),
          400: jsonResponse(
            'A code that is unknown, inactive or used up: the reduced body `{success: false, error: {message}}`. A malformed request (`VALIDATION_FAILED`): the error body.',
            { anyOf: [ref('ReducedError'), ref('Error')] },
          ),
        },
      },
    },
    '/api/v1/account/mode': {
      get: {
        operationId: 'getAccountMode',
        summary: 'Consumer or developer mode',
        tags: ['Account'],
        responses: { 200: dataResponse('The mode; a developer\'s first organization.', AccountMode) },
      },
    },
    '/api/v1/account/organizations': {
      get: {
        operationId: 'listAccountOrganizations',
        summary: 'The organizations the caller belongs to',
        tags: ['Account'],
        responses: {
          200: dataResponse(
            'Every organization of the caller with their role there, in the order they joined (the first is the one `GET /account/mode` shows).',
            AccountOrganizations,
          ),
        },
      },
    },
    '/api/v1/account/developer-mode': {
      post: {
        operationId: 'enableDeveloperMode',
        summary: 'Turn developer mode on by creating or joining an organization',
        tags: ['Account'],
        requestBody: jsonBody(fromZod(DeveloperModeBody), 'Either `organization` (create one) or `access_code` (an invite id, to join).'),
        responses: {
          200: dataResponse(
            'Developer mode is on.',
            DeveloperModeTurnedOn,
          ),
          400: errorResponse(slugErrors),
          404: errorResponse('`INVITE_NOT_FOUND`: the invite is unknown, expired, used, or for another e-mail.'),
        },
      },
    },
    '/api/v1/account/api-keys': {
      post: {
        operationId: 'createApiKey',
        security: accessTokenOnly,
        summary: 'Create an API key',
        tags: ['Account'],
        requestBody: jsonBody(fromZod(CreateApiKeyBody)),
        responses: {
          201: dataResponse('The key, shown this once.', NewApiKey),
          400: errorResponse('`VALIDATION_FAILED`: `name` is not 1-100 characters or `scopes` is not `["commands:execute"]`.'),
          403: errorResponse('`PERMISSION_DENIED`: an API key cannot manage API keys.'),
          409: errorResponse('`API_KEY_LIMIT`: the user holds 50 live keys.'),
        },
      },
      get: {
        operationId: 'listApiKeys',
        security: accessTokenOnly,
        summary: 'The caller\'s API keys, revoked ones included',
        tags: ['Account'],
        responses: { 200: dataResponse('The keys, without their secrets.', z.array(ApiKey)), 403: errorResponse('`PERMISSION_DENIED`: an API key cannot manage API keys.') },
      },
    },
    '/api/v1/account/api-keys/{key_id}': {
      delete: {
        operationId: 'revokeApiKey',
        security: accessTokenOnly,
        summary: 'Revoke an API key',
        tags: ['Account'],
        parameters: [keyId],
        responses: {
          200: dataResponse('Revoked (again: the first `revoked_at` is kept).', ApiKeyRevoked),
          403: errorResponse('`PERMISSION_DENIED`: an API key cannot manage API keys.'),
          404: errorResponse('`NOT_FOUND`: unknown, malformed or another user\'s key.'),
        },
      },
    },
    '/api/v1/organizations': {
      post: {
        operationId: 'createOrganization',
        summary: 'Create an organization (developer mode)',
        tags: ['Organizations'],
        requestBody: jsonBody(fromZod(OrganizationBody)),
        responses: {
          201: dataResponse('Created; the caller is its owner.', OrganizationCreated),
          400: errorResponse(slugErrors),
          403: errorResponse('`PERMISSION_DENIED`: developer mode is required.'),
        },
      },
    },
    '/api/v1/organizations/{org_id}': {
      get: {
        operationId: 'getOrganization',
        summary: 'An organization the caller belongs to',
        tags: ['Organizations'],
        parameters: [orgId],
        responses: {
          200: dataResponse('The organization with its counts.', OrganizationFound),
          404: errorResponse('`NOT_FOUND`: unknown, malformed, or the caller is not a member.'),
        },
      },
    },
    '/api/v1/organizations/{org_id}/invite': {
      post: {
        operationId: 'inviteMember',
        summary: 'Invite someone by e-mail (owner or admin)',
        tags: ['Organizations'],
        parameters: [orgId],
        requestBody: jsonBody(fromZod(InviteBody)),
        responses: {
          201: dataResponse('The invite (valid 7 days, once, for that e-mail); its id is the code to join with.', InviteSent),
          400: errorResponse('`VALIDATION_FAILED`: a malformed e-mail or role.'),
          403: errorResponse('`PERMISSION_DENIED`: members may not invite.'),
          404: errorResponse('`NOT_FOUND`: unknown organization, or the caller is not a member.'),
        },
      },
    },
    '/api/v1/organizations/{org_id}/members': {
      get: {
        operationId: 'listMembers',
        summary: 'An organization\'s members',
        tags: ['Organizations'],
        parameters: [orgId],
        responses: {
          200: dataResponse('The members.', z.array(Member)),
          404: errorResponse('`NOT_FOUND`: unknown organization, or the caller is not a member.'),
        },
      },
    },
    '/api/v1/organizations/{org_id}/members/{user_id}': {
      delete: {
        operationId: 'removeMember',
        summary: 'Remove a member, or leave',
        tags: ['Organizations'],
        parameters: [orgId, pathParameter('user_id', string(), 'The member\'s user id.')],
        responses: {
          200: message('Removed.'),
          403: errorResponse('`PERMISSION_DENIED`: a member removing another, or an admin removing an owner.'),
          404: errorResponse('`NOT_FOUND`: unknown organization or not a member.'),
          409: errorResponse('`LAST_OWNER`: the organization would have no owner.'),
        },
      },
    },
    '/api/v1/namespaces/{namespace}/check': {
      get: {
        operationId: 'checkNamespace',
        summary: 'Whether the caller may publish under a namespace',
        tags: ['Account'],
        parameters: [pathParameter('namespace', string(), 'A personal or organization slug, without `@`.')],
        responses: {
          200: dataResponse('Available to the caller (personal or organization), or why not.', NamespaceCheck),
          400: errorResponse('`SLUG_INVALID`: not a valid slug.'),
        },
      },
    },
  },
};
