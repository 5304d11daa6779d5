import { errorOfResponse } from '@svc/client';

/** The body of an answer the API sends bare (no `data` envelope, as the SSH endpoints do), or its error. */
export async function bareOf<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>, what: string): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorOfResponse(response, error, what);
  return data as T;
}
