// This file is generated from the platform's /openapi.json by sdk/typescript/scripts/generate.ts; do not edit it.

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fleet health
         * @description Each check is bounded by 2 s. Without the cache the fleet still serves on local fallbacks (`degraded`).
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI document */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Interactive documentation (Swagger UI)
         * @description Served with its assets from the gateway itself (`/docs/assets/…`); nothing is loaded from elsewhere.
         */
        get: operations["getDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cli/svc-cli.tgz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The `svc` command-line client this platform was built with
         * @description An npm package (`npm pack` of `cli/`): `npm install -g <platform>/cli/svc-cli.tgz` installs `svc`, whose `--version` is the platform's. Its dependencies come from the npm registry. Answers carry an ETag and `Cache-Control: no-cache`.
         */
        get: operations["getCliPackage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cli/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sign-in page of `svc login`
         * @description The person signs in with `POST /api/v1/auth/login`; the page then posts `state`, `access_token` and `refresh_token` as a form to `http://127.0.0.1:{port}/callback`, where the CLI waits and checks `state`. A Content-Security-Policy allows only the page's own script, requests to this origin and that one form target.
         */
        get: operations["getCliLoginPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-authorization-server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Authorization server metadata (RFC 8414) */
        get: operations["oauthAuthorizationServerMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The MCP endpoint's protected resource metadata (RFC 9728) */
        get: operations["oauthProtectedResourceMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The same metadata at the MCP path's well-known URL */
        get: operations["oauthProtectedResourceMetadataMcp"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Start an authorization (code flow, PKCE S256) */
        get: operations["oauthAuthorize"];
        put?: never;
        /** Start an authorization with the parameters in a form */
        post: operations["oauthAuthorizeForm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/consent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A step of the consent page: sign in, approve or deny
         * @description Posted by the consent page's own forms (a request another site's page made is refused, 403). `action=sign-in` with `email` and `password` sets the `svc_oauth` cookie (HttpOnly, `Path=/oauth`, `SameSite=Lax`, an hour) and shows the consent step; `action=approve` with `tenant_id`, or `action=deny`, each with the page's `csrf` token, sends the browser back to the client.
         */
        post: operations["oauthConsent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a code or a refresh token for tokens
         * @description Refresh tokens rotate: each is used once, and presenting a used one revokes the whole authorization. Access tokens last `SVC_ACCESS_TOKEN_TTL` and are for the MCP endpoint only.
         */
        post: operations["oauthToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Register a client (RFC 7591) */
        post: operations["oauthRegisterClient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke a token (RFC 7009)
         * @description An access or refresh token of the calling client ends its whole authorization: every token issued under it stops at once. An unknown token is answered the same.
         */
        post: operations["oauthRevoke"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/authorizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The applications the caller authorized
         * @description Authorizations given on the consent page and still in force, newest first.
         */
        get: operations["listAuthorizations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/authorizations/{authorization_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an application's authorization
         * @description Its refresh token no longer refreshes and its access tokens stop at once.
         */
        delete: operations["revokeAuthorization"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an account with an access code */
        post: operations["register"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with e-mail and password */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exchange a refresh token for new tokens */
        post: operations["refreshTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/refresh-cookie": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange the svc_refresh cookie for a new access token
         * @description For the browser front end on the API's own origin: a browser request another origin's page made (`Sec-Fetch-Site` other than `same-origin`, or an `Origin` naming another host) is refused, even from the same site (the dashboard origin). Clients that are not browsers send neither header and use `POST /api/v1/auth/refresh` anyway.
         */
        post: operations["refreshTokensWithCookie"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke the caller's session */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/change-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the caller's password */
        post: operations["changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/change-password/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change a password from the sign-in screen */
        post: operations["changePasswordWithLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a link to choose a new password
         * @description For somebody who forgot their password. When an account uses the address, it is sent a link to `<SVC_PUBLIC_URL>/reset-password?token=…`, which works once and expires (an hour by default). The answer is the same, and comes as soon, whether an account uses the address or not. Five requests an hour per address, besides the limit per client.
         */
        post: operations["requestPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password-reset/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Choose a new password with a reset link's token
         * @description Sets the password (the registration rules: 8-72 bytes). The link, and every other reset link of the user, is spent; every session and OAuth authorization of the user ends, and the user is told by e-mail.
         */
        post: operations["confirmPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user */
        get: operations["getCurrentUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change the caller's name */
        patch: operations["updateCurrentUser"];
        trace?: never;
    };
    "/api/v1/users/{user_id}/role": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Appoint a platform admin, or make one a member again (platform owner)
         * @description The platform role opens the admin areas (`admin` or `owner`); it is not a role in any tenant. Only the owner, the operator account bootstrapped from `SVC_ADMIN_EMAIL`, changes it, to `admin` or `member`; the owner's own role is the bootstrap's. The user's next request carries the new role.
         */
        put: operations["setPlatformRole"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/access-codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every access code (admin) */
        get: operations["listAccessCodes"];
        put?: never;
        /** Mint access codes (admin) */
        post: operations["createAccessCodes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/access-codes/{code_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Deactivate an access code (admin) */
        delete: operations["deactivateAccessCode"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/access-codes/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check an access code before registering */
        post: operations["validateAccessCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/mode": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Consumer or developer mode */
        get: operations["getAccountMode"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organizations the caller belongs to */
        get: operations["listAccountOrganizations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/developer-mode": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Turn developer mode on by creating or joining an organization */
        post: operations["enableDeveloperMode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's API keys, revoked ones included */
        get: operations["listApiKeys"];
        put?: never;
        /** Create an API key */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/api-keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an organization (developer mode) */
        post: operations["createOrganization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{org_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An organization the caller belongs to */
        get: operations["getOrganization"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{org_id}/invite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Invite someone by e-mail (owner or admin) */
        post: operations["inviteMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{org_id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An organization's members */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{org_id}/members/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member, or leave */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/namespaces/{namespace}/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the caller may publish under a namespace */
        get: operations["checkNamespace"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/registry/command-names/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Whether a pack's command names are free in its namespace
         * @description Command names are unique among the active packs of a namespace; a name another pack uses would make publishing (or releasing) this pack fail with `COMMAND_NAME_TAKEN`. The pack's own names never clash with it. `svc pack publish --dry-run` asks this.
         */
        post: operations["checkCommandNames"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/registry/packs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish a pack version
         * @description Stores an immutable version; `POST /api/v1/packs/install` makes it active. The checks run in a fixed order and the first problem answers.
         */
        post: operations["publishPack"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/packs/install": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Install a pack into the caller's tenant, or release a version of one's own pack
         * @description Two operations on one path, chosen by who calls. **A pack the caller's tenants do not own**, which the caller can see: installed into the caller's own (personal) tenant, by any signed-in user; `version: "latest"` (the default) follows the pack's active version, a version number pins the installation to that published version (which must be reachable by its own visibility), and installing again moves the pin. **A pack of one of the caller's tenants**: the release of a published version (developer mode), which becomes the pack's active version for every caller; `latest` is the highest release.
         */
        post: operations["installPack"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/packs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The installed packs of every tenant the caller belongs to
         * @description Packs the caller's tenants installed, their own packs' released versions included, with the version each installation runs.
         */
        get: operations["listInstalledPacks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/packs/{pack_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove the caller's installation of a pack, or the published pack itself
         * @description Chosen by who calls. **A pack the caller's tenants do not own**: removes the caller's tenant's installation; the pack stays published for everyone else. **A pack of one of the caller's tenants** (developer mode): the spec's uninstall, removing the pack with every version, command, grant, every tenant's installation and the package files.
         */
        delete: operations["uninstallPack"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/registry/grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Give a tenant access to an organization-visibility pack */
        post: operations["grantPackAccess"];
        /**
         * Take a grant back
         * @description The body is JSON, the same as the grant's: `pack_namespace`, `pack_name`, `grantee_tenant_id`.
         */
        delete: operations["revokePackAccess"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/commands": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The commands the caller's tenants may see
         * @description Public packs, the caller's own packs and packs granted to their organizations; unlisted packs are left out. Ordered by namespace, then name.
         */
        get: operations["listCommands"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/commands/{namespace}/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A command's detail */
        get: operations["getCommand"];
        put?: never;
        /**
         * Run a command
         * @description `fast` commands answer inline (200); `medium` and `long` commands, `?async=true` and `Prefer: respond-async` answer 202 with a task to poll, and so does a fast command still running after the sync wait.
         */
        post: operations["runCommand"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your tenant's schedules, newest first */
        get: operations["listSchedules"];
        put?: never;
        /**
         * Run a command on a cron
         * @description Runs are tasks of the caller in their tenant. The input is checked against the command's schema now and again at each run.
         */
        post: operations["createSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A schedule */
        get: operations["getSchedule"];
        put?: never;
        post?: never;
        /** Delete a schedule (its runs stay tasks) */
        delete: operations["deleteSchedule"];
        options?: never;
        head?: never;
        /**
         * Change any field of a schedule
         * @description A new command or input is checked again; a new cron or time zone moves the next tick; `enabled` pauses or resumes.
         */
        patch: operations["updateSchedule"];
        trace?: never;
    };
    "/api/v1/schedules/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a schedule
         * @description No tick fires until it is resumed.
         */
        post: operations["pauseSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a schedule (or turn on a pack's proposal)
         * @description It fires from its next tick; ticks while it was paused are not caught up. The command and input are checked again, and the tier's limits apply.
         */
        post: operations["resumeSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules/{id}/trigger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * One run now
         * @description A task of the caller, whatever the schedule's state and overlap; an input the command now refuses gives a failed run.
         */
        post: operations["triggerSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A schedule's runs, newest first */
        get: operations["listScheduleRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's own tasks, newest first
         * @description Runs that became tasks (asked for async, or waited past the synchronous limit); a synchronous run answered in time keeps no task. Only the caller's own, in their tenant.
         */
        get: operations["listTasks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{task_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A task's status and result */
        get: operations["getTask"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{task_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a pending or started task */
        post: operations["cancelTask"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sandbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your development sandbox: status, sandbox_id, uptime */
        get: operations["getSandbox"];
        put?: never;
        /**
         * Start your development sandbox
         * @description One session at a time, a soft limit: starting while one runs answers that one (200) with `warning` ("Your sandbox is already running (one session at a time): this is it") and counts as activity.
         */
        post: operations["startSandbox"];
        /**
         * Stop your development sandbox
         * @description Stopping a sandbox that is not running changes nothing and answers `stopped: false`.
         */
        delete: operations["stopSandbox"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sandbox/packs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Put a pack into your running sandbox
         * @description The package gets the registry's checks; it replaces an earlier sync of the same namespace and name. All synced packs together hold at most 104857600 bytes. Counts as activity.
         */
        put: operations["syncSandboxPack"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sandbox/commands/{namespace}/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a command of a pack synced into your sandbox
         * @description As `POST /api/v1/commands/{namespace}/{name}` runs an installed one (same answers, tasks polled at `/api/v1/tasks/{task_id}`), without `Idempotency-Key`, and with no pack secrets. A run whose input passed counts against the monthly quota; it is activity.
         */
        post: operations["runSandboxCommand"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Not supported: the MCP endpoint is stateless */
        get: operations["mcpGet"];
        put?: never;
        /**
         * Streamable-HTTP MCP server (JSON-RPC)
         * @description Stateless (no sessions) and answering JSON (server-sent events for a `tools/call` that asked for progress). Protocol revisions 2025-11-25 (latest), 2025-06-18, 2025-03-26, 2024-11-05 and 2024-10-07. Methods: `initialize` (tools and tasks capabilities), `ping`, `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel` (MCP Tasks over the caller's own tasks, same ids and states as `GET /api/v1/tasks/{task_id}`; medium and long tools carry `execution.taskSupport: "optional"`), `tools/list` (the commands `GET /api/v1/commands` lists, as tools named `scope__pack__command`, 100 per page, with their `annotations` and, for fast ones, `outputSchema`; with `?tools=installed` only those of the packs the caller's tenants installed; the last page ends with the built-in `svc__task_get` and `svc__task_cancel`), `tools/call` (runs through the REST path; counts against the command-run budget: a refused call is answered with `isError: true` and `{error, type: "rate_limit", code: "RATE_LIMITED", retry_after, correlation_id}`, the `X-RateLimit-*` headers describing the command-run budget). Send `Accept: application/json, text/event-stream`.
         */
        post: operations["mcp"];
        /** Not supported: the MCP endpoint is stateless */
        delete: operations["mcpDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/storage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Keys with a prefix, in byte order */
        get: operations["listStorageKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/storage/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an entry */
        get: operations["getStorageEntry"];
        /** Write an entry */
        put: operations["putStorageEntry"];
        post?: never;
        /** Delete an entry */
        delete: operations["deleteStorageEntry"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/secrets/{namespace}/{pack}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The secrets set for a pack (names and dates, never values) */
        get: operations["listPackSecrets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/secrets/{namespace}/{pack}/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set a secret of a pack
         * @description Sealed with AES-256-GCM at rest. At most 50 per pack and tenant; a value of at most 4096 bytes. The pack need not be installed yet.
         */
        put: operations["setPackSecret"];
        post?: never;
        /** Remove a secret of a pack */
        delete: operations["deletePackSecret"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/telemetry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report one CLI run (anonymous)
         * @description Nothing about the sender is kept, even when the request carries credentials.
         */
        post: operations["recordTelemetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users, newest first */
        get: operations["listAdminUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One user, with subscription and recent billing events */
        get: operations["getAdminUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users/{id}/access-codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint one comp code for a user
         * @description The code literal is in this answer only: identity keeps a keyed digest of it, and it is never logged or shown again.
         */
        post: operations["mintCompCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users/{id}/sessions/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End every session of a user
         * @description Every refresh session ends and the access tokens issued under them are refused from this answer on.
         */
        post: operations["revokeUserSessions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users/{id}/tier": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change a user's tier by hand
         * @description The change stands whether or not the notification e-mail could be requested (`email_requested`).
         */
        post: operations["setUserTier"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/access-codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Access codes, newest first, without their literals */
        get: operations["listAdminAccessCodes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The audit log, newest first (owners) */
        get: operations["listAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/metrics/onboarding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Onboarding funnel of the users registered since */
        get: operations["getOnboardingFunnel"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/metrics/revenue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Monthly recurring revenue and recent billing events */
        get: operations["getRevenue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/metrics/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Command runs since */
        get: operations["getUsageMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/metrics/user-journeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users with their latest events, newest users first */
        get: operations["getUserJourneys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/metrics/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every event since, streamed as CSV (default) or JSON */
        get: operations["exportMetricEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/metrics/funnel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Checkouts, registrations and first commands per day or week */
        get: operations["getAdminFunnel"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This month's usage of the active tenant */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/usage/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Turn hard limits on or off for the active tenant (its owner or an admin of it)
         * @description Soft by default: past a quota, a warning and at most one e-mail a day, runs go on. With `hard: true`, a tenant past a quota has its runs refused with `USAGE_LIMIT_EXCEEDED` (429) until the month ends, the plan changes or hard limits are turned off. Only the enterprise tier may turn them on; any tier may turn them off.
         */
        put: operations["putUsageLimits"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/usage/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Usage month by month */
        get: operations["getUsageHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/usage/by-pack": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This month's runs and LLM calls per pack
         * @description One entry per pack, `@<namespace>/<name>`, with its runs per version and the LLM calls its commands reported (`llm_requests` counts calls made with the user's own provider key too, whose tokens are not the platform's). Runs counted before events named their pack are listed under the namespace alone (no `@`), with no versions.
         */
        get: operations["getUsageByPack"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/usage/by-user": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This month's runs per user (platform admins) */
        get: operations["getUsageByUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Plans with their prices and the limits the platform enforces */
        get: operations["listPlans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's tier and processor customer */
        get: operations["getBillingStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start paying for Pro: a processor-hosted checkout page */
        post: operations["startCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/portal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The processor's customer portal (payment methods, invoices, cancellation) */
        post: operations["openBillingPortal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Subscription events from the payment processor
         * @description Each event id is applied once; unhandled event types are acknowledged and ignored.
         */
        post: operations["receiveBillingEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/registration/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start paying for an access code
         * @description `ref` keeps only letters, digits and dashes, at most 64. Limited to 5 requests a minute per client address.
         */
        post: operations["startRegistrationCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/registration/session/{session_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether a paid registration's code is ready */
        get: operations["getRegistrationSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/registration/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Paid-registration events from the payment processor */
        post: operations["receiveRegistrationEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's endpoints */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register an endpoint
         * @description The URL must be https and resolve to public addresses. The signing secret is answered this once.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One endpoint */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /** Remove an endpoint and its delivery log */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The delivery log
         * @description Newest first: status, tries, last response code and latency, and every try with its time.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery's event again
         * @description A new delivery with the same event id and body, after the endpoint's pending ones.
         */
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description Queues a `webhook.ping` event, whatever the endpoint subscribed to.
         */
        post: operations["pingWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Dashboards the caller may see
         * @description Public ones, every one of the caller's tenants, and organization ones granted to them; unlisted dashboards of other tenants are left out. Ordered by scope, then name.
         */
        get: operations["listDashboards"];
        put?: never;
        /**
         * Register a dashboard
         * @description Developer mode; `scope` is `@` and the slug of the caller's tenant or one of its organizations. The slug is the name, unique across the platform.
         */
        post: operations["createDashboard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards/{dashboard_id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a version's bundle
         * @description Owner only. The bundle is a .tar.gz of at most 52428800 bytes with main.js at its root, at most 500 regular files (no links, devices, absolute paths or `..`) unpacking to at most 209715200 bytes. The version must be greater than every earlier one; it becomes the only active one.
         */
        post: operations["uploadDashboardVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards/{slug}/bundle/{version}/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A file of a dashboard's bundle
         * @description Visibility as for the dashboard itself; any version uploaded, until the dashboard is deleted.
         */
        get: operations["getDashboardBundleFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards/{slug}/view-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a view token for a dashboard frame
         * @description For a signed-in viewer (an access token) who may see the dashboard. The token reads that dashboard's files, any version, for an hour, while the viewer's session lives and the viewer may still see the dashboard; nothing else. The console hands `entryPoint` to a frame on the dashboard origin.
         */
        post: operations["createDashboardViewToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboard-views/{token}/bundle/{version}/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A bundle file through a view token
         * @description The credential is the token in the path (no header, no cookie), so that a frame's native `import()` can send it. A token that is forged, malformed or expired, or whose session has ended, is a 401.
         */
        get: operations["getDashboardViewFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards/{dashboard_id}/grant": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Grant an organization dashboard to tenants
         * @description Owner only, organization visibility only. Tenants by id (`tenant_ids`, the spec's field) or by scope (`scopes`, `@partner`); each must exist. Granting again is not an error.
         */
        post: operations["grantDashboard"];
        /**
         * Revoke grants of a dashboard
         * @description Owner only. Names tenants as granting does; names without a grant are not an error.
         */
        delete: operations["revokeDashboardGrant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards/{dashboard}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A dashboard by slug */
        get: operations["getDashboard"];
        put?: never;
        post?: never;
        /**
         * Delete a dashboard
         * @description Developer mode, owning tenant. Versions, grants, share links and bundle files go with it; `dashboard.deleted` is published.
         */
        delete: operations["deleteDashboard"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards/{dashboard_id}/shares": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Live share links of a dashboard */
        get: operations["listDashboardShares"];
        put?: never;
        /**
         * Create a share link
         * @description Owner only. The link reads the dashboard's metadata and bundles without an account until it expires (`1d`, `7d`, `30d`, `never`: the default) or is revoked.
         */
        post: operations["createDashboardShare"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards/{dashboard_id}/shares/{share_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a share link */
        delete: operations["revokeDashboardShare"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/shared-dashboards/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A dashboard through a share link (no account)
         * @description `entryPoint` points under this share link, so the bundle loads without a JWT.
         */
        get: operations["getSharedDashboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/shared-dashboards/{token}/bundle/{version}/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A bundle file through a share link (no account) */
        get: operations["getSharedDashboardBundleFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ssh/targets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's targets, by name */
        get: operations["listSshTargets"];
        put?: never;
        /**
         * Register a target
         * @description `private_key` (RSA, Ed25519 or ECDSA; OpenSSH, PEM or PKCS#8 PEM; no passphrase) with `auth_method: key`, `password` with `auth_method: password`. Without `known_hosts`, verify the target and store the line before packs can use it.
         */
        post: operations["createSshTarget"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ssh/targets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One target */
        get: operations["getSshTarget"];
        /**
         * Change a target
         * @description Any mutable field; a credential sent replaces the stored one (switching `auth_method` needs the new one); `known_hosts: null` forgets the trusted key.
         */
        put: operations["updateSshTarget"];
        post?: never;
        /** Remove a target and its sealed credential */
        delete: operations["deleteSshTarget"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ssh/targets/{id}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Connect without checking the host key and show its fingerprint
         * @description Trust on first use: compare the fingerprint with the server's own (`ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub`), then store its `known_hosts` line with PUT.
         */
        post: operations["verifySshTarget"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description The error body of every failure. */
        Error: {
            /** @enum {boolean} */
            success: false;
            error: {
                /** @description Exception class name, e.g. `ValidationError`, `TimeoutError`. */
                type: string;
                /** @description Human-readable; never a stack trace. */
                message: string;
                /** @description Machine code: `VALIDATION_FAILED`, `NOT_FOUND`, … or an endpoint-specific one such as `SLUG_TAKEN`. */
                code: string;
                /** @description Extra context, e.g. `{field, value, issue}` for a validation failure. */
                details: {
                    [key: string]: unknown;
                };
                /** @description The request id (`X-Request-Id`), for support and logs. */
                correlation_id: string;
                /** Format: date-time */
                timestamp: string;
                /** @description Seconds until the refusing limit frees up (429 only). */
                retry_after?: number;
            };
        };
        /** @description The reduced error body (`reducedErrorBody` of `@svc/core`): only a message, where the spec gives that form (an access code that does not validate). */
        ReducedError: {
            /** @enum {boolean} */
            success: false;
            error: {
                /** @description Human-readable. */
                message: string;
            };
        };
        /** @description Optional envelope metadata (the spec allows it; most endpoints omit it). */
        Meta: {
            request_id: string;
            /** Format: date-time */
            timestamp: string;
        };
        /** @description Where a page sits in a list. */
        Pagination: {
            total: number;
            page: number;
            pages: number;
            limit: number;
            has_next: boolean;
            has_prev: boolean;
        };
        /** @description A confirmation for people to read. */
        Message: {
            message: string;
        };
        /** @description A bare object, without the envelope. */
        Health: {
            /** @enum {string} */
            status: "healthy" | "degraded" | "unhealthy";
            /** @description The platform version. */
            version: string;
            services: {
                /** @enum {string} */
                database: "healthy" | "degraded" | "unhealthy";
                /** @enum {string} */
                cache: "healthy" | "degraded" | "unhealthy";
                /** @enum {string} */
                worker: "healthy" | "degraded" | "unhealthy";
            };
            /** @description Present when a worker answered. */
            details?: {
                /** @description What the execution worker that answered says of itself. */
                worker: {
                    /** @description The interpreter Python packs run on; null when the worker has none. */
                    python: {
                        /** @description Its path (`SVC_PYTHON`). */
                        interpreter: string;
                        /** @description e.g. `3.11.2`. */
                        version: string;
                    } | null;
                };
            };
            /** Format: date-time */
            timestamp: string;
        };
        User: {
            /** Format: uuid */
            id: string;
            /** Format: email */
            email: string;
            name: string;
            /**
             * @description The platform role: `owner` (the operator account), `admin` (appointed by the owner), `member` (everybody else). Not a tenant role: every user owns their personal tenant, and organization roles are in `GET /account/mode` and the members list.
             * @enum {string}
             */
            role: "owner" | "admin" | "member";
            developerMode: boolean;
            /** @enum {string} */
            subscriptionTier: "free" | "developer_preview" | "pro" | "enterprise";
            /** Format: date-time */
            createdAt: string;
        };
        /** @description The caller, with their personal tenant. */
        CurrentUser: {
            /** Format: uuid */
            id: string;
            /** Format: email */
            email: string;
            name: string;
            /**
             * @description The platform role: `owner` (the operator account), `admin` (appointed by the owner), `member` (everybody else). Not a tenant role: every user owns their personal tenant, and organization roles are in `GET /account/mode` and the members list.
             * @enum {string}
             */
            role: "owner" | "admin" | "member";
            developerMode: boolean;
            /** @enum {string} */
            subscriptionTier: "free" | "developer_preview" | "pro" | "enterprise";
            /** Format: date-time */
            createdAt: string;
            tenantSlug: string;
            /** Format: uuid */
            tenantId: string;
        };
        Tokens: {
            /** @description A bearer JWT. */
            accessToken: string;
            /** @description Single use: each refresh returns a new one. */
            refreshToken: string;
            /** @description When the access token expires, in milliseconds since the Unix epoch. */
            expiresAt: number;
            /** @description When the refresh token expires, in milliseconds since the Unix epoch. Every refresh answers a new refresh token a whole refresh lifetime ahead (30 days by default): a session in use slides on. */
            refreshExpiresAt: number;
        };
        SignedIn: {
            tokens: components["schemas"]["Tokens"];
            user: components["schemas"]["User"];
        };
        AccessCode: {
            /** Format: uuid */
            id: string;
            /** @description Null for a comp code: its literal was answered once, to the operator who minted it, and is not kept. */
            code: string | null;
            /** @enum {string} */
            tier: "free" | "developer_preview" | "pro" | "enterprise";
            cohort: string;
            max_uses: number;
            use_count: number;
            is_active: boolean;
            /** Format: uuid */
            redeemed_by: string | null;
            /** Format: date-time */
            redeemed_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        Organization: {
            /** Format: uuid */
            id: string;
            name: string;
            slug: string;
            /** @description `@` and the slug. */
            scope: string;
            /** Format: date-time */
            createdAt: string;
        };
        OrganizationDetail: {
            /** Format: uuid */
            id: string;
            name: string;
            slug: string;
            /** @description `@` and the slug. */
            scope: string;
            /** Format: date-time */
            createdAt: string;
            members_count: number;
            packs_count: number;
        };
        Member: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            user_id: string;
            email: string;
            /** @enum {string} */
            role: "owner" | "admin" | "member";
            /** Format: date-time */
            joined_at: string;
        };
        Invite: {
            /** Format: uuid */
            id: string;
            email: string;
            /** @enum {string} */
            role: "admin" | "member";
            /** Format: date-time */
            expiresAt: string;
        };
        NewApiKey: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description `sk-svc-` and the first 8 hex digits. */
            key_prefix: string;
            scopes: string[];
            /** Format: date-time */
            created_at: string;
            /** @description The key itself: shown this once, stored only as a hash. */
            key: string;
        };
        ApiKey: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description `sk-svc-` and the first 8 hex digits. */
            key_prefix: string;
            scopes: string[];
            /** Format: date-time */
            last_used_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        AccountMode: {
            /** @enum {string} */
            account_mode: "consumer";
            developer_mode_available: boolean;
        } | {
            /** @enum {string} */
            account_mode: "developer";
            organization: {
                /** Format: uuid */
                id: string;
                name: string;
                slug: string;
                /** @description `@` and the slug. */
                scope: string;
                /** @enum {string} */
                role: "owner" | "admin" | "member";
            };
        };
        NamespaceCheck: {
            namespace: string;
            /** @enum {boolean} */
            available: true;
            /** @enum {string} */
            owner: "personal" | "organization";
        } | {
            namespace: string;
            /** @enum {boolean} */
            available: false;
            /** @description Why not, and what to do. */
            error: string;
        };
        /** @description RFC 6749 §5.2. */
        OAuthError: {
            error: string;
            error_description?: string;
            error_uri?: string;
        };
        Authorization: {
            /** Format: uuid */
            id: string;
            /** @description The id the client registered with, or the https URL of its client ID metadata document. */
            client_id: string;
            client_name: string;
            /** @description Where the client receives its codes. */
            redirect_host: string;
            /** @description The tenant the user chose: the only one the client acts in. */
            tenant: {
                /** Format: uuid */
                id: string;
                slug: string;
            };
            scopes: string[];
            /** @description The resource its tokens are for (the MCP endpoint). */
            resource: string;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description When the client last obtained tokens (the code exchanged, or a refresh).
             */
            last_used_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
        };
        CommandSummary: {
            namespace: string;
            name: string;
            /** @description The pack's name. */
            pack: string;
            /** @description The active version of the pack (semver). */
            version: string;
            description: string;
            /** @description The JSON Schema (draft 2020-12, or draft-07 by `$schema`) a run's input must satisfy. */
            input_schema: {
                [key: string]: unknown;
            };
            /** @description The JSON Schema a successful run's result satisfies (checked after each run); null when the command declares none. Over MCP, the tool's `outputSchema`. */
            output_schema: {
                [key: string]: unknown;
            } | null;
            /** @description Hints for agents (MCP tool annotations); absent ones take the protocol's defaults. */
            annotations: {
                title?: string;
                readOnlyHint?: boolean;
                destructiveHint?: boolean;
                idempotentHint?: boolean;
                openWorldHint?: boolean;
            };
            /** @description The dashboard that is the command's UI (`ui` in `pack.yaml`): its name (its slug), in the pack's namespace; null for none. Over MCP, the tool links it as an MCP App (`_meta.ui.resourceUri`). */
            ui: {
                dashboard: string;
            } | null;
            /** @enum {string} */
            output_format: "json";
            /** @description Seconds. */
            timeout: number;
            /**
             * @description `fast` answers inline; `medium` and `long` run as tasks (over MCP, tools that may run as MCP tasks).
             * @enum {string}
             */
            queue: "fast" | "medium" | "long";
            tags: string[];
        };
        Command: {
            namespace: string;
            name: string;
            /** @description The pack's name. */
            pack: string;
            /** @description The active version of the pack (semver). */
            version: string;
            description: string;
            /** @description The JSON Schema (draft 2020-12, or draft-07 by `$schema`) a run's input must satisfy. */
            input_schema: {
                [key: string]: unknown;
            };
            /** @description The JSON Schema a successful run's result satisfies (checked after each run); null when the command declares none. Over MCP, the tool's `outputSchema`. */
            output_schema: {
                [key: string]: unknown;
            } | null;
            /** @description Hints for agents (MCP tool annotations); absent ones take the protocol's defaults. */
            annotations: {
                title?: string;
                readOnlyHint?: boolean;
                destructiveHint?: boolean;
                idempotentHint?: boolean;
                openWorldHint?: boolean;
            };
            /** @description The dashboard that is the command's UI (`ui` in `pack.yaml`): its name (its slug), in the pack's namespace; null for none. Over MCP, the tool links it as an MCP App (`_meta.ui.resourceUri`). */
            ui: {
                dashboard: string;
            } | null;
            /** @enum {string} */
            output_format: "json";
            /** @description Seconds. */
            timeout: number;
            /**
             * @description `fast` answers inline; `medium` and `long` run as tasks (over MCP, tools that may run as MCP tasks).
             * @enum {string}
             */
            queue: "fast" | "medium" | "long";
            tags: string[];
            retries: number;
            examples: {
                description: string;
                /** @description An input that satisfies `input_schema`. */
                input: {
                    [key: string]: unknown;
                };
            }[];
        };
        PublishedPack: {
            /** Format: uuid */
            id: string;
            namespace: string;
            name: string;
            version: string;
            /** Format: uuid */
            version_id: string;
            /** @enum {string} */
            visibility: "public" | "unlisted" | "private" | "organization";
            description: string;
            commands: string[];
            size_bytes: number;
            sha256: string;
            /** @description The verified signature the package was published with; null when it was sent unsigned. */
            signature: {
                /** @enum {string} */
                algorithm: "ed25519";
                /** @description `SHA256:` and the base64 SHA-256 of the public key (DER), as OpenSSH prints fingerprints. */
                key_fingerprint: string;
            } | null;
        };
        InstalledPack: {
            /** Format: uuid */
            id: string;
            name: string;
            namespace: string;
            /** @description The version the installation runs: the pinned one, else the pack's active one. */
            version: string;
            /**
             * @description That version's visibility.
             * @enum {string}
             */
            visibility: "public" | "unlisted" | "private" | "organization";
            /** @description How many commands that version has. */
            commands: number;
            /** Format: date-time */
            installed_at: string;
            /**
             * @description `unavailable`: the tenant may no longer reach that version (a grant taken back, a pack made private); its commands do not run until it is reinstalled or becomes reachable again.
             * @enum {string}
             */
            status: "active" | "unavailable";
            /** @description True when pinned to `version`; false when following the pack's active version. */
            pinned: boolean;
        };
        Task: {
            /** Format: uuid */
            task_id: string;
            /**
             * @description `success`, `failure`, `timeout` and `revoked` are terminal.
             * @enum {string}
             */
            status: "pending" | "started" | "success" | "failure" | "timeout" | "revoked";
            /** @description The command's result once `success`; otherwise null. */
            result: unknown;
            error: {
                message: string;
                /** @description The exception class name. */
                type: string;
            } | null;
            /** Format: date-time */
            started_at: string | null;
            /** Format: date-time */
            completed_at: string | null;
            correlation_id: string;
            /** @description The command's last progress report (`ctx.progress(done, total?, message?)`); null when it made none. */
            progress: {
                done: number;
                total?: number;
                message?: string;
            } | null;
            /** @description What the run logged (its last attempt), for the task's owner: 16 KiB of lines, the last counting any dropped. */
            logs: {
                /** Format: date-time */
                at: string;
                /** @description `debug`, `info`, `warn` or `error`. */
                level: string;
                message: string;
            }[];
        };
        /** @description A JSON-RPC 2.0 response. */
        JsonRpcResponse: {
            /** @enum {string} */
            jsonrpc: "2.0";
            id: string | number;
            result: {
                [key: string]: unknown;
            };
        } | {
            /** @enum {string} */
            jsonrpc: "2.0";
            id: (string | null) | number;
            error: {
                code: number;
                message: string;
                /** @description More about the error. */
                data?: unknown;
            };
        };
        Schedule: {
            /** Format: uuid */
            id: string;
            /** @description `namespace.name`. */
            command: string;
            /** @description The input each run is given. */
            input: {
                [key: string]: unknown;
            };
            /** @description Five fields, or @hourly, @daily, @weekly, @monthly, @yearly. */
            cron: string;
            /** @description IANA time zone the cron is read in. */
            timezone: string;
            enabled: boolean;
            /**
             * @description `skip`: a tick while the last run is unfinished fires nothing; `queue`: it fires anyway.
             * @enum {string}
             */
            overlap: "skip" | "queue";
            /**
             * @description Ticks missed while no scheduler ran: `none` fires none of them, `latest` fires the latest once.
             * @enum {string}
             */
            catch_up: "none" | "latest";
            description: string;
            /**
             * @description Why it is paused: by a person, proposed by a pack, or by itself (its creator or its command out of reach); null while enabled.
             * @enum {string|null}
             */
            paused_reason: "paused" | "proposed_by_pack" | "creator_unavailable" | "command_unavailable" | null;
            /** Format: date-time */
            next_run_at: string | null;
            /** Format: date-time */
            last_run_at: string | null;
            /** Format: uuid */
            last_task_id: string | null;
            missed_ticks: number;
            skipped_ticks: number;
            /** @description `@namespace/pack` when a pack proposed it. */
            proposed_by: string | null;
            /** Format: uuid */
            created_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        ScheduleRun: {
            /** Format: uuid */
            task_id: string;
            /**
             * @description `success`, `failure`, `timeout` and `revoked` are terminal.
             * @enum {string}
             */
            status: "pending" | "started" | "success" | "failure" | "timeout" | "revoked";
            /** @description The command's result once `success`; otherwise null. */
            result: unknown;
            error: {
                message: string;
                /** @description The exception class name. */
                type: string;
            } | null;
            /** Format: date-time */
            started_at: string | null;
            /** Format: date-time */
            completed_at: string | null;
            correlation_id: string;
            /** @description The command's last progress report (`ctx.progress(done, total?, message?)`); null when it made none. */
            progress: {
                done: number;
                total?: number;
                message?: string;
            } | null;
            /** @description What the run logged (its last attempt), for the task's owner: 16 KiB of lines, the last counting any dropped. */
            logs: {
                /** Format: date-time */
                at: string;
                /** @description `debug`, `info`, `warn` or `error`. */
                level: string;
                message: string;
            }[];
            /**
             * Format: date-time
             * @description The tick it was fired for; null when triggered by hand.
             */
            scheduled_for: string | null;
            /** Format: date-time */
            created_at: string;
        };
        /** @description A secret without its value, which is never answered. */
        Secret: {
            name: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        StorageEntry: {
            key: string;
            /** @description The `data` written. */
            value: {
                [key: string]: unknown;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string | null;
        };
        StorageWrite: {
            key: string;
            /** @description False when a live entry was replaced. */
            created: boolean;
            /** Format: date-time */
            expires_at: string | null;
        };
        UsageSummary: {
            /** @description YYYY-MM (UTC) */
            period: string;
            tenant_id: string;
            usage: {
                commands_executed: number;
                storage_bytes: number;
                llm_tokens: {
                    input: number;
                    output: number;
                    total: number;
                };
                concurrent_jobs: {
                    current: number;
                    peak: number;
                };
            };
            limits: {
                /** @description null: unlimited */
                commands_per_month: number | null;
                /** @description null: unlimited */
                storage_bytes: number | null;
                /** @description null: unlimited */
                llm_tokens_per_month: number | null;
                /** @description null: unlimited */
                concurrent_jobs: number | null;
            };
            percentage_used: {
                storage: number;
                llm_tokens: number;
            };
        };
        UsageDashboard: {
            current_period: {
                /** Format: date-time */
                start: string;
                /** Format: date-time */
                end: string;
            };
            usage: {
                commands: {
                    executed: number;
                    /** @description null: unlimited */
                    limit: number | null;
                    /** @description Runs this month per pack (`@<namespace>/<name>`). */
                    by_pack: {
                        [key: string]: unknown;
                    };
                };
                storage: {
                    used_bytes: number;
                    /** @description null: unlimited */
                    limit_bytes: number | null;
                    percent_used: number;
                };
                llm_tokens: {
                    used: number;
                    /** @description null: unlimited */
                    limit: number | null;
                    percent_used: number;
                    /** @description Tokens this month per model. */
                    by_model: {
                        [key: string]: unknown;
                    };
                };
            };
            subscription: {
                tier: string;
                /** @description From billing; null when the caller never subscribed. */
                status: string | null;
                /** Format: date-time */
                current_period_end: string | null;
            };
        };
        /** @description A user as the admin area sees them. */
        AdminUser: {
            user_id: string;
            tenant_id: string;
            email: string;
            tier: string;
            /** @description The cohort of the access code the user registered with (filter `referral`). */
            cohort: string;
            /** Format: date-time */
            created_at: string;
            subscription_status: string | null;
            /** @description Whether the user has a payment customer; the id itself is never answered. */
            payment_customer_id_present: boolean;
        };
        AuditEntry: {
            id: string;
            /** Format: date-time */
            at: string;
            actor_id: string;
            actor_role: string;
            action: string;
            /** @description An id, or `hmac:<hex>` for anything secret or personal. */
            target: string | null;
            /** @description `success`, or the error code answered. */
            outcome: string;
            correlation_id: string | null;
        };
        /** @description An access code as the admin area lists it: never its literal. */
        AdminAccessCode: {
            id: string;
            /** @description `standard`, `comp` or `registration`. */
            kind: string;
            tier: string;
            cohort: string;
            max_uses: number;
            use_count: number;
            is_active: boolean;
            redeemed_by: string | null;
            /** Format: date-time */
            redeemed_at: string | null;
            /** Format: date-time */
            expires_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        UsageMonth: {
            period: string;
            commands_executed: number;
            commands_succeeded: number;
            commands_failed: number;
            execution_time_seconds: number;
            storage_operations: number;
            peak_storage_bytes: number;
        };
        Plan: {
            /** @enum {string} */
            id: "free" | "developer_preview" | "pro";
            name: string;
            /** @description Minor currency units a period. */
            price: number;
            /** @description `month`, or null for a plan without payments. */
            interval: string | null;
            limits: {
                /** @description -1: unlimited. */
                requests_per_minute: number;
                /** @description -1: unlimited. */
                commands_per_hour: number;
            };
            features: string[];
        };
        BillingStatus: {
            /** @enum {string} */
            subscription_tier: "free" | "developer_preview" | "pro" | "enterprise";
            payment_customer_id: string | null;
            /** @description `none` when the user did not register with a code. */
            cohort: string;
            /**
             * @description The subscription's state (Part 2, States): `past_due` is Pro until `grace_ends_at`; `canceled` is Pro until `current_period_end`; null without a subscription.
             * @enum {string|null}
             */
            status: "active" | "past_due" | "canceled" | "expired" | null;
            /**
             * Format: date-time
             * @description While `past_due`: when access ends unless the payment is recovered.
             */
            grace_ends_at: string | null;
            /**
             * Format: date-time
             * @description The end of the paid period, as the processor last said.
             */
            current_period_end: string | null;
        };
        RegistrationSession: {
            /** @enum {string} */
            status: "pending" | "ready" | "expired" | "disputed";
            /** @description When ready. */
            code?: string;
            /** @description When ready. */
            email?: string;
        };
        Webhook: {
            id: string;
            url: string;
            events: ("command.executed" | "task.completed" | "task.failed" | "pack.installed" | "pack.uninstalled" | "dashboard_deleted")[];
            description: string;
            /** @enum {string} */
            status: "active" | "disabled";
            failing_since: string | null;
            disabled_at: string | null;
            created_at: string;
        };
        CreatedWebhook: {
            id: string;
            url: string;
            events: ("command.executed" | "task.completed" | "task.failed" | "pack.installed" | "pack.uninstalled" | "dashboard_deleted")[];
            description: string;
            /** @enum {string} */
            status: "active" | "disabled";
            failing_since: string | null;
            disabled_at: string | null;
            created_at: string;
            secret: string;
        };
        WebhookDelivery: {
            id: string;
            webhook_id: string;
            event_id: string;
            event_type: string;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
            attempts: number;
            response_code: number | null;
            latency_ms: number | null;
            last_error: string | null;
            next_attempt_at: string | null;
            created_at: string;
            delivered_at: string | null;
            attempt_log: {
                attempt: number;
                at: string;
                response_code: number | null;
                latency_ms: number;
                error: string | null;
            }[];
        };
        WebhookEvent: {
            id: string;
            type: string;
            timestamp: string;
            data: {
                [key: string]: unknown;
            };
        };
        /** @description A dashboard as the caller may see it. */
        Dashboard: {
            /** Format: uuid */
            id: string;
            slug: string;
            name: string;
            description: string;
            /** @description The active version; null before the first upload. */
            version: string | null;
            /** @description URL of the active version's main.js, to pass to a dynamic `import()`: on the dashboard origin (`SVC_DASHBOARD_ORIGIN`) when there is one, else the URL path on this origin; null before the first upload. */
            entryPoint: string | null;
            minSdkVersion: string | null;
            /** @description Without `@`. */
            scope: string;
            category: string | null;
            /** @enum {string} */
            visibility: "public" | "unlisted" | "organization" | "private";
            packDependencies: {
                scope: string;
                name: string;
                /** @description A semver range, e.g. `>=2.0.0`. */
                version: string;
            }[];
            /** Format: date-time */
            created_at: string;
        };
        DashboardVersion: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            dashboard_id: string;
            version: string;
            /** @enum {string} */
            entry_point: "main.js";
            min_sdk_version: string;
            /** @description Size of the uploaded .tar.gz. */
            bundle_size_bytes: number;
            is_active: boolean;
            /** Format: date-time */
            created_at: string;
        };
        /** @description A view token: the credential of a dashboard frame on the dashboard origin, which never holds the viewer's access or refresh token. */
        DashboardViewToken: {
            /** @description Signed; names the dashboard, the viewer and their session, and its expiry. */
            token: string;
            /** Format: uuid */
            dashboard_id: string;
            /** @description The active version; null before the first upload. */
            version: string | null;
            /** @description Where the active version's files are read with the token, on the dashboard origin when there is one: `{origin}/api/v1/dashboard-views/{token}/bundle/{version}`. */
            base_url: string | null;
            /** @description `base_url` + `/main.js`: what the dashboard's frame imports. */
            entryPoint: string | null;
            /** Format: date-time */
            expires_at: string;
        };
        DashboardShare: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            dashboard_id: string;
            /** @description Signed; carries the link's id and expiry. */
            token: string;
            /** @description URL path of the shared dashboard's metadata: `/api/v1/shared-dashboards/{token}`. */
            url: string;
            /** Format: date-time */
            expires_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        /** @description A target without its credentials, sealed or not, which are never answered. */
        SshTarget: {
            /** Format: uuid */
            id: string;
            name: string;
            host: string;
            port: number;
            username: string;
            /** @enum {string} */
            auth_method: "key" | "password";
            /** @description The trusted host key line; null until stored (commands refuse the target until then). */
            known_hosts: string | null;
            has_credentials: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
    };
    responses: {
        /** @description `AUTHENTICATION_FAILED`: the credential is missing, malformed, expired or revoked, or of a kind this endpoint does not accept. */
        Unauthenticated: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `AUTHENTICATION_FAILED`, as `Unauthenticated`, with the challenge OAuth clients start from (RFC 6750, RFC 9728): where the resource's metadata is, the scope to ask for, and `error="invalid_token"` when a credential was presented and refused. */
        UnauthenticatedWithChallenge: {
            headers: {
                /** @description `Bearer resource_metadata="<public URL>/.well-known/oauth-protected-resource/mcp", scope="commands:execute"` (and `, error="invalid_token", error_description="…"`). */
                "WWW-Authenticate"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `RATE_LIMITED`: a limit is spent (per user, per endpoint group, command runs or per client address); `error.retry_after` says for how long. */
        RateLimited: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                "X-RateLimit-Limit": components["headers"]["RateLimitLimit"];
                "X-RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                "X-RateLimit-Reset": components["headers"]["RateLimitReset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Any other failure, in the error body: 400 `VALIDATION_FAILED` (malformed JSON, JSON nested more than 64 levels, a body that does not decode as its `Content-Encoding` says, bad path), 404 `NOT_FOUND` (no such path), 405 `METHOD_NOT_ALLOWED` (`OPTIONS`), 413 `PAYLOAD_TOO_LARGE` (body over 1 MiB), 415 `UNSUPPORTED_MEDIA_TYPE` (a body that is not JSON), 431 `HEADERS_TOO_LARGE` (headers over 16 KiB), 500 `INTERNAL_ERROR`, 503 `SERVICE_UNAVAILABLE` (the owning service is unreachable). */
        Error: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Size of the most constrained limit that applies. */
        RateLimitLimit: number;
        /** @description Requests left in that limit's window. */
        RateLimitRemaining: number;
        /** @description When that window resets, in Unix seconds. */
        RateLimitReset: number;
        /** @description Seconds until the refusing limit frees up. */
        RetryAfter: number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `healthy` or `degraded`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description `unhealthy`: the database or the workers are unreachable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.0 document of every public endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    getDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HTML page rendering `/openapi.json`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            default: components["responses"]["Error"];
        };
    };
    getCliPackage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The package. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/gzip": string;
                };
            };
            /** @description `NOT_FOUND`: this platform was deployed without the CLI package. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    getCliLoginPage: {
        parameters: {
            query: {
                /** @description The CLI's loopback port. */
                port: number;
                /** @description A one-time value the CLI made; handed back unchanged. */
                state: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sign-in page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description `VALIDATION_FAILED`: `port` or `state` missing or malformed (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    oauthAuthorizationServerMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Issuer, endpoints, `S256`, scope `commands:execute`, `client_id_metadata_document_supported`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    oauthProtectedResourceMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `resource` (the MCP endpoint), `authorization_servers`, `scopes_supported`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    oauthProtectedResourceMetadataMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description As `/.well-known/oauth-protected-resource`: the document `WWW-Authenticate` names. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    oauthAuthorize: {
        parameters: {
            query: {
                /** @description A registered client id, or the https URL of a client ID metadata document. */
                client_id: string;
                /** @description One of the client's redirect URIs. */
                redirect_uri?: string;
                /** @description `code`. */
                response_type: string;
                /** @description PKCE challenge. */
                code_challenge: string;
                /** @description `S256` only. */
                code_challenge_method: string;
                /** @description `commands:execute` (the default). */
                scope?: string;
                /** @description Returned as is. */
                state?: string;
                /** @description RFC 8707: the MCP endpoint's URL, the only resource tokens are issued for. */
                resource?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The consent page: sign in if needed, then choose a tenant, see the client's name and redirect host, approve or deny. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Back to the client with `error` (`invalid_scope`, `invalid_target`, `invalid_request`). */
            302: {
                headers: {
                    /** @description The client's redirect URI with `code`, `state` and `iss`, or `error`. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_client` (unknown client, or a metadata document that cannot be fetched or is not valid) or `invalid_request` (a redirect URI not registered): nowhere safe to send the browser. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"] | components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    oauthAuthorizeForm: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The same parameters as the GET. */
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description The consent page: sign in if needed, then choose a tenant, see the client's name and redirect host, approve or deny. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Back to the client with `error` (`invalid_scope`, `invalid_target`, `invalid_request`). */
            302: {
                headers: {
                    /** @description The client's redirect URI with `code`, `state` and `iss`, or `error`. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_client` (unknown client, or a metadata document that cannot be fetched or is not valid) or `invalid_request` (a redirect URI not registered): nowhere safe to send the browser. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"] | components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    oauthConsent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The page's form. */
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description The consent step after a sign-in. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The decision, back to the client: `code`, `state` and `iss` when approved, `error=access_denied` when denied. */
            303: {
                headers: {
                    /** @description The client's redirect URI with `code`, `state` and `iss`, or `error`. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An expired, altered or missing request, a form without its token, or a tenant the user is not a member of: a page for a browser (`Accept: text/html`), else the error body (`VALIDATION_FAILED`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Wrong e-mail or password, or the sign-in has ended: the sign-in step again. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description `PERMISSION_DENIED` (`details.reason: cross_origin`): a page of another origin posted the form. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    oauthToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description RFC 6749 §4.1.3 and §6. */
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description `access_token`, `token_type` `Bearer`, `expires_in`, `refresh_token`, `scope`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description `invalid_request`, `invalid_client`, `invalid_grant` (unknown, expired, used or revoked code or refresh token, wrong verifier or redirect URI), `invalid_target`, `invalid_scope` or `unsupported_grant_type`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"] | components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    oauthRegisterClient: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description The client: its `client_id` and the metadata as kept. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description `invalid_client_metadata`: a redirect URI that is not https nor loopback http, a grant type or scope not offered, a name that is not one line. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"] | components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    oauthRevoke: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description RFC 7009 §2.1. */
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Done (or nothing to do). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, unknown>;
                };
            };
            /** @description `invalid_request` or `invalid_client`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"] | components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    listAuthorizations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The authorizations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Authorization"][];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    revokeAuthorization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The authorization's id. */
                authorization_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @description The id the client registered with, or the https URL of its client ID metadata document. */
                            client_id: string;
                            client_name: string;
                            /** @description Where the client receives its codes. */
                            redirect_host: string;
                            /** @description The tenant the user chose: the only one the client acts in. */
                            tenant: {
                                /** Format: uuid */
                                id: string;
                                slug: string;
                            };
                            scopes: string[];
                            /** @description The resource its tokens are for (the MCP endpoint). */
                            resource: string;
                            /** Format: date-time */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description When the client last obtained tokens (the code exchanged, or a refresh).
                             */
                            last_used_at: string | null;
                            /** Format: date-time */
                            revoked_at: string | null;
                            message: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND`: unknown, malformed, already revoked or another user's authorization. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    register: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    password: string;
                    slug: string;
                    access_code: string;
                    name?: string;
                };
            };
        };
        responses: {
            /** @description The new account, signed in. */
            201: {
                headers: {
                    /** @description `svc_refresh`: the refresh token (HttpOnly, `Path=/api/v1/auth`, `SameSite=Strict`, `Secure`). */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SignedIn"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description A malformed field, `ACCESS_CODE_INVALID`, or `SLUG_INVALID`, `SLUG_RESERVED` or `SLUG_TAKEN` (the slug rules: 2-39 of `[a-z0-9-]`, no leading or trailing hyphen, not reserved), or `VALIDATION_FAILED`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `EMAIL_TAKEN`: an account with this e-mail exists. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Signed in. */
            200: {
                headers: {
                    /** @description `svc_refresh`: the refresh token (HttpOnly, `Path=/api/v1/auth`, `SameSite=Strict`, `Secure`). */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SignedIn"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `AUTHENTICATION_FAILED`: invalid e-mail or password (the same answer for both). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    refreshTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    refreshToken: string;
                };
            };
        };
        responses: {
            /** @description New tokens; the refresh token presented is used up. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Tokens"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: no refresh token. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `AUTHENTICATION_FAILED`: unknown, expired, revoked or reused refresh token (a reuse revokes the whole session). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    refreshTokensWithCookie: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie: {
                /** @description The refresh token set by login, register or a previous refresh. */
                svc_refresh: string;
            };
        };
        requestBody?: never;
        responses: {
            /** @description A new access token; the cookie is rotated. */
            200: {
                headers: {
                    /** @description `svc_refresh`: the refresh token (HttpOnly, `Path=/api/v1/auth`, `SameSite=Strict`, `Secure`). */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description A bearer JWT. */
                            accessToken: string;
                            /** @description When the access token expires, in milliseconds since the Unix epoch. */
                            expiresAt: number;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `AUTHENTICATION_FAILED`: no cookie, or an unknown, expired, revoked or reused refresh token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `PERMISSION_DENIED` (`details.reason: cross_origin`): a page of another origin sent the request; the cookie is left as it was. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out: the session's access and refresh tokens stop working. */
            200: {
                headers: {
                    /** @description Clears the `svc_refresh` cookie. */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Message"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    current_password: string;
                    new_password: string;
                };
            };
        };
        responses: {
            /** @description Changed; every session of the user is revoked. */
            200: {
                headers: {
                    /** @description Clears the `svc_refresh` cookie. */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Message"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: the new password is not 8-72 bytes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `AUTHENTICATION_FAILED`: no valid token, or the current password is wrong. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    changePasswordWithLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    current_password: string;
                    new_password: string;
                    /** Format: email */
                    email: string;
                };
            };
        };
        responses: {
            /** @description Changed; every session of the user is revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Message"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `AUTHENTICATION_FAILED`: invalid e-mail or current password. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    requestPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                };
            };
        };
        responses: {
            /** @description Taken: a link is on its way if an account uses the address. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Message"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: not an e-mail address. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `RATE_LIMITED`: too many requests for this address, or from this client; `Retry-After` says when to try again. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    confirmPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Changed; every session of the user is revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Message"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `RESET_TOKEN_INVALID` (`details.reason`: `unknown`, `used` or `expired`): ask for a new link; or `VALIDATION_FAILED`: the password is not 8-72 bytes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getCurrentUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CurrentUser"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    updateCurrentUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description The updated user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["User"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: `name` is not 1-100 characters. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    setPlatformRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user's id. */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    role: "admin" | "member";
                };
            };
        };
        responses: {
            /** @description The user with the role now held. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["User"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed id, or a role other than `admin` or `member`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not the platform owner (`details.reason: platform_owner_required`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `CONFLICT`: the user is the owner, whose role the bootstrap sets. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    listAccessCodes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every code, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AccessCode"][];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller's platform role is not admin or owner (`details.reason: platform_admin_required`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    createAccessCodes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default 1 */
                    count?: number;
                    /** @enum {string} */
                    tier: "free" | "developer_preview" | "pro" | "enterprise";
                    cohort: string;
                    prefix?: string;
                    /** @default 1 */
                    max_uses?: number;
                };
            };
        };
        responses: {
            /** @description The codes minted. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            codes: string[];
                            count: number;
                            /** @enum {string} */
                            tier: "free" | "developer_preview" | "pro" | "enterprise";
                            cohort: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller's platform role is not admin or owner (`details.reason: platform_admin_required`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    deactivateAccessCode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The access code's id. */
                code_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deactivated. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @enum {boolean} */
                            is_active: false;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: the id is not a uuid. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller's platform role is not admin or owner (`details.reason: platform_admin_required`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such code. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    validateAccessCode: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    code: string;
                };
            };
        };
        responses: {
            /** @description The code can be used. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {boolean} */
                            valid: true;
                            /** @enum {string} */
                            tier: "free" | "developer_preview" | "pro" | "enterprise";
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description A code that is unknown, inactive or used up: the reduced body `{success: false, error: {message}}`. A malformed request (`VALIDATION_FAILED`): the error body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReducedError"] | components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getAccountMode: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The mode; a developer's first organization. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AccountMode"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    listAccountOrganizations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every organization of the caller with their role there, in the order they joined (the first is the one `GET /account/mode` shows). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            organizations: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                slug: string;
                                /** @description `@` and the slug. */
                                scope: string;
                                /** @enum {string} */
                                role: "owner" | "admin" | "member";
                                /** Format: date-time */
                                joined_at: string;
                            }[];
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    enableDeveloperMode: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Either `organization` (create one) or `access_code` (an invite id, to join). */
        requestBody: {
            content: {
                "application/json": {
                    organization: {
                        name: string;
                        slug: string;
                    };
                } | {
                    access_code: string;
                };
            };
        };
        responses: {
            /** @description Developer mode is on. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            user: {
                                /** Format: uuid */
                                id: string;
                                email: string;
                                /** @enum {string} */
                                mode: "developer";
                            };
                            organization: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                slug: string;
                                /** @description `@` and the slug. */
                                scope: string;
                            };
                            message: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `SLUG_INVALID`, `SLUG_RESERVED` or `SLUG_TAKEN` (the slug rules: 2-39 of `[a-z0-9-]`, no leading or trailing hyphen, not reserved), or `VALIDATION_FAILED`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `INVITE_NOT_FOUND`: the invite is unknown, expired, used, or for another e-mail. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys, without their secrets. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiKey"][];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: an API key cannot manage API keys. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    scopes: string[];
                };
            };
        };
        responses: {
            /** @description The key, shown this once. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["NewApiKey"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: `name` is not 1-100 characters or `scopes` is not `["commands:execute"]`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: an API key cannot manage API keys. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `API_KEY_LIMIT`: the user holds 50 live keys. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The API key's id. */
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked (again: the first `revoked_at` is kept). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** @description `sk-svc-` and the first 8 hex digits. */
                            key_prefix: string;
                            scopes: string[];
                            /** Format: date-time */
                            last_used_at: string | null;
                            /** Format: date-time */
                            revoked_at: string | null;
                            /** Format: date-time */
                            created_at: string;
                            message: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: an API key cannot manage API keys. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: unknown, malformed or another user's key. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    createOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    slug: string;
                };
            };
        };
        responses: {
            /** @description Created; the caller is its owner. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            organization: components["schemas"]["Organization"];
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `SLUG_INVALID`, `SLUG_RESERVED` or `SLUG_TAKEN` (the slug rules: 2-39 of `[a-z0-9-]`, no leading or trailing hyphen, not reserved), or `VALIDATION_FAILED`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: developer mode is required. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The organization's id (its tenant id). */
                org_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The organization with its counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            organization: components["schemas"]["OrganizationDetail"];
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND`: unknown, malformed, or the caller is not a member. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    inviteMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The organization's id (its tenant id). */
                org_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /**
                     * @default member
                     * @enum {string}
                     */
                    role?: "admin" | "member";
                };
            };
        };
        responses: {
            /** @description The invite (valid 7 days, once, for that e-mail); its id is the code to join with. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            invite: components["schemas"]["Invite"];
                            message: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed e-mail or role. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: members may not invite. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: unknown organization, or the caller is not a member. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    listMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The organization's id (its tenant id). */
                org_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The members. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Member"][];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND`: unknown organization, or the caller is not a member. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The organization's id (its tenant id). */
                org_id: string;
                /** @description The member's user id. */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Message"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: a member removing another, or an admin removing an owner. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: unknown organization or not a member. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `LAST_OWNER`: the organization would have no owner. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    checkNamespace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A personal or organization slug, without `@`. */
                namespace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Available to the caller (personal or organization), or why not. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["NamespaceCheck"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `SLUG_INVALID`: not a valid slug. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    checkCommandNames: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The namespace, the pack and its command names. */
        requestBody: {
            content: {
                "application/json": {
                    namespace: string;
                    pack: string;
                    commands: string[];
                };
            };
        };
        responses: {
            /** @description Each name, free or taken (by which pack). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            namespace: string;
                            pack: string;
                            commands: {
                                name: string;
                                available: boolean;
                                /** @description `@namespace/pack` of the active pack that uses the name. */
                                taken_by: string | null;
                            }[];
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed namespace, pack or command name, no names or more than a pack may have. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED` (`details.reason: namespace_not_owned`): the namespace is neither the caller's personal one nor one of their organizations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    publishPack: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The package: a .tar.gz with pack.yaml at its root, or for a Python pack (`runtime: python`) also a wheel with pack.yaml in its .dist-info folder; at most 10485760 bytes.
                     */
                    package: string;
                    /** @description Ed25519 signature of the package's bytes, base64 (`svc pack build --sign`). With `public_key`, or neither. */
                    signature?: string;
                    /** @description The signer's Ed25519 public key, DER (SubjectPublicKeyInfo), base64. */
                    public_key?: string;
                };
            };
        };
        responses: {
            /** @description Published. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            pack: components["schemas"]["PublishedPack"];
                            message: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `PACKAGE_INVALID`, `PACKAGE_PATH_INVALID`, `MANIFEST_INVALID` (also a Python pack whose `python:` range the platform's Python cannot meet: `details.field: python`, `details.platform_python`), `INPUT_SCHEMA_INVALID` or `ENTRY_MISSING`; `details.field`, `details.issue` and `details.issues` say what. `SIGNATURE_INVALID`: a signature was sent that does not verify, or only one of its two fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: developer mode is required, or the namespace is not the caller's (`details.reason`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `VERSION_EXISTS`, or `COMMAND_NAME_TAKEN` by another active pack of the namespace. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `PAYLOAD_TOO_LARGE`: the package, or its unpacked files, are too large (`details.limit_bytes` or `details.limit_files`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    installPack: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @default latest */
                    version?: string;
                };
            };
        };
        responses: {
            /** @description Installed, re-pinned, released (upgraded, rolled back), or already so. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            pack: {
                                /** Format: uuid */
                                id: string;
                                namespace: string;
                                name: string;
                                /** @description The version the installation runs. */
                                version: string;
                                commands: string[];
                                /** @description True when the installation is pinned to `version`. */
                                pinned: boolean;
                            };
                            message: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed name or version. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED` (`details.reason: developer_mode_required`): releasing a version of one's own pack needs developer mode. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such pack or version, or one the caller may not see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    listInstalledPacks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The packs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            packs: components["schemas"]["InstalledPack"][];
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    uninstallPack: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The pack's id. */
                pack_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Message"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: removing one's own published pack needs developer mode (`details.reason: developer_mode_required`); a pack the caller may see but neither owns nor has installed may not be removed (`not_pack_owner`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no pack has this id (an unknown or malformed one), or the caller cannot see it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    grantPackAccess: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    pack_namespace: string;
                    pack_name: string;
                    /** Format: uuid */
                    grantee_tenant_id: string;
                };
            };
        };
        responses: {
            /** @description Granted (again: the first `timestamp` is kept). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {boolean} */
                            granted: true;
                            /** Format: date-time */
                            timestamp: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: developer mode is required (`details.reason: developer_mode_required`), or the caller may see the pack but does not own it, so may not manage grants of it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such pack, or one the caller may not see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    revokePackAccess: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    pack_namespace: string;
                    pack_name: string;
                    /** Format: uuid */
                    grantee_tenant_id: string;
                };
            };
        };
        responses: {
            /** @description Revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {boolean} */
                            revoked: true;
                            /** Format: date-time */
                            timestamp: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: developer mode is required (`details.reason: developer_mode_required`), or the caller may see the pack but does not own it, so may not manage grants of it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such pack or grant, or a pack the caller may not see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    listCommands: {
        parameters: {
            query?: {
                /** @description Only this namespace (no `@`). */
                namespace?: string;
                /** @description `true`: only the commands of the packs the caller's tenants installed (`GET /api/v1/packs`), at the version installed, unlisted ones included. */
                installed?: "true" | "false";
                /** @description Matches name or description, case-insensitively and literally. */
                search?: string;
                /** @description Page number; a page past the end is empty. */
                page?: number;
                /** @description Page size. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the catalog, with the spec's `pagination` beside `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            commands: components["schemas"]["CommandSummary"][];
                            total: number;
                            page: number;
                            pages: number;
                        };
                        pagination: components["schemas"]["Pagination"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed query parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getCommand: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The namespace, without `@`. */
                namespace: string;
                /** @description The command's name. */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The command, with `retries`, `queue` and `examples`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Command"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed namespace or name. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND`: no such command, or one the caller may not reach. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    runCommand: {
        parameters: {
            query?: {
                /** @description Run as a task even when the command is fast. */
                async?: "true" | "false";
                /** @description `true`: the answer carries the lines the run logged (`logs`; on a failure, `error.details.logs`). */
                logs?: "true" | "false";
            };
            header?: {
                /** @description `respond-async` asks for a task, as `?async=true` does. */
                Prefer?: string;
                /** @description The same key from the same user within 24 h returns the first outcome instead of running again. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The namespace, without `@`. */
                namespace: string;
                /** @description The command's name. */
                name: string;
            };
            cookie?: never;
        };
        /** @description The input: a JSON object that satisfies the command's `input_schema` (`{}` when absent). */
        requestBody?: {
            content: {
                "application/json": Record<string, unknown>;
            };
        };
        responses: {
            /** @description The command ran (with `logs` when `?logs=true`). */
            200: {
                headers: {
                    /** @description `true` when this is the stored outcome of an earlier call with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description What the command returned. */
                            result: unknown;
                            execution: {
                                duration_ms: number;
                                /** @enum {string} */
                                status: "completed";
                            };
                            logs?: {
                                /** Format: date-time */
                                at: string;
                                /** @description `debug`, `info`, `warn` or `error`. */
                                level: string;
                                message: string;
                            }[];
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description Running as a task. */
            202: {
                headers: {
                    /** @description `true` when this is the stored outcome of an earlier call with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    /** @description The task's status URL. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            task_id: string;
                            /** @enum {string} */
                            status: "pending";
                            /** @description `/api/v1/tasks/{task_id}`. */
                            status_url: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: the input does not satisfy `input_schema` (`details.field`, `value`, `issue`, `issues`), or a malformed `async` or `Idempotency-Key`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND`: no such command, or one the caller may not reach. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `TIMEOUT`: the command ran past its timeout and was stopped. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `TASK_REVOKED`: cancelled meanwhile; `IDEMPOTENCY_CONFLICT`: the same key is still running, or was used for another command. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            /** @description `INTEGRATION_ERROR`: the command threw (`error.type` is the thrown class name), its result was over 1 MiB, or its runner died. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `SERVICE_UNAVAILABLE`: nothing ran. The caller's tenant holds its share of the workers or every runner is busy (`details.reason` `tenant_calls`, `tenant_runners` or `pool_full`, with `details.limit` and `details.retry_after`, and `Retry-After`), or the queue or the database is out of reach. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again, when the refusal knows. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listSchedules: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
                enabled?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of schedules. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            schedules: components["schemas"]["Schedule"][];
                            total: number;
                            page: number;
                            pages: number;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a bad `page`, `limit` or `enabled`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    createSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    command: string;
                    /** @default {} */
                    input?: {
                        [key: string]: unknown;
                    };
                    cron: string;
                    /** @default UTC */
                    timezone?: string;
                    /** @default true */
                    enabled?: boolean;
                    /**
                     * @default skip
                     * @enum {string}
                     */
                    overlap?: "skip" | "queue";
                    /**
                     * @default none
                     * @enum {string}
                     */
                    catch_up?: "none" | "latest";
                    /** @default  */
                    description?: string;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Schedule"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED` with `details.field`: a malformed body; a cron croner cannot read, or one firing more often than the tier allows (free: 5 enabled, at most once every 60 min; developer_preview: 20 enabled, at most once every 5 min; pro: 100 enabled, at most once every 1 min; enterprise: 1000 enabled, at most once every 1 min) (`cron`); an unknown IANA time zone (`timezone`); a command the caller may not run (`command`); an input its schema refuses (`input.…`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `SCHEDULE_LIMIT_REACHED`: the tenant has as many enabled schedules as its tier allows (`details.limit`, `details.tier`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The schedule's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Schedule"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND`: no such schedule in the caller's tenant (another tenant's is not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    deleteSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The schedule's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {boolean} */
                            deleted: true;
                            /** Format: uuid */
                            id: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND`: no such schedule in the caller's tenant (another tenant's is not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    updateSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The schedule's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    command?: string;
                    input?: {
                        [key: string]: unknown;
                    };
                    cron?: string;
                    timezone?: string;
                    enabled?: boolean;
                    /** @enum {string} */
                    overlap?: "skip" | "queue";
                    /** @enum {string} */
                    catch_up?: "none" | "latest";
                    description?: string;
                };
            };
        };
        responses: {
            /** @description The schedule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Schedule"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED` with `details.field`: a malformed body; a cron croner cannot read, or one firing more often than the tier allows (free: 5 enabled, at most once every 60 min; developer_preview: 20 enabled, at most once every 5 min; pro: 100 enabled, at most once every 1 min; enterprise: 1000 enabled, at most once every 1 min) (`cron`); an unknown IANA time zone (`timezone`); a command the caller may not run (`command`); an input its schema refuses (`input.…`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `SCHEDULE_LIMIT_REACHED`: the tenant has as many enabled schedules as its tier allows (`details.limit`, `details.tier`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such schedule in the caller's tenant (another tenant's is not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    pauseSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The schedule's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Schedule"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED` with `details.field`: a malformed body; a cron croner cannot read, or one firing more often than the tier allows (free: 5 enabled, at most once every 60 min; developer_preview: 20 enabled, at most once every 5 min; pro: 100 enabled, at most once every 1 min; enterprise: 1000 enabled, at most once every 1 min) (`cron`); an unknown IANA time zone (`timezone`); a command the caller may not run (`command`); an input its schema refuses (`input.…`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `SCHEDULE_LIMIT_REACHED`: the tenant has as many enabled schedules as its tier allows (`details.limit`, `details.tier`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such schedule in the caller's tenant (another tenant's is not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    resumeSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The schedule's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Schedule"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED` with `details.field`: a malformed body; a cron croner cannot read, or one firing more often than the tier allows (free: 5 enabled, at most once every 60 min; developer_preview: 20 enabled, at most once every 5 min; pro: 100 enabled, at most once every 1 min; enterprise: 1000 enabled, at most once every 1 min) (`cron`); an unknown IANA time zone (`timezone`); a command the caller may not run (`command`); an input its schema refuses (`input.…`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `SCHEDULE_LIMIT_REACHED`: the tenant has as many enabled schedules as its tier allows (`details.limit`, `details.tier`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such schedule in the caller's tenant (another tenant's is not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    triggerSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The schedule's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            task_id: string;
                            status: string;
                            status_url: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND`: no such schedule in the caller's tenant (another tenant's is not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    listScheduleRuns: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The schedule's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of runs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            runs: components["schemas"]["ScheduleRun"][];
                            total: number;
                            page: number;
                            pages: number;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a bad `page` or `limit`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND`: no such schedule in the caller's tenant (another tenant's is not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    listTasks: {
        parameters: {
            query?: {
                /** @description Only tasks in this status. */
                status?: "pending" | "started" | "success" | "failure" | "timeout" | "revoked";
                /** @description How many, newest first (1-100, default 20). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tasks. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            tasks: {
                                /** Format: uuid */
                                task_id: string;
                                /** @description `namespace.name`. */
                                command: string;
                                /** @enum {string} */
                                status: "pending" | "started" | "success" | "failure" | "timeout" | "revoked";
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                started_at: string | null;
                                /** Format: date-time */
                                completed_at: string | null;
                            }[];
                        };
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: an unknown status, a limit out of range, or another parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The task's id. */
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["Task"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the task belongs to another user or tenant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: unknown or malformed id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `GONE`: the task finished and its result has expired. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    cancelTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The task's id. */
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            task_id: string;
                            /** @enum {boolean} */
                            revoked: true;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the task belongs to another user or tenant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: unknown or malformed id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `TASK_TERMINAL`: the task has already ended. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getSandbox: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sandbox (stopped, with a null id, before the first start). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            status: "running" | "stopped";
                            /**
                             * Format: uuid
                             * @description The session's id (a new one for every start); null before the first.
                             */
                            sandbox_id: string | null;
                            /** @description Seconds since the running session started; 0 when stopped. */
                            uptime: number;
                            /** @description Seconds without activity after which the session stops. */
                            timeout: number;
                            /** Format: date-time */
                            started_at: string | null;
                            /** Format: date-time */
                            last_active_at: string | null;
                            /**
                             * Format: date-time
                             * @description When a running session stops unless active again; null when stopped.
                             */
                            expires_at: string | null;
                            /**
                             * Format: date-time
                             * @description When it stopped, by hand or by its timeout; null while running.
                             */
                            stopped_at: string | null;
                            quotas: {
                                /** @enum {integer} */
                                executions_per_month: 1000;
                                /** @enum {integer} */
                                concurrent_sessions: 1;
                                /** @enum {integer} */
                                storage_bytes: 104857600;
                            };
                            usage: {
                                /** @description Sandbox runs this calendar month (UTC). */
                                executions_this_month: number;
                                /** Format: date-time */
                                executions_reset_at: string;
                                /** @description Bytes of the packs synced into the sandbox. */
                                storage_bytes: number;
                            };
                            packs: {
                                namespace: string;
                                name: string;
                                version: string;
                                sha256: string;
                                size_bytes: number;
                                commands: string[];
                                /** Format: date-time */
                                synced_at: string;
                            }[];
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    startSandbox: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    timeout?: number;
                };
            };
        };
        responses: {
            /** @description The session already running. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            status: "running" | "stopped";
                            /**
                             * Format: uuid
                             * @description The session's id (a new one for every start); null before the first.
                             */
                            sandbox_id: string | null;
                            /** @description Seconds since the running session started; 0 when stopped. */
                            uptime: number;
                            /** @description Seconds without activity after which the session stops. */
                            timeout: number;
                            /** Format: date-time */
                            started_at: string | null;
                            /** Format: date-time */
                            last_active_at: string | null;
                            /**
                             * Format: date-time
                             * @description When a running session stops unless active again; null when stopped.
                             */
                            expires_at: string | null;
                            /**
                             * Format: date-time
                             * @description When it stopped, by hand or by its timeout; null while running.
                             */
                            stopped_at: string | null;
                            quotas: {
                                /** @enum {integer} */
                                executions_per_month: 1000;
                                /** @enum {integer} */
                                concurrent_sessions: 1;
                                /** @enum {integer} */
                                storage_bytes: 104857600;
                            };
                            usage: {
                                /** @description Sandbox runs this calendar month (UTC). */
                                executions_this_month: number;
                                /** Format: date-time */
                                executions_reset_at: string;
                                /** @description Bytes of the packs synced into the sandbox. */
                                storage_bytes: number;
                            };
                            packs: {
                                namespace: string;
                                name: string;
                                version: string;
                                sha256: string;
                                size_bytes: number;
                                commands: string[];
                                /** Format: date-time */
                                synced_at: string;
                            }[];
                            /** @enum {boolean} */
                            created: false;
                            warning: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description A new session. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            status: "running" | "stopped";
                            /**
                             * Format: uuid
                             * @description The session's id (a new one for every start); null before the first.
                             */
                            sandbox_id: string | null;
                            /** @description Seconds since the running session started; 0 when stopped. */
                            uptime: number;
                            /** @description Seconds without activity after which the session stops. */
                            timeout: number;
                            /** Format: date-time */
                            started_at: string | null;
                            /** Format: date-time */
                            last_active_at: string | null;
                            /**
                             * Format: date-time
                             * @description When a running session stops unless active again; null when stopped.
                             */
                            expires_at: string | null;
                            /**
                             * Format: date-time
                             * @description When it stopped, by hand or by its timeout; null while running.
                             */
                            stopped_at: string | null;
                            quotas: {
                                /** @enum {integer} */
                                executions_per_month: 1000;
                                /** @enum {integer} */
                                concurrent_sessions: 1;
                                /** @enum {integer} */
                                storage_bytes: 104857600;
                            };
                            usage: {
                                /** @description Sandbox runs this calendar month (UTC). */
                                executions_this_month: number;
                                /** Format: date-time */
                                executions_reset_at: string;
                                /** @description Bytes of the packs synced into the sandbox. */
                                storage_bytes: number;
                            };
                            packs: {
                                namespace: string;
                                name: string;
                                version: string;
                                sha256: string;
                                size_bytes: number;
                                commands: string[];
                                /** Format: date-time */
                                synced_at: string;
                            }[];
                            /** @enum {boolean} */
                            created: true;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: `timeout` is not a whole number of seconds from 60 to 86400, or another field was sent. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: developer mode is required. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    stopSandbox: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sandbox, now stopped. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            status: "running" | "stopped";
                            /**
                             * Format: uuid
                             * @description The session's id (a new one for every start); null before the first.
                             */
                            sandbox_id: string | null;
                            /** @description Seconds since the running session started; 0 when stopped. */
                            uptime: number;
                            /** @description Seconds without activity after which the session stops. */
                            timeout: number;
                            /** Format: date-time */
                            started_at: string | null;
                            /** Format: date-time */
                            last_active_at: string | null;
                            /**
                             * Format: date-time
                             * @description When a running session stops unless active again; null when stopped.
                             */
                            expires_at: string | null;
                            /**
                             * Format: date-time
                             * @description When it stopped, by hand or by its timeout; null while running.
                             */
                            stopped_at: string | null;
                            quotas: {
                                /** @enum {integer} */
                                executions_per_month: 1000;
                                /** @enum {integer} */
                                concurrent_sessions: 1;
                                /** @enum {integer} */
                                storage_bytes: 104857600;
                            };
                            usage: {
                                /** @description Sandbox runs this calendar month (UTC). */
                                executions_this_month: number;
                                /** Format: date-time */
                                executions_reset_at: string;
                                /** @description Bytes of the packs synced into the sandbox. */
                                storage_bytes: number;
                            };
                            packs: {
                                namespace: string;
                                name: string;
                                version: string;
                                sha256: string;
                                size_bytes: number;
                                commands: string[];
                                /** Format: date-time */
                                synced_at: string;
                            }[];
                            /** @description Whether a running session was stopped by this call. */
                            stopped: boolean;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    syncSandboxPack: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The package (.tar.gz, pack.yaml at its root; or a Python pack's wheel), at most 10485760 bytes.
                     */
                    package: string;
                };
            };
        };
        responses: {
            /** @description Replaced the earlier sync. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            pack: {
                                namespace: string;
                                name: string;
                                version: string;
                                sha256: string;
                                size_bytes: number;
                                commands: string[];
                                /** Format: date-time */
                                synced_at: string;
                            };
                            /** @enum {boolean} */
                            created: false;
                            storage_bytes: number;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description Synced for the first time. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            pack: {
                                namespace: string;
                                name: string;
                                version: string;
                                sha256: string;
                                size_bytes: number;
                                commands: string[];
                                /** Format: date-time */
                                synced_at: string;
                            };
                            /** @enum {boolean} */
                            created: true;
                            storage_bytes: number;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `PACKAGE_INVALID`, `PACKAGE_PATH_INVALID`, `MANIFEST_INVALID`, `INPUT_SCHEMA_INVALID` or `ENTRY_MISSING`, as the registry answers them. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the pack's namespace is not the caller's nor one of their organizations'. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `SANDBOX_NOT_RUNNING`: start the sandbox first. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `PAYLOAD_TOO_LARGE`: the package is too large, or the sandbox's packs would pass its storage quota (`details.limit_bytes`, `used_bytes`, `size_bytes`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    runSandboxCommand: {
        parameters: {
            query?: {
                /** @description Run as a task even when the command is fast. */
                async?: "true" | "false";
                /** @description `true`: the answer carries the lines the run logged (`logs`; on a failure, `error.details.logs`). */
                logs?: "true" | "false";
            };
            header?: {
                /** @description `respond-async` asks for a task, as `?async=true` does. */
                Prefer?: string;
            };
            path: {
                /** @description The namespace, without `@`. */
                namespace: string;
                /** @description The command's name. */
                name: string;
            };
            cookie?: never;
        };
        /** @description The input: a JSON object that satisfies the command's `input_schema`. */
        requestBody?: {
            content: {
                "application/json": Record<string, unknown>;
            };
        };
        responses: {
            /** @description The command ran (with `logs` when `?logs=true`). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description What the command returned. */
                            result: unknown;
                            execution: {
                                duration_ms: number;
                                /** @enum {string} */
                                status: "completed";
                            };
                            logs?: {
                                /** Format: date-time */
                                at: string;
                                /** @description `debug`, `info`, `warn` or `error`. */
                                level: string;
                                message: string;
                            }[];
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description Running as a task. */
            202: {
                headers: {
                    /** @description The task's status URL. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            task_id: string;
                            /** @enum {string} */
                            status: "pending";
                            /** @description `/api/v1/tasks/{task_id}`. */
                            status_url: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: the input does not satisfy `input_schema`, or a malformed `async`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND`: no synced pack of the namespace has this command. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `TIMEOUT`: the command ran past its timeout and was stopped. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `SANDBOX_NOT_RUNNING`: start the sandbox first; `TASK_REVOKED`: cancelled meanwhile. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `QUOTA_EXCEEDED`: 1000 runs this calendar month; `details.resets_at` says when more may run. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `INTEGRATION_ERROR`: the command threw, its result was over 1 MiB, or its runner died. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `SERVICE_UNAVAILABLE`: nothing ran. The caller's tenant holds its share of the workers or every runner is busy (`details.reason` `tenant_calls`, `tenant_runners` or `pool_full`, with `details.limit` and `details.retry_after`, and `Retry-After`), or the queue or the database is out of reach. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again, when the refusal knows. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    mcpGet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            401: components["responses"]["UnauthenticatedWithChallenge"];
            /** @description `METHOD_NOT_ALLOWED`: use POST. */
            405: {
                headers: {
                    /** @description `POST`. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    mcp: {
        parameters: {
            query?: {
                /** @description `all` (default): every command the tenant may see, as the spec has it. `installed`: only the commands of the packs the caller's tenants installed, at their installed version. */
                tools?: "all" | "installed";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    jsonrpc: "2.0";
                    method?: string;
                } | {
                    /** @enum {string} */
                    jsonrpc: "2.0";
                    method?: string;
                }[];
            };
        };
        responses: {
            /** @description The JSON-RPC response (or responses, for a batch). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcResponse"] | components["schemas"]["JsonRpcResponse"][];
                    "text/event-stream": string;
                };
            };
            /** @description Only notifications or responses were sent: nothing to answer. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A body that is not JSON (-32700), not JSON-RPC or nested more than 64 levels (-32600); or the error body for an unreadable request or an unknown `tools` value. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcResponse"] | components["schemas"]["Error"];
                };
            };
            401: components["responses"]["UnauthenticatedWithChallenge"];
            /** @description `PERMISSION_DENIED`: the API key lacks the `commands:execute` scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The `Accept` header does not name both `application/json` and `text/event-stream`. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcResponse"];
                };
            };
            /** @description The body is not `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcResponse"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    mcpDelete: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            401: components["responses"]["UnauthenticatedWithChallenge"];
            /** @description `METHOD_NOT_ALLOWED`: use POST. */
            405: {
                headers: {
                    /** @description `POST`. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    listStorageKeys: {
        parameters: {
            query?: {
                /** @description Only keys starting with this, literally. */
                prefix?: string;
                /** @description How many keys to return. */
                limit?: number;
                /** @description Only keys after this one (the last key of the previous page). */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys; `total` counts every live key with the prefix. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            keys: string[];
                            total: number;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed or unknown query parameter. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getStorageEntry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key: one path segment; `:` separates namespaces. */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entry. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["StorageEntry"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed key (`details.field: key`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND`: no such key, or it has expired. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    putStorageEntry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key: one path segment; `:` separates namespaces. */
                key: string;
            };
            cookie?: never;
        };
        /** @description `data`: a JSON object of at most 256 KiB; `ttl`: seconds until it expires (absent or null: never). */
        requestBody: {
            content: {
                "application/json": {
                    data: {
                        [key: string]: unknown;
                    };
                    ttl?: number | null;
                };
            };
        };
        responses: {
            /** @description Replaced. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["StorageWrite"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["StorageWrite"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed key, `data` or `ttl` (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    deleteStorageEntry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key: one path segment; `:` separates namespaces. */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {boolean} */
                            deleted: true;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed key (`details.field: key`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND`: no such key, or it has expired. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    listPackSecrets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The pack's namespace, without `@`. */
                namespace: string;
                /** @description The pack's name. */
                pack: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The secrets, by name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description `@namespace/pack`. */
                            pack: string;
                            secrets: components["schemas"]["Secret"][];
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed namespace, pack or name (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    setPackSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The pack's namespace, without `@`. */
                namespace: string;
                /** @description The pack's name. */
                pack: string;
                /** @description The secret's name, like an environment variable's. */
                name: string;
            };
            cookie?: never;
        };
        /** @description `value`: the secret. */
        requestBody: {
            content: {
                "application/json": {
                    value: string;
                };
            };
        };
        responses: {
            /** @description Replaced. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            name: string;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                            pack: string;
                            /** @enum {boolean} */
                            created: false;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            name: string;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                            pack: string;
                            /** @enum {boolean} */
                            created: true;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed path or value, or the pack has 50 secrets already (`details.reason: secrets_limit`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    deletePackSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The pack's namespace, without `@`. */
                namespace: string;
                /** @description The pack's name. */
                pack: string;
                /** @description The secret's name, like an environment variable's. */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {boolean} */
                            deleted: true;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed namespace, pack or name (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND`: no such secret for this pack. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    recordTelemetry: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    command: string;
                    duration_ms: number;
                    success: boolean;
                    python_version?: string;
                    os: string;
                    cli_version: string;
                };
            };
        };
        responses: {
            /** @description Recorded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {boolean} */
                            received: true;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a missing, malformed or unknown field (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    listAdminUsers: {
        parameters: {
            query?: {
                /** @description Only users on this tier. */
                tier?: string;
                /** @description Only users whose access code had this cohort. */
                referral?: string;
                /** @description Only users registered after this instant. */
                created_after?: string;
                /** @description Page size, 1-200 (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page (cursor pagination). */
                cursor?: string;
                /** @description Rows to skip (offset pagination, at most 100,000); not with `cursor`. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page; `next_cursor` is null on the last. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            users: components["schemas"]["AdminUser"][];
                            next_cursor: string | null;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed or unknown query parameter (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not a platform admin or owner; no audit row is written. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getAdminUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user; the redeemed access code as a keyed digest only (null for the platform owner, bootstrapped without one). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            user: components["schemas"]["AdminUser"];
                            access_code: {
                                digest: string;
                                cohort: string;
                            } | null;
                            subscription: {
                                tier: string;
                                status: string | null;
                                payment_issue: boolean;
                                current_period_end: string | null;
                                monthly_price_cents: number;
                                /** @description `billing`: billing's live answer, kept 60 s; `read_model`: billing did not answer, so what its last `subscription.changed` said. */
                                source: string;
                            };
                            recent_billing_events: {
                                id: string;
                                type: string;
                                amount_cents: number | null;
                                /** Format: date-time */
                                occurred_at: string;
                            }[];
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: not a user id. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not a platform admin or owner; no audit row is written. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    mintCompCode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    tier: "free" | "developer_preview" | "pro" | "enterprise";
                    /** Format: date-time */
                    expires_at?: string;
                    /** @default 1 */
                    max_uses?: number;
                    /** @enum {string} */
                    kind: "comp";
                };
            };
        };
        responses: {
            /** @description The code, once. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            code: string;
                            user_id: string;
                            /** @enum {string} */
                            kind: "comp";
                            tier: string;
                            cohort: string;
                            max_uses: number;
                            /** Format: date-time */
                            expires_at: string | null;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: not a user id, or a malformed body (`expires_at` must lie ahead). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not a platform admin or owner; no audit row is written. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    revokeUserSessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description How many sessions ended. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            user_id: string;
                            revoked_sessions: number;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: not a user id. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not a platform admin or owner; no audit row is written. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    setUserTier: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    tier: "free" | "developer_preview" | "pro" | "enterprise";
                    reason: string;
                };
            };
        };
        responses: {
            /** @description The tier now and before. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            user_id: string;
                            tier: string;
                            previous_tier: string;
                            reason: string;
                            email_requested: boolean;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: not a user id, an unknown tier or no reason. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not a platform admin or owner; no audit row is written. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    listAdminAccessCodes: {
        parameters: {
            query?: {
                /** @description Only codes of this kind (`standard`, `comp`, `registration`). */
                kind?: "standard" | "comp" | "registration";
                /** @description `redeemed` (used at least once) or `unredeemed`. */
                redemption_status?: "redeemed" | "unredeemed";
                /** @description Only codes of this cohort. */
                referral?: string;
                /** @description Page size, 1-200 (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page (cursor pagination). */
                cursor?: string;
                /** @description Rows to skip (offset pagination, at most 100,000); not with `cursor`. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page; `next_cursor` is null on the last. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            access_codes: components["schemas"]["AdminAccessCode"][];
                            next_cursor: string | null;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed or unknown query parameter (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not a platform admin or owner; no audit row is written. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    listAuditLog: {
        parameters: {
            query?: {
                /** @description Only this actor's requests. */
                actor_id?: string;
                /** @description Only this action (`admin.users.list`, …). */
                action?: string;
                /** @description Only rows after this instant. */
                since?: string;
                /** @description Page size, 1-200 (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page (cursor pagination). */
                cursor?: string;
                /** @description Rows to skip (offset pagination, at most 100,000); not with `cursor`. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page; `next_cursor` is null on the last. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            entries: components["schemas"]["AuditEntry"][];
                            next_cursor: string | null;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed or unknown query parameter (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not a platform owner; no audit row is written. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getOnboardingFunnel: {
        parameters: {
            query?: {
                /** @description Only users registered from this instant on (default: all). */
                since?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Steps signup, access_code_redeemed, developer_activated, pack_created, command_executed; `conversion_pct` of signups. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            funnel: {
                                step: string;
                                count: number;
                                conversion_pct: number;
                            }[];
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed or unknown query parameter (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not a platform admin or owner; no audit row is written. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getRevenue: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `mrr_cents` sums live subscriptions (active, past_due). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            mrr_cents: number;
                            active_pro_subscribers: number;
                            recent_events: {
                                type: string;
                                /** @description id, user_id, amount_cents */
                                data: {
                                    [key: string]: unknown;
                                };
                                /** Format: date-time */
                                created_at: string;
                            }[];
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed or unknown query parameter (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not a platform admin or owner; no audit row is written. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getUsageMetrics: {
        parameters: {
            query?: {
                /** @description Only runs from this instant on (default: all). */
                since?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Runs, distinct users, failures and timeouts, mean duration. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            commands_executed: number;
                            active_users: number;
                            error_count: number;
                            avg_command_duration_ms: number;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed or unknown query parameter (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not a platform admin or owner; no audit row is written. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getUserJourneys: {
        parameters: {
            query?: {
                /** @description Page size, 1-200 (default 50). */
                limit?: number;
                /** @description Users to skip (at most 100,000). */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Up to 20 latest events per user; `time_to_first_command_ms` is null before a first run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            user_id: string;
                            email: string;
                            cohort: string;
                            subscription_tier: string;
                            /** Format: date-time */
                            created_at: string;
                            events_count: number;
                            time_to_first_command_ms: number | null;
                            /** Format: date-time */
                            last_active: string;
                            events: {
                                type: string;
                                /** Format: date-time */
                                created_at: string;
                                duration_ms: number | null;
                            }[];
                        }[];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed or unknown query parameter (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not a platform admin or owner; no audit row is written. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    exportMetricEvents: {
        parameters: {
            query?: {
                /** @description `csv` (a download) or `json`. */
                format?: "csv" | "json";
                /** @description Only events from this instant on (default: all). */
                since?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Columns id, tenant_id, user_id, event_type, event_data (JSON text), duration_ms, created_at; oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                    "application/json": {
                        data: {
                            id: string;
                            tenant_id: string | null;
                            user_id: string | null;
                            event_type: string;
                            event_data: string;
                            duration_ms: number | null;
                            /** Format: date-time */
                            created_at: string;
                        }[];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed or unknown query parameter (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not a platform admin or owner; no audit row is written. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getAdminFunnel: {
        parameters: {
            query?: {
                /** @description `day` (default) or `week` (weeks start on Monday, UTC). */
                interval?: "day" | "week";
                /** @description From this instant on (default: 90 days ago). */
                since?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Buckets with at least one event, oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            interval: string;
                            /** Format: date-time */
                            since: string;
                            buckets: {
                                /** Format: date */
                                start: string;
                                checkout_started: number;
                                checkout_completed: number;
                                registered: number;
                                first_command: number;
                            }[];
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed or unknown query parameter (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not a platform admin or owner; no audit row is written. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getUsage: {
        parameters: {
            query?: {
                /** @description `summary` (default): the first form; `dashboard`: the dashboard form. */
                view?: "summary" | "dashboard";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `UsageSummary`, or `UsageDashboard` with `view=dashboard`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["UsageSummary"] | components["schemas"]["UsageDashboard"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed or unknown query parameter (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    putUsageLimits: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    hard: boolean;
                };
            };
        };
        responses: {
            /** @description The setting now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            tenant_id: string;
                            hard: boolean;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: the body is not `{hard: boolean}`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not the tenant's owner or an admin of it. `HARD_LIMITS_ENTERPRISE_ONLY`: `hard: true` from a tier other than enterprise. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getUsageHistory: {
        parameters: {
            query?: {
                /** @description How many months, the current one included (1-24, default 3). */
                months?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One entry per month, the oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["UsageMonth"][];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed or unknown query parameter (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getUsageByPack: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Most used first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            period: string;
                            packs: {
                                pack: string;
                                /** @description Runs this month per version of the pack. */
                                versions: {
                                    [key: string]: unknown;
                                };
                                commands_executed: number;
                                commands_succeeded: number;
                                commands_failed: number;
                                execution_time_seconds: number;
                                llm_tokens: {
                                    input: number;
                                    output: number;
                                    total: number;
                                };
                                llm_requests: number;
                            }[];
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getUsageByUser: {
        parameters: {
            query?: {
                /** @description Only this tenant's users. */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Most active first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            period: string;
                            users: {
                                tenant_id: string;
                                user_id: string;
                                commands_executed: number;
                                commands_succeeded: number;
                                commands_failed: number;
                                execution_time_seconds: number;
                            }[];
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed or unknown query parameter (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not a platform admin or owner. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    listPlans: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plans. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Plan"][];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getBillingStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["BillingStatus"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    startCheckout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uri */
                    success_url: string;
                    /** Format: uri */
                    cancel_url: string;
                };
            };
        };
        responses: {
            /** @description Redirect the user to `checkout_url`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            checkout_url: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a missing or non-http(s) URL (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `CONFLICT`: the caller already has an active or past-due subscription. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            /** @description `INTEGRATION_ERROR`: the payment processor refused or could not be reached. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `SERVICE_UNAVAILABLE`: billing is not configured on this platform (`details.missing` names the setting). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    openBillingPortal: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uri */
                    return_url: string;
                };
            };
        };
        responses: {
            /** @description Redirect the user to `portal_url`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            portal_url: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a missing or non-http(s) `return_url`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `CONFLICT`: the caller has no processor customer yet (never checked out). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            /** @description `INTEGRATION_ERROR`: the payment processor refused or could not be reached. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `SERVICE_UNAVAILABLE`: billing is not configured on this platform (`details.missing` names the setting). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    receiveBillingEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description The processor's signature of the raw body: `t=<unix seconds>,v1=<hex HMAC>`; at most 300 s old. */
                "Payment-Signature"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Received (also for a duplicate). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {boolean} */
                            received: true;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `AUTHENTICATION_FAILED`: the signature is missing, does not verify with this endpoint's secret, or is older than 300 s. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            /** @description `SERVICE_UNAVAILABLE`: billing is not configured on this platform (`details.missing` names the setting). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    startRegistrationCheckout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ref?: string | null;
                };
            };
        };
        responses: {
            /** @description Redirect the buyer to `checkout_url`; poll the session with `session_id`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            checkout_url: string;
                            session_id: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: `ref` is not a string. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            /** @description `INTEGRATION_ERROR`: the payment processor refused or could not be reached. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `SERVICE_UNAVAILABLE`: billing is not configured on this platform (`details.missing` names the setting). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    getRegistrationSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The `session_id` the checkout answered. */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description pending until the payment arrives; then ready with the code and the e-mail it was sent to; expired when the checkout was abandoned; disputed when the payment was disputed (the code no longer works). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RegistrationSession"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: not a checkout session id. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such session. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    receiveRegistrationEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description The processor's signature of the raw body: `t=<unix seconds>,v1=<hex HMAC>`; at most 300 s old. */
                "Payment-Signature"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Received (also for a duplicate). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {boolean} */
                            received: true;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `AUTHENTICATION_FAILED`: the signature is missing, does not verify with this endpoint's secret, or is older than 300 s. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            /** @description `SERVICE_UNAVAILABLE`: billing is not configured on this platform (`details.missing` names the setting). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Newest first, without secrets. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"][];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not an owner or admin of their current tenant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    url: string;
                    events: ("command.executed" | "task.completed" | "task.failed" | "pack.installed" | "pack.uninstalled" | "dashboard_deleted")[];
                    /** @default  */
                    description?: string;
                };
            };
        };
        responses: {
            /** @description Registered, with its secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CreatedWebhook"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a bad URL (not https, credentials, private address), an unknown event, or too many endpoints (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not an owner or admin of their current tenant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed id (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not an owner or admin of their current tenant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: the caller's tenant has no endpoint (or delivery) with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {boolean} */
                            deleted: true;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed id (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not an owner or admin of their current tenant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: the caller's tenant has no endpoint (or delivery) with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description How many deliveries. */
                limit?: number;
                /** @description Only deliveries older than this one (the last id of the previous page). */
                before?: string;
            };
            header?: never;
            path: {
                /** @description The endpoint's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"][];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed id (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not an owner or admin of their current tenant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: the caller's tenant has no endpoint (or delivery) with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id. */
                id: string;
                /** @description The delivery's id. */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed id (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not an owner or admin of their current tenant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: the caller's tenant has no endpoint (or delivery) with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `CONFLICT`: the endpoint is disabled. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    pingWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed id (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: the caller is not an owner or admin of their current tenant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: the caller's tenant has no endpoint (or delivery) with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `CONFLICT`: the endpoint is disabled. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    listDashboards: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dashboards. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Dashboard"][];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    createDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    scope: string;
                    name: string;
                    /** @default  */
                    description?: string;
                    category?: string;
                    /**
                     * @default private
                     * @enum {string}
                     */
                    visibility?: "public" | "unlisted" | "organization" | "private";
                };
            };
        };
        responses: {
            /** @description Registered. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            id: string;
                            scope: string;
                            name: string;
                            slug: string;
                            /** @enum {string} */
                            visibility: "public" | "unlisted" | "organization" | "private";
                            /** Format: date-time */
                            created_at: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed field (`details.field`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED`: developer mode required (`details.reason: developer_mode_required`) or a scope not the caller's (`scope_mismatch`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `CONFLICT` (`details.reason: dashboard_exists`): a dashboard with this name exists. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    uploadDashboardVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashboard_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The bundle (.tar.gz).
                     */
                    bundle: string;
                    /** @description Semver, greater than every earlier version. */
                    version: string;
                    /** @description Semver; default 1.0.0. */
                    min_sdk_version?: string;
                    /** @description JSON: `[{"scope": "@acme", "name": "tools", "version": ">=2.0.0"}]`. */
                    pack_dependencies?: string;
                };
            };
        };
        responses: {
            /** @description Uploaded and active. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DashboardVersion"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: `details.reason` `invalid_tarball` (not gzip, not tar, a link, device, absolute path, `..`, duplicate, too many files: `details.issue`) or `entry_point_not_found`; or a malformed field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED` (`details.reason: not_dashboard_owner`): the caller sees the dashboard but its tenant does not own it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such dashboard, or the caller may not see it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `CONFLICT` (`details.reason: version_not_greater`): the version is not greater than `details.latest`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `PAYLOAD_TOO_LARGE`: the bundle (`details.reason: bundle_too_large`) or its unpacked files (`uncompressed_too_large`) are too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getDashboardBundleFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's slug (its name). */
                slug: string;
                /** @description A version of the dashboard (semver), active or not. */
                version: string;
                /** @description The file's path inside the bundle; may hold `/` (`assets/app.css`). */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. `Content-Type` by extension, `Cache-Control: private, max-age=31536000, immutable`, `ETag` (the file's SHA-256), `Accept-Ranges: bytes`, `X-Content-Type-Options: nosniff`. On the API's origin a file is inert (`Content-Security-Policy: sandbox; default-src 'none'`, and `Content-Disposition: attachment` unless a script, style sheet, image or font); on the dashboard origin it runs sandboxed in an opaque origin, readable by any origin without credentials. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description One byte range of the file (`Content-Range`), for a `Range: bytes=…` of one satisfiable range; other ranges are ignored and the whole file answers. `Content-Type` by extension, `Cache-Control: private, max-age=31536000, immutable`, `ETag` (the file's SHA-256), `Accept-Ranges: bytes`, `X-Content-Type-Options: nosniff`. On the API's origin a file is inert (`Content-Security-Policy: sandbox; default-src 'none'`, and `Content-Disposition: attachment` unless a script, style sheet, image or font); on the dashboard origin it runs sandboxed in an opaque origin, readable by any origin without credentials. */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description Not modified: `If-None-Match` names the file's `ETag`. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND`: no such dashboard (or the caller may not see it), version or file; a path leaving the bundle is no file of it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    createDashboardViewToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's slug (its name). */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Minted. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DashboardViewToken"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED` (`details.reason: session_required`): the caller is not a signed-in session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such dashboard, or the caller may not see it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getDashboardViewFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A view token (`dvt_…`) minted by `POST /api/v1/dashboards/{slug}/view-tokens`. */
                token: string;
                /** @description A version of the dashboard (semver), active or not. */
                version: string;
                /** @description The file's path inside the bundle; may hold `/` (`assets/app.css`). */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. `Content-Type` by extension, `Cache-Control: private, max-age=31536000, immutable`, `ETag` (the file's SHA-256), `Accept-Ranges: bytes`, `X-Content-Type-Options: nosniff`. On the API's origin a file is inert (`Content-Security-Policy: sandbox; default-src 'none'`, and `Content-Disposition: attachment` unless a script, style sheet, image or font); on the dashboard origin it runs sandboxed in an opaque origin, readable by any origin without credentials. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description One byte range of the file (`Content-Range`), for a `Range: bytes=…` of one satisfiable range; other ranges are ignored and the whole file answers. `Content-Type` by extension, `Cache-Control: private, max-age=31536000, immutable`, `ETag` (the file's SHA-256), `Accept-Ranges: bytes`, `X-Content-Type-Options: nosniff`. On the API's origin a file is inert (`Content-Security-Policy: sandbox; default-src 'none'`, and `Content-Disposition: attachment` unless a script, style sheet, image or font); on the dashboard origin it runs sandboxed in an opaque origin, readable by any origin without credentials. */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description Not modified: `If-None-Match` names the file's `ETag`. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND`: the token is not for this viewer's session, the viewer may no longer see the dashboard, or no such version or file. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    grantDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashboard_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default [] */
                    tenant_ids?: string[];
                    /** @default [] */
                    scopes?: string[];
                };
            };
        };
        responses: {
            /** @description Granted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Distinct tenants that hold a grant from this request. */
                            granted: number;
                            /** Format: uuid */
                            dashboard_id: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: not an organization dashboard (`details.reason: wrong_visibility`), an unknown tenant (`unknown_tenant`), or a malformed body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED` (`details.reason: not_dashboard_owner`): the caller sees the dashboard but its tenant does not own it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such dashboard, or the caller may not see it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    revokeDashboardGrant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashboard_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default [] */
                    tenant_ids?: string[];
                    /** @default [] */
                    scopes?: string[];
                };
            };
        };
        responses: {
            /** @description Revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Grants removed. */
                            revoked: number;
                            /** Format: uuid */
                            dashboard_id: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: an unknown tenant or a malformed body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED` (`details.reason: not_dashboard_owner`): the caller sees the dashboard but its tenant does not own it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such dashboard, or the caller may not see it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's slug (its name). */
                dashboard: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dashboard. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Dashboard"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND`: no such dashboard, or the caller may not see it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    deleteDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id (a UUID). */
                dashboard: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Message"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed dashboard id (`details.field: dashboard_id`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED` (`details.reason: developer_mode_required`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such dashboard, or not owned by the caller's tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    listDashboardShares: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashboard_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Links not expired, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DashboardShare"][];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed dashboard id (`details.field: dashboard_id`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED` (`details.reason: not_dashboard_owner`): the caller sees the dashboard but its tenant does not own it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such dashboard, or the caller may not see it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    createDashboardShare: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashboard_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @default never
                     * @enum {string}
                     */
                    expires?: "1d" | "7d" | "30d" | "never";
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DashboardShare"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed dashboard id (`details.field: dashboard_id`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED` (`details.reason: not_dashboard_owner`): the caller sees the dashboard but its tenant does not own it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such dashboard, or the caller may not see it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    revokeDashboardShare: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashboard_id: string;
                /** @description The share link's id. */
                share_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked: the token opens nothing any more. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {boolean} */
                            revoked: true;
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            dashboard_id: string;
                        };
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: a malformed id. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `PERMISSION_DENIED` (`details.reason: not_dashboard_owner`): the caller sees the dashboard but its tenant does not own it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `NOT_FOUND`: no such dashboard or share link. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getSharedDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The share link's token (`dsh_…`). */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dashboard. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Dashboard"];
                        meta?: components["schemas"]["Meta"];
                    };
                };
            };
            /** @description `NOT_FOUND`: a token that is forged, malformed, expired or revoked. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getSharedDashboardBundleFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The share link's token (`dsh_…`). */
                token: string;
                /** @description A version of the dashboard (semver), active or not. */
                version: string;
                /** @description The file's path inside the bundle; may hold `/` (`assets/app.css`). */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. `Content-Type` by extension, `Cache-Control: private, max-age=31536000, immutable`, `ETag` (the file's SHA-256), `Accept-Ranges: bytes`, `X-Content-Type-Options: nosniff`. On the API's origin a file is inert (`Content-Security-Policy: sandbox; default-src 'none'`, and `Content-Disposition: attachment` unless a script, style sheet, image or font); on the dashboard origin it runs sandboxed in an opaque origin, readable by any origin without credentials. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description One byte range of the file (`Content-Range`), for a `Range: bytes=…` of one satisfiable range; other ranges are ignored and the whole file answers. `Content-Type` by extension, `Cache-Control: private, max-age=31536000, immutable`, `ETag` (the file's SHA-256), `Accept-Ranges: bytes`, `X-Content-Type-Options: nosniff`. On the API's origin a file is inert (`Content-Security-Policy: sandbox; default-src 'none'`, and `Content-Disposition: attachment` unless a script, style sheet, image or font); on the dashboard origin it runs sandboxed in an opaque origin, readable by any origin without credentials. */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description Not modified: `If-None-Match` names the file's `ETag`. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `NOT_FOUND`: a token that is forged, expired or revoked, or no such version or file. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    listSshTargets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The targets (bare array). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SshTarget"][];
                };
            };
            401: components["responses"]["Unauthenticated"];
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    createSshTarget: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The target and its credential. */
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    host: string;
                    /** @default 22 */
                    port?: number;
                    username: string;
                    /** @enum {string} */
                    auth_method: "key" | "password";
                    private_key?: string;
                    password?: string;
                    known_hosts?: string;
                };
            };
        };
        responses: {
            /** @description Created (bare). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SshTarget"];
                };
            };
            /** @description `VALIDATION_FAILED` naming `details.field`: a malformed field, a missing credential for `auth_method`, a private key ssh cannot read or one encrypted with a passphrase (`details.reason: encrypted_key`), a credential over 16384 bytes, a `known_hosts` that is not one valid line. `SSH_HOST_REFUSED` (`details.field: host`): the host is, or resolves to, a loopback, private, shared, link-local (cloud metadata), multicast or reserved address; targets must be on public addresses unless the operator allows a range. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `CONFLICT`: the tenant has a target of that name already. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    getSshTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The target's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The target (bare). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SshTarget"];
                };
            };
            /** @description `VALIDATION_FAILED`: the id is not a uuid. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND` ("SSH target not found"): no such target in the caller's tenant (another tenant's targets are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    updateSshTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The target's id. */
                id: string;
            };
            cookie?: never;
        };
        /** @description The fields to change. */
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    host?: string;
                    port?: number;
                    username?: string;
                    /** @enum {string} */
                    auth_method?: "key" | "password";
                    private_key?: string;
                    password?: string;
                    known_hosts?: string | null;
                };
            };
        };
        responses: {
            /** @description The target as changed (bare). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SshTarget"];
                };
            };
            /** @description `VALIDATION_FAILED` naming `details.field`: a malformed field, a missing credential for `auth_method`, a private key ssh cannot read or one encrypted with a passphrase (`details.reason: encrypted_key`), a credential over 16384 bytes, a `known_hosts` that is not one valid line. `SSH_HOST_REFUSED` (`details.field: host`): the host is, or resolves to, a loopback, private, shared, link-local (cloud metadata), multicast or reserved address; targets must be on public addresses unless the operator allows a range. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND` ("SSH target not found"): no such target in the caller's tenant (another tenant's targets are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `CONFLICT`: the tenant has a target of that name already. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    deleteSshTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The target's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed; no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `VALIDATION_FAILED`: the id is not a uuid. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND` ("SSH target not found"): no such target in the caller's tenant (another tenant's targets are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            default: components["responses"]["Error"];
        };
    };
    verifySshTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The target's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `connected`: whether the credential was accepted; `fingerprint`: `SHA256:` and the unpadded base64 of the host key's SHA-256. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connected: boolean;
                        fingerprint: string;
                    };
                };
            };
            /** @description `VALIDATION_FAILED`: the id is not a uuid. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description `NOT_FOUND` ("SSH target not found"): no such target in the caller's tenant (another tenant's targets are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            /** @description `SSH_CONNECTION_FAILED` ("connection failed"): the host did not answer as an SSH server (`details.reason`: refused, unreachable, timeout, protocol), or it is, or now resolves to, an address targets may not use (`address_refused`: nothing was connected to). */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
}
