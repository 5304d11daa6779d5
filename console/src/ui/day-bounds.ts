/** The day `YYYY-MM-DD` a date field gives as the API's instant (its start, UTC), or nothing for "no bound". */
export const dayStart = (day: string) => (day ? `${day}T00:00:00.000Z` : undefined);

/** The end of the day `YYYY-MM-DD` (UTC), or nothing for "no bound": something "until" a day holds through it. */
export const dayEnd = (day: string) => (day ? `${day}T23:59:59.999Z` : undefined);
