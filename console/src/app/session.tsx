import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { dataOf, type CurrentUser } from '@svc/client';
import { svc } from './svc.js';

export interface Registration {
  email: string;
  password: string;
  slug: string;
  access_code: string;
  name?: string;
}

interface SessionState {
  /** `undefined` while the cookie is being tried on load; `null` signed out. */
  user: CurrentUser | null | undefined;
  signIn(email: string, password: string): Promise<void>;
  register(registration: Registration): Promise<void>;
  signOut(): Promise<void>;
  /** Forgets the session here after the platform ended it (a new password ends them all), saying why on the sign-in page. */
  forget(notice: string): void;
  /** Why the person was signed out, shown on the sign-in page. */
  notice: string | undefined;
  /**
   * Takes in what a page learned of the signed-in person from an answer (the tier billing's
   * status gave, developer mode turned on), so that every page shows it without asking the
   * platform again: a free account's requests are few.
   */
  learned(changes: Partial<CurrentUser>): void;
}

const SessionContext = createContext<SessionState | undefined>(undefined);

/** Who is signed in: tried from the refresh cookie on load, so a reload or a deep link keeps the session. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<CurrentUser | null | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);

  useEffect(() => {
    let live = true;
    svc.session
      .refresh()
      .then(async (renewed) => (renewed ? svc.me() : null))
      .catch(() => null)
      .then((me) => live && setUser(me));
    return () => {
      live = false;
    };
  }, []);

  const signIn = useCallback(async (email: string, password: string) => {
    await svc.signIn({ email, password });
    setNotice(undefined);
    setUser(await svc.me());
  }, []);

  const register = useCallback(async (registration: Registration) => {
    const data = await dataOf(svc.api.POST('/api/v1/auth/register', { body: registration }));
    await svc.useTokens(data.tokens);
    setUser(await svc.me());
  }, []);

  const signOut = useCallback(async () => {
    // Signed out here whatever the platform answers: an ended session is what was asked for.
    await svc.signOut().catch(() => svc.session.clear());
    setUser(null);
  }, []);

  const forget = useCallback((why: string) => {
    svc.session.clear();
    setNotice(why);
    setUser(null);
  }, []);

  const learned = useCallback((changes: Partial<CurrentUser>) => {
    setUser((known) => known && { ...known, ...changes });
  }, []);

  const value = useMemo(() => ({ user, signIn, register, signOut, forget, notice, learned }), [user, signIn, register, signOut, forget, notice, learned]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
