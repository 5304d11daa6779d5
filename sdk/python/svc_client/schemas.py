"""This file is generated from the platform's /openapi.json by sdk/typescript/scripts/generate.ts; do not edit it."""

from __future__ import annotations

from typing import Any, Optional, TypedDict, Union

Error = TypedDict("Error", {
    "success": bool,
    "error": dict[str, Any],
}, total=False)

ReducedError = TypedDict("ReducedError", {
    "success": bool,
    "error": dict[str, Any],
}, total=False)

Meta = TypedDict("Meta", {
    "request_id": str,
    "timestamp": str,
}, total=False)

Pagination = TypedDict("Pagination", {
    "total": int,
    "page": int,
    "pages": int,
    "limit": int,
    "has_next": bool,
    "has_prev": bool,
}, total=False)

Message = TypedDict("Message", {
    "message": str,
}, total=False)

Health = TypedDict("Health", {
    "status": str,
    "version": str,
    "services": dict[str, Any],
    "details": dict[str, Any],
    "timestamp": str,
}, total=False)

User = TypedDict("User", {
    "id": str,
    "email": str,
    "name": str,
    "role": str,
    "developerMode": bool,
    "subscriptionTier": str,
    "createdAt": str,
}, total=False)

CurrentUser = TypedDict("CurrentUser", {
    "id": str,
    "email": str,
    "name": str,
    "role": str,
    "developerMode": bool,
    "subscriptionTier": str,
    "createdAt": str,
    "tenantSlug": str,
    "tenantId": str,
}, total=False)

Tokens = TypedDict("Tokens", {
    "accessToken": str,
    "refreshToken": str,
    "expiresAt": int,
    "refreshExpiresAt": int,
}, total=False)

SignedIn = TypedDict("SignedIn", {
    "tokens": "Tokens",
    "user": "User",
}, total=False)

AccessCode = TypedDict("AccessCode", {
    "id": str,
    "code": Optional[str],
    "tier": str,
    "cohort": str,
    "max_uses": int,
    "use_count": int,
    "is_active": bool,
    "redeemed_by": Optional[str],
    "redeemed_at": Optional[str],
    "created_at": str,
}, total=False)

Organization = TypedDict("Organization", {
    "id": str,
    "name": str,
    "slug": str,
    "scope": str,
    "createdAt": str,
}, total=False)

OrganizationDetail = TypedDict("OrganizationDetail", {
    "id": str,
    "name": str,
    "slug": str,
    "scope": str,
    "createdAt": str,
    "members_count": int,
    "packs_count": int,
}, total=False)

Member = TypedDict("Member", {
    "id": str,
    "user_id": str,
    "email": str,
    "role": str,
    "joined_at": str,
}, total=False)

Invite = TypedDict("Invite", {
    "id": str,
    "email": str,
    "role": str,
    "expiresAt": str,
}, total=False)

NewApiKey = TypedDict("NewApiKey", {
    "id": str,
    "name": str,
    "key_prefix": str,
    "scopes": list[str],
    "created_at": str,
    "key": str,
}, total=False)

ApiKey = TypedDict("ApiKey", {
    "id": str,
    "name": str,
    "key_prefix": str,
    "scopes": list[str],
    "last_used_at": Optional[str],
    "revoked_at": Optional[str],
    "created_at": str,
}, total=False)

AccountMode = Union[dict[str, Any], dict[str, Any]]

NamespaceCheck = Union[dict[str, Any], dict[str, Any]]

OAuthError = TypedDict("OAuthError", {
    "error": str,
    "error_description": str,
    "error_uri": str,
}, total=False)

Authorization = TypedDict("Authorization", {
    "id": str,
    "client_id": str,
    "client_name": str,
    "redirect_host": str,
    "tenant": dict[str, Any],
    "scopes": list[str],
    "resource": str,
    "created_at": str,
    "last_used_at": Optional[str],
    "revoked_at": Optional[str],
}, total=False)

CommandSummary = TypedDict("CommandSummary", {
    "namespace": str,
    "name": str,
    "pack": str,
    "version": str,
    "description": str,
    "input_schema": dict[str, Any],
    "output_schema": Optional[dict[str, Any]],
    "annotations": dict[str, Any],
    "ui": Optional[dict[str, Any]],
    "output_format": str,
    "timeout": int,
    "queue": str,
    "tags": list[str],
}, total=False)

