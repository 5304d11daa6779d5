import type { z } from 'zod';
import type { Command, ListCommandsQuery, ResolvedCommand } from '@svc/contracts';
import { NotFoundError } from '@svc/core';
import type { Db } from '@svc/db';
import { CommandRepository, type CatalogRow } from '../repositories/command.repository.js';
import { InstallationRepository } from '../repositories/installation.repository.js';

/** Allowed values other than json are not shown in the spec; every command answers JSON. */
const OUTPUT_FORMAT = 'json' as const;

function summary({ command, pack, version }: CatalogRow) {
  return {
    namespace: command.namespace,
    name: command.name,
    pack: pack.name,
    version: version.version,
    description: command.description,
    input_schema: command.inputSchema,
    output_schema: command.outputSchema ?? null,
    annotations: command.annotations,
    ui: command.ui ?? null,
    output_format: OUTPUT_FORMAT,
    timeout: command.timeoutSeconds,
    queue: command.queue,
    tags: command.tags,
  };
}

function detail(row: CatalogRow) {
  return { ...summary(row), retries: row.command.retries, examples: row.command.examples };
}

const commandNotFound = (namespace: string, name: string) => new NotFoundError(`Command ${namespace}/${name} not found`, { namespace, name });

export class CatalogService {
  constructor(private readonly db: Db) {}

  /**
   * One page of the commands `tenantIds` may see, unlisted packs left out; with `installed`,
   * those of the packs they installed (`tenantId`, the caller's own, first where two did).
   */
  async list(tenantIds: string[], query: Omit<z.infer<typeof ListCommandsQuery>, 'installed'> & { installed?: boolean; tenantId?: string }) {
    const { rows, total } = await new CommandRepository(this.db).listVisible({
      tenantIds,
      installed: query.installed,
      tenantId: query.tenantId,
      namespace: query.namespace,
      search: query.search || undefined,
      offset: (query.page - 1) * query.limit,
      limit: query.limit,
    });
    const pages = Math.ceil(total / query.limit);
    return {
      data: { commands: rows.map(summary), total, page: query.page, pages },
      pagination: { total, page: query.page, pages, limit: query.limit, has_next: query.page < pages, has_prev: query.page > 1 },
    };
  }

  /**
   * The detail view of a command `tenantIds` may reach by its path, in the version `tenantId`
   * runs (its pinned one, as a run would use); 404 otherwise.
   */
  async detail(tenantIds: string[], tenantId: string, namespace: string, name: string): Promise<Command> {
    const row = await this.runnable({ tenant_ids: tenantIds, tenant_id: tenantId, namespace, name });
    if (!row) throw commandNotFound(namespace, name);
    return detail(row);
  }

  /**
   * Everything execution needs to run a command, under the same visibility as `detail`, in the
   * version the run is for: where `tenant_id` pinned its installation of the command's pack,
   * that version (a command it lacks is not found, though a later version has it); otherwise
   * the active one.
   */
  async resolve(request: { namespace: string; name: string; pack?: string; tenant_ids: string[]; tenant_id?: string }): Promise<ResolvedCommand> {
    const row = await this.runnable(request);
    if (!row) throw commandNotFound(request.namespace, request.name);
    const { command, pack, version } = row;
    return {
      namespace: command.namespace,
      name: command.name,
      description: command.description,
      entry: command.entry,
      input_schema: command.inputSchema,
      output_schema: command.outputSchema ?? null,
      timeout: command.timeoutSeconds,
      retries: command.retries,
      queue: command.queue,
      pack: {
        id: pack.id,
        namespace: command.namespace,
        name: pack.name,
        version: version.version,
        version_id: version.id,
        owner_tenant_id: pack.ownerTenantId,
        visibility: version.visibility,
      },
      package: { sha256: version.sha256, size_bytes: version.sizeBytes },
    };
  }

  private async runnable(request: { namespace: string; name: string; pack?: string; tenant_ids: string[]; tenant_id?: string }): Promise<CatalogRow | undefined> {
    const commands = new CommandRepository(this.db);
    const query = { tenantIds: request.tenant_ids, namespace: request.namespace, name: request.name };
    const pins = request.tenant_id ? await new InstallationRepository(this.db).pinsIn(request.tenant_id, request.namespace, request.pack) : [];
    const active = await commands.findVisible({ ...query, pack: request.pack });
    if (pins.length === 0) return active;
    const pin = active && pins.find((p) => p.packId === active.pack.id);
    if (active && !pin) return active;
    // The command's pack is pinned, or the command may be one a later version dropped.
    return commands.findInVersions({ ...query, versionIds: (pin ? [pin] : pins).map((p) => p.versionId) });
  }
}
