// The published acceptance examples in ../shared/examples (see its README). Missing examples fail the run:
// CI always has ../shared beside the clone.
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../server/config';

export interface Example {
  name: string;
  file: string;
  no_auth?: boolean;
  request: { method: string; path: string; headers: Record<string, string>; body: string | Record<string, unknown> };
  expect: {
    status: number;
    content_type?: string;
    content_language?: string;
    text?: string[];
    absent?: string[];
    json?: Record<string, unknown>;
    json_error_mentions?: string[];
    xsd?: string;
    xml_text?: string[];
  };
}

export const EXAMPLES_DIR = process.env.EXAMPLES_DIR ?? path.join(projectRoot(), '..', 'shared', 'examples');

export function loadExamples(): Example[] {
  if (!fs.existsSync(EXAMPLES_DIR)) throw new Error(`The examples folder ${EXAMPLES_DIR} is missing (set EXAMPLES_DIR)`);
  return fs
    .readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ file: f, ...(JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, f), 'utf8')) as Omit<Example, 'file'>) }));
}
