/**
 * The HTML of the authorization endpoint: the login page, the consent page and the error pages.
 * Server-rendered forms, no script. Every interpolated value goes through `escapeHtml`; the one
 * inline stylesheet is allowed by its hash in the Content-Security-Policy, so no inline script or
 * injected style could run even if escaping were missed.
 */
import { createHash } from 'node:crypto';
import { escapeHtml as esc, pageHeaders, type Outgoing } from './http.js';

const CSS =
  'body{font:16px/1.5 system-ui,sans-serif;color:#1d1d1f;background:#f5f5f7;margin:0}' +
  'main{max-width:26em;margin:4em auto;padding:2em;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}' +
  'h1{font-size:1.4em;margin:0 0 .5em}label{display:block;margin:1em 0 .25em;font-weight:600}' +
  'input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:.6em;font:inherit;border:1px solid #bbb;border-radius:6px}' +
  'button{font:inherit;padding:.6em 1.4em;border-radius:6px;border:1px solid #0a60d0;background:#0a66e4;color:#fff;margin:1.2em .5em 0 0;cursor:pointer}' +
  'button.secondary{background:#fff;color:#0a66e4}ul{padding-left:1.2em}.error{color:#b00020}.muted{color:#666;font-size:.9em}';

const STYLE_HASH = `'sha256-${createHash('sha256').update(CSS).digest('base64')}'`;

/**
 * The page's Content-Security-Policy. `form-action` must also allow the client's origin on the
 * consent page: browsers apply it to the redirect that follows the form's POST.
 */
function csp(formTarget?: string): string {
  const formAction = formTarget ? `'self' ${formTarget}` : "'self'";
  return `default-src 'none'; style-src ${STYLE_HASH}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`;
}

function page(status: number, title: string, body: string, options: { formTarget?: string; headers?: Record<string, string>; cookies?: string[] } = {}): Outgoing {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${esc(title)} · Refrain</title><style>${CSS}</style></head><body><main>
${body}
</main></body></html>`;
  return { status, headers: { ...pageHeaders(csp(options.formTarget)), ...options.headers }, cookies: options.cookies ?? [], body: html };
}

/** What each scope lets the client do, as the consent page says it. */
const SCOPE_TEXT: Record<string, string> = {
  openid: 'confirm who you are',
  profile: 'see your name',
  email: 'see your e-mail address',
  'catalog:read': 'read the lyrics and catalog API on your behalf',
  fingerprint: 'screen texts against the lyrics catalog on your behalf',
  'works:write': 'submit publishing data for musical works on your behalf',
  'contributions:write': 'propose lyrics and report wrong lyrics on your behalf',
  'feeds:read': 'download the catalog feeds on your behalf',
};

const hidden = (fields: Record<string, string>): string =>
  Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${esc(name)}" value="${esc(value)}">`)
    .join('');

export interface LoginView {
  clientName: string;
  csrf: string;
  requestId: string;
  failed: boolean;
  cookies?: string[];
}

export function loginPage(view: LoginView): Outgoing {
  return page(
    200,
    'Sign in',
    `<h1>Sign in</h1>
<p><strong>${esc(view.clientName)}</strong> asks you to sign in with your Refrain account.</p>
${view.failed ? '<p class="error" role="alert">The e-mail address or the password is wrong.</p>' : ''}
<form method="post" action="login">${hidden({ csrf: view.csrf, request: view.requestId })}
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
    { cookies: view.cookies },
  );
}

export interface ConsentView {
  clientName: string;
  redirectUri: string;
  scopes: string[];
  userName: string;
  userEmail: string;
  csrf: string;
  requestId: string;
  cookies?: string[];
}

export function consentPage(view: ConsentView): Outgoing {
  const target = new URL(view.redirectUri);
  const items = view.scopes.map((s) => `<li>${esc(SCOPE_TEXT[s] ?? s)} <span class="muted">(${esc(s)})</span></li>`).join('');
  return page(
    200,
    'Allow access',
    `<h1>Allow ${esc(view.clientName)}?</h1>
<p>Signed in as ${esc(view.userName)} &lt;${esc(view.userEmail)}&gt;.</p>
<p><strong>${esc(view.clientName)}</strong> would like to:</p>
<ul>${items}</ul>
<form method="post" action="consent">${hidden({ csrf: view.csrf, request: view.requestId })}
<button type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>
<p class="muted">You will be sent back to ${esc(target.host)}.</p>`,
    { formTarget: target.origin, cookies: view.cookies },
  );
}

/** An error page: the request cannot go back to the client (unknown client, bad redirect URI, expired session…). */
export function errorPage(status: number, title: string, detail: string, headers?: Record<string, string>): Outgoing {
  return page(status, title, `<h1>${esc(title)}</h1>\n<p>${esc(detail)}</p>`, { headers });
}
