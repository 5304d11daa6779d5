/** The time now; tests move it to play out a grace period. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export const DAY_MS = 24 * 60 * 60 * 1000;
