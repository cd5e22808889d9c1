// Demo runners: written by the runners work.
export async function seedRunnersDemo(): Promise<void> {}
