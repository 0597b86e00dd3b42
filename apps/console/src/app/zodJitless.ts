/**
 * The console runs under a Content-Security-Policy without 'unsafe-eval' (docs/DECISIONS.md, "Issue
 * 10: security headers"). zod 4 compiles fast object parsers with `new Function` and, before that,
 * probes whether it may: a probe the browser reports as a CSP violation even though zod catches the
 * refusal. `jitless` skips both. Set through zod's global config object (`globalThis.__zod_globalConfig`,
 * which zod creates if absent and otherwise keeps), so that the entry chunk does not load zod.
 */
type ZodGlobal = typeof globalThis & { __zod_globalConfig?: { jitless?: boolean } };
const zodGlobal = globalThis as ZodGlobal;
zodGlobal.__zod_globalConfig ??= {};
zodGlobal.__zod_globalConfig.jitless = true;

export {};
