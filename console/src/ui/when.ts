/** A time from the API (ISO 8601) in the reader's locale, or a dash when there is none. */
export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
