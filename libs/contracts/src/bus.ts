/**
 * Every name on the bus, with the schema of what travels under it: events (facts on the topic
 * exchange), work queues, and RPCs (a question and its answer). `@svc/bus` types `publish`,
 * `subscribe`, `send`, `consume`, `request` and `respond` by these names and checks every
 * message against its schema where it arrives, so that a publisher and a consumer that disagree
 * are a type error, and a message that does not match is dead-lettered instead of handled.
 *
 * A new event, queue or RPC is a new key here (see the README of `@svc/bus`).
 */
import type { z } from 'zod';
import type { EphemeralQueue } from './bus-names.js';
import {
  ApiKeysUsed,
  CommandExecuted,
  CommandStarted,
  LlmUsageReported,
  UsageQuotaExceeded,
  PackGrantChanged,
  PackInstallationChanged,
  PackInstallationRemoved,
  PackInstalled,
  PackPublished,
  PackUninstalled,
  PasswordChanged,
  DeveloperModeEnabled,
  StorageChanged,
  TaskEnded,
  TaskRevoked,
  UserRegistered,
} from './events.js';
import { EXECUTION_REPLIES, ExecJob, RunReply } from './execution.js';
import { BillingEventRecorded, SUBSCRIPTION_STATUS_RPC, SubscriptionChanged, SubscriptionStatusReply, SubscriptionStatusRequest } from './billing.js';
import { DashboardApp, DashboardDeleted, READ_DASHBOARD_APP_RPC, ReadDashboardAppRequest } from './dashboard.js';
import {
  DEACTIVATE_ACCESS_CODE_RPC,
  DeactivateAccessCodeRequest,
  DeactivatedAccessCode,
  FLEET_PING_RPC,
  FleetPing,
  FleetPong,
  MINT_ACCESS_CODE_RPC,
  MintAccessCodeRequest,
  MintedAccessCode,
  PRINCIPAL_RPC,
  PrincipalReply,
  PrincipalRequest,
  USER_PRINCIPAL_RPC,
  UserPrincipalRequest,
  REVOKE_SESSIONS_RPC,
  LIST_ACCESS_CODES_RPC,
  ListAccessCodesRequest,
  ListedAccessCodes,
  RevokeSessionsReply,
  RevokeSessionsRequest,
  FIND_TENANTS_RPC,
  FindTenantsRequest,
  FoundTenants,
  SET_USER_TIER_RPC,
  SetUserTierReply,
  SetUserTierRequest,
  UserTierChanged,
  WORKER_PING_RPC,
} from './identity.js';
import { EmailRequested } from './mail.js';
import { SECRETS_RESOLVE_RPC, SecretsResolveReply, SecretsResolveRequest } from './secrets.js';
import { SSH_EXEC_RPC, SshExecReply, SshExecRequest } from './ssh.js';
import { FETCH_PACKAGE_RPC, FetchedPackage, FetchPackageRequest, LIST_COMMANDS_RPC, ListCommandsRequest, ListedCommands, RESOLVE_COMMAND_RPC, ResolveCommandRequest, ResolvedCommand } from './registry.js';
import {
  STORAGE_DELETE_RPC,
  STORAGE_GET_RPC,
  STORAGE_LIST_RPC,
  STORAGE_PUT_RPC,
  StorageDeleteReply,
  StorageDeleteRequest,
  StorageGetReply,
  StorageGetRequest,
  StorageListRequest,
  StorageListResult,
  StoragePutRequest,
  StorageWriteResult,
} from './storage.js';

/** A fact, `<entity>.<past-verb>`, published on the topic exchange. */
export interface EventContract<P extends z.ZodType = z.ZodType> {
  readonly kind: 'event';
  readonly payload: P;
}

/**
 * Work on a durable queue with competing consumers; or, `ephemeral`, the base name of
 * per-process queues (`~<name>.<uuid>`) whose names travel in messages (`reply_to`).
 */
export interface QueueContract<P extends z.ZodType = z.ZodType> {
  readonly kind: 'queue';
  readonly payload: P;
  readonly ephemeral: boolean;
}

/** A question answered over the bus: the request and its reply. */
export interface RpcContract<Q extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  readonly kind: 'rpc';
  readonly request: Q;
  readonly reply: R;
}

/**
 * A subscriber's queue: who listens, bound to the event patterns it subscribes with, not what
 * travels (each event it receives is checked against that event's schema). `ephemeral`: the base
 * name of per-process queues (`~<name>.<uuid>`) that every instance of a process binds for itself.
 */
export interface SubscriberContract {
  readonly kind: 'subscriber';
  readonly ephemeral: boolean;
}

