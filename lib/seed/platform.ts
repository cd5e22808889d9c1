// Demo users, groups and projects. Filled in by the namespaces work.
export async function seedPlatformDemo(): Promise<void> {}