Command = TypedDict("Command", {
    "namespace": str,
    "name": str,
    "pack": str,
    "version": str,
    "description": str,
    "input_schema": dict[str, Any],
    "output_schema": Optional[dict[str, Any]],
    "annotations": dict[str, Any],
    "ui": Optional[dict[str, Any]],
    "output_format": str,
    "timeout": int,
    "queue": str,
    "tags": list[str],
    "retries": int,
    "examples": list[dict[str, Any]],
}, total=False)

PublishedPack = TypedDict("PublishedPack", {
    "id": str,
    "namespace": str,
    "name": str,
    "version": str,
    "version_id": str,
    "visibility": str,
    "description": str,
    "commands": list[str],
    "size_bytes": int,
    "sha256": str,
    "signature": Optional[dict[str, Any]],
}, total=False)

InstalledPack = TypedDict("InstalledPack", {
    "id": str,
    "name": str,
    "namespace": str,
    "version": str,
    "visibility": str,
    "commands": int,
    "installed_at": str,
    "status": str,
    "pinned": bool,
}, total=False)

Task = TypedDict("Task", {
    "task_id": str,
    "status": str,
    "result": Any,
    "error": Optional[dict[str, Any]],
    "started_at": Optional[str],
    "completed_at": Optional[str],
    "correlation_id": str,
    "progress": Optional[dict[str, Any]],
    "logs": list[dict[str, Any]],
}, total=False)

JsonRpcResponse = Union[dict[str, Any], dict[str, Any]]

Schedule = TypedDict("Schedule", {
    "id": str,
    "command": str,
    "input": dict[str, Any],
    "cron": str,
    "timezone": str,
    "enabled": bool,
    "overlap": str,
    "catch_up": str,
    "description": str,
    "paused_reason": Optional[str],
    "next_run_at": Optional[str],
    "last_run_at": Optional[str],
    "last_task_id": Optional[str],
    "missed_ticks": int,
    "skipped_ticks": int,
    "proposed_by": Optional[str],
    "created_by": str,
    "created_at": str,
    "updated_at": str,
}, total=False)

ScheduleRun = TypedDict("ScheduleRun", {
    "task_id": str,
    "status": str,
    "result": Any,
    "error": Optional[dict[str, Any]],
    "started_at": Optional[str],
    "completed_at": Optional[str],
    "correlation_id": str,
    "progress": Optional[dict[str, Any]],
    "logs": list[dict[str, Any]],
    "scheduled_for": Optional[str],
    "created_at": str,
}, total=False)

Secret = TypedDict("Secret", {
    "name": str,
    "created_at": str,
    "updated_at": str,
}, total=False)

StorageEntry = TypedDict("StorageEntry", {
    "key": str,
    "value": dict[str, Any],
    "created_at": str,
    "expires_at": Optional[str],
}, total=False)

StorageWrite = TypedDict("StorageWrite", {
    "key": str,
    "created": bool,
    "expires_at": Optional[str],
}, total=False)

UsageSummary = TypedDict("UsageSummary", {
    "period": str,
    "tenant_id": str,
    "usage": dict[str, Any],
    "limits": dict[str, Any],
    "percentage_used": dict[str, Any],
}, total=False)

UsageDashboard = TypedDict("UsageDashboard", {
    "current_period": dict[str, Any],
    "usage": dict[str, Any],
    "subscription": dict[str, Any],
}, total=False)

AdminUser = TypedDict("AdminUser", {
    "user_id": str,
    "tenant_id": str,
    "email": str,
    "tier": str,
    "cohort": str,
    "created_at": str,
    "subscription_status": Optional[str],
    "payment_customer_id_present": bool,
}, total=False)

AuditEntry = TypedDict("AuditEntry", {
    "id": str,
    "at": str,
    "actor_id": str,
    "actor_role": str,
    "action": str,
    "target": Optional[str],
    "outcome": str,
    "correlation_id": Optional[str],
}, total=False)

AdminAccessCode = TypedDict("AdminAccessCode", {
    "id": str,
    "kind": str,
    "tier": str,
    "cohort": str,
    "max_uses": int,
    "use_count": int,
    "is_active": bool,
    "redeemed_by": Optional[str],
    "redeemed_at": Optional[str],
    "expires_at": Optional[str],
    "created_at": str,
}, total=False)

