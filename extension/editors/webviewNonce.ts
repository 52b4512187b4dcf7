import { randomBytes } from 'node:crypto';

/** A fresh nonce for a webview page's Content-Security-Policy (one per page load). */
export function webviewNonce(): string {
  return randomBytes(16).toString('hex');
}
