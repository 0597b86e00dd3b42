export * from './duration.js';
export * from './errors.js';
export * from './messages.js';
export * from './password.js';
export * from './schemas/auth.schema.js';
export * from './schemas/settings.schema.js';
export * from './sha256.js';
export * from './validations.js';