UsageMonth = TypedDict("UsageMonth", {
    "period": str,
    "commands_executed": int,
    "commands_succeeded": int,
    "commands_failed": int,
    "execution_time_seconds": float,
    "storage_operations": int,
    "peak_storage_bytes": int,
}, total=False)

Plan = TypedDict("Plan", {
    "id": str,
    "name": str,
    "price": int,
    "interval": Optional[str],
    "limits": dict[str, Any],
    "features": list[str],
}, total=False)

BillingStatus = TypedDict("BillingStatus", {
    "subscription_tier": str,
    "payment_customer_id": Optional[str],
    "cohort": str,
    "status": Optional[str],
    "grace_ends_at": Optional[str],
    "current_period_end": Optional[str],
}, total=False)

RegistrationSession = TypedDict("RegistrationSession", {
    "status": str,
    "code": str,
    "email": str,
}, total=False)

Webhook = TypedDict("Webhook", {
    "id": str,
    "url": str,
    "events": list[str],
    "description": str,
    "status": str,
    "failing_since": Optional[str],
    "disabled_at": Optional[str],
    "created_at": str,
}, total=False)

CreatedWebhook = TypedDict("CreatedWebhook", {
    "id": str,
    "url": str,
    "events": list[str],
    "description": str,
    "status": str,
    "failing_since": Optional[str],
    "disabled_at": Optional[str],
    "created_at": str,
    "secret": str,
}, total=False)

WebhookDelivery = TypedDict("WebhookDelivery", {
    "id": str,
    "webhook_id": str,
    "event_id": str,
    "event_type": str,
    "status": str,
    "attempts": int,
    "response_code": Optional[int],
    "latency_ms": Optional[int],
    "last_error": Optional[str],
    "next_attempt_at": Optional[str],
    "created_at": str,
    "delivered_at": Optional[str],
    "attempt_log": list[dict[str, Any]],
}, total=False)

WebhookEvent = TypedDict("WebhookEvent", {
    "id": str,
    "type": str,
    "timestamp": str,
    "data": dict[str, Any],
}, total=False)

Dashboard = TypedDict("Dashboard", {
    "id": str,
    "slug": str,
    "name": str,
    "description": str,
    "version": Optional[str],
    "entryPoint": Optional[str],
    "minSdkVersion": Optional[str],
    "scope": str,
    "category": Optional[str],
    "visibility": str,
    "packDependencies": list[dict[str, Any]],
    "created_at": str,
}, total=False)

DashboardVersion = TypedDict("DashboardVersion", {
    "id": str,
    "dashboard_id": str,
    "version": str,
    "entry_point": str,
    "min_sdk_version": str,
    "bundle_size_bytes": int,
    "is_active": bool,
    "created_at": str,
}, total=False)

DashboardViewToken = TypedDict("DashboardViewToken", {
    "token": str,
    "dashboard_id": str,
    "version": Optional[str],
    "base_url": Optional[str],
    "entryPoint": Optional[str],
    "expires_at": str,
}, total=False)

DashboardShare = TypedDict("DashboardShare", {
    "id": str,
    "dashboard_id": str,
    "token": str,
    "url": str,
    "expires_at": Optional[str],
    "created_at": str,
}, total=False)

SshTarget = TypedDict("SshTarget", {
    "id": str,
    "name": str,
    "host": str,
    "port": int,
    "username": str,
    "auth_method": str,
    "known_hosts": Optional[str],
    "has_credentials": bool,
    "created_at": str,
    "updated_at": str,
}, total=False)

