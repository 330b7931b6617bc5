// Django's CSRF token, from its cookie. Pages are rendered once for every learner (they carry
// no token of their own), and the server sets this cookie with the page.
export function csrfToken(): string {
  const cookie = document.cookie.split("; ").find((part) => part.startsWith("csrftoken="));
  return cookie ? decodeURIComponent(cookie.slice("csrftoken=".length)) : "";
}
