// wawoff2 (WOFF2 ⇄ sfnt in WebAssembly) ships no types; these are the two calls of its README.
declare module 'wawoff2' {
  export function decompress(woff2: Uint8Array): Promise<Uint8Array>;
  export function compress(sfnt: Uint8Array): Promise<Uint8Array>;
}
