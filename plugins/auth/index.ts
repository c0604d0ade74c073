export type { AuthPlugin, AuthRequest, Principal } from './shared/auth-plugin.ts';
export { apiKeyPlugin, issueApiKey, verifyApiKey } from './api-key/api-key-plugin.ts';
export { adminTokenPlugin } from './admin-token/admin-token-plugin.ts';
export { hashSecret, randomToken } from './shared/secrets.ts';