# The fields each schema requires.
REQUIRED: dict[str, tuple[str, ...]] = {
    "Error": ("success", "error",),
    "ReducedError": ("success", "error",),
    "Meta": ("request_id", "timestamp",),
    "Pagination": ("total", "page", "pages", "limit", "has_next", "has_prev",),
    "Message": ("message",),
    "Health": ("status", "version", "services", "timestamp",),
    "User": ("id", "email", "name", "role", "developerMode", "subscriptionTier", "createdAt",),
    "CurrentUser": ("id", "email", "name", "role", "developerMode", "subscriptionTier", "createdAt", "tenantSlug", "tenantId",),
    "Tokens": ("accessToken", "refreshToken", "expiresAt", "refreshExpiresAt",),
    "SignedIn": ("tokens", "user",),
    "AccessCode": ("id", "code", "tier", "cohort", "max_uses", "use_count", "is_active", "redeemed_by", "redeemed_at", "created_at",),
    "Organization": ("id", "name", "slug", "scope", "createdAt",),
    "OrganizationDetail": ("id", "name", "slug", "scope", "createdAt", "members_count", "packs_count",),
    "Member": ("id", "user_id", "email", "role", "joined_at",),
    "Invite": ("id", "email", "role", "expiresAt",),
    "NewApiKey": ("id", "name", "key_prefix", "scopes", "created_at", "key",),
    "ApiKey": ("id", "name", "key_prefix", "scopes", "last_used_at", "revoked_at", "created_at",),
    "OAuthError": ("error",),
    "Authorization": ("id", "client_id", "client_name", "redirect_host", "tenant", "scopes", "resource", "created_at", "last_used_at", "revoked_at",),
    "CommandSummary": ("namespace", "name", "pack", "version", "description", "input_schema", "output_schema", "annotations", "ui", "output_format", "timeout", "queue", "tags",),
    "Command": ("namespace", "name", "pack", "version", "description", "input_schema", "output_schema", "annotations", "ui", "output_format", "timeout", "queue", "tags", "retries", "examples",),
    "PublishedPack": ("id", "namespace", "name", "version", "version_id", "visibility", "description", "commands", "size_bytes", "sha256", "signature",),
    "InstalledPack": ("id", "name", "namespace", "version", "visibility", "commands", "installed_at", "status", "pinned",),
    "Task": ("task_id", "status", "result", "error", "started_at", "completed_at", "correlation_id", "progress", "logs",),
    "Schedule": ("id", "command", "input", "cron", "timezone", "enabled", "overlap", "catch_up", "description", "paused_reason", "next_run_at", "last_run_at", "last_task_id", "missed_ticks", "skipped_ticks", "proposed_by", "created_by", "created_at", "updated_at",),
    "ScheduleRun": ("task_id", "status", "result", "error", "started_at", "completed_at", "correlation_id", "progress", "logs", "scheduled_for", "created_at",),
    "Secret": ("name", "created_at", "updated_at",),
    "StorageEntry": ("key", "value", "created_at", "expires_at",),
    "StorageWrite": ("key", "created", "expires_at",),
    "UsageSummary": ("period", "tenant_id", "usage", "limits", "percentage_used",),
    "UsageDashboard": ("current_period", "usage", "subscription",),
    "AdminUser": ("user_id", "tenant_id", "email", "tier", "cohort", "created_at", "subscription_status", "payment_customer_id_present",),
    "AuditEntry": ("id", "at", "actor_id", "actor_role", "action", "target", "outcome", "correlation_id",),
    "AdminAccessCode": ("id", "kind", "tier", "cohort", "max_uses", "use_count", "is_active", "redeemed_by", "redeemed_at", "expires_at", "created_at",),
    "UsageMonth": ("period", "commands_executed", "commands_succeeded", "commands_failed", "execution_time_seconds", "storage_operations", "peak_storage_bytes",),
    "Plan": ("id", "name", "price", "interval", "limits", "features",),
    "BillingStatus": ("subscription_tier", "payment_customer_id", "cohort", "status", "grace_ends_at", "current_period_end",),
    "RegistrationSession": ("status",),
    "Webhook": ("id", "url", "events", "description", "status", "failing_since", "disabled_at", "created_at",),
    "CreatedWebhook": ("id", "url", "events", "description", "status", "failing_since", "disabled_at", "created_at", "secret",),
    "WebhookDelivery": ("id", "webhook_id", "event_id", "event_type", "status", "attempts", "response_code", "latency_ms", "last_error", "next_attempt_at", "created_at", "delivered_at", "attempt_log",),
    "WebhookEvent": ("id", "type", "timestamp", "data",),
    "Dashboard": ("id", "slug", "name", "description", "version", "entryPoint", "minSdkVersion", "scope", "category", "visibility", "packDependencies", "created_at",),
    "DashboardVersion": ("id", "dashboard_id", "version", "entry_point", "min_sdk_version", "bundle_size_bytes", "is_active", "created_at",),
    "DashboardViewToken": ("token", "dashboard_id", "version", "base_url", "entryPoint", "expires_at",),
    "DashboardShare": ("id", "dashboard_id", "token", "url", "expires_at", "created_at",),
    "SshTarget": ("id", "name", "host", "port", "username", "auth_method", "known_hosts", "has_credentials", "created_at", "updated_at",),
}
