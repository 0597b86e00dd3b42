/** Where the console and the API live: every route group's prefix comes from here. */
export const PORTAL = '/portal';
export const API = `${PORTAL}/rest`;
export const SPM = `${API}/spm`;
