// Gitlab::UrlSanitizer#masked_url: credentials in an import URL are never shown.
export function maskedUrl(url: string | null): string | null {
  if (!url) return url;
  try {
    const u = new URL(url);
    if (u.username) u.username = '*****';
    if (u.password) u.password = '*****';
    return u.toString();
  } catch {
    return url;
  }
}
