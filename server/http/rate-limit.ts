// The quota as response headers, in the IETF draft's structured fields (draft-ietf-httpapi-ratelimit-headers):
// `RateLimit-Policy: "monthly";q=<limit>;w=<seconds of this month>` and
// `RateLimit: "monthly";r=<remaining after this request>;t=<seconds to the next month>`. Written on document answers
// and on quota_exceeded refusals, from the facts the quota reservation saw (quota/quota.ts); never for unlimited
// plans (no state). Only writes headers: counting is the quota's.
import type { QuotaState } from '../errors';

export function rateLimitHeaders(state: QuotaState | undefined): Record<string, string> {
  if (!state) return {};
  return {
    'RateLimit-Policy': `"monthly";q=${state.limit};w=${state.windowSeconds}`,
    RateLimit: `"monthly";r=${state.remaining};t=${state.resetSeconds}`,
  };
}