export type BusContract = EventContract | QueueContract | RpcContract | SubscriberContract;

const event = <P extends z.ZodType>(payload: P): EventContract<P> => ({ kind: 'event', payload });
const workQueue = <P extends z.ZodType>(payload: P): QueueContract<P> => ({ kind: 'queue', payload, ephemeral: false });
const ephemeralQueue = <P extends z.ZodType>(payload: P): QueueContract<P> => ({ kind: 'queue', payload, ephemeral: true });
const rpc = <Q extends z.ZodType, R extends z.ZodType>(request: Q, reply: R): RpcContract<Q, R> => ({ kind: 'rpc', request, reply });
const subscriber = () => ({ kind: 'subscriber', ephemeral: false }) as const satisfies SubscriberContract;
const ephemeralSubscriber = () => ({ kind: 'subscriber', ephemeral: true }) as const satisfies SubscriberContract;

export const BUS_CONTRACTS = {
  // identity
  'user.registered': event(UserRegistered),
  'password.changed': event(PasswordChanged),
  'user.tier.changed': event(UserTierChanged),
  'user.developer-mode.enabled': event(DeveloperModeEnabled),
  [PRINCIPAL_RPC]: rpc(PrincipalRequest, PrincipalReply),
  [USER_PRINCIPAL_RPC]: rpc(UserPrincipalRequest, PrincipalReply),
  [MINT_ACCESS_CODE_RPC]: rpc(MintAccessCodeRequest, MintedAccessCode),
  [DEACTIVATE_ACCESS_CODE_RPC]: rpc(DeactivateAccessCodeRequest, DeactivatedAccessCode),
  [SET_USER_TIER_RPC]: rpc(SetUserTierRequest, SetUserTierReply),
  [REVOKE_SESSIONS_RPC]: rpc(RevokeSessionsRequest, RevokeSessionsReply),
  [LIST_ACCESS_CODES_RPC]: rpc(ListAccessCodesRequest, ListedAccessCodes),
  [SUBSCRIPTION_STATUS_RPC]: rpc(SubscriptionStatusRequest, SubscriptionStatusReply),
  [FIND_TENANTS_RPC]: rpc(FindTenantsRequest, FoundTenants),
  // gateway → identity
  'api-key.used': event(ApiKeysUsed),
  // registry
  'pack.published': event(PackPublished),
  'pack.installed': event(PackInstalled),
  'pack.uninstalled': event(PackUninstalled),
  'pack.installation.changed': event(PackInstallationChanged),
  'pack.installation.removed': event(PackInstallationRemoved),
  'pack.grant.changed': event(PackGrantChanged),
  [RESOLVE_COMMAND_RPC]: rpc(ResolveCommandRequest, ResolvedCommand),
  [LIST_COMMANDS_RPC]: rpc(ListCommandsRequest, ListedCommands),
  [FETCH_PACKAGE_RPC]: rpc(FetchPackageRequest, FetchedPackage),
  // execution
  'exec.fast': workQueue(ExecJob),
  'exec.medium': workQueue(ExecJob),
  'exec.long': workQueue(ExecJob),
  [EXECUTION_REPLIES]: ephemeralQueue(RunReply),
  'command.started': event(CommandStarted),
  'command.executed': event(CommandExecuted),
  'task.completed': event(TaskEnded),
  'task.failed': event(TaskEnded),
  'task.revoked': event(TaskRevoked),
  'llm.usage.reported': event(LlmUsageReported),
  [WORKER_PING_RPC]: rpc(FleetPing, FleetPong),
  // storage
  'storage.changed': event(StorageChanged),
  [STORAGE_GET_RPC]: rpc(StorageGetRequest, StorageGetReply),
  [STORAGE_PUT_RPC]: rpc(StoragePutRequest, StorageWriteResult),
  [STORAGE_DELETE_RPC]: rpc(StorageDeleteRequest, StorageDeleteReply),
  [STORAGE_LIST_RPC]: rpc(StorageListRequest, StorageListResult),
  [SECRETS_RESOLVE_RPC]: rpc(SecretsResolveRequest, SecretsResolveReply),
  // admin
  'usage.quota.exceeded': event(UsageQuotaExceeded),
  // billing
  'subscription.changed': event(SubscriptionChanged),
  'billing.event.recorded': event(BillingEventRecorded),
  // dashboard
  'dashboard.deleted': event(DashboardDeleted),
  [READ_DASHBOARD_APP_RPC]: rpc(ReadDashboardAppRequest, DashboardApp),
  // any service → notify
  'email.requested': event(EmailRequested),
  // execution worker → ssh
  [SSH_EXEC_RPC]: rpc(SshExecRequest, SshExecReply),
  // every service
  [FLEET_PING_RPC]: rpc(FleetPing, FleetPong),
  // subscribers' queues, each bound to the events its service follows
  'identity.packs': subscriber(),
  'identity.subscriptions': subscriber(),
  'identity.api-key-use': subscriber(),
  'admin.people': subscriber(),
  'admin.usage': subscriber(),
  'billing.users': subscriber(),
  'notify.emails': subscriber(),
  'notify.webhooks': subscriber(),
  'execution.broadcasts': ephemeralSubscriber(),
  'execution.pack-changes': ephemeralSubscriber(),
  'execution.schedules': subscriber(),
} as const satisfies Record<string, BusContract>;

