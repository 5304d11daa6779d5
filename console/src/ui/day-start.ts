/** The day `YYYY-MM-DD` a date field gives as the API's instant (its start, UTC), or nothing for "no bound". */
export const dayStart = (day: string) => (day ? `${day}T00:00:00.000Z` : undefined);
