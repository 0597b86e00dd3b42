/** The administrator's password as the first-run flow leaves it; later specs sign in with it. */
export const FIRST_PASSWORD = 'Admin12345';
export const ADMIN_PASSWORD = 'Better!Pass99';
