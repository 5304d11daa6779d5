/** An amount in cents as dollars in the reader's locale: the platform's prices and payments are in USD. */
export const dollars = (cents: number) => (cents / 100).toLocaleString(undefined, { style: 'currency', currency: 'USD' });
