/** The platform version: `GET /health` reports it and MCP clients see it in `initialize`. */
export const SVC_VERSION = '0.1.0';
