/** Opens a page in the user's browser (the `open` package, loaded only then). */
export async function openInBrowser(url: string): Promise<void> {
  const { default: open } = await import('open');
  await open(url);
}
