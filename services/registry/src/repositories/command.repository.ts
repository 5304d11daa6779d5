import { and, asc, count, countDistinct, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { commands, installations, packs, packVersions } from '../db/schema.js';
import { installedVersionId } from './installation.repository.js';
import { visibleTo } from './visibility.js';

export type NewCommand = typeof commands.$inferInsert;

/** What the catalog shows of a command: the command, its pack, and the pack's active version. */
const catalogColumns = {
  command: commands,
  pack: { id: packs.id, name: packs.name, ownerTenantId: packs.ownerTenantId },
  version: { id: packVersions.id, version: packVersions.version, visibility: packVersions.visibility, sha256: packVersions.sha256, sizeBytes: packVersions.sizeBytes },
};

export interface CatalogQuery {
  tenantIds: string[];
  /** Only the commands of the packs these tenants installed, at the version installed. */
  installed?: boolean;
  /** The caller's own tenant: where two of its tenants installed a pack, its installation wins. */
  tenantId?: string;
  namespace?: string;
  search?: string;
  offset: number;
  limit: number;
}

/** The catalog's own filters: a namespace, a search term in name or description. */
function filtersOf(query: CatalogQuery): SQL | undefined {
  return and(
    query.namespace ? eq(commands.namespace, query.namespace) : undefined,
    query.search ? or(ilike(commands.name, likePattern(query.search)), ilike(commands.description, likePattern(query.search))) : undefined,
  );
}

/** `%`, `_` and `\` match literally in a search term. */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class CommandRepository {
  constructor(private readonly db: Db) {}

  async insertMany(rows: NewCommand[]): Promise<void> {
    await this.db.insert(commands).values(rows);
  }

  /** Active commands of other packs in `namespace` that already use one of `names`. */
  async activeClashes(namespace: string, names: string[], exceptPackId: string) {
    return this.db
      .select({ command: commands.name, pack: packs.name })
      .from(commands)
      .innerJoin(packs, eq(packs.id, commands.packId))
      .where(and(eq(commands.namespace, namespace), eq(commands.active, true), inArray(commands.name, names), ne(commands.packId, exceptPackId)));
  }

  /**
   * Makes `versionId`'s commands the pack's active ones. Two statements, because the unique
   * index on active names is checked row by row: the old rows must be inactive first.
   */
  async activate(packId: string, versionId: string): Promise<void> {
    await this.db.update(commands).set({ active: false }).where(and(eq(commands.packId, packId), eq(commands.active, true)));
    await this.db.update(commands).set({ active: true }).where(eq(commands.packVersionId, versionId));
  }

  async namesOf(versionId: string): Promise<string[]> {
    const rows = await this.db.select({ name: commands.name }).from(commands).where(eq(commands.packVersionId, versionId)).orderBy(asc(commands.name));
    return rows.map((row) => row.name);
  }

  private catalog(where: SQL | undefined) {
    return this.db
      .select(catalogColumns)
      .from(commands)
      .innerJoin(packs, eq(packs.activeVersionId, commands.packVersionId))
      .innerJoin(packVersions, eq(packVersions.id, commands.packVersionId))
      .where(where);
  }

  /** One page of the commands listed for `tenantIds` (never unlisted ones), and how many there are in all. */
  async listVisible(query: CatalogQuery) {
    if (query.installed) return this.listInstalled(query);
    const where = and(visibleTo(this.db, query.tenantIds, { byPath: false }), filtersOf(query));
    const rows = await this.catalog(where).orderBy(asc(commands.namespace), asc(commands.name)).limit(query.limit).offset(query.offset);
    const [total] = await this.db
      .select({ total: count() })
      .from(commands)
      .innerJoin(packs, eq(packs.activeVersionId, commands.packVersionId))
      .innerJoin(packVersions, eq(packVersions.id, commands.packVersionId))
      .where(where);
    return { rows, total: total?.total ?? 0 };
  }

  /**
   * One page of the commands of the packs `tenantIds` installed, at the version each
   * installation runs, and how many there are. Unlisted packs are included (the tenant chose
   * them); what the tenants may no longer reach is not. A command two of the tenants installed
   * is listed once, the caller's own tenant's installation first.
   */
  private async listInstalled(query: CatalogQuery) {
    const where = and(inArray(installations.tenantId, query.tenantIds), visibleTo(this.db, query.tenantIds, { byPath: true }), filtersOf(query));
    const own = query.tenantId === undefined ? sql`false` : eq(installations.tenantId, query.tenantId);
    const rows = await this.db
      .selectDistinctOn([commands.namespace, commands.name], catalogColumns)
      .from(installations)
      .innerJoin(packs, eq(packs.id, installations.packId))
      .innerJoin(commands, eq(commands.packVersionId, installedVersionId))
      .innerJoin(packVersions, eq(packVersions.id, commands.packVersionId))
      .where(where)
      .orderBy(asc(commands.namespace), asc(commands.name), desc(own))
      .limit(query.limit)
      .offset(query.offset);
    const [total] = await this.db
      .select({ total: countDistinct(sql`(${commands.namespace}, ${commands.name})`) })
      .from(installations)
      .innerJoin(packs, eq(packs.id, installations.packId))
      .innerJoin(commands, eq(commands.packVersionId, installedVersionId))
      .innerJoin(packVersions, eq(packVersions.id, commands.packVersionId))
      .where(where);
    return { rows, total: total?.total ?? 0 };
  }

  /**
   * The command `namespace/name` in one of `versionIds` (a tenant's pinned versions) when
   * `tenantIds` may reach that version by path: a pinned version is run whatever the pack's
   * active version is now, as long as that version's own visibility admits the tenants.
   */
  async findInVersions(query: { tenantIds: string[]; versionIds: string[]; namespace: string; name: string }) {
    if (query.versionIds.length === 0) return undefined;
    const [row] = await this.db
      .select(catalogColumns)
      .from(commands)
      .innerJoin(packs, eq(packs.id, commands.packId))
      .innerJoin(packVersions, eq(packVersions.id, commands.packVersionId))
      .where(and(inArray(commands.packVersionId, query.versionIds), eq(commands.namespace, query.namespace), eq(commands.name, query.name), visibleTo(this.db, query.tenantIds, { byPath: true })));
    return row;
  }

  /** The active command `namespace/name` when `tenantIds` may reach it by path (unlisted included). */
  async findVisible(query: { tenantIds: string[]; namespace: string; name: string; pack?: string }) {
    const [row] = await this.catalog(
      and(
        eq(commands.namespace, query.namespace),
        eq(commands.name, query.name),
        query.pack === undefined ? undefined : eq(packs.name, query.pack),
        visibleTo(this.db, query.tenantIds, { byPath: true }),
      ),
    );
    return row;
  }
}

export type CatalogRow = NonNullable<Awaited<ReturnType<CommandRepository['findVisible']>>>;