type Contracts = typeof BUS_CONTRACTS;
export type BusName = keyof Contracts;
type NamesOf<K extends BusContract['kind']> = { [N in BusName]: Contracts[N]['kind'] extends K ? N : never }[BusName];

export type EventName = NamesOf<'event'>;
export type QueueName = NamesOf<'queue'>;
export type RpcName = NamesOf<'rpc'>;
/** Durable subscribers' queues: one per service that follows events, shared by its replicas. */
export type SubscriberName = { [N in NamesOf<'subscriber'>]: Contracts[N] extends { ephemeral: false } ? N : never }[NamesOf<'subscriber'>];
/** Bases of per-process subscribers' queues (`ephemeralQueueName`): every instance gets every event. */
export type EphemeralSubscriberName = { [N in NamesOf<'subscriber'>]: Contracts[N] extends { ephemeral: true } ? N : never }[NamesOf<'subscriber'>];

type EventSchema<N extends EventName> = Contracts[N] extends EventContract<infer P> ? P : never;
type QueueSchema<Q extends QueueName> = Contracts[Q] extends QueueContract<infer P> ? P : never;
type RpcSchemas<N extends RpcName> = Contracts[N] extends RpcContract<infer Q, infer R> ? { request: Q; reply: R } : never;

/** What a subscriber of `N` receives (after its schema's defaults and transforms). */
export type EventPayload<N extends EventName> = z.output<EventSchema<N>>;
/** What a publisher of `N` gives. */
export type EventInput<N extends EventName> = z.input<EventSchema<N>>;
export type QueuePayload<Q extends QueueName> = z.output<QueueSchema<Q>>;
export type QueueInput<Q extends QueueName> = z.input<QueueSchema<Q>>;
export type RpcRequest<N extends RpcName> = z.output<RpcSchemas<N>['request']>;
export type RpcRequestInput<N extends RpcName> = z.input<RpcSchemas<N>['request']>;
export type RpcReply<N extends RpcName> = z.output<RpcSchemas<N>['reply']>;
export type RpcReplyInput<N extends RpcName> = z.input<RpcSchemas<N>['reply']>;

/** Queues whose consumers take per-process queues named after them. */
export type EphemeralQueueName = { [Q in QueueName]: Contracts[Q] extends { ephemeral: true } ? Q : never }[QueueName];
/** Where a message of queue `Q` may be sent: its durable queue, or one of its ephemeral ones. */
export type QueueAddress<Q extends QueueName> = Q | EphemeralQueue<Q>;

/**
 * A subscription pattern: an event name, or `<prefix>.*` / `<prefix>.#` (`*` one word, `#` any
 * number), or `#`. The handler is typed for every event whose name starts with the prefix.
 */
export type EventPattern = EventName | `${string}.*` | `${string}.#` | '#';
export type EventsMatching<P extends string> = P extends EventName
  ? P
  : P extends '#'
    ? EventName
    : P extends `${infer Prefix}.*`
      ? Extract<EventName, `${Prefix}.${string}`>
      : P extends `${infer Prefix}.#`
        ? Extract<EventName, `${Prefix}.${string}`> | Extract<EventName, Prefix>
        : never;

/** The contract of `name`, or undefined for a name the map does not know. */
export function busContract(name: string): BusContract | undefined {
  return Object.hasOwn(BUS_CONTRACTS, name) ? (BUS_CONTRACTS as Record<string, BusContract>)[name] : undefined;
}

export function isEventName(name: string): name is EventName {
  return busContract(name)?.kind === 'event';
}

/** The schemas of every event, by name. */
export const EVENTS = Object.fromEntries(Object.entries(BUS_CONTRACTS).flatMap(([name, contract]) => (contract.kind === 'event' ? [[name, contract.payload]] : []))) as {
  [N in EventName]: EventSchema<N>;
};
