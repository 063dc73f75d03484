// Worker thread that reads big form bodies with qs (parse-body.ts's parseForm), off the main event loop.
// It only parses what it is sent.
import { serveJobs } from '../workers/jobs';
import { FormNotUtf8Error, parseForm } from './parse-body';

// A value whose percent escapes are not UTF-8 is the request's fault, not a defect: its message comes back as such.
serveJobs(parseForm, { expected: (err) => err instanceof FormNotUtf8Error });
