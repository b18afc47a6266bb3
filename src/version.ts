// Kept in step with package.json by test/version.test.ts; read without loading package.json at start-up.
export const VERSION = '0.1.0';
