import { z } from 'zod';
import { SSH_CREDENTIAL_MAX_BYTES, SshTarget, SshTargetCreateBody, SshTargetParams, SshTargetUpdateBody, SshVerifyResult } from '@svc/contracts';
import { componentSchemas, errorResponse, fromZod, jsonBody, jsonResponse, pathParameter, type OpenApiFragment } from '@svc/openapi';

const id = pathParameter('id', fromZod(SshTargetParams.shape.id), 'The target\'s id.');
const badId = errorResponse('`VALIDATION_FAILED`: the id is not a uuid.');
const missing = errorResponse('`NOT_FOUND` ("SSH target not found"): no such target in the caller\'s tenant (another tenant\'s targets are not found either).');
const connectionFailed = errorResponse(
  '`SSH_CONNECTION_FAILED` ("connection failed"): the host did not answer as an SSH server (`details.reason`: refused, unreachable, timeout, protocol), or it is, or now resolves to, an address targets may not use (`address_refused`: nothing was connected to).',
);
const badBody = errorResponse(
  `\`VALIDATION_FAILED\` naming \`details.field\`: a malformed field, a missing credential for \`auth_method\`, a private key ssh cannot read or one encrypted with a passphrase (\`details.reason: encrypted_key\`), a credential over ${SSH_CREDENTIAL_MAX_BYTES} bytes, a \`known_hosts\` that is not one valid line. \`SSH_HOST_REFUSED\` (\`details.field: host\`): the host is, or resolves to, a loopback, private, shared, link-local (cloud metadata), multicast or reserved address; targets must be on public addresses unless the operator allows a range.`,
);
const nameTaken = errorResponse('`CONFLICT`: the tenant has a target of that name already.');

/** SSH targets of the caller's tenant: bodies are bare, not wrapped in `data` (Part 2). */
export const sshOpenApi: OpenApiFragment = {
  service: 'ssh',
  tags: [{ name: 'SSH targets', description: 'Hosts packs may run commands on (`ctx.ssh.exec`), with write-only credentials sealed at rest; trust on first use through `verify`.' }],
  schemas: componentSchemas(SshTarget),
  paths: {
    '/api/v1/ssh/targets': {
      get: {
        operationId: 'listSshTargets',
        summary: 'The tenant\'s targets, by name',
        tags: ['SSH targets'],
        responses: { 200: jsonResponse('The targets (bare array).', z.array(SshTarget)) },
      },
      post: {
        operationId: 'createSshTarget',
        summary: 'Register a target',
        description: '`private_key` (RSA, Ed25519 or ECDSA; OpenSSH, PEM or PKCS#8 PEM; no passphrase) with `auth_method: key`, `password` with `auth_method: password`. Without `known_hosts`, verify the target and store the line before packs can use it.',
        tags: ['SSH targets'],
        requestBody: jsonBody(fromZod(SshTargetCreateBody), 'The target and its credential.'),
        responses: { 201: jsonResponse('Created (bare).', SshTarget), 400: badBody, 409: nameTaken },
      },
    },
    '/api/v1/ssh/targets/{id}': {
      get: {
        operationId: 'getSshTarget',
        summary: 'One target',
        tags: ['SSH targets'],
        parameters: [id],
        responses: { 200: jsonResponse('The target (bare).', SshTarget), 400: badId, 404: missing },
      },
      put: {
        operationId: 'updateSshTarget',
        summary: 'Change a target',
        description: 'Any mutable field; a credential sent replaces the stored one (switching `auth_method` needs the new one); `known_hosts: null` forgets the trusted key.',
        tags: ['SSH targets'],
        parameters: [id],
        requestBody: jsonBody(fromZod(SshTargetUpdateBody), 'The fields to change.'),
        responses: { 200: jsonResponse('The target as changed (bare).', SshTarget), 400: badBody, 404: missing, 409: nameTaken },
      },
      delete: {
        operationId: 'deleteSshTarget',
        summary: 'Remove a target and its sealed credential',
        tags: ['SSH targets'],
        parameters: [id],
        responses: { 204: { description: 'Removed; no body.' }, 400: badId, 404: missing },
      },
    },
    '/api/v1/ssh/targets/{id}/verify': {
      post: {
        operationId: 'verifySshTarget',
        summary: 'Connect without checking the host key and show its fingerprint',
        description: 'Trust on first use: compare the fingerprint with the server\'s own (`ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub`), then store its `known_hosts` line with PUT.',
        tags: ['SSH targets'],
        parameters: [id],
        responses: {
          200: jsonResponse('`connected`: whether the credential was accepted; `fingerprint`: `SHA256:` and the unpadded base64 of the host key\'s SHA-256.', SshVerifyResult),
          400: badId,
          404: missing,
          502: connectionFailed,
        },
      },
    },
  },
};
