// Worker thread that reads big form bodies with qs (parse-body.ts's parseForm), off the main event loop.
// It only parses what it is sent.
import { serveJobs } from '../worker-jobs';
import { parseForm } from './parse-body';

serveJobs(parseForm);
