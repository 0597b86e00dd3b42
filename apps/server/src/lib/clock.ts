/** The current time. Injected so that expiry and freezes are tested without sleeping. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
