#!/usr/bin/env bash
# The MCP conformance suite (@modelcontextprotocol/conformance, pinned in tests-e2e) against the
# platform's /mcp: every server scenario that applies must pass, and every other one is listed
# in mcp-conformance.test.ts with the reason it does not apply. Runs on the embedded adapters,
# and on the real services as well when DATABASE_URL, REDIS_URL and AMQP_URL are set.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec node scripts/pnpm.mjs exec vitest run --config tests-e2e/conformance/vitest.config.ts
