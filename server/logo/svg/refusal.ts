// The one way an SVG logo is refused: an error whose message is `svg_refused: ` and words of this folder only (it goes
// to the log: no client text). Thrown by the checks, caught once by sanitizeSvg (sanitize.ts).
/** The reason of a refusal: `svg_refused: ` and words of this module. */
export class Refusal extends Error {}

export function refuse(why: string): never {
  throw new Refusal(`svg_refused: ${why}`);
}
