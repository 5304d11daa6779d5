import type { Tokens } from '@svc/contracts';
import { Router, type CookieOptions, type Response } from 'express';
import cookieParser from 'cookie-parser';
import { requireIdentity } from '@svc/auth';
import { ChangePasswordBody, ChangePasswordLoginBody, LoginBody, RefreshBody, RegisterBody } from '@svc/contracts';
import { AuthenticationError, NotFoundError, ok, parseInput } from '@svc/core';
import type { Db } from '@svc/db';
import { UserRepository } from '../repositories/user.repository.js';
import { publicUser, type AuthService } from '../services/auth.service.js';
import { requireSameOrigin } from './same-origin.js';

export const REFRESH_COOKIE = 'svc_refresh';

export interface CookieSettings {
  secure: boolean;
  maxAgeSeconds: number;
}

export function authRoutes(auth: AuthService, db: Db, cookie: CookieSettings): Router {
  const router = Router();
  const cookieOptions: CookieOptions = {
    httpOnly: true,
    secure: cookie.secure,
    sameSite: 'strict',
    path: '/api/v1/auth',
    maxAge: cookie.maxAgeSeconds * 1000,
  };
  const setRefreshCookie = (res: Response, tokens: Tokens) => res.cookie(REFRESH_COOKIE, tokens.refreshToken, cookieOptions);

  router.post('/auth/register', async (req, res) => {
    const result = await auth.register(parseInput(RegisterBody, req.body));
    setRefreshCookie(res, result.tokens);
    res.status(201).json(ok(result));
  });

  router.post('/auth/login', async (req, res) => {
    const body = parseInput(LoginBody, req.body);
    const result = await auth.login(body.email, body.password);
    setRefreshCookie(res, result.tokens);
    res.json(ok(result));
  });

  router.post('/auth/refresh', async (req, res) => {
    const body = parseInput(RefreshBody, req.body);
    res.json(ok(await auth.refresh(body.refreshToken)));
  });

  // The only route that reads a cookie parses them; every other request skips the work. Only the
  // API's own origin may spend the cookie: a dashboard's page on the same site must not.
  router.post('/auth/refresh-cookie', cookieParser(), async (req, res) => {
    requireSameOrigin(req);
    const token: unknown = req.cookies?.[REFRESH_COOKIE];
    if (typeof token !== 'string' || token === '') throw new AuthenticationError(`Missing ${REFRESH_COOKIE} cookie`);
    const tokens = await auth.refresh(token);
    setRefreshCookie(res, tokens);
    res.json(ok({ accessToken: tokens.accessToken, expiresAt: tokens.expiresAt }));
  });

  router.post('/auth/logout', async (req, res) => {
    const identity = requireIdentity(req);
    if (identity.sessionId) await auth.logout(identity.sessionId);
    res.clearCookie(REFRESH_COOKIE, { ...cookieOptions, maxAge: undefined });
    res.json(ok({ message: 'Logged out' }));
  });

  router.post('/auth/change-password', async (req, res) => {
    const identity = requireIdentity(req);
    const body = parseInput(ChangePasswordBody, req.body);
    await auth.changePassword(identity.userId, body.current_password, body.new_password);
    res.clearCookie(REFRESH_COOKIE, { ...cookieOptions, maxAge: undefined });
    res.json(ok({ message: 'Password changed; all sessions were signed out' }));
  });

  router.post('/auth/change-password/login', async (req, res) => {
    const body = parseInput(ChangePasswordLoginBody, req.body);
    await auth.changePasswordWithLogin(body.email, body.current_password, body.new_password);
    res.json(ok({ message: 'Password changed; all sessions were signed out' }));
  });

  router.get('/auth/me', async (req, res) => {
    const identity = requireIdentity(req);
    const user = await new UserRepository(db).findById(identity.userId);
    if (!user) throw new NotFoundError('User not found');
    res.json(ok({ ...publicUser(user), tenantSlug: user.tenant.slug, tenantId: user.tenant.id }));
  });

  return router;
}
