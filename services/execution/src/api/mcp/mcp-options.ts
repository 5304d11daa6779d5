import { z } from 'zod';

/**
 * What `tools/list` offers, chosen by the URL an MCP client is configured with:
 * `all` (the spec's default) is every command the tenant may see, as `GET /api/v1/commands`
 * lists them; `installed` (`POST /mcp?tools=installed`) only the commands of the packs the
 * caller's tenants installed, at the version installed, so that an agent meets a short list
 * instead of a whole public catalogue. `tools/call` reaches any command the caller may run
 * either way.
 */
export const MCP_TOOL_SETS = ['all', 'installed'] as const;
export type McpToolSet = (typeof MCP_TOOL_SETS)[number];

export const McpQuery = z.object({ tools: z.enum(MCP_TOOL_SETS).default('all') });
