/**
 * Settings that are allowed but open a hole an operator may not have meant to open: each one is
 * a warning line at start (the structured log, beside "service started"), so it is seen where the
 * start is read instead of being found by an attacker.
 */
export interface WarnedSettings {
  /** The effective TRUST_PROXY (server/app.ts). */
  readonly trustProxy: boolean;
  /** METRICS_TOKEN is set; GET /metrics is served either way. */
  readonly metricsToken: boolean;
  /** The demo workspace exists and its API key is printed at start. */
  readonly demoKeyPrinted: boolean;
}

export interface SettingWarning {
  readonly setting: string;
  readonly message: string;
}

export function settingWarnings(settings: WarnedSettings): SettingWarning[] {
  const warnings: SettingWarning[] = [];
  if (settings.trustProxy) {
    warnings.push({ setting: 'TRUST_PROXY', message: 'TRUST_PROXY=true: X-Forwarded-* headers are believed, so client addresses in logs and rate limits are whatever the caller sends; set it only behind a proxy that overwrites them' });
  }
  if (!settings.metricsToken) {
    warnings.push({ setting: 'METRICS_TOKEN', message: 'GET /metrics is open to anyone who can reach this port: set METRICS_TOKEN to require a bearer token' });
  }
  if (settings.demoKeyPrinted) {
    warnings.push({ setting: 'DEMO', message: 'the demo workspace is on and its API key, printed at start, is live: set DEMO=0 and delete the demo organization before exposing this instance' });
  }
  return warnings;
}
