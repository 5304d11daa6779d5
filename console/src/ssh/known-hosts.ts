/**
 * The SHA-256 fingerprint (`SHA256:…`, as `ssh-keygen -l` prints it) of the key in a known_hosts
 * line (`host type base64-key`), or undefined when the line holds no key or the browser offers no
 * digest (Web Crypto needs a secure context: https or localhost).
 */
export async function fingerprintOfLine(line: string): Promise<string | undefined> {
  const key = line.trim().split(/\s+/)[2];
  if (!key || !globalThis.crypto?.subtle) return undefined;
  let blob: Uint8Array<ArrayBuffer>;
  try {
    blob = Uint8Array.from(atob(key), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', blob));
  return `SHA256:${btoa(String.fromCharCode(...digest)).replace(/=+$/, '')}`;
}
