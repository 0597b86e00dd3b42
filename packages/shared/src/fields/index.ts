export * from './formats.js';
export * from './identifier.js';
export * from './messages.js';
export * from './permissions.js';
export * from './record.js';
export * from './regions.js';
export * from './registry.js';
export * from './table.js';
