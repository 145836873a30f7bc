// The only barrel in the repository: the public entry of the contracts package.
export * from './auth.js';
export * from './constants.js';
export * from './errors.js';
export * from './paging.js';
export * from './surveys.js';
export * from './answers.js';
export * from './credentials.js';
export * from './vault.js';
export * from './results.js';
export * from './member-data.js';
export * from './admin.js';
export * from './operator-results.js';
export * from './authoring.js';
export * from './panels.js';
export * from './relative-time.js';
export * from './password-secrets.js';
