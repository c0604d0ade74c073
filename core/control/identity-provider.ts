/** PUT of a workspace's external identity provider (spec "External identity provider configuration"). */
import { validationFailed, type FieldProblem } from '../errors.ts';
import { outboundUrlProblem, resolvedHostProblem } from '../outbound-address.ts';
import { PayloadReader } from '../payload.ts';
import type { ExternalPermissions, IdentityProviderConfig } from '../workspace/types.ts';

const PERMISSIONS: readonly ExternalPermissions[] = ['READ_ONLY', 'READ_WRITE'];

function checkUrl(reader: PayloadReader, field: string, url: string | undefined, allowPrivate: boolean): void {
  const problem = url === undefined ? null : outboundUrlProblem(url, allowPrivate);
  if (problem) reader.fail(field, 'url', problem);
}

/**
 * Reads the payload; the URLs the service will fetch follow the private-address rule
 * (core/outbound-address.ts), `allowPrivate` being IDP_ALLOW_PRIVATE.
 */
export function readIdentityProvider(body: unknown, allowPrivate: boolean): IdentityProviderConfig {
  const reader = new PayloadReader(body, ['issuerUrl', 'jwksUri', 'audience', 'defaultPermissions', 'enabled']);
  // The issuer is kept exactly as given: it must equal the tokens' `iss`, trailing slash included.
  const issuerUrl = reader.string('issuerUrl', { required: true });
  checkUrl(reader, 'issuerUrl', issuerUrl, allowPrivate);
  const jwksUri = reader.body.jwksUri === null || reader.body.jwksUri === '' ? undefined : reader.string('jwksUri');
  checkUrl(reader, 'jwksUri', jwksUri, allowPrivate);
  const audience = reader.body.audience === null || reader.body.audience === '' ? undefined : reader.string('audience');
  const permissions = reader.string('defaultPermissions', { required: true });
  if (permissions && !PERMISSIONS.includes(permissions as ExternalPermissions)) reader.fail('defaultPermissions', 'enum', `must be one of ${PERMISSIONS.join(', ')}`);
  const enabled = reader.boolean('enabled', true);
  reader.done();
  return {
    issuerUrl: issuerUrl ?? '',
    jwksUri: jwksUri ?? null,
    audience: audience ?? null,
    defaultPermissions: permissions as ExternalPermissions,
    enabled: enabled ?? false,
  };
}

export const NO_AUDIENCE_WARNING = "no audience is configured: any token this identity provider issues, for any application, is accepted; set audience to this API's identifier";

/** What is saved but open wider than an owner may think (an enabled provider without an audience). */
export function identityProviderWarnings(config: IdentityProviderConfig): string[] {
  return config.enabled && config.audience === null ? [NO_AUDIENCE_WARNING] : [];
}

/** The host names of the configuration, resolved: one that points at a non-public address is refused at save. */
export async function refusePrivateHosts(config: IdentityProviderConfig, allowPrivate: boolean): Promise<void> {
  const urls: [string, string | null][] = [['issuerUrl', config.issuerUrl], ['jwksUri', config.jwksUri]];
  const problems: FieldProblem[] = [];
  for (const [field, url] of urls) {
    const problem = url === null ? null : await resolvedHostProblem(url, allowPrivate);
    if (problem) problems.push({ field, rule: 'url', message: problem });
  }
  if (problems.length > 0) throw validationFailed(problems);
}
