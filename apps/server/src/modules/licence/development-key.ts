/**
 * DEVELOPMENT key (public half). Its private half is in the repository (`licence-dev/`), so anyone
 * can sign with it: trusted only outside production, for tests and local use. In a module of its own:
 * config.ts reads it at start without loading the licence code.
 */
export const DEVELOPMENT_PUBLIC_KEY = 'Ip/fVIM0xwWHPdWkPnc6Himl39Xaj+COi4Co1CpprKk=';
