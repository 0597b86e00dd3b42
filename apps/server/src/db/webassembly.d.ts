/**
 * The part of the WebAssembly API the engine's process uses (`pglite-host.ts` compiles PGlite while
 * it waits for its options), which Node has and @types/node does not declare (the DOM library does).
 */
declare namespace WebAssembly {
  // biome-ignore lint/suspicious/noEmptyInterface: opaque, as PGlite's own types use it
  interface Module {}
  function compile(bytes: Uint8Array): Promise<Module>;
}
