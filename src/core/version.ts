// Kept in step with package.json (and bin/wisp.cts) by test/commands/package.test.ts; read without loading package.json.
export const VERSION = '0.1.0';
