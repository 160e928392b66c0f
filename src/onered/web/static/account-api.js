// The account pages' requests: the session cookie goes by itself; a change also sends the
// session's CSRF token (the readable onered_csrf cookie) in X-CSRF-Token.
import { ApiError, I } from "./common.js";

/** The session's CSRF token (empty when signed out). */
export function csrfToken() {
  const found = document.cookie.split(";").map((c) => c.trim()).find((c) => c.startsWith("onered_csrf="));
  return found ? decodeURIComponent(found.slice("onered_csrf=".length)) : "";
}

/** A request's answer as JSON (null for 204); an error answer is thrown as ApiError. */
export async function send(method, path, body) {
  const headers = { "Accept-Language": I.lang };
  if (method !== "GET") headers["X-CSRF-Token"] = csrfToken();
  const init = { method, headers, credentials: "same-origin" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, String((e && e.message) || e), "network");
  }
  let data = null;
  if (response.status !== 204) {
    try { data = await response.json(); } catch (e) { data = null; }
  }
  if (!response.ok) {
    const message = (data && (data.message || data.error)) || `${response.status}`;
    throw new ApiError(response.status, message, (data && data.code) || null, (data && data.params) || null);
  }
  return data;
}

/** Who is signed in: {account, club, csrf_token} (account null when nobody). */
export function me() {
  return send("GET", "/api/account/me");
}

/** A form's fields as an object (empty ones left out). */
export function fields(form) {
  const out = {};
  for (const [k, v] of new FormData(form).entries()) if (v !== "") out[k] = v;
  return out;
}
